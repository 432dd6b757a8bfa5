# End-to-end tests of writers as processes: `commitlab writer`, `commitlab check` and
# `commitlab race --processes`, run as a user types them. Tables go under the build directory.
set(PROC_DIR ${CMAKE_CURRENT_BINARY_DIR}/process-tables)
set(CL $<TARGET_FILE:commitlab>)
set(VALIDATE /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/validate_json.py)

# proc_test(NAME SHELL-COMMAND): runs in a fresh directory of its own.
function(proc_test name command)
  add_test(NAME cli.${name}
    COMMAND sh -c "rm -rf ${PROC_DIR}/${name} && mkdir -p ${PROC_DIR}/${name} && cd ${PROC_DIR}/${name} && ${command}")
endfunction()

cli_test(writer_needs_dir_and_user 2 "commitlab writer: --dir and --user are required" writer --commits 1)
cli_test(writer_one_count 2 "give one of --commits and --until" writer --dir x --user a)
cli_test(writer_bad_fsync 2 "--fsync 'maybe' is not one of off, data, all" writer --dir x --user a --commits 1 --fsync maybe)
cli_test(writer_bad_user 2 "--user 'a/b' is not 1..100 of" writer --dir x --user a/b --commits 1)
cli_test(check_needs_dir 2 "give the table directory: commitlab check DIR" check)
cli_test(check_not_a_table 2 "commitlab check: /nonexistent-table does not exist" check /nonexistent-table)
cli_test(check_older_than_alone 2 "--older-than only means something with --clean-orphans" check x --older-than 1h)
cli_test(race_processes_simulated 2 "--processes runs real processes: --sched must be free" race --processes 2 --sched random)
cli_test(race_processes_memory 2 "--store must be dir" race --processes 2 --store memory)
cli_test(race_kills_without_processes 2 "--kills needs --processes" race --kills 3)

proc_test(writer_acks_then_resumes
  "${CL} writer --dir t --user job-A --commits 2 > one.txt && ${CL} writer --dir t --user job-A --commits 1 > two.txt && grep -qx 'ack job-A identifier 2 snapshot 2' one.txt && grep -qx 'ack job-A identifier 3 snapshot 3' two.txt && grep -q 'resumed after its newest committed identifier, 2' two.txt")
proc_test(writer_json_matches_schema
  "${CL} writer --dir t --user job-A --commits 3 --json > w.jsonl && test $(wc -l < w.jsonl) -eq 4 && ${VALIDATE} writer w.jsonl")
proc_test(writer_refuses_a_damaged_table
  "${CL} writer --dir t --user job-A --commits 3 > /dev/null && rm t/snapshot/snapshot-1 && ${EXPECT_RUN} 2 'refusing to write into a damaged table: gap: t/snapshot/snapshot-1 does not exist: the first snapshot is 2' -- ${CL} writer --dir t --user job-B --commits 1 && test ! -e t/snapshot/snapshot-4")
# flock(1) holds job-A's lock file as a live writer would.
proc_test(writer_refuses_a_user_held_elsewhere
  "${CL} writer --dir t --user job-A --commits 1 > /dev/null && flock -n t/lock/user-job-A.lock ${EXPECT_RUN} 2 'commit user job-A is taken by another live process' -- ${CL} writer --dir t --user job-A --commits 1")
proc_test(writer_refuses_a_directory_of_other_files
  "mkdir t && echo mine > t/notes.txt && ${EXPECT_RUN} 2 't holds files but no snapshot/ directory' -- ${CL} writer --dir t --user job-A --commits 1 && test ! -e t/snapshot")
proc_test(check_sound_table
  "${CL} writer --dir t --user job-A --commits 3 > /dev/null && ${EXPECT_RUN} 0 '^table t: sound snapshots: 1..3 \\(3 readable\\); LATEST hint: 3 snapshots per commit user: \\{job-A=3\\} live data files: 3 leftovers: none' -- ${CL} check t")
proc_test(check_names_each_problem
  "${CL} writer --dir t --user job-A --commits 3 > /dev/null && rm t/snapshot/snapshot-2 && echo 9 > t/snapshot/LATEST && ${EXPECT_RUN} 1 'UNSOUND, 2 problem\\(s\\).*gap: t/snapshot/snapshot-2 does not exist: snapshot 3 follows snapshot 1.*hint_ahead: t/snapshot/LATEST names snapshot 9' -- ${CL} check t")
proc_test(check_json_matches_schema
  "${CL} writer --dir t --user job-A --commits 2 > /dev/null && touch t/manifest/manifest-stray && ${CL} check t --json > c.json && ${VALIDATE} check c.json && grep -q '\"kind\":\"unreferenced manifest\"' c.json && cp t/snapshot/snapshot-1 t/snapshot/snapshot-9223372036854775807 && rm t/snapshot/snapshot-2 && { ${CL} check t --json --clean-orphans > u.json; test $? -eq 1; } && ${VALIDATE} check u.json && grep -q '\"kind\":\"corrupt_id\"' u.json")
proc_test(check_cleans_orphans_of_a_sound_table_only
  "${CL} writer --dir t --user job-A --commits 2 > /dev/null && touch t/manifest/manifest-stray t/snapshot/.snapshot-3.1-0.tmp && ${EXPECT_RUN} 0 'leftovers: 2 .*removed 0 leftover\\(s\\) older than 1d; kept 2 younger' -- ${CL} check t --clean-orphans && ${EXPECT_RUN} 0 'removed 2 leftover\\(s\\) older than 0s' -- ${CL} check t --clean-orphans --older-than 0s && ${EXPECT_RUN} 0 'leftovers: none' -- ${CL} check t && touch t/manifest/manifest-stray2 && rm t/snapshot/snapshot-1 && ${EXPECT_RUN} 1 'not removing leftovers from an unsound table' -- ${CL} check t --clean-orphans --older-than 0s && test -e t/manifest/manifest-stray2")
proc_test(race_processes_report
  "${CL} race --processes 3 --commits 10 --dir t --json > r.json && ${VALIDATE} report r.json && grep -q '\"latest_snapshot\":30' r.json && grep -q '\"invariants_ok\":true' r.json && ${CL} check t > /dev/null")
proc_test(race_processes_with_kills
  "${EXPECT_RUN} 0 'job-A: [0-9]+ process\\(es\\), 30 commit\\(s\\) acknowledged.*latest snapshot id: 90.*invariants: ok.*kill -9: [1-9][0-9]* \\(job-A' -- ${CL} race --processes 3 --commits 30 --kills 4 --dir t")
proc_test(race_processes_refuses_an_existing_table
  "${CL} writer --dir t --user x --commits 1 > /dev/null && ${EXPECT_RUN} 2 't already holds a table' -- ${CL} race --processes 2 --dir t")
# The threaded race on a directory: a table missing its first snapshot is still a table, and a
# second race on the same directory cannot commit as the first one's users.
proc_test(race_dir_refuses_a_table_without_snapshot_1
  "${CL} race --store dir --dir t --commits 2 --json > /dev/null && rm t/snapshot/snapshot-1 && ${EXPECT_RUN} 2 't already holds a table \\(snapshot/snapshot-2 exists\\)' -- ${CL} race --store dir --dir t")
proc_test(race_dir_refuses_users_held_elsewhere
  "mkdir -p t/lock && touch t/lock/user-job-B.lock && flock -n t/lock/user-job-B.lock ${EXPECT_RUN} 2 'commit user job-B is taken by another live process' -- ${CL} race --store dir --dir t")
