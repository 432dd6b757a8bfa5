# End-to-end tests of --seeds as a seed hunt: kinds with counts, histograms, --find, threads.
cli_test(seeds_histograms 0
  "lost races \\(atomic commit failures\\) per run: +[0-9]+(\\.\\.[0-9]+)? +█+ [0-9]+.*commit attempts per run:.*virtual time per run: +[0-9.]+ ms"
  race --sched random --seeds 1..12)
cli_test(seeds_failure_kinds 1
  "what failed, by kind: +add_live: 6 of 6 seeds, first seed 1 .* +duplicate: 6 of 6 seeds, first seed 1 +acknowledged commit of job-B identifier 1 kind APPEND appears 2 times.* +reproduce: commitlab race --sched random --fault job-B:publish.after:nth=1:unknown --idempotency-check off --seed 1"
  race --sched random --seeds 1..6 --fault job-B:publish.after:nth=1:unknown --idempotency-check off)
cli_test(seeds_find_stops_at_the_first_match 0
  "seed +12: atomic commit failures +25.*[^0-9]12 runs: .*found: seed 12 matches atomic_failures=25 +reproduce: commitlab race --sched random --seed 12$"
  race --sched random --seeds 1..200 --find atomic_failures=25)
cli_test(seeds_find_not_found 1 "not found: no seed of 1..5 matches gave_up>=1" race --sched random --seeds 1..5 --find "gave_up>=1")
cli_test(seeds_find_bad_name 2 "--find: unknown name \"lost\" \\(expected committed, attempts" race --sched random --seeds 1..5 --find lost=3)
cli_test(seeds_find_bad_value 2 "--find: \"atomic_failures=x\": expected a whole number after =" race --sched random --seeds 1..5 --find atomic_failures=x)
cli_test(find_without_seeds 2 "--find needs --seeds A..B" race --sched random --find atomic_failures=3)
cli_test(threads_without_seeds 2 "--threads needs --seeds A..B" race --sched random --threads 2)
# The same output whatever the number of threads.
add_test(NAME cli.seeds_same_output_on_any_thread_count
  COMMAND sh -c "a=$($<TARGET_FILE:commitlab> run scenarios/paimon_race.scn --seeds 1..30 --threads 1) ; b=$($<TARGET_FILE:commitlab> run scenarios/paimon_race.scn --seeds 1..30 --threads 3); [ -n \"$a\" ] && [ \"$a\" = \"$b\" ]"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# --swarm: each seed its own subset of faults; violations attributed to the faults that were on.
cli_test(swarm_sound_race 0 "swarm: each seed turned on its own subset of 11 fault kinds.*no invariant violation under any of the 60 configurations"
  race --sched random --seeds 1..60 --swarm)
cli_test(swarm_idempotency_off 1
  "duplicate: [0-9]+ of 60 seeds +one of these was on in every one: (publish.after:unknown, publish.after:error|publish.after:error, publish.after:unknown) .*seed [0-9]+ shows it with [0-9]+ fault kinds? on: commitlab race --sched random --idempotency-check off --fault"
  race --sched random --seeds 1..60 --swarm --idempotency-check off)
cli_source_test(swarm_check_then_put 0 "lost: [0-9]+ of 40 seeds +no fault kind goes with it more than chance: it does not need the faults"
  run scenarios/object_store_check_then_put.scn --seeds 1..40 --swarm)
cli_source_test(swarm_counter_reread_is_sound 0 "no invariant violation under any of the 200 configurations"
  run scenarios/iceberg_counter_reread.scn --seeds 1..200 --swarm)
cli_source_test(swarm_counter_stale_is_caught 0 "lost_update: [0-9]+ of 60 seeds"
  run scenarios/iceberg_counter_stale.scn --seeds 1..60 --swarm)
cli_test(swarm_without_seeds 2 "--swarm needs --seeds A..B" race --sched random --swarm)
# The example command reproduces the violation without --swarm: the rules are on its line.
add_test(NAME cli.swarm_example_replays
  COMMAND sh -c "cmd=$($<TARGET_FILE:commitlab> race --sched random --seeds 1..60 --swarm --idempotency-check off | grep -m1 'shows it with' | sed 's/.*: commitlab //') && eval \"${EXPECT_RUN} 1 'invariants: VIOLATED.*duplicate' -- $<TARGET_FILE:commitlab> $cmd\"")
add_test(NAME cli.swarm_same_output_on_any_thread_count
  COMMAND sh -c "a=$($<TARGET_FILE:commitlab> race --sched random --seeds 1..40 --swarm --idempotency-check off --threads 1) ; b=$($<TARGET_FILE:commitlab> race --sched random --seeds 1..40 --swarm --idempotency-check off --threads 4); [ -n \"$a\" ] && [ \"$a\" = \"$b\" ]")
# The last seeds of the range: no wrap past 2^64 - 1.
cli_test(seeds_at_the_top_of_the_range 0 "seed 18446744073709551615: .*6 runs: "
  race --sched random --commits 2 --seeds 18446744073709551610..18446744073709551615)
# --find under --swarm: the command it prints carries the seed's faults.
cli_test(swarm_find_reproduces 0 "found: seed [0-9]+ matches violations>=1 +reproduce: commitlab race --sched random --idempotency-check off --fault '\\*:"
  race --sched random --seeds 1..60 --swarm --idempotency-check off --find "violations>=1")
cli_test(seeds_find_out_of_range 2 "--find: \"committed=99999999999999999999\": 99999999999999999999 is out of range"
  race --sched random --seeds 1..3 --find committed=99999999999999999999)
