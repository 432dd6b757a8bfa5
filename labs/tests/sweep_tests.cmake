# End-to-end tests of `commitlab sweep`: flag errors exit 2 naming the flag; tiny sweeps write
# their files. Included from labs/CMakeLists.txt inside if(COMMITLAB_TESTS).
set(SWEEP_EXPECT_RUN ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_run.sh)

# sweep_test(NAME CODE REGEX ARGS...): `commitlab sweep ARGS...` exits with CODE and prints REGEX.
function(sweep_test name code regex)
  add_test(NAME cli.sweep_${name} COMMAND ${SWEEP_EXPECT_RUN} ${code} ${regex} -- $<TARGET_FILE:commitlab> sweep ${ARGN}
           WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
endfunction()

sweep_test(help 0 "commitlab sweep \\[options\\].*--experiment.*--policies" --help)
sweep_test(unknown_flag 2 "commitlab sweep: unrecognised option '--bogus'" --bogus)
sweep_test(bad_experiment 2 "--experiment 'nope' is not one of brooker, capacity, formats, all" --experiment nope)
sweep_test(bad_protocol 2 "--protocols \"paimon,hudi\": piece \"hudi\" is not one of paimon, iceberg, delta" --experiment formats --protocols paimon,hudi)
sweep_test(capacity_list_for_brooker 2 "--capacity \"100,200\": brooker takes one capacity \\(a list is for --experiment capacity\\)" --experiment brooker --capacity 100,200)
sweep_test(bad_capacity 2 "--capacity \"fast\": piece \"fast\": expected an integer" --experiment capacity --capacity fast)
sweep_test(queue_range 2 "--queue -1 is out of range 0..100000" --queue -1)
sweep_test(writers_range 2 "--writers 0 is out of range 1..10000" --writers 0)
sweep_test(runs_not_a_number 2 "the argument \\('many'\\) for option '--runs' is invalid" --runs many)
sweep_test(runs_range 2 "--runs 0 is out of range 1..100000" --runs 0)
sweep_test(threads_range 2 "--threads -1 is out of range 0..256" --threads -1)
sweep_test(commits_range 2 "--commits 0 is out of range 1..100000" --commits 0)
sweep_test(bad_n 2 "--n \"5..1\": piece \"5..1\": FROM must not exceed TO" --n 5..1)
sweep_test(bad_appenders 2 "--appenders \"2,x\": piece \"x\": expected an integer" --appenders 2,x)
sweep_test(bad_policy 2 "--policies: .*unknown policy name \"bogus\"" --policies none,bogus)
sweep_test(repeated_policy 2 "--policies: .*\"none\" is given twice" --policies none,none)
# A bad --out fails before any run: no "done in" line.
add_test(NAME cli.sweep_out_is_a_file
  COMMAND sh -c "rm -rf sweep-out-file && touch sweep-out-file && ${SWEEP_EXPECT_RUN} 2 '^commitlab sweep: --out: cannot create directory sweep-out-file' -- $<TARGET_FILE:commitlab> sweep --out sweep-out-file"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME cli.sweep_out_under_a_file
  COMMAND sh -c "rm -rf sweep-out-under && touch sweep-out-under && ${SWEEP_EXPECT_RUN} 2 '^commitlab sweep: --out: cannot create directory sweep-out-under/sub: Not a directory' -- $<TARGET_FILE:commitlab> sweep --quick --out sweep-out-under/sub"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
sweep_test(out_is_a_device 2 "^commitlab sweep: --out: cannot create directory /dev/full: Not a directory" --quick --out /dev/full)
# A folder it may not write into, also refused before any run. Root may write anywhere, so as root
# the command runs as nobody.
add_test(NAME cli.sweep_out_not_writable
  COMMAND sh -c "as=; [ \"$(id -u)\" -ne 0 ] || as='setpriv --reuid=nobody --regid=nogroup --clear-groups'; rm -rf sweep-ro && mkdir sweep-ro && chmod 555 sweep-ro && ${SWEEP_EXPECT_RUN} 2 '^commitlab sweep: --out: cannot write into sweep-ro: Permission denied' -- $as $<TARGET_FILE:commitlab> sweep --quick --out sweep-ro"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
# A write that fails part-way (here a file-size limit, which binds root too, as a full disk would)
# is exit 2 naming the file and why, and leaves the previous files as they were, no temporary.
add_test(NAME cli.sweep_failed_write_keeps_the_old_files
  COMMAND sh -c "rm -rf sweep-fsize && mkdir sweep-fsize && echo old > sweep-fsize/brooker.tsv && (trap '' XFSZ && ulimit -f 2 && ${SWEEP_EXPECT_RUN} 2 'commitlab sweep: cannot write sweep-fsize/[a-z-]+\\.svg: File too large' -- $<TARGET_FILE:commitlab> sweep --experiment brooker --n 2,5 --policies none,full-jitter --runs 3 --out sweep-fsize) && [ \"$(cat sweep-fsize/brooker.tsv)\" = old ] && [ \"$(ls -A sweep-fsize)\" = brooker.tsv ]"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# A tiny sweep of each experiment writes its TSV (header + one row per point), plots and summary.
add_test(NAME cli.sweep_tiny_brooker
  COMMAND sh -c "rm -rf sweep-tiny-b && ${SWEEP_EXPECT_RUN} 0 'brooker: 2 writer counts x 2 policies x 3 runs = 12 runs.*Who wins at each N' -- $<TARGET_FILE:commitlab> sweep --experiment brooker --n 2,5 --policies none,full-jitter --runs 3 --threads 2 --out sweep-tiny-b && test $(wc -l < sweep-tiny-b/brooker.tsv) -eq 5 && test -s sweep-tiny-b/brooker-calls.svg && test -s sweep-tiny-b/brooker-completion.svg && test -s sweep-tiny-b/summary.md && ! test -e sweep-tiny-b/formats.tsv"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME cli.sweep_tiny_formats
  COMMAND sh -c "rm -rf sweep-tiny-f && ${SWEEP_EXPECT_RUN} 0 'formats: 1 writer counts x 3 protocols x 3 policies x 2 runs = 18 runs.*highest throughput.*Against 04' -- $<TARGET_FILE:commitlab> sweep --experiment formats --appenders 3 --commits 4 --policies none,paimon,iceberg --runs 2 --out sweep-tiny-f && test $(wc -l < sweep-tiny-f/formats.tsv) -eq 10 && test -s sweep-tiny-f/formats-iceberg-commits-per-s.svg && test -s sweep-tiny-f/formats-protocols-commits-per-s.svg && ! test -e sweep-tiny-f/brooker.tsv"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME cli.sweep_tiny_capacity
  COMMAND sh -c "rm -rf sweep-tiny-c && ${SWEEP_EXPECT_RUN} 0 'capacity: 1 writer counts x 2 capacities x 2 policies x 3 runs = 12 runs.*Who finishes first.*No backoff finishes first at' -- $<TARGET_FILE:commitlab> sweep --experiment capacity --writers 8 --capacity 0,200 --policies none,full-jitter --runs 3 --out sweep-tiny-c && test $(wc -l < sweep-tiny-c/capacity.tsv) -eq 5 && test -s sweep-tiny-c/capacity-throttled.svg"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
# The same seed writes the same bytes whatever the thread count.
add_test(NAME cli.sweep_same_bytes_any_threads
  COMMAND sh -c "rm -rf sweep-t1 sweep-t2 && $<TARGET_FILE:commitlab> sweep --experiment brooker --n 3,6 --runs 5 --seed 9 --threads 1 --out sweep-t1 >/dev/null && $<TARGET_FILE:commitlab> sweep --experiment brooker --n 3,6 --runs 5 --seed 9 --threads 2 --out sweep-t2 >/dev/null && cmp sweep-t1/brooker.tsv sweep-t2/brooker.tsv && cmp sweep-t1/summary.md sweep-t2/summary.md"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
# --advise ranks a grid at one point and writes no files.
add_test(NAME cli.sweep_advise
  COMMAND sh -c "rm -rf sweep-advise && mkdir sweep-advise && cd sweep-advise && ${SWEEP_EXPECT_RUN} 0 'advise: 3 policies x 4 runs = 12 runs.*# Retry policy advice.*3 writers appending on delta.*Advice: \\\\*\\\\*' -- $<TARGET_FILE:commitlab> sweep --advise --writers 3 --protocols delta --commits 3 --policies none,full-jitter,paimon --runs 4 && [ -z \"$(ls -A)\" ]"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
sweep_test(advise_two_protocols 2 "--advise takes one protocol, not \"paimon,delta\"" --advise --protocols paimon,delta)
sweep_test(advise_with_appenders 2 "--appenders does not go with --advise \\(the point is --writers\\)" --advise --appenders 8)
sweep_test(advise_with_experiment 2 "--experiment does not go with --advise" --advise --experiment brooker)
sweep_test(capacity_too_high 2 "--capacity \"2000000\": piece \"2000000\": out of range 0..1000000" --experiment brooker --capacity 2000000)

# Golden sweeps: each one's rows byte for byte as recorded in results/golden/sweep/ by the build of
# main at 8da86dc, before the sweep's per-call cost was cut (so a faster sweep must be the same
# sweep). Brooker's set-up at several seeds and policies, against a limited store, the capacity
# experiment and the three protocols. Record again only for a deliberate change of the model:
# GOLDEN_WRITE=1 ctest -R golden_sweep.
set(GOLDEN_JSON ${CMAKE_CURRENT_SOURCE_DIR}/tests/golden_json.sh)
function(sweep_golden name)
  add_test(NAME golden_sweep.${name}
    COMMAND ${GOLDEN_JSON} 0 ${PROJECT_SOURCE_DIR}/results/golden/sweep/${name}.json -- $<TARGET_FILE:commitlab> sweep --json ${ARGN})
  set_tests_properties(golden_sweep.${name} PROPERTIES LABELS golden)
endfunction()
sweep_golden(brooker_seed1 --experiment brooker --runs 10 --seed 1)
sweep_golden(brooker_seed7 --experiment brooker --n 10,100,190 --runs 10 --seed 7)
sweep_golden(brooker_policies --experiment brooker --n 5,33,150 --policies none,full-jitter:base=1ms,exponential:base=2ms,cap=500ms,paimon,iceberg:retries=2 --runs 30 --seed 42)
sweep_golden(brooker_limited_store --experiment brooker --capacity 700 --n 10,60 --runs 20 --seed 5)
sweep_golden(capacity --experiment capacity --runs 5 --seed 3)
sweep_golden(formats --experiment formats --appenders 2,8 --commits 5 --runs 3 --seed 4)
