# Tests of the one history and the one report: every golden history and every command's --json
# validated against docs/*.schema.json (with Debian's python3-jsonschema), replay's answers, and
# what a history that cannot be written or read says. Included from labs/CMakeLists.txt.
set(HISTORY_EXPECT_RUN ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_run.sh)
set(VALIDATE_JSON /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/validate_json.py)
set(CLI $<TARGET_FILE:commitlab>)

add_test(NAME schema.golden_histories
  COMMAND sh -c "${VALIDATE_JSON} history results/golden/*.jsonl"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# report_schema_test(NAME ARGS...): `commitlab ARGS... --json` prints one report the schema accepts.
function(report_schema_test name)
  string(JOIN " " args ${ARGN})
  add_test(NAME schema.report_${name}
    COMMAND sh -c "out=\"${CMAKE_CURRENT_BINARY_DIR}/report-${name}.json\"; ${CLI} ${args} --json > \"$out\"; code=$?; [ $code -le 1 ] || { echo \"exit code $code\"; exit 1; }; ${VALIDATE_JSON} report \"$out\""
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endfunction()
report_schema_test(run run scenarios/paimon_conflict.scn)
report_schema_test(run_failing run scenarios/tests/data/failing.scn)
report_schema_test(run_iceberg run scenarios/iceberg_counter_stale.scn)
report_schema_test(run_delta run scenarios/delta_conflicts.scn)
report_schema_test(run_seeds run scenarios/paimon_race.scn --seeds 1..3)
report_schema_test(race race --writers 3 --commits 5)
report_schema_test(race_seeds race --sched random --seeds 1..3 --fault job-B:publish.after:nth=1:unknown --idempotency-check off)
report_schema_test(race_swarm race --sched random --seeds 1..8 --swarm --idempotency-check off)
report_schema_test(race_find race --sched random --seeds 1..50 --find atomic_failures=25)
report_schema_test(race_shard race --sched random --seeds 1..30 --swarm --idempotency-check off --shard 1/3)

# Histories written by hand here (not golden): a race on OS threads with a fault, and a run with
# faults, gates and conflicts, validated line by line.
add_test(NAME schema.history_of_a_threaded_race
  COMMAND sh -c "${CLI} race --commits 5 --fault 'job-B:publish.after:nth=1:unknown' --trace h-threads.jsonl >/dev/null && ${VALIDATE_JSON} history h-threads.jsonl"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# A publish refused by a `lost` fault: nobody took the snapshot, and the history says so.
add_test(NAME schema.history_of_an_injected_loss
  COMMAND sh -c "${CLI} run '${PROJECT_SOURCE_DIR}/scenarios/upstream/iceberg_fast_append_recovery.scn' --trace h-lost.jsonl >/dev/null && ${VALIDATE_JSON} history h-lost.jsonl && test $(grep -c '\"lost_to\":{[^}]*\"injected\":true' h-lost.jsonl) -eq 3 && ${HISTORY_EXPECT_RUN} 0 '^replay identical: ' -- ${CLI} replay h-lost.jsonl"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# A history recorded on OS threads replays in the simulator with the same reads, publishes and outcome.
add_test(NAME cli.replay_a_threaded_race
  COMMAND sh -c "${CLI} race --writers 4 --commits 20 --trace h-free.jsonl >/dev/null && ${HISTORY_EXPECT_RUN} 0 '^replay reproduced the OS-thread run in the simulator: the same reads, publishes and outcome as `commitlab race --writers 4 --commits 20`$' -- ${CLI} replay h-free.jsonl"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
# ... and says which recorded event it could not force when the history asks the impossible (a
# read that saw a snapshot no order of the writers reaches by then: that read, or the writer's
# publish right after it when the other writer got the table there).
add_test(NAME cli.replay_names_the_event_it_cannot_force
  COMMAND sh -c "${CLI} race --commits 10 --trace h-force.jsonl >/dev/null && sed -i '0,/\"op\":\"read-latest\",\"at_us\":[0-9]*,\"saw\":3}/s//\"op\":\"read-latest\",\"at_us\":0,\"saw\":9}/' h-force.jsonl && ${HISTORY_EXPECT_RUN} 1 'did not reproduce it: could not force job-[AB].s [0-9]+(st|nd|rd|th) storage effect \\(line [0-9]+\\): a (read of the latest snapshot that saw|publish of snapshot) [0-9]+' -- ${CLI} replay h-force.jsonl"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# A scenario edited after the recording: plain replay warns and replays the recorded text;
# --use-file runs the file as it is now and names the first event where the runs part.
add_test(NAME cli.replay_after_the_scenario_was_edited
  COMMAND sh -c "cp '${PROJECT_SOURCE_DIR}/scenarios/paimon_conflict.scn' edited.scn && ${CLI} run edited.scn --trace h-edit.jsonl >/dev/null && sed -i 's/^writer: write rows=1 keys=1..1/writer: write rows=2 keys=1..2/' edited.scn && ${HISTORY_EXPECT_RUN} 0 '^warning: edited.scn has changed since the recording \\(sha256 [0-9a-f]{12}… now [0-9a-f]{12}…\\); replaying the recorded text replay identical: ' -- ${CLI} replay h-edit.jsonl && ${HISTORY_EXPECT_RUN} 1 'replaying the file as it is now replay differs from h-edit.jsonl at event [0-9]+ \\(line [0-9]+\\): .*  recorded: step [0-9]+ .* writer +step_end .*  replayed: step [0-9]+ .* writer +step_end .*  changed:  detail: write data-.*rows=1\\) -> write data-.*rows=2\\)' -- ${CLI} replay --use-file h-edit.jsonl"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# A history that cannot be written is exit 2 naming the file and why; nothing half-written stays.
cli_test(trace_to_a_full_disk 2 "^commitlab race: --trace: writing /dev/full failed: No space left on device"
  race --sched random --trace /dev/full)
cli_test(trace_into_a_missing_folder 2 "^commitlab run: --trace: cannot write /nonexistent/h.jsonl: No such file or directory"
  run ${PROJECT_SOURCE_DIR}/scenarios/paimon_conflict.scn --trace /nonexistent/h.jsonl)
# Replay's input errors name the file and the line.
cli_test(replay_not_a_file 2 "^commitlab replay: /dev/zero is not a regular file" replay /dev/zero)
cli_test(replay_missing 2 "^commitlab replay: cannot open history file nope.jsonl" replay nope.jsonl)
add_test(NAME cli.replay_not_json
  COMMAND sh -c "printf 'not json\\n' > h-bad.jsonl && ${HISTORY_EXPECT_RUN} 2 '^commitlab replay: h-bad.jsonl:1: not JSON' -- ${CLI} replay h-bad.jsonl"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME cli.replay_other_version
  COMMAND sh -c "printf '{\"type\":\"header\",\"format\":\"commitlab-history\",\"version\":9}\\n' > h-v9.jsonl && ${HISTORY_EXPECT_RUN} 2 '^commitlab replay: h-v9.jsonl:1: history format version 9 is not one this build reads \\(1\\)' -- ${CLI} replay h-v9.jsonl"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# A report (or a log) that cannot reach standard output is exit 2 with the reason, also when the
# writers print from their fibers.
add_test(NAME cli.report_to_a_full_disk
  COMMAND sh -c "${CLI} run '${PROJECT_SOURCE_DIR}/scenarios/paimon_conflict.scn' --json >/dev/full 2>err-report; code=$?; [ $code -eq 2 ] && grep -q '^commitlab run: writing to standard output failed: No space left on device$' err-report"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME cli.log_to_a_full_disk
  COMMAND sh -c "${CLI} race --sched random >/dev/full 2>err-log; code=$?; [ $code -eq 2 ] && grep -q '^commitlab race: writing to standard output failed: No space left on device$' err-log"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
