#!/usr/bin/env bash
# golden_json.sh CODE GOLDEN -- COMMAND...: runs COMMAND (a command with --json) and passes when
# it exits with CODE and prints byte for byte what GOLDEN holds. The build's version and git
# commit ("commitlab":{...}) are not compared: they change with every commit, the results must not.
# With GOLDEN_WRITE=1 it records GOLDEN instead (only for a deliberate change of what is computed).
set -u
want=$1 golden=$2
shift 3
strip() { sed -E 's/"commitlab":\{[^}]*\},//'; }
out=$("$@" 2>&1)
got=$?
if [ "$got" -ne "$want" ]; then
  printf 'exit code %s, expected %s; output:\n%s\n' "$got" "$want" "$out"
  exit 1
fi
if [ "${GOLDEN_WRITE-}" = 1 ]; then
  printf '%s\n' "$out" | strip > "$golden" && printf 'recorded %s\n' "$golden"
  exit $?
fi
if ! printf '%s\n' "$out" | strip | cmp -s - "$golden"; then
  printf 'the output differs from %s:\n' "$golden"
  printf '%s\n' "$out" | strip | diff <(python3 -m json.tool "$golden") <(python3 -m json.tool) | head -40
  exit 1
fi
printf 'same as %s\n' "$golden"
