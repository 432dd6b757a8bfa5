#!/usr/bin/env bash
# expect_same.sh -- COMMAND...: runs COMMAND twice; passes when both runs exit 0 and print exactly
# the same thing (a reproducible lab or run).
set -u
shift 1
first=$("$@" 2>&1) || { printf 'first run failed:\n%s\n' "$first"; exit 1; }
second=$("$@" 2>&1) || { printf 'second run failed:\n%s\n' "$second"; exit 1; }
if [ "$first" != "$second" ]; then
  diff <(printf '%s\n' "$first") <(printf '%s\n' "$second") | head -20
  exit 1
fi
