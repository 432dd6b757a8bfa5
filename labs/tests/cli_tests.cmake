# End-to-end tests of the CLI: exit codes, messages and JSON fields.
set(EXPECT_RUN ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_run.sh)

# cli_test(NAME CODE REGEX ARGS...): `commitlab ARGS...` exits with CODE and prints REGEX.
function(cli_test name code regex)
  add_test(NAME cli.${name} COMMAND ${EXPECT_RUN} ${code} ${regex} -- $<TARGET_FILE:commitlab> ${ARGN})
endfunction()

cli_test(help 0 "Commands:.*race.*lab +the source lectures' experiments \\(docs/lectures\\.md\\), narrated: lab paimon \\| iceberg \\| delta" --help)
# --version: project(commitlab VERSION ...) and the commit the build came from.
string(REPLACE "." "\\." VERSION_REGEX ${PROJECT_VERSION})
cli_test(version 0 "^commitlab ${VERSION_REGEX} \\(([0-9a-f]{7,40}(-dirty)?|unknown)\\) allocator: " --version)
cli_test(version_short 0 "^commitlab ${VERSION_REGEX} \\(([0-9a-f]{7,40}(-dirty)?|unknown)\\) allocator: " -V)
# The allocator the binary really runs on is the one COMMITLAB_MALLOC chose (a link that dropped
# mimalloc would make every sweep slower without a word); a sanitizer's runtime owns malloc itself.
if(COMMITLAB_LINKS_MIMALLOC)
  cli_test(version_allocator 0 "allocator: malloc from libmimalloc\\.so" --version)
elseif(COMMITLAB_SANITIZE MATCHES "address")
  cli_test(version_allocator 0 "allocator: malloc from libasan\\.so" --version)
elseif(COMMITLAB_SANITIZE MATCHES "thread")
  cli_test(version_allocator 0 "allocator: malloc from libtsan\\.so" --version)
elseif(NOT COMMITLAB_FUZZ)  # clang links its sanitizer runtime into the executable
  cli_test(version_allocator 0 "allocator: malloc from libc\\.so" --version)
endif()
add_test(NAME cli.version_names_the_checked_out_commit
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_version.sh ${PROJECT_SOURCE_DIR} -- $<TARGET_FILE:commitlab>)

cli_test(no_args 2 "Usage: commitlab" )
cli_test(unknown_command 2 "unknown command 'nope' \\(expected one of race" nope)
cli_test(race_unknown_flag 2 "commitlab race: unrecognised option '--bogus'" race --bogus)
# No prefix guessing: a shortened flag is a typo, not the flag it starts.
cli_test(race_no_prefix_guessing 2 "commitlab race: unrecognised option '--trac'" race --trac x)
cli_test(run_no_prefix_guessing 2 "commitlab run: unrecognised option '--trac'" run scenarios/paimon_conflict.scn --trac x)
cli_test(sweep_no_prefix_guessing 2 "commitlab sweep: unrecognised option '--trac'" sweep --trac x)
cli_test(sweep_no_prefix_guessing_quick 2 "commitlab sweep: unrecognised option '--quic'" sweep --quic)
cli_test(lab_no_prefix_guessing 2 "commitlab lab: unrecognised option '--exp'" lab iceberg --exp race)
# A word a command does not take is an error, not ignored.
cli_test(race_stray_argument 2 "commitlab race: unexpected argument 'extra'" race --seed 3 extra)
cli_test(sweep_stray_argument 2 "commitlab sweep: unexpected argument 'quick'" sweep quick)
cli_test(race_bad_number 2 "commitlab race: the argument \\('many'\\) for option '--writers' is invalid" race --writers many)
cli_test(race_writers_range 2 "--writers 0 is out of range 1..1000" race --writers 0)
cli_test(race_bad_store 2 "--store 's3' is not one of memory, dir" race --store s3)
cli_test(race_bad_policy 2 "--policy: .*unknown policy name \"expo\"" race --policy expo)
cli_test(race_dir_without_store 2 "--dir needs --store dir" race --dir somewhere)
cli_test(race_memory_json 0
  "^\\{\"format\":\"commitlab-report\",\"version\":1,.*\"command\":\"race\",.*\"tables\":\\[\\{\"name\":\"race_log\",\"protocol\":\"paimon\",\"latest_snapshot\":60,.*\"writers\":\\[\\{\"name\":\"job-A\",\"user\":\"job-A\",\"outcome\":\"ok\",.*\"committed\":30,.*\"ok\":true\\}$"
  race --json)
cli_test(race_memory_log 0
  "Successfully commit snapshot .*latest snapshot id: 120.*\\{job-A=30, job-B=30, job-C=30, job-D=30\\}.*invariants: ok"
  race --writers 4)
