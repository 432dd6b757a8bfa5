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

# Scenario files unchanged on catalogs on real servers (run --catalog): the JDBC catalog keeps the
# in-memory catalog's pointer swap, so every expectation holds; so do the counter's on a REST server.
foreach(name iceberg_append_race iceberg_counter iceberg_counter_stale iceberg_commit_state_unknown)
  add_test(NAME cli.run_${name}_on_jdbc
    COMMAND $<TARGET_FILE:with_postgres> -- sh -c "${CATALOG_EXPECT_RUN} 0 'ok: [0-9]+ of [0-9]+ expectations held' -- $<TARGET_FILE:commitlab> run ${PROJECT_SOURCE_DIR}/scenarios/${name}.scn --catalog jdbc"
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(cli.run_${name}_on_jdbc PROPERTIES LABELS catalog)
endforeach()
foreach(name iceberg_counter iceberg_counter_stale iceberg_counter_reread iceberg_delete_isolation)
  add_test(NAME cli.run_${name}_on_rest_server
    COMMAND ${CATALOG_EXPECT_RUN} 0 "ok: [0-9]+ of [0-9]+ expectations held" -- $<TARGET_FILE:commitlab> run scenarios/${name}.scn --catalog rest-server
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(cli.run_${name}_on_rest_server PROPERTIES LABELS catalog)
endforeach()
# Through a REST server the loser's message is the server's requirement, and the client writes no
# metadata file for the lost attempt: two expectations of the in-memory catalog's file differ.
add_test(NAME cli.run_append_race_on_rest_server_differs_only_where_rest_does
  COMMAND ${CATALOG_EXPECT_RUN} 1 "FAIL .*expect tally orphan_files 1 \\(saw tally orphan_files 0\\).*9 of 10 expectations held" -- $<TARGET_FILE:commitlab> run scenarios/iceberg_append_race.scn --catalog rest-server
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME cli.run_jdbc_needs_a_database
  COMMAND env -u COMMITLAB_PG ${CATALOG_EXPECT_RUN} 2 "catalog=jdbc needs a PostgreSQL database: set COMMITLAB_PG" -- $<TARGET_FILE:commitlab> run scenarios/iceberg_counter.scn --catalog jdbc
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME cli.run_catalog_needs_an_iceberg_table
  COMMAND ${CATALOG_EXPECT_RUN} 2 "--catalog: the scenario has no Iceberg table" -- $<TARGET_FILE:commitlab> run scenarios/paimon_race.scn --catalog jdbc
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# `race --catalog` is `catalog race`: Iceberg writer processes through the JDBC catalog.
add_test(NAME cli.race_catalog_postgres_processes
  COMMAND $<TARGET_FILE:with_postgres> -- sh -c "d=$(mktemp -d) && ${CATALOG_EXPECT_RUN} 0 'every acknowledged commit is in the table \\(15 of 15\\), none twice' -- $<TARGET_FILE:commitlab> race --catalog \"$COMMITLAB_PG\" --processes 3 --commits 5 --policy iceberg:retries=1000 --warehouse $d/w; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli.race_catalog_postgres_processes PROPERTIES LABELS catalog)
# `catalog serve --port-file` writes a new file or replaces a regular one, never a link or a FIFO
# (nor a device node: as root a rename over /dev/full replaces it), and exits 2 naming it.
add_test(NAME cli.serve_port_file_is_never_a_link_or_a_fifo
  COMMAND sh -c "d=$(mktemp -d) && ln -s $d/target $d/link && mkfifo $d/fifo && ${CATALOG_EXPECT_RUN} 2 '--port-file: cannot write .*/link: it is a symbolic link, not a regular file; not replacing it' -- $<TARGET_FILE:commitlab> catalog serve --port 0 --warehouse $d/w1 --port-file $d/link && ${CATALOG_EXPECT_RUN} 2 '--port-file: cannot write .*/fifo: it is a FIFO, not a regular file' -- $<TARGET_FILE:commitlab> catalog serve --port 0 --warehouse $d/w2 --port-file $d/fifo && [ -L $d/link ] && [ ! -e $d/target ] && [ -p $d/fifo ]; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli.serve_port_file_is_never_a_link_or_a_fifo PROPERTIES LABELS catalog)
# iceberg-js, a REST catalog client nobody here wrote (npm, pinned by tests/iceberg_js/
# package-lock.json), against `catalog serve`: every call of its public API. Installed into the
# build tree with `npm ci` on first run (./run.sh test does it up front).
set(ICEBERG_JS_DIR ${CMAKE_BINARY_DIR}/iceberg-js)
foreach(f package.json package-lock.json iceberg_js_test.mjs)
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/tests/iceberg_js/${f} ${ICEBERG_JS_DIR}/${f} COPYONLY)
endforeach()
add_test(NAME cli.iceberg_js_client_against_catalog_serve
  COMMAND sh -c "cd '${ICEBERG_JS_DIR}' && { [ -f node_modules/iceberg-js/package.json ] || npm ci --no-audit --no-fund --loglevel=error; } && node iceberg_js_test.mjs $<TARGET_FILE:commitlab> ${PROJECT_SOURCE_DIR}/third_party/iceberg/table-metadata")
set_tests_properties(cli.iceberg_js_client_against_catalog_serve PROPERTIES LABELS catalog TIMEOUT 300)
