# --shard I/N and `commitlab merge`: N shards merged equal the unsharded run's report, field for
# field, for N = 1, 3 and 7 (expect_merge.sh); shards that do not belong together are refused.
set(EXPECT_MERGE ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_merge.sh)
function(shard_test name)
  foreach(n 1 3 7)
    add_test(NAME cli.shard.${name}.n${n} COMMAND ${EXPECT_MERGE} $<TARGET_FILE:commitlab> ${n} ${ARGN}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endforeach()
endfunction()
# A seed hunt with failures of two kinds, a swarm hunt, a --find that stops in the middle shard.
shard_test(seeds race --sched random --seeds 1..40 --fault job-B:publish.after:nth=1:unknown --idempotency-check off)
shard_test(seeds_run run scenarios/paimon_race.scn --seeds 1..30)
shard_test(swarm race --sched random --seeds 1..60 --swarm --idempotency-check off --commits 5)
shard_test(find race --sched random --seeds 1..200 --find atomic_failures=25)
# A complete exploration with failures (shortest counterexamples) and one with a maybe fault.
shard_test(explore explore scenarios/object_store_check_then_put.scn --ignore-order)
shard_test(explore_maybe explore scenarios/paimon_idempotent.scn --fault job-Y:publish.before:maybe:lost)
shard_test(explore_bounded explore scenarios/iceberg_counter_stale.scn --ignore-order --preemptions 1)
shard_test(sweep sweep --experiment brooker --n 10,20,30 --runs 5 --policies none,exponential,full-jitter)

# Refusals, each naming the file: a shard missing, given twice, of other flags, scenario or build.
set(SHARDS ${CMAKE_CURRENT_BINARY_DIR}/shard-refusals)
add_test(NAME cli.shard.refusals COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/shard_refusals.sh $<TARGET_FILE:commitlab>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
cli_test(shard_bad 2 "--shard '3/3': I must be 0..2" race --sched random --seeds 1..10 --shard 3/3)
cli_test(shard_not_a_fraction 2 "--shard 'x' is not I/N" race --sched random --seeds 1..10 --shard x)
cli_test(shard_without_seeds 2 "--shard needs --seeds A..B" race --sched random --shard 0/2)
cli_test(shard_more_than_seeds 2 "--shard 0/5: the 3 seed\\(s\\) of --seeds 1..3 leave this shard empty" race --sched random --seeds 1..3 --shard 0/5)
cli_test(merge_nothing 2 "missing the shard files to merge" merge)

# A real single-node Slurm cluster (munged, slurmctld, slurmd started by the test, stopped by pid):
# a hunt and an exploration as 4-task job arrays with their merge jobs (labs/tests/slurm_cluster.sh).
add_test(NAME cluster.slurm COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/slurm_cluster.sh $<TARGET_FILE:commitlab>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(cluster.slurm PROPERTIES LABELS cluster TIMEOUT 900 RUN_SERIAL TRUE)

# merge --text ends with the summary the unsharded run prints after its seeds' lines.
add_test(NAME cli.shard.text_summary
  COMMAND bash -c "d=$(mktemp -d); a=(race --sched random --seeds 1..60 --swarm --idempotency-check off --commits 5); for i in 0 1 2; do $<TARGET_FILE:commitlab> \"\${a[@]}\" --shard $i/3 > $d/$i.json; done; whole=$($<TARGET_FILE:commitlab> \"\${a[@]}\" | sed -n '/^[0-9]* runs: /,$p'); merged=$($<TARGET_FILE:commitlab> merge --text $d/*.json | sed -n '/^[0-9]* runs: /,$p'); rm -rf $d; [ -n \"$whole\" ] && [ \"$whole\" = \"$merged\" ]")
# A portfolio: shards 0, 1, 2 run bounded, dfs and random searches side by side; the union is
# complete because the dfs member finished, and keeps each member's coverage curve.
add_test(NAME cli.shard.portfolio
  COMMAND bash -c "d=$(mktemp -d); for i in 0 1 2; do $<TARGET_FILE:commitlab> explore scenarios/object_store_check_then_put.scn --ignore-order --portfolio --coverage --max-executions 500 --shard $i/3 > $d/$i.json; done; $<TARGET_FILE:commitlab> merge $d/*.json > $d/m.json; python3 -c \"import json,sys; m=json.load(open(sys.argv[1])); s=[json.load(open(f'{sys.argv[2]}/{i}.json')) for i in range(3)]; assert m['search']=='portfolio' and m['complete'], m['complete']; assert [c['search'] for c in m['coverage']]==['bounded','dfs','random'], m['coverage']; assert len(m['outcomes'])>=max(len(x['outcomes']) for x in s); print('portfolio merged:', len(m['outcomes']), 'outcomes')\" $d/m.json $d; r=$?; rm -rf $d; exit $r"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
