#!/usr/bin/env bash
# env_case.sh COMMITLAB SOURCE_DIR CASE: one hostile-environment case (labs/tests/env_tests.cmake). Each
# runs commitlab where the machine fails it (a full device, a closed stdout, no TMPDIR, a directory
# it may not read, too few threads, a FIFO, a damaged table) and asserts a deliberate ending: the
# exit code and a message naming what failed, never an abort, a hang or a silent exit 0.
set -u
commitlab=$1 source_dir=$2 case=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/commitlab-env-XXXXXX") || { echo "cannot make a scratch directory"; exit 1; }
cleanup() {
  [ -n "${mounted-}" ] && umount "$mounted" 2>/dev/null
  chmod -R u+rwx "$work" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1  # no results/ here: scratch tables go under $TMPDIR

fail() { printf 'FAIL %s: %s\n' "$case" "$*"; exit 1; }

# expect CODE REGEX -- COMMAND...: COMMAND exits CODE and its stdout+stderr match REGEX.
expect() {
  local want=$1 regex=$2 out got
  shift 3
  out=$("$@" 2>&1)
  got=$?
  [ "$got" -eq "$want" ] || fail "exit $got, expected $want: $* -> $(printf '%s' "$out" | tail -5)"
  printf '%s' "$out" | tr '\n' ' ' | grep -Eq -- "$regex" || fail "output of $* does not match /$regex/: $(printf '%s' "$out" | tail -5)"
}

# The binary as an unprivileged user can run it: the build tree may sit where `nobody` cannot go
# (under /root, say), the scratch directory never does.
user_commitlab=$commitlab
if [ "$(id -u)" -eq 0 ]; then
  user_commitlab=$work/commitlab
  cp "$commitlab" "$user_commitlab" && chmod 755 "$user_commitlab" || fail "cannot copy $commitlab for nobody"
fi

# Runs COMMAND as an unprivileged user: root reads and writes everything, so permission and
# process-limit cases need someone else.
as_user() {
  if [ "$(id -u)" -eq 0 ]; then
    chmod 755 "$work"
    setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
  else
    "$@"
  fi
}

case "$case" in
  stdout_full)  # /dev/full: every write of the report fails
    expect 2 "commitlab race: writing to standard output failed: No space left on device" -- \
      sh -c "exec '$commitlab' race > /dev/full"
    expect 2 "commitlab run: writing to standard output failed" -- \
      sh -c "exec '$commitlab' run '$source_dir/scenarios/paimon_race.scn' > /dev/full"
    ;;
  stdout_closed)
    expect 2 "commitlab race: writing to standard output failed" -- sh -c "exec '$commitlab' race >&-"
    # A reader that goes away: EPIPE, reported, instead of a silent death by SIGPIPE (exit 141).
    # 2000 commits print ~280 KB: more than a pipe holds (64 KiB), so the writer must outlive head.
    expect 2 "commitlab race: writing to standard output failed: Broken pipe" -- \
      bash -c "'$commitlab' race --commits 2000 --sched random 2>err.txt | head -c 1 >/dev/null; r=\${PIPESTATUS[0]}; cat err.txt; exit \$r"
    ;;
  trace_full)
    expect 2 "commitlab race: --trace: writing /dev/full failed: No space left on device" -- \
      "$commitlab" race --trace /dev/full
    ;;
  no_tmpdir)  # TMPDIR names nothing: a scratch table has nowhere to go, and says so
    expect 2 "no directory for scratch tables: TMPDIR=/nonexistent is not a directory" -- \
      env TMPDIR=/nonexistent "$commitlab" race --store dir --commits 1
    expect 2 "no directory for scratch tables" -- \
      env TMPDIR=/nonexistent "$commitlab" race --store dir --seeds 1..2 --sched random --commits 1
    # A replay of a memory run needs no scratch directory.
    "$commitlab" race --commits 2 --sched random --trace t.jsonl > /dev/null || fail "could not record t.jsonl"
    expect 0 "replay identical" -- env TMPDIR=/nonexistent "$commitlab" replay t.jsonl
    ;;
  unreadable_dir)  # a table under a folder the user may not enter
    mkdir -p locked/inner && chmod 000 locked
    expect 2 "cannot create directory locked/inner/t: Permission denied" -- \
      as_user "$user_commitlab" race --store dir --dir locked/inner/t --commits 1
    expect 2 "commitlab check: cannot read locked/inner/t: Permission denied" -- as_user "$user_commitlab" check locked/inner/t
    ;;
  readonly_snapshot)  # snapshot/ cannot be written: the run fails and names the OS's reason
    mkdir -p ro/snapshot ro/manifest && chmod 555 ro/snapshot
    [ "$(id -u)" -eq 0 ] && chown -R nobody ro && chmod 555 ro/snapshot
    expect 1 "ERROR table race_log: the file system failed the run: cannot write ro/snapshot/snapshot-1: Permission denied" -- \
      as_user "$user_commitlab" race --store dir --dir ro --commits 2 --sched random
    ;;
  disk_full)  # a 256 KiB tmpfs fills up mid-race
    [ "$(id -u)" -eq 0 ] || fail "needs root to mount a small tmpfs (run the suite as root, as CI does)"
    mkdir small && mount -t tmpfs -o size=256k tmpfs small || fail "cannot mount a tmpfs on $work/small"
    mounted=$work/small
    expect 1 "ERROR table race_log: the file system failed the run: .*No space left on device" -- \
      "$commitlab" race --store dir --dir small/t --commits 300
    rm -rf small/t
    expect 1 "ERROR writer job-[A-Z] failed: .*No space left on device" -- \
      "$commitlab" race --processes 2 --dir small/p --commits 300
    ;;
  catalog_disk_full)  # writer processes and their REST server on a 256 KiB tmpfs: each writer's failure is named
    [ "$(id -u)" -eq 0 ] || fail "needs root to mount a small tmpfs (run the suite as root, as CI does)"
    mkdir small && mount -t tmpfs -o size=256k tmpfs small || fail "cannot mount a tmpfs on $work/small"
    mounted=$work/small
    # Each writer is named; the reason is the disk's, as the server or the writer met it (a writer
    # whose own output file could not be written is named as exiting without a summary).
    out=$("$commitlab" catalog race --catalog rest --writers 2 --commits 2000 --warehouse small/w 2>&1)
    got=$?
    [ "$got" -eq 1 ] || fail "exit $got, expected 1: $(printf '%s' "$out" | tail -5)"
    for w in job-A job-B; do
      printf '%s' "$out" | grep -q "^FAILED: $w: " || fail "$w is not named as failed: $(printf '%s' "$out" | tail -5)"
    done
    printf '%s' "$out" | grep -q "No space left on device" || fail "no reason given: $(printf '%s' "$out" | tail -5)"
    ;;
  thread_limit)  # the OS refuses threads: no abort, the writer that could not start is named
    expect 2 "commitlab race: cannot start a thread for writer job-[^ ]+ \\([0-9]+ of 200\\): Resource temporarily unavailable" -- \
      as_user bash -c "ulimit -u 8 && exec '$user_commitlab' race --writers 200 --commits 1 --latency ''"
    ;;
  device_input)  # /dev/zero never ends and a FIFO blocks: only regular files are read
    expect 2 "commitlab replay: /dev/zero is not a regular file" -- "$commitlab" replay /dev/zero
    expect 2 "cannot read scenario file \"/dev/zero\" \\(not a regular file\\)" -- "$commitlab" run /dev/zero
    mkfifo f.scn
    expect 2 "cannot read scenario file \"f.scn\" \\(not a regular file\\)" -- "$commitlab" run f.scn
    expect 2 "scenario file f.scn: not a regular file|cannot read scenario file \"f.scn\"" -- "$commitlab" shrink f.scn
    expect 2 "cannot read scenario file \"f.scn\"|scenario file f.scn: not a regular file" -- "$commitlab" explore f.scn
    ;;
  top_snapshot_id)  # snapshot-9223372036854775807: corrupt, not a reason to overflow or to stat 2^63 ids
    "$commitlab" race --store dir --dir big --commits 1 --writers 1 > /dev/null || fail "could not make a table"
    sed 's/"id" : 1,/"id" : 9223372036854775807,/' big/snapshot/snapshot-1 > big/snapshot/snapshot-9223372036854775807
    expect 1 "corrupt_id: big/snapshot/snapshot-9223372036854775807: snapshot id 9223372036854775807 is past the largest" -- \
      "$commitlab" check big
    expect 2 "refusing to write into a damaged table: corrupt_id" -- "$commitlab" writer --dir big --user job-B --commits 1
    ;;
  bad_numbers)
    expect 2 "the argument \\('-1'\\) for option '--seed' is invalid: expected a whole number >= 0" -- "$commitlab" race --seed -1
    expect 2 "writer \"job-Z\" is not declared" -- "$commitlab" race --fault 'job-Z:publish.before:always:error'
    expect 0 "invariants: ok" -- "$commitlab" race --seed 18446744073709551615 --commits 1 --sched random
    ;;
  two_fault_rules_replay)  # repeated settings are arrays: the header stays readable
    "$commitlab" race --sched random --fault 'job-A:publish.before:nth=1:error' \
      --fault 'job-B:publish.before:nth=1:error' --trace t.jsonl > /dev/null || fail "could not record t.jsonl"
    expect 0 "replay identical: [0-9]+ events" -- "$commitlab" replay t.jsonl
    ;;
  seed_tables_removed)  # --seeds --store dir: one directory per invocation, gone afterwards unless --keep
    mkdir tmp
    expect 0 "40 runs: atomic commit failures" -- env TMPDIR="$work/tmp" "$commitlab" race --seeds 1..40 --store dir --sched random --commits 2
    [ -z "$(find tmp -mindepth 2 -print -quit)" ] || fail "tables left behind: $(find tmp -mindepth 1 | head -3)"
    expect 0 "the seeds' tables are in .*/seed-N" -- \
      env TMPDIR="$work/tmp" "$commitlab" race --seeds 1..3 --store dir --sched random --commits 2 --keep
    [ "$(find tmp -mindepth 3 -maxdepth 3 -name 'seed-*' | wc -l)" -eq 3 ] || fail "--keep did not keep seed-1..3"
    ;;
  endless_retry)  # a writer retrying without limit against a fault that always fires
    expect 1 "ERROR gave up after 100000 steps \\(the --max-steps budget\\): still running then: job-A \\([0-9]+ attempts, 0 committed\\)" -- \
      "$commitlab" race --sched random --policy none --fault 'job-A:publish.before:always:error' --commits 2 --max-steps 100000
    expect 1 "gave up after (1h|60min) of virtual time \\(the --max-virtual-time budget\\)" -- \
      "$commitlab" race --sched random --policy fixed:base=1s --fault 'job-A:publish.before:always:error' \
      --commits 2 --max-virtual-time 1h
    # Real threads sleeping 1000 s per publish: the wall-clock budget ends the run, not the sleep.
    expect 1 "gave up after 2s of wall-clock time \\(the --max-wall-time budget\\): still running then: job-A" -- \
      "$commitlab" race --latency 'publish=uniform:1000000,1000000' --commits 1 --max-wall-time 2s
    # Writer processes are not budgeted: the flags are refused rather than ignored.
    expect 2 "--max-wall-time does not go with --processes" -- "$commitlab" race --processes 2 --max-wall-time 2s
    # 0 is no limit; a budget the run stays within changes nothing.
    expect 0 "invariants: ok" -- "$commitlab" race --sched random --commits 5 --max-steps 0 --max-virtual-time 0
    ;;
  out_of_memory)  # the allocator refuses: exit 2 with the reason, never an abort (mimalloc aborts without a handler)
    expect 2 "commitlab race: out of memory" -- \
      bash -c "ulimit -v 250000 && exec '$commitlab' race --sched random --writers 4 --commits 100000 --latency ''"
    expect 2 "commitlab sweep: out of memory" -- bash -c "ulimit -v 100000 && exec '$commitlab' sweep --runs 5 --out sweep-oom"
    # Fifty writer threads, each with its own stack and mimalloc heap, in 2 GB of address space.
    expect 2 "commitlab race: out of memory" -- bash -c "ulimit -v 2000000 && exec '$commitlab' race --writers 50 --commits 100"
    ;;
  pool_thread_limit)  # a sweep's or a seed hunt's worker threads refused: exit 2, not a hang
    mkdir s && { [ "$(id -u)" -ne 0 ] || chown nobody s; }
    expect 2 "commitlab sweep: cannot start thread [0-9]+ of 50: Resource temporarily unavailable" -- \
      as_user bash -c "ulimit -u 8 && exec '$user_commitlab' sweep --experiment capacity --runs 1 --threads 50 --out '$work/s'"
    expect 2 "commitlab race: cannot start thread [0-9]+ of 50: Resource temporarily unavailable" -- \
      as_user bash -c "ulimit -u 8 && exec '$user_commitlab' race --seeds 1..200 --sched random --commits 1 --threads 50"
    ;;
  help_full)  # help and the version are reports too: a full stdout is exit 2
    expect 2 "commitlab --help: writing to standard output failed" -- sh -c "exec '$commitlab' --help > /dev/full"
    expect 2 "commitlab --version: writing to standard output failed" -- sh -c "exec '$commitlab' --version > /dev/full"
    expect 2 "commitlab race: writing to standard output failed" -- sh -c "exec '$commitlab' race --help > /dev/full"
    ;;
  latest_fifo)  # a FIFO where the LATEST hint goes: the hint is advisory, the writer must not block on it
    "$commitlab" writer --dir t --user job-A --commits 1 > /dev/null || fail "could not make a table"
    rm t/snapshot/LATEST && mkfifo t/snapshot/LATEST
    expect 0 "ack job-A identifier 3 snapshot 3" -- timeout 60 "$commitlab" writer --dir t --user job-A --commits 2
    [ -p t/snapshot/LATEST ] || fail "the FIFO at t/snapshot/LATEST was replaced"
    ;;
  writer_readonly)  # the writer names the file and the OS's reason, not "commit conflicts"
    "$commitlab" writer --dir ro --user job-A --commits 1 > /dev/null || fail "could not make a table"
    [ "$(id -u)" -eq 0 ] && chown -R nobody ro
    chmod 555 ro/snapshot
    expect 1 "job-A stopped: the file system failed the commit: cannot write ro/snapshot/snapshot-2: Permission denied" -- \
      as_user "$user_commitlab" writer --dir ro --user job-A --commits 1 --policy paimon:retries=1
    ;;
  output_not_ours)  # -o and --port-file replace only a regular file or a new name
    expect 2 "cannot write /dev/full: it is a character device, not a regular file; not replacing it" -- \
      "$commitlab" shrink "$source_dir/scenarios/tests/data/shrink_check_then_put.scn" --seed 3 --quiet -o /dev/full
    [ -c /dev/full ] || fail "/dev/full is no longer a character device"
    echo theirs > theirs.txt && ln -s theirs.txt link.scn
    expect 2 "cannot write link.scn: it is a symbolic link, not a regular file; not replacing it" -- \
      "$commitlab" shrink "$source_dir/scenarios/tests/data/shrink_check_then_put.scn" --seed 3 --quiet -o link.scn
    [ -L link.scn ] && [ "$(cat theirs.txt)" = theirs ] || fail "link.scn or its target was changed"
    ;;
  foreign_dir)  # a folder with someone else's files is not made into a table
    mkdir mine && echo notes > mine/notes.txt
    expect 2 "mine holds files but no snapshot/ directory: not a table directory; use an empty one" -- \
      "$commitlab" race --store dir --dir mine --commits 1
    [ "$(ls mine)" = notes.txt ] || fail "race wrote into mine: $(ls mine)"
    ;;
  foreign_history)  # a JSON Lines file of another program is not drawn or explained
    printf '{"type":"header","format":"otel-trace","version":1}\n{"type":"span"}\n' > other.jsonl
    expect 2 "not a commitlab history \\(its header's format is \"otel-trace\"" -- "$commitlab" timeline other.jsonl -o t.html
    expect 2 "not a commitlab history" -- "$commitlab" explain other.jsonl
    [ ! -e t.html ] || fail "timeline wrote t.html from a foreign history"
    ;;
  *)
    fail "unknown case"
    ;;
esac
echo "ok $case"
