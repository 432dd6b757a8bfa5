#!/usr/bin/env bash
# import_memory.sh [COMMITLAB] [SIZES...]: peak RSS of `commitlab import LOG -o HISTORY` on synthetic
# logs (synthetic_log.py) of 10^3, 10^4 and 10^5 commits, one sitting, one row per log; the import
# streams, so the figure should not grow with the log. Logs and histories go to a scratch folder
# under $TMPDIR, removed at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=${1:-$here/../../build/commitlab}
shift || true
sizes=("${@:-1000 10000 100000}")
[ ${#sizes[@]} -eq 1 ] && read -r -a sizes <<< "${sizes[0]}"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/import-memory.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
printf '%-28s %9s %12s %14s %9s\n' log commits 'peak RSS KiB' 'history bytes' seconds
for shape in "delta" "delta --append-only" "paimon" "iceberg" "iceberg --one-file"; do
  read -r format flag <<< "$shape"
  for n in "${sizes[@]}"; do
    dir="$scratch/$format${flag:+-${flag#--}}-$n"
    python3 "$here/synthetic_log.py" "$format" "$n" "$dir" ${flag:+$flag}
    start=$(date +%s.%N)
    rss=$( { /usr/bin/time -f '%M' "$cli" import "$dir" -o "$dir.jsonl" > /dev/null; } 2>&1 | tail -1)
    end=$(date +%s.%N)
    printf '%-28s %9d %12d %14d %9.1f\n' "$format${flag:+ $flag}" "$n" "$rss" "$(stat -c %s "$dir.jsonl")" \
      "$(echo "$end - $start" | bc)"
    rm -rf "$dir" "$dir.jsonl"
  done
done
