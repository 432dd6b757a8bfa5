#!/bin/bash
# One shard of a commitlab search, as a task of a Slurm job array (hunt.sbatch, explore.sbatch
# and sweep.sbatch call it): run_shard.sh OUTDIR COMMAND ARGS... in task I of an array 0..N-1 runs `commitlab COMMAND ARGS... --shard I/N` and leaves its report in OUTDIR/shard-I.json,
# written beside and renamed, so that a task killed half way leaves no half a report that merge
# could take for a whole one. A shard that ran and found a failure (exit 1) still did its work:
# the task succeeds, and the merge says what failed.
set -u
out=${1:?usage: run_shard.sh OUTDIR COMMAND ARGS...}
shift
: "${SLURM_ARRAY_TASK_ID:?run this as a job array: sbatch --array=0-N-1 ...}"
: "${SLURM_ARRAY_TASK_COUNT:?run this as a job array: sbatch --array=0-N-1 ...}"
if [ "${SLURM_ARRAY_TASK_MIN:-0}" != 0 ]; then
  echo "run_shard.sh: the array must start at 0 (--array=0-$((SLURM_ARRAY_TASK_COUNT - 1)))" >&2
  exit 2
fi
commitlab=${COMMITLAB:-commitlab}
shard="$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT"
mkdir -p "$out"
tmp="$out/.shard-$SLURM_ARRAY_TASK_ID.json.$$"
"$commitlab" "$@" --shard "$shard" >"$tmp"
code=$?
if [ "$code" -gt 1 ]; then
  rm -f "$tmp"
  echo "run_shard.sh: commitlab $* --shard $shard exited $code" >&2
  exit "$code"
fi
mv "$tmp" "$out/shard-$SLURM_ARRAY_TASK_ID.json"
