# Tests of `commitlab lab iceberg` and `commitlab lab delta`: end to end through the CLI (exit codes,
# the experiments' key lines and verdicts), and the narration formatters as unit tests.
# Included from labs/CMakeLists.txt when BUILD_TESTING is on.
set(LAB_EXPECT_RUN ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_run.sh)

# lab_test(NAME CODE REGEX ARGS...): `commitlab ARGS...` exits with CODE and prints REGEX (newlines
# are spaces to the regex).
function(lab_test name code regex)
  add_test(NAME lab.${name} COMMAND ${LAB_EXPECT_RUN} ${code} ${regex} -- $<TARGET_FILE:commitlab> ${ARGN})
endfunction()

# Iceberg.
lab_test(iceberg_all 0
  "1\\. race +AGREES.*2\\. retries0 +AGREES.*3\\. counter +AGREES.*4\\. isolation +AGREES.*7\\. expiry +AGREES"
  lab iceberg)
lab_test(iceberg_race 0
  "CommitFailedException: Cannot commit to table db\\.events.*attempt 2.*lost the swap v1 -> v2 once.*3 snapshots form one line"
  lab iceberg --experiment race)
lab_test(iceberg_retries0 0
  "policy iceberg:retries=0.*ERROR \\[writer-b\\] CommitFailedException.*refused with CommitFailedException.*orphans\\): 2 \\(data 1, metadata 1\\).*deleted data/writer-b-0\\.parquet.*after cleanup: 0 orphans.*left 2 orphan files.*0 left"
  lab iceberg --experiment retries0)
lab_test(iceberg_counter 0
  "ValidationException: Found conflicting files that can contain records matching ref\\(name=\"name\"\\) == \"hits\".*lost update: counter hits is 15, but 2 acknowledged increments of 5 from 10 make 20 \\(1 increment lost\\).*counter hits = 20, 2 acknowledged increment\\(s\\), none lost.*3\\. counter +AGREES +3 of 3"
  lab iceberg --experiment counter)
lab_test(iceberg_isolation 0
  "writer-1 committed, writer-2 committed.*writer-2 refused \\(ValidationException\\).*isolation serializable.*deleter refused \\(ValidationException\\).*isolation snapshot.*deleter committed. the concurrently inserted row survives it"
  lab iceberg --experiment isolation)
lab_test(iceberg_expiry 0
  "read all 4 rows of its snapshot \\(expiry kept it\\).*refused: FileNotFoundException: File does not exist: data/setup-0\\.parquet.*reader failed with FileNotFoundException"
  lab iceberg --experiment expiry)
lab_test(iceberg_json 0
  "^\\{\"lab\": \"iceberg\", \"as_seed\": true, \"experiments\": \\[\\{\"number\": 3, \"key\": \"counter\", \"as_seed\": true"
  lab iceberg --experiment counter --json)
lab_test(iceberg_bad_experiment 2
  "commitlab lab iceberg: --experiment 'nope' is not one of race, retries0, counter, isolation, expiry"
  lab iceberg --experiment nope)
lab_test(iceberg_bad_flag 2 "commitlab lab iceberg: unrecognised option '--bogus'" lab iceberg --bogus)
lab_test(iceberg_help 0 "--experiment arg +one of race, retries0, counter, isolation, expiry" lab iceberg --help)

# Delta.
lab_test(delta_all 0
  "ConcurrentAppendException.*pairs vs docs.*5\\. conflicts +AGREES.*5\\. matrix +AGREES.*6\\. objectstore +AGREES"
  lab delta)
lab_test(delta_conflicts 0
  "FileAlreadyExistsException: events/_delta_log/00000000000000000001\\.json.*B committed after 1 collision.*ConcurrentDeleteDeleteException.*refused with ConcurrentAppendException.*Conflicting commit: .*OPTIMIZE committed.*refused with ConcurrentDeleteReadException.*refused with ConcurrentTransactionException.*5\\. conflicts +AGREES +8 of 8"
  lab delta --experiment conflicts)
lab_test(delta_matrix 0
  "Serializable \\(table level\\).*INSERT +commits +Append +Append +Append +commits.*Serializable: 15 of 15 pairs as documented.*WriteSerializable \\(table level\\).*INSERT +commits +commits +commits +commits +commits.*WriteSerializable: 15 of 15 pairs as documented"
  lab delta --experiment matrix)
lab_test(delta_objectstore 0
  "check-then-put: [1-9][0-9]* acknowledged commit\\(s\\) lost.*locked: 0 acknowledged.*conditional-put: 0 acknowledged"
  lab delta --experiment objectstore)
lab_test(delta_bad_experiment 2
  "commitlab lab delta: --experiment 'nope' is not one of conflicts, matrix, objectstore" lab delta --experiment nope)

# The scripted experiments print the same text on every run.
add_test(NAME lab.deterministic
  COMMAND sh -c "a=$($<TARGET_FILE:commitlab> lab iceberg; $<TARGET_FILE:commitlab> lab delta) && b=$($<TARGET_FILE:commitlab> lab iceberg; $<TARGET_FILE:commitlab> lab delta) && [ \"$a\" = \"$b\" ]")

add_executable(lab_narration_test tests/lab_narration_test.cc lab_narration.cc cli.cc)
target_include_directories(lab_narration_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(lab_narration_test PRIVATE commitlab_core Boost::program_options fmt::fmt GTest::gtest_main
                      commitlab_warnings)
gtest_discover_tests(lab_narration_test DISCOVERY_MODE PRE_TEST)
