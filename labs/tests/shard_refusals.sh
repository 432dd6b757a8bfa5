#!/usr/bin/env bash
# shard_refusals.sh COMMITLAB: `commitlab merge` refuses, exit 2, naming the file: a missing
# shard, a duplicated one, one of other flags, of another scenario, of another build, and a file
# cut short.
set -u
cl=$(realpath "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
expect() {  # expect REGEX FILE...: merge exits 2 and says REGEX
  local regex=$1 out code
  shift
  out=$("$cl" merge "$@" 2>&1)
  code=$?
  if [ "$code" != 2 ] || ! grep -Eq -- "$regex" <<<"$out"; then
    echo "merge $*: exit $code, expected 2 and /$regex/:"
    echo "$out"
    fail=1
  fi
}
hunt=(race --sched random --seeds 1..9)
for i in 0 1 2; do "$cl" "${hunt[@]}" --shard "$i/3" >"$dir/$i.json"; done
"$cl" "${hunt[@]}" --commits 5 --shard 2/3 >"$dir/other-flags.json"
"$cl" run scenarios/paimon_race.scn --seeds 1..9 --shard 2/3 >"$dir/other-command.json"
"$cl" run scenarios/paimon_race.scn --seeds 1..9 --shard 0/3 >"$dir/run0.json"
"$cl" run scenarios/paimon_race.scn --seeds 1..9 --shard 1/3 >"$dir/run1.json"
# The same file name, another scenario inside it.
mkdir -p "$dir/other/scenarios"
sed 's/^title .*/title "Another race"/' scenarios/paimon_race.scn >"$dir/other/scenarios/paimon_race.scn"
(cd "$dir/other" && "$cl" run scenarios/paimon_race.scn --seeds 1..9 --shard 2/3) >"$dir/other-scenario.json"
sed 's/"git":"[^"]*"/"git":"0000000"/' "$dir/2.json" >"$dir/other-build.json"
head -c 100 "$dir/2.json" >"$dir/cut.json"
"$cl" "${hunt[@]}" --shard 2/4 >"$dir/other-count.json"

expect "shard 2/3 is missing" "$dir/0.json" "$dir/1.json"
expect "shards 1/3, 2/3 are missing" "$dir/0.json"
cp "$dir/1.json" "$dir/1b.json"
expect "$dir/1b.json is shard 1/3 again: $dir/1.json is that shard too" "$dir/0.json" "$dir/1.json" "$dir/1b.json" "$dir/2.json"
expect "$dir/other-flags.json ran with other flags than $dir/0.json" "$dir/0.json" "$dir/1.json" "$dir/other-flags.json"
expect "$dir/other-command.json ran another command than $dir/0.json" "$dir/0.json" "$dir/1.json" "$dir/other-command.json"
expect "$dir/other-scenario.json ran another scenario than $dir/run0.json" "$dir/run0.json" "$dir/run1.json" "$dir/other-scenario.json"
expect "$dir/other-build.json was made by another build than $dir/0.json" "$dir/0.json" "$dir/1.json" "$dir/other-build.json"
expect "$dir/other-count.json is a shard of a search cut into another number of shards" "$dir/0.json" "$dir/1.json" "$dir/other-count.json"
expect "$dir/cut.json: not JSON" "$dir/0.json" "$dir/1.json" "$dir/cut.json"
expect "$dir/nothing.json" "$dir/0.json" "$dir/nothing.json"
[ "$fail" = 0 ] && echo "every bad shard set was refused by name"
exit "$fail"
