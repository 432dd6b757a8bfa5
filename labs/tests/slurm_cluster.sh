#!/usr/bin/env bash
# slurm_cluster.sh COMMITLAB: a single-node Slurm cluster from Debian's packages (munged,
# slurmctld, slurmd), its state in a temporary directory, each daemon started here as a process
# and stopped by its pid at the end, also when a step fails. On it: a seed hunt and an exploration
# as job arrays of 4 tasks through deploy/slurm/submit.sh, each followed by its merge job; the
# merged reports must equal the unsharded runs' (expect_merge.sh's comparison). A daemon that
# cannot start fails the test and says why. Run from the project root, as root (as CI does).
#   slurm_cluster.sh COMMITLAB COMMAND ARGS...: runs COMMAND on the cluster instead (SLURM_CONF
#   and CLUSTER_OUT, a scratch directory, in its environment), e.g. to time sharded searches.
set -u
cl=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
for tool in munged slurmctld slurmd sbatch scontrol sinfo; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed (./run.sh installs munge, slurmctld, slurmd, slurm-client)"; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "FAIL: the cluster's daemons run as root here; run the test as root"; exit 1; }

tmp=$(mktemp -d /tmp/commitlab-slurm.XXXXXX)
chmod 700 "$tmp"
pids=()
stop() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    # Each daemon gets 10 s to go, then SIGKILL: the test never leaves one behind.
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap stop EXIT
fail() {
  echo "FAIL: $*"
  for log in "$tmp"/*.log; do [ -f "$log" ] && { echo "--- $log"; tail -20 "$log"; }; done
  exit 1
}
# wait_for SECONDS WHAT COMMAND...: polls COMMAND until it succeeds (a daemon getting ready).
wait_for() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || fail "$what not ready after ${seconds}s"
    sleep 0.2
  done
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# munge: a key of our own, a socket in the temp directory.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
munged --foreground --force --socket="$tmp/munge.socket" --key-file="$tmp/munge.key" --log-file="$tmp/munged.log" \
  --pid-file="$tmp/munged.pid" --seed-file="$tmp/munged.seed" 2>>"$tmp/munged.log" &
pids+=($!)
wait_for 30 "munged (its socket $tmp/munge.socket)" test -S "$tmp/munge.socket"
kill -0 "${pids[0]}" 2>/dev/null || fail "munged exited"

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/out"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=commitlab
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >>"$tmp/slurmctld.log" 2>&1 &
pids+=($!)
wait_for 60 "slurmctld (scontrol ping)" sh -c 'scontrol ping | grep -q UP'
slurmd -D -f "$SLURM_CONF" -N "$host" >>"$tmp/slurmd.log" 2>&1 &
pids+=($!)
wait_for 60 "slurmd (node $host idle in sinfo)" sh -c "sinfo -h -n '$host' -o %t | grep -q idle"
echo "cluster up: node $host, $cpus CPUs; slurmctld pid ${pids[1]}, slurmd pid ${pids[2]}, munged pid ${pids[0]}"

# submit_and_compare KIND ARGS...: 4 shards and the merge through Slurm, against one process.
submit_and_compare() {
  local kind=$1
  shift
  local out="$tmp/out/$kind"
  local json=--json  # a hunt's shards list each run only with --json: then the unsharded run gets it once
  [[ " $* " == *" --json "* ]] && json=
  "$cl" "$@" $json >"$tmp/$kind-whole.json"
  local whole=$?
  [ "$whole" -le 1 ] || fail "the unsharded $kind exited $whole"
  local line
  line=$(COMMITLAB="$cl" "$root/deploy/slurm/submit.sh" "$kind" 4 "$out" "$@") || fail "submit.sh $kind: $line"
  echo "$line"
  local merge=${line##*merge: job }
  merge=${merge%%;*}
  # The merge job runs once all 4 shards are done; the test waits for it to end (bounded).
  wait_for 300 "the $kind merge job $merge" sh -c "scontrol show job $merge | grep -Eq 'JobState=(COMPLETED|FAILED|CANCELLED|TIMEOUT)'"
  local state
  state=$(scontrol show job "$merge" | grep -o 'JobState=[A-Z]*')
  [ -f "$out/merged.json" ] || fail "the $kind merge job ended ($state) without a merged report: $(cat "$out"/slurm-merge-*.out)"
  python3 "$here/json_same.py" "$tmp/$kind-whole.json" "$out/merged.json" || fail "$kind: merged != unsharded"
  local expected=COMPLETED
  [ "$whole" = 1 ] && expected=FAILED  # merge exits 1 when the search found a failure, as the run does
  [ "$state" = "JobState=$expected" ] || fail "the $kind merge job ended $state, the unsharded run exited $whole"
  echo "$kind: 4 shards through Slurm merged into the unsharded report ($state)"
}
cd "$root" || exit 1
if [ $# -gt 1 ]; then
  shift
  CLUSTER_OUT="$tmp/out" COMMITLAB="$cl" "$@" || fail "$* exited $?"
  exit 0
fi
submit_and_compare hunt race --sched random --seeds 1..200 --swarm --idempotency-check off --commits 5 --threads 1 --json
submit_and_compare explore explore scenarios/object_store_check_then_put.scn --ignore-order
echo "slurm: every merged report equals its unsharded run"
