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
