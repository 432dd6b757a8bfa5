#!/usr/bin/env bash
# import_memory.sh [COMMITLAB] [SIZES...]: peak RSS of `commitlab import LOG -o HISTORY` on synthetic
# logs (synthetic_log.py) of 10^3, 10^4 and 10^5 commits, one sitting, one row per log; the import
# streams, so the figure should not grow with the log. "iceberg --one-file" is imported twice: as
# its folder (one version holding every snapshot) and as the metadata file itself (each snapshot a
# commit). The time is CPU seconds (user + system), which a busy machine does not inflate. Logs and
# histories go to a scratch folder under $TMPDIR, removed at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=${1:-$here/../../build/commitlab}
shift || true
sizes=("${@:-1000 10000 100000}")
[ ${#sizes[@]} -eq 1 ] && read -r -a sizes <<< "${sizes[0]}"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/import-memory.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
printf '%-30s %9s %12s %14s %12s\n' log commits 'peak RSS KiB' 'history bytes' 'CPU seconds'
measure() {  # measure LABEL N PATH HISTORY
  local out
  out=$( { /usr/bin/time -f '%M %U %S' "$cli" import "$3" -o "$4" > /dev/null; } 2>&1 | tail -1)
  read -r rss user sys <<< "$out"
  printf '%-30s %9d %12d %14d %12.2f\n' "$1" "$2" "$rss" "$(stat -c %s "$4")" "$(echo "$user + $sys" | bc)"
}
# SHAPES (one per line) picks some of the logs, e.g. SHAPES=$'iceberg\niceberg --one-file'.
mapfile -t shapes <<< "${SHAPES:-$'delta\ndelta --append-only\npaimon\niceberg\niceberg --one-file'}"
for shape in "${shapes[@]}"; do
  read -r format flag <<< "$shape"
  for n in "${sizes[@]}"; do
    dir="$scratch/$format${flag:+-${flag#--}}-$n"
    python3 "$here/synthetic_log.py" "$format" "$n" "$dir" ${flag:+$flag}
    measure "$shape" "$n" "$dir" "$dir.jsonl"
    if [ "$flag" = "--one-file" ]; then
      measure "$shape (the file)" "$n" "$dir/metadata/v1.metadata.json" "$dir.file.jsonl"
    fi
    rm -rf "$dir" "$dir.jsonl" "$dir.file.jsonl"
  done
done
