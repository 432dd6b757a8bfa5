#!/usr/bin/env bash
# expect_no_path.sh CODE REGEX PATH -- COMMAND...: runs COMMAND; passes when it exits with CODE,
# its output matches the extended regex REGEX, and the absolute path PATH appears nowhere in it.
set -u
want=$1 regex=$2 path=$3
shift 4
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
if printf '%s' "$out" | grep -qF -- "$path"; then
  printf 'output shows the absolute path %s:\n%s\n' "$path" "$(printf '%s' "$out" | grep -F -- "$path" | head -5)"
  exit 1
fi