add_test(NAME cli.race_dir_json
  COMMAND sh -c "rm -rf race-dir-test && ${EXPECT_RUN} 0 '\"latest_snapshot\":80,.*\"invariants_ok\":true' -- $<TARGET_FILE:commitlab> race --store dir --dir race-dir-test --writers 4 --commits 20 --json && test -f race-dir-test/snapshot/snapshot-80 && ! test -e race-dir-test/snapshot/snapshot-81"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME cli.race_dir_refuses_existing_table
  COMMAND sh -c "rm -rf race-dir-used && $<TARGET_FILE:commitlab> race --store dir --dir race-dir-used --commits 1 --json >/dev/null && ${EXPECT_RUN} 2 'already holds a table' -- $<TARGET_FILE:commitlab> race --store dir --dir race-dir-used"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# --- commitlab run FILE: run in the source tree, so scenario paths are relative as a user types them.
set(EXPECT_SAME ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_same.sh)
function(cli_source_test name code regex)
  add_test(NAME cli.${name} COMMAND ${EXPECT_RUN} ${code} ${regex} -- $<TARGET_FILE:commitlab> ${ARGN}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endfunction()

cli_source_test(run_passes 0
  "^== Two compaction jobs delete the same L0 files \\(scenarios/paimon_conflict.scn\\) == scenario=scenarios/paimon_conflict.scn seed=1 sched=random store=memory .*ERROR \\[compact-job-2\\] File deletion conflicts detected!.*PASS scenarios/paimon_conflict.scn:[0-9]+: expect latest-snapshot 6 \\(saw latest snapshot 6\\).*invariants: ok.*ok: ([0-9]+) of \\1 expectations held.*schedule: sched1:3w:[0-9]+s:[a-c0-9]+$"
  run scenarios/paimon_conflict.scn)
cli_source_test(run_fails 1
  "PASS scenarios/tests/data/failing.scn:8: expect latest-snapshot 1 .*FAIL scenarios/tests/data/failing.scn:9: expect latest-snapshot 5 \\(saw latest snapshot 1\\) FAIL scenarios/tests/data/failing.scn:10: expect writer job-A refused \"no such refusal\" \\(saw job-A ok\\).*FAILED: 1 of 3 expectations held"
  run scenarios/tests/data/failing.scn)
# A malformed file: exactly one line, file:line:col: message, and nothing runs.
cli_source_test(run_malformed 2
  "^scenarios/tests/data/malformed.scn:3:30: unknown key \"bukets\" for directive table \\(expected one of name, protocol, primary-key, partitions, buckets, levels, ignore-empty-commit, isolation, flavour, catalog\\)$"
  run scenarios/tests/data/malformed.scn)
cli_source_test(run_missing_file 2 "^cannot open scenario file \"scenarios/nope.scn\"$" run scenarios/nope.scn)
cli_source_test(run_no_file 2 "commitlab run: missing the scenario file to run" run)
cli_source_test(run_bad_store 2 "--store 's3' is not one of memory, dir" run scenarios/paimon_conflict.scn --store s3)
cli_source_test(run_bad_fault 2 "commitlab run: --fault: " run scenarios/paimon_conflict.scn --fault job-A:nowhere:nth=1:error)
cli_source_test(run_schedule_needs_the_simulator 2 "--schedule replays a simulated run"
  run scenarios/paimon_conflict.scn --sched free --schedule sched1:3w:1s:a)
cli_source_test(run_schedule_diverged 2 "commitlab run: schedule diverged"
  run scenarios/paimon_conflict.scn --schedule sched1:3w:2s:ab)
cli_source_test(run_json 0
  "^\\{\"format\":\"commitlab-report\",\"version\":1,.*\"command\":\"run\",\"settings\":\\{\"scenario\":\"scenarios/paimon_conflict.scn\",.*\"runs\":\\[\\{\"scenario\":\"scenarios/paimon_conflict.scn\",.*\"seed\":1,.*\"latest_snapshot\":6,.*\\{\"id\":5,\"parent\":4,\"kind\":\"COMPACT\",\"operation\":\"COMPACT\",\"user\":\"compact-job-1\",\"identifier\":1,\"total_records\":3,.*\\{\"name\":\"compact-job-2\",\"user\":\"compact-job-2\",\"outcome\":\"refused\",\"message\":\"File deletion conflicts detected! Give up committing.*\"counters\":\\{\"committed\":1,\"attempts\":2,\"atomic_failures\":0,\"conflicts\":1,.*\"invariants_ok\":true,.*\"expectations\":\\{\"passed\":19,\"failed\":0,.*\"ok\":true\\}$"
  run scenarios/paimon_conflict.scn --json)
cli_source_test(run_json_failing 1 "\"expectations\":\\{\"passed\":1,\"failed\":2,.*\"ok\":false\\}$"
  run scenarios/tests/data/failing.scn --json)
cli_source_test(run_seed_flag_wins 0 "seed=9 sched=pct:depth=2 .*schedule: sched1:"
  run scenarios/paimon_race.scn --seed 9 --sched pct:depth=2)
add_test(NAME cli.run_dir_store
  COMMAND sh -c "rm -rf '${CMAKE_CURRENT_BINARY_DIR}/run-dir-test' && ${EXPECT_RUN} 0 '\"latest_snapshot\":6,.*\"ok\":true\\}$' -- $<TARGET_FILE:commitlab> run scenarios/paimon_conflict.scn --store dir --dir '${CMAKE_CURRENT_BINARY_DIR}/run-dir-test' --json && test -f '${CMAKE_CURRENT_BINARY_DIR}/run-dir-test/conflict_orders/snapshot/snapshot-6' && ! test -e '${CMAKE_CURRENT_BINARY_DIR}/run-dir-test/conflict_orders/snapshot/snapshot-7' && rm -rf '${CMAKE_CURRENT_BINARY_DIR}/run-dir-test'"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# `replay` runs the scenario text a `run` history records with its settings (--json and --trace
# are not part of them), and the history holds no absolute path.
add_test(NAME cli.run_trace_replays_identically
  COMMAND sh -c "$<TARGET_FILE:commitlab> run scenarios/paimon_retries_exhausted.scn --json --seed 5 --trace '${CMAKE_CURRENT_BINARY_DIR}/run-trace.jsonl' >/dev/null && ! grep -qF '${PROJECT_SOURCE_DIR}' '${CMAKE_CURRENT_BINARY_DIR}/run-trace.jsonl' && ${EXPECT_RUN} 0 '^replay identical: [0-9]+ events of `commitlab run scenarios/paimon_retries_exhausted.scn --seed 5`$' -- $<TARGET_FILE:commitlab> replay '${CMAKE_CURRENT_BINARY_DIR}/run-trace.jsonl'"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# --- golden histories: each scenario file's history for its own seed, kept in results/golden/
# (regenerate with ./run.sh golden). `replay` runs the recorded text again and compares event by event.
file(GLOB GOLDEN_SCENARIOS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/scenarios/*.scn)
foreach(scn ${GOLDEN_SCENARIOS})
  get_filename_component(name ${scn} NAME_WE)
  add_test(NAME scenario.golden.${name}
    COMMAND ${EXPECT_RUN} 0 "^replay identical: " -- $<TARGET_FILE:commitlab> replay results/golden/${name}.jsonl
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()

# A switch before --sched must not swallow it: the replayed trace must match.
add_test(NAME cli.race_replay_after_json_switch
  COMMAND sh -c "$<TARGET_FILE:commitlab> race --json --sched random --seed 3 --trace race-json.jsonl >/dev/null && ${EXPECT_RUN} 0 'replay identical' -- $<TARGET_FILE:commitlab> replay race-json.jsonl"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# commitlab timeline: a golden history drawn as a page and as a picture; bad arguments.
cli_test(timeline_html 0 "paimon_race_timeline.html: 2 writer\\(s\\), [0-9]+ span\\(s\\), ([1-9][0-9]*) lost race\\(s\\) \\(\\1 with the winner drawn\\), 60 snapshot\\(s\\)"
  timeline ${PROJECT_SOURCE_DIR}/results/golden/paimon_race.jsonl -o ${CMAKE_CURRENT_BINARY_DIR}/paimon_race_timeline.html)
cli_test(timeline_svg 0 "paimon_conflict_timeline.svg: 3 writer\\(s\\)"
  timeline ${PROJECT_SOURCE_DIR}/results/golden/paimon_conflict.jsonl -o ${CMAKE_CURRENT_BINARY_DIR}/paimon_conflict_timeline.svg)
cli_test(timeline_no_output 2 "commitlab timeline: missing -o OUT.html or -o OUT.svg"
  timeline ${PROJECT_SOURCE_DIR}/results/golden/paimon_race.jsonl)
cli_test(timeline_bad_extension 2 "-o run.png: expected a file ending in .html or .svg"
  timeline ${PROJECT_SOURCE_DIR}/results/golden/paimon_race.jsonl -o run.png)
cli_test(timeline_bad_axis 2 "--axis 'x' is not one of auto, time, step"
  timeline ${PROJECT_SOURCE_DIR}/results/golden/paimon_race.jsonl -o run.svg --axis x)
cli_test(timeline_not_a_history 2 "scenarios/paimon_race.scn:1: "
  timeline ${PROJECT_SOURCE_DIR}/scenarios/paimon_race.scn -o run.svg)
# commitlab step: keys from --keys (the terminal itself is tested through a pty in step_pty_test).
cli_source_test(step_keys 0 "== Two compaction jobs delete the same L0 files \\(scenarios/paimon_conflict.scn\\) == seed=1 sched=random. 3 writer\\(s\\).*-- step 0 · t = 0 ms --.*next: a b c .*-- step 1 · t = 0 ms --.*compact-job-2 held at order line [0-9]+ .*-- step 0 · t = 0 ms --.*picks so far: \\(none\\) the whole run \\(then the seed's picks\\): sched1:3w:"
  step scenarios/paimon_conflict.scn --keys nus)
cli_source_test(step_to_the_end 0 "the run is over: ([0-9]+) of \\1 expectations held, ok"
  step scenarios/paimon_conflict.scn --keys nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnq)
cli_test(step_missing 2 "commitlab step: missing the scenario file to step through" step)
cli_source_test(step_free 2 "commitlab step: --sched free runs OS threads, which cannot be stepped"
  step scenarios/paimon_conflict.scn --sched free)
cli_source_test(step_bad_file 2 "scenarios/README.md:[0-9]+:[0-9]+: unknown directive"
  step scenarios/README.md)

# commitlab explain and --explain: why a run went as it did, from its history.
cli_test(explain_conflict 0 "why: compact-job-2's COMPACT commit was refused: File deletion conflicts detected! Give up committing\\. .*data-bf08119f…-0\\.parquet +no: removed by #5 \\(compact-job-1\\) +DELETE +left over: conflict.*data-5ca3764b…-0\\.parquet +no +ADD +added.*\"Base commit user\" \\(compact-job-2\\) is the latest snapshot's author"
  explain ${PROJECT_SOURCE_DIR}/results/golden/paimon_conflict.jsonl)
cli_test(explain_lost_update 0 "worker-b read hits = 10 at metadata v1 and committed 15 as metadata v3: its read was stale, metadata v2 \\(worker-a's 15\\) landed after it"
  explain ${PROJECT_SOURCE_DIR}/results/golden/iceberg_counter_stale.jsonl)
cli_test(explain_violation 0 "why: the checker \\(lost\\): acknowledged commit of job-[AB] .* is not in the table"
  explain ${PROJECT_SOURCE_DIR}/results/golden/object_store_check_then_put.jsonl)
cli_test(explain_nothing 0 "paimon_lsm_disjoint.jsonl: nothing to explain"
  explain ${PROJECT_SOURCE_DIR}/results/golden/paimon_lsm_disjoint.jsonl)
cli_test(explain_not_a_history 2 "commitlab explain: .*scenarios/paimon_race.scn:1: "
  explain ${PROJECT_SOURCE_DIR}/scenarios/paimon_race.scn)
cli_test(explain_missing 2 "commitlab explain: missing the history file to explain" explain)
cli_source_test(run_explain 0 "expectations held.*why: w[0-9] gave up: Commit failed after 9223372036854775807 millis.*9223372036854775807 millis is Long.MAX_VALUE: commit.timeout is unset, so commit.max-retries \\(1\\) alone ended the commit"
  run scenarios/paimon_retries_exhausted.scn --explain)
cli_test(race_explain 0 "why: job-[AB] lost the race for snapshot #[0-9]+ to job-[AB] +job-[AB]'s attempt [0-9]+ built on .*job-[AB] waits [0-9.]+ ms = 10 ms × 2\\^[0-9]+ \\+ [0-9.]+ ms jitter \\(paimon policy, retry [0-9]+\\)"
  race --sched random --seed 3 --commits 5 --explain)
cli_test(race_explain_with_seeds 2 "--seeds and --explain do not go together"
  race --sched random --seeds 1..3 --explain)
# --timeline on run and race: drawn from the run's own history; no history file is left behind.
cli_source_test(run_timeline 0 "timeline: .*run_timeline.svg: 3 writer\\(s\\), 41 span\\(s\\)"
  run scenarios/paimon_conflict.scn --timeline ${CMAKE_CURRENT_BINARY_DIR}/run_timeline.svg)
cli_test(race_timeline 0 "timeline: .*race_timeline.html: 2 writer\\(s\\), .*60 snapshot\\(s\\)"
  race --sched random --seed 3 --timeline ${CMAKE_CURRENT_BINARY_DIR}/race_timeline.html)
cli_test(race_timeline_bad_extension 2 "--timeline r.png: expected a file ending in .html or .svg"
  race --timeline r.png)
cli_test(race_timeline_with_seeds 2 "--seeds and --timeline do not go together"
  race --sched random --seeds 1..3 --timeline r.svg)
