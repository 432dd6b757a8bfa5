# End-to-end tests of `commitlab explore`: what it finds, the command it prints, exit codes.
cli_source_test(explore_finds_the_lost_commit 1
  "search: complete.*found: +violation lost \\(the file expects it\\): in [0-9]+ of [0-9]+ executions, shortest: counterexample 1.*counterexample 1: [0-9]+ steps, [0-9]+ context switch(es)? +schedule: sched1:2w:.*reproduce: commitlab run scenarios/object_store_check_then_put.scn --untimed --seed 1 --ignore-order --schedule sched1:2w:[0-9]+s:[ab0-9]+ .*no order lines can force it"
  explore scenarios/object_store_check_then_put.scn --ignore-order)
# The printed command replays the counterexample: the same loss.
add_test(NAME cli.explore_reproduce_command_replays_it
  COMMAND sh -c "cmd=$($<TARGET_FILE:commitlab> explore scenarios/object_store_check_then_put.scn --ignore-order | grep -m1 'reproduce: ' | sed 's/.*reproduce: commitlab //') && eval \"${EXPECT_RUN} 0 'PASS [^ ]*:[0-9]+: expect invariant-violation lost .*ok: 6 of 6 expectations held' -- $<TARGET_FILE:commitlab> $cmd\""
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# A lost publish at any hit of job-Y is retried: every interleaving keeps both commits once.
cli_source_test(explore_sound_configuration 0
  "executions: [0-9]+ run to the end.*search: complete.*no failure in any execution"
  explore scenarios/paimon_idempotent.scn --fault job-Y:publish.before:maybe:lost)
cli_source_test(explore_lost_update_order_lines 1
  "violation lost_update \\(the file expects it\\).*as order lines \\(added to the file, a timed run shows it on 5 of seeds 1..5\\): +order setup.s -> worker-a.r"
  explore scenarios/iceberg_counter_stale.scn --ignore-order)
cli_source_test(explore_json 1
  "^\\{\"format\":\"commitlab-explore\",\"version\":1,.*\"executions\":[0-9]+,.*\"complete\":true,.*\"findings\":\\[\\{\"kind\":\"lost\",.*\"reproduce\":\"commitlab run .*\"ok\":false\\}$"
  explore scenarios/object_store_check_then_put.scn --ignore-order --json)
cli_source_test(explore_preemption_bound_incomplete 1
  "search: INCOMPLETE: [0-9]+ cut by --preemptions.*order lines: label these lines to order them: job-A line 27, job-B line 28"
  explore scenarios/paimon_race_excerpt.scn --preemptions 0)
cli_source_test(explore_refuses_p_faults 2
  "commitlab explore: explore: fault \\*:publish.before:p=0.1:error draws from the run's random stream.*write the trigger as maybe"
  explore scenarios/paimon_unknown.scn --fault "*:publish.before:p=0.1:error")
cli_source_test(explore_bad_bound 2 "--preemptions must be -1 \\(no bound\\) or >= 0" explore scenarios/paimon_unknown.scn --preemptions -3)
cli_source_test(explore_missing_file 2 "missing the scenario file to explore" explore)
cli_source_test(explore_unreadable_file 2 "commitlab explore: .*nope.scn" explore nope.scn)

# commitlab shrink: a failing run reduced to a small file that shows the same violation.
add_test(NAME cli.shrink_writes_a_file_that_run_passes
  COMMAND sh -c "${EXPECT_RUN} 0 'before: 8 writers, 480 steps, 2 fault rules.*after: +2 writers, [24] steps, 0 fault rules.*wrote ${CMAKE_CURRENT_BINARY_DIR}/shrunk.scn' -- $<TARGET_FILE:commitlab> shrink scenarios/tests/data/shrink_check_then_put.scn --seed 3 -o '${CMAKE_CURRENT_BINARY_DIR}/shrunk.scn' && ${EXPECT_RUN} 0 'PASS .*expect invariant-violation lost .*ok: 1 of 1 expectations held' -- $<TARGET_FILE:commitlab> run '${CMAKE_CURRENT_BINARY_DIR}/shrunk.scn'"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME cli.shrink_a_history
  COMMAND sh -c "$<TARGET_FILE:commitlab> race --sched random --seed 4 --writers 4 --commits 5 --fault 'job-C:publish.after:nth=2:unknown' --idempotency-check off --trace shrink-race.jsonl >/dev/null; ${EXPECT_RUN} 0 'shrink shrink-race.jsonl \\(seed 4\\).*violation kept: (add_live|duplicate).*after: +1 writer, [24] steps, 1 fault rule' -- $<TARGET_FILE:commitlab> shrink shrink-race.jsonl -o shrink-race.min.scn && grep -qx 'fault job-C:publish.after:nth=1:unknown' shrink-race.min.scn"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
cli_source_test(shrink_no_violation 2 "commitlab shrink: seed 42 shows no invariant violation: nothing to shrink"
  shrink scenarios/paimon_race.scn -o ${CMAKE_CURRENT_BINARY_DIR}/never.scn)
cli_source_test(shrink_bad_kind 2 "--kind bogus is not a checker violation kind"
  shrink scenarios/object_store_check_then_put.scn --kind bogus -o ${CMAKE_CURRENT_BINARY_DIR}/never.scn)
cli_source_test(shrink_refuses_to_overwrite_its_input 2 "--output would overwrite the input"
  shrink scenarios/object_store_check_then_put.scn -o scenarios/object_store_check_then_put.scn)
cli_source_test(shrink_history_with_seed 2 "a history carries its own seed and faults"
  shrink results/golden/paimon_race.jsonl --seed 3)
# A search that finished no execution knows nothing: not a pass.
cli_source_test(explore_nothing_ran 1 "executions: 0 run to the end.*no execution ran to its end: nothing is known"
  explore scenarios/paimon_unknown.scn --max-steps 1)
# The file's own order lines are not suggested again.
cli_source_test(explore_keeps_the_files_order 0 "order lines: none beyond the file's own: they already force this order"
  explore scenarios/iceberg_counter_stale.scn)
# Every violation the small file shows is expected, so run passes (a duplicate is an add_live too).
add_test(NAME cli.shrink_expects_every_kind_it_shows
  COMMAND sh -c "$<TARGET_FILE:commitlab> shrink scenarios/paimon_unknown_no_check.scn --kind add_live -o '${CMAKE_CURRENT_BINARY_DIR}/dup.min.scn' >/dev/null && tail -2 '${CMAKE_CURRENT_BINARY_DIR}/dup.min.scn' | tr '\\n' ' ' | grep -q 'expect invariant-violation add_live expect invariant-violation duplicate' && ${EXPECT_RUN} 0 'ok: 2 of 2 expectations held' -- $<TARGET_FILE:commitlab> run '${CMAKE_CURRENT_BINARY_DIR}/dup.min.scn'"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# The file's seed line decides, as for run.
cli_source_test(explore_uses_the_files_seed 1 "^explore scenarios/paimon_race_excerpt.scn: seed 268,.*INCOMPLETE: stopped after --max-executions 5"
  explore scenarios/paimon_race_excerpt.scn --max-executions 5)

# Golden explorations: each one's report byte for byte as recorded in results/golden/explore/ by
# the build of main at 8da86dc, before the explorer's per-execution cost was cut (so a faster
# search must be the same search: the same executions, outcomes and findings). GOLDEN_JSON is
# labs/tests/golden_json.sh (sweep_tests.cmake); record again only for a deliberate change:
# GOLDEN_WRITE=1 ctest -R golden_explore.
function(explore_golden name code)
  add_test(NAME golden_explore.${name}
    COMMAND ${GOLDEN_JSON} ${code} ${PROJECT_SOURCE_DIR}/results/golden/explore/${name}.json -- $<TARGET_FILE:commitlab> explore --json ${ARGN}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(golden_explore.${name} PROPERTIES LABELS golden)
endfunction()
explore_golden(race_2x2 0 scenarios/tests/data/race_2x2.scn)
explore_golden(race_2x2_unreduced 0 scenarios/tests/data/race_2x2.scn --no-reduction --max-executions 20000)
explore_golden(check_then_put 1 scenarios/object_store_check_then_put.scn --ignore-order)
explore_golden(counter_stale 1 scenarios/iceberg_counter_stale.scn --ignore-order)
explore_golden(idempotent_lost_publish 0 scenarios/paimon_idempotent.scn --fault job-Y:publish.before:maybe:lost)
