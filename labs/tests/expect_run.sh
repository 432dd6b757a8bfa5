#!/usr/bin/env bash
# expect_run.sh CODE REGEX -- COMMAND...: runs COMMAND, passes when it exits with CODE and its
# stdout+stderr match the extended regex REGEX (which may span lines).
set -u
want=$1 regex=$2
shift 3
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
