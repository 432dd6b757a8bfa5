#!/usr/bin/env bash
# expect_run.sh CODE REGEX [--no-path PATH] -- COMMAND...: runs COMMAND, passes when it exits with
# CODE and its stdout+stderr match the extended regex REGEX (which may span lines); with
# --no-path, also when the absolute path PATH appears nowhere in that output.
set -u
want=$1 regex=$2 path=
shift 2
if [ "${1-}" = --no-path ]; then
  path=$2
  shift 2
fi
shift 1
out=$("$@" 2>&1)
got=$?
if [ "$got" -ne "$want" ]; then
  printf 'exit code %s, expected %s; output:\n%s\n' "$got" "$want" "$out"
  exit 1
fi
if ! printf '%s' "$out" | tr '\n' ' ' | grep -Eq -- "$regex"; then
  printf 'output does not match /%s/:\n%s\n' "$regex" "$out"
  exit 1
fi
if [ -n "$path" ] && printf '%s' "$out" | grep -qF -- "$path"; then
  printf 'output shows the absolute path %s:\n%s\n' "$path" "$(printf '%s' "$out" | grep -F -- "$path" | head -5)"
  exit 1
fi
