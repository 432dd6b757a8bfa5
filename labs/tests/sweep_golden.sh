#!/usr/bin/env bash
# sweep_golden.sh GOLDEN -- COMMAND...: runs COMMAND (a `commitlab sweep ... --json`) and passes
# when its rows are byte for byte those recorded in GOLDEN. The build's version and git commit
# ("commitlab":{...}) are not compared: they change with every commit, the rows must not.
# With SWEEP_GOLDEN_WRITE=1 it records GOLDEN instead (only for a deliberate change of the model).
set -u
golden=$1
shift 2
strip() { sed -E 's/"commitlab":\{[^}]*\},//'; }
out=$("$@" 2>&1)
got=$?
if [ "$got" -ne 0 ]; then
  printf 'exit code %s, expected 0; output:\n%s\n' "$got" "$out"
  exit 1
fi
if [ "${SWEEP_GOLDEN_WRITE-}" = 1 ]; then
  printf '%s\n' "$out" | strip > "$golden" && printf 'recorded %s\n' "$golden"
  exit $?
fi
if ! printf '%s\n' "$out" | strip | cmp -s - "$golden"; then
  printf 'the sweep'\''s rows differ from %s:\n' "$golden"
  printf '%s\n' "$out" | strip | diff <(python3 -m json.tool "$golden") <(python3 -m json.tool) | head -40
  exit 1
fi
printf 'same rows as %s\n' "$golden"
