# The CLI against real catalogs: a throwaway PostgreSQL server (with_postgres) for each test that
# needs one, started by the test itself. Included from labs/CMakeLists.txt inside if(COMMITLAB_TESTS).
set(CATALOG_EXPECT_RUN ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_run.sh)

# Four writers on OS threads rename snapshots through an object store under Paimon's JDBC lock in
# PostgreSQL: every acknowledged commit lands once.
add_test(NAME cli.race_lock_in_postgres
  COMMAND $<TARGET_FILE:with_postgres> -- sh -c "${CATALOG_EXPECT_RUN} 0 'latest snapshot id: 40.*invariants: ok' -- $<TARGET_FILE:commitlab> race --store object:locked --lock \"$COMMITLAB_PG\" --sched free --writers 4 --commits 10")
set_tests_properties(cli.race_lock_in_postgres PROPERTIES LABELS catalog)
add_test(NAME cli.race_lock_needs_a_locked_store
  COMMAND ${CATALOG_EXPECT_RUN} 2 "--lock needs --store object:locked" -- $<TARGET_FILE:commitlab> race --lock "host=/nowhere")
add_test(NAME cli.race_lock_server_unreachable
  COMMAND ${CATALOG_EXPECT_RUN} 2 "--lock: cannot connect to PostgreSQL: connection to server on socket \"/nowhere/.s.PGSQL.5432\" failed" -- $<TARGET_FILE:commitlab> race --store object:locked --lock "host=/nowhere dbname=x")
add_test(NAME cli.race_lock_not_with_processes
  COMMAND ${CATALOG_EXPECT_RUN} 2 "--lock runs the writers as threads" -- $<TARGET_FILE:commitlab> race --store object:locked --lock "host=/nowhere" --processes 2)
add_test(NAME cli.race_lock_not_simulated
  COMMAND ${CATALOG_EXPECT_RUN} 2 "--lock needs --sched free" -- $<TARGET_FILE:commitlab> race --store object:locked --lock "host=/nowhere" --sched random)
