# End-to-end tests of the CLI: exit codes, messages and JSON fields.
set(EXPECT_RUN ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_run.sh)

# cli_test(NAME CODE REGEX ARGS...): `commitlab ARGS...` exits with CODE and prints REGEX.
function(cli_test name code regex)
  add_test(NAME cli.${name} COMMAND ${EXPECT_RUN} ${code} ${regex} -- $<TARGET_FILE:commitlab> ${ARGN})
endfunction()

cli_test(help 0 "Commands:.*race" --help)
cli_test(no_args 2 "Usage: commitlab" )
cli_test(unknown_command 2 "unknown command 'nope' \\(expected one of race" nope)
cli_test(race_unknown_flag 2 "commitlab race: unrecognised option '--bogus'" race --bogus)
cli_test(race_bad_number 2 "commitlab race: the argument \\('many'\\) for option '--writers' is invalid" race --writers many)
cli_test(race_writers_range 2 "--writers 0 is out of range 1..1000" race --writers 0)
cli_test(race_bad_store 2 "--store 's3' is not one of memory, dir" race --store s3)
cli_test(race_bad_policy 2 "--policy: .*unknown policy name \"expo\"" race --policy expo)
cli_test(race_dir_without_store 2 "--dir needs --store dir" race --dir somewhere)
cli_test(race_memory_json 0
  "\"latest_snapshot\": 60, \"failed_jobs\": 0, .*\"snapshots_per_user\": \\{\"job-A\": 30, \"job-B\": 30\\}, \"invariants_ok\": true"
  race --json)
cli_test(race_memory_log 0
  "Successfully commit snapshot .*latest snapshot id: 120.*\\{job-A=30, job-B=30, job-C=30, job-D=30\\}.*invariants: ok"
  race --writers 4)
add_test(NAME cli.race_dir_json
  COMMAND sh -c "rm -rf race-dir-test && ${EXPECT_RUN} 0 '\"latest_snapshot\": 80, .*\"invariants_ok\": true' -- $<TARGET_FILE:commitlab> race --store dir --dir race-dir-test --writers 4 --commits 20 --json && test -f race-dir-test/snapshot/snapshot-80 && ! test -e race-dir-test/snapshot/snapshot-81"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME cli.race_dir_refuses_existing_table
  COMMAND sh -c "rm -rf race-dir-used && $<TARGET_FILE:commitlab> race --store dir --dir race-dir-used --commits 1 --json >/dev/null && ${EXPECT_RUN} 2 'already holds a table' -- $<TARGET_FILE:commitlab> race --store dir --dir race-dir-used"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
