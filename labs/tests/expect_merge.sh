#!/usr/bin/env bash
# expect_merge.sh COMMITLAB N ARGS...: runs `COMMITLAB ARGS --json` once, then ARGS as N shards
# (--json --shard I/N, I = 0..N-1; a hunt's shards list each run only with --json), merges the shards with `COMMITLAB merge`, and passes when the merged
# report equals the unsharded one field for field (JSON values; timings are not in either) and
# both exit alike. Run from the project root (scenario paths are relative to it).
set -u
cl=$1 n=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$cl" "$@" --json >"$dir/whole.json" 2>"$dir/whole.err"
whole=$?
[ "$whole" -le 1 ] || { echo "the unsharded run exited $whole:"; cat "$dir/whole.err"; exit 1; }
files=()
for ((i = 0; i < n; i++)); do
  "$cl" "$@" --json --shard "$i/$n" >"$dir/shard-$i.json" 2>"$dir/shard-$i.err"
  code=$?
  [ "$code" -le 1 ] || { echo "shard $i/$n exited $code:"; cat "$dir/shard-$i.err"; exit 1; }
  files+=("$dir/shard-$i.json")
done
# The shards in another order than their numbers: merge sorts them.
"$cl" merge $(printf '%s\n' "${files[@]}" | sort -r) >"$dir/merged.json" 2>"$dir/merged.err"
merged=$?
[ "$merged" -le 1 ] || { echo "merge exited $merged:"; cat "$dir/merged.err"; exit 1; }
[ "$whole" = "$merged" ] || { echo "the unsharded run exited $whole, the merge $merged"; exit 1; }
python3 "$(dirname "$0")/json_same.py" "$dir/whole.json" "$dir/merged.json"
