#!/bin/bash
# Submits a sharded commitlab search to Slurm: an array of N shard tasks (hunt.sbatch,
# explore.sbatch or sweep.sbatch), then the merge job (merge.sbatch), which depends on every task
# having succeeded. Prints the two job ids; the merged report lands in OUTDIR/merged.json.
#   deploy/slurm/submit.sh hunt|explore|sweep N OUTDIR [COMMAND ARGS...]
#   deploy/slurm/submit.sh hunt 64 runs/hunt race --sched random --seeds 1..6400000 --swarm --threads 1
#   deploy/slurm/submit.sh explore 16 runs/explore explore scenarios/object_store_check_then_put.scn --ignore-order
#   deploy/slurm/submit.sh sweep 8 runs/sweep sweep --experiment brooker --runs 1000 --threads 1
# COMMITLAB names the binary (default: commitlab on the compute nodes' PATH); OUTDIR must be on a
# file system every node sees. Extra sbatch flags for both jobs go in SBATCH_FLAGS, e.g.
# "--partition=long --time=2:00:00".
set -eu
if [ $# -lt 3 ]; then
  echo "usage: submit.sh hunt|explore|sweep N OUTDIR [COMMAND ARGS...]" >&2
  exit 2
fi
kind=$1 n=$2 out=$3
shift 3
case $kind in hunt | explore | sweep) ;; *) echo "submit.sh: '$kind' is not hunt, explore or sweep" >&2; exit 2 ;; esac
case $n in '' | *[!0-9]*) echo "submit.sh: N '$n' is not a number of shards" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "submit.sh: N must be at least 1" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
export COMMITLAB_DEPLOY=$here
# shellcheck disable=SC2086 # SBATCH_FLAGS is a list of flags
array=$(sbatch --parsable ${SBATCH_FLAGS:-} --array="0-$((n - 1))" --output="$out/slurm-%A_%a.out" \
  "$here/$kind.sbatch" "$out" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_FLAGS:-} --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$out/slurm-merge-%j.out" "$here/merge.sbatch" "$out")
merge=${merge%%;*}
echo "shards: job $array (array 0-$((n - 1))); merge: job $merge; report: $out/merged.json"
