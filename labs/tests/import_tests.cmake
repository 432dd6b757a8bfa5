# End-to-end tests of `commitlab import` on the vendored logs (scenarios/tests/data/real-tables, and
# the small logs of scenarios/tests/data/import): exit codes, what it prints, the history that
# timeline, explain and check read, nothing written from a log that cannot be read, and the
# scenario that run, step and explore take. Included from labs/CMakeLists.txt.
set(IMPORT_CLI $<TARGET_FILE:commitlab>)
set(IMPORT_RUN ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_run.sh)
set(IMPORT_VALIDATE "/usr/bin/python3 -W ignore::DeprecationWarning ${CMAKE_CURRENT_SOURCE_DIR}/tests/validate_json.py")
set(REAL ${PROJECT_SOURCE_DIR}/scenarios/tests/data/real-tables)
set(ICEBERG_FIXTURES ${PROJECT_SOURCE_DIR}/third_party/iceberg/table-metadata)  # Iceberg's parser fixtures
set(WRITTEN ${PROJECT_SOURCE_DIR}/scenarios/tests/data/import)
set(IMPORT_DIR ${CMAKE_CURRENT_BINARY_DIR}/import-tests)
file(MAKE_DIRECTORY ${IMPORT_DIR})

# import_test(NAME CODE REGEX ARGS...): `commitlab import ARGS...` exits with CODE and prints REGEX.
function(import_test name code regex)
  add_test(NAME cli.import_${name} COMMAND ${IMPORT_RUN} ${code} ${regex} -- ${IMPORT_CLI} import ${ARGN}
           WORKING_DIRECTORY ${IMPORT_DIR})
endfunction()

import_test(a_delta_table 0
  "delta log: .*basic-with-inserts-deletes-checkpoint/_delta_log   read: the JSON commits 0..13 \\(14 file\\(s\\)\\)   not read: the checkpoint at version 10 \\(named by _last_checkpoint, not in the folder\\).*commits: 14 \\(versions 0..13\\), 2023-08-07 16:45:32.135 UTC .. 2023-08-07 16:45:43.015 UTC operations: 6 DELETE, 8 WRITE writers: 14 Apache-Spark-3-4-0-Delta-Lake-3-0-0-SNAPSHOT table: isolation Serializable, unpartitioned findings: 0 problem\\(s\\), 0 note\\(s\\)$"
  ${REAL}/delta/basic-with-inserts-deletes-checkpoint)
import_test(an_iceberg_fixture_upstream_refuses 2
  "^commitlab import: .*TableMetadataV2MissingSortOrder.json:1: sort-orders must exist in format v2$"
  ${ICEBERG_FIXTURES}/TableMetadataV2MissingSortOrder.json -o refused.jsonl)
import_test(a_problem_is_exit_1 1
  "PROBLEM app_version at 3: app id q1 committed version 1 at log version 3, after version 1 at log version 2: the same batch twice"
  ${WRITTEN}/delta-app-version)
import_test(no_path 2 "commitlab import: give the table: commitlab import PATH" )
import_test(bad_format 2 "--format 'hudi' is not one of delta, iceberg, paimon" ${WRITTEN}/delta-concurrent --format hudi)
import_test(scenario_needs_a_file 2 "--scenario K needs --scenario-out FILE.scn" ${WRITTEN}/delta-concurrent --scenario 2)
import_test(isolation_needs_a_scenario 2 "--isolation sets the scenario's table: it needs --scenario K"
  ${WRITTEN}/delta-concurrent --isolation WriteSerializable)
import_test(paimon_has_no_isolation 2 "--isolation: a Paimon table has no isolation level to choose"
  ${WRITTEN}/paimon-duplicate --scenario 2 --scenario-out p.scn --isolation snapshot)

# Every vendored log imports into a history the schema accepts, that timeline draws and explain and
# check read; upstream's four invalid Iceberg fixtures are refused and leave nothing behind.
add_test(NAME cli.import_every_real_table
  COMMAND sh -c "set -e; rm -rf every && mkdir every && cd every
    for t in ${REAL}/delta/* ${REAL}/iceberg/iceberg_* ${REAL}/paimon/* ${ICEBERG_FIXTURES}/TableMetadataV1Valid.json ${ICEBERG_FIXTURES}/TableMetadataV2Valid.json ${ICEBERG_FIXTURES}/TableMetadataV2ValidMinimal.json ${ICEBERG_FIXTURES}/TableMetadataV3ValidMinimal.json ${ICEBERG_FIXTURES}/TableMetadataStatisticsFiles.json; do
      n=$(basename $t); ${IMPORT_CLI} import $t -o $n.jsonl >/dev/null
      ${IMPORT_CLI} timeline $n.jsonl -o $n.svg >/dev/null; ${IMPORT_CLI} explain $n.jsonl >/dev/null; ${IMPORT_CLI} check $n.jsonl >/dev/null
    done
    ${IMPORT_VALIDATE} history *.jsonl
    for f in UnsupportedVersion V2MissingSchemas V2CurrentSchemaNotFound V2MissingSortOrder; do
      if ${IMPORT_CLI} import ${ICEBERG_FIXTURES}/TableMetadata$f.json -o bad.jsonl 2>/dev/null; then echo \"$f imported\"; exit 1; fi
      test ! -e bad.jsonl
    done
    test $(ls -A | grep -c tmp) -eq 0"
  WORKING_DIRECTORY ${IMPORT_DIR})

# A log that cannot be read: exit 2 naming the file and line, and no history, no scenario, no
# temporary left behind (an older history at the path stays as it was).
add_test(NAME cli.import_bad_input_writes_nothing
  COMMAND sh -c "set -e; rm -rf bad && mkdir bad && cd bad && echo old > h.jsonl
    for log in delta-truncated delta-not-json delta-missing-version delta-unknown-action delta-protocol-too-new delta-empty-commit paimon-missing paimon-bad-kind paimon-new-version iceberg-truncated.metadata.json iceberg-not-object.metadata.json; do
      ${IMPORT_RUN} 2 \"^commitlab import: ${WRITTEN}/$log[^ ]*(:[0-9]+)?: \" -- ${IMPORT_CLI} import ${WRITTEN}/$log -o h.jsonl --scenario 2 --scenario-out s.scn
      test \"$(cat h.jsonl)\" = old; test ! -e s.scn; test $(ls -A | wc -l) -eq 1
    done"
  WORKING_DIRECTORY ${IMPORT_DIR})

# -o never replaces what is not a regular file: a device, or a symbolic link (even to a file).
add_test(NAME cli.import_refuses_to_replace_a_device_or_a_link
  COMMAND sh -c "set -e; rm -rf links && mkdir links && cd links && echo keep > target && ln -s target link
    ${IMPORT_RUN} 2 '^commitlab import: -o /dev/null: not a regular file \\(a device or a FIFO\\); not replacing it' -- ${IMPORT_CLI} import ${WRITTEN}/delta-concurrent -o /dev/null
    ${IMPORT_RUN} 2 '^commitlab import: -o link: a symbolic link; not replacing it' -- ${IMPORT_CLI} import ${WRITTEN}/delta-concurrent -o link
    ${IMPORT_RUN} 2 '^commitlab import: --scenario-out link: a symbolic link' -- ${IMPORT_CLI} import ${WRITTEN}/delta-concurrent --scenario 2 --scenario-out link
    test -L link && test \"$(cat target)\" = keep"
  WORKING_DIRECTORY ${IMPORT_DIR})

# The same log, the same history, byte for byte.
add_test(NAME cli.import_is_deterministic
  COMMAND sh -c "set -e; rm -rf same && mkdir -p same/1 same/2; for d in 1 2; do (cd same/$d && ${IMPORT_CLI} import ${REAL}/iceberg/iceberg_v3_default_value -o h.jsonl >/dev/null); done; cmp same/1/h.jsonl same/2/h.jsonl"
  WORKING_DIRECTORY ${IMPORT_DIR})

# check on an imported history: its findings with the commits that show them, exit 1 on a problem;
# --json as docs/check_history.schema.json says.
add_test(NAME cli.import_check_reads_the_findings
  COMMAND sh -c "set -e; ${IMPORT_CLI} import ${WRITTEN}/iceberg-fork -o fork.jsonl >/dev/null || test $? -eq 1
    ${IMPORT_RUN} 1 'history fork.jsonl: imported from .*iceberg-fork/metadata \\(iceberg\\), versions 1..4 findings: 3 problem\\(s\\), 0 note\\(s\\)   PROBLEM metadata_log_fork at 4 \\(commits 3, 4\\): v4.metadata.json.s metadata-log says it was written on v2.metadata.json' -- ${IMPORT_CLI} check fork.jsonl
    ${IMPORT_CLI} check fork.jsonl --json > fork-check.json || true
    ${IMPORT_VALIDATE} check_history fork-check.json
    ${IMPORT_RUN} 0 'why: a problem in the log \\(parent_not_previous\\) at metadata v4: snapshot 103 of version 4 has parent 101' -- ${IMPORT_CLI} explain fork.jsonl
    ${IMPORT_RUN} 2 'an imported history records a table.s log, not a run' -- ${IMPORT_CLI} replay fork.jsonl"
  WORKING_DIRECTORY ${IMPORT_DIR})

# A Paimon table written by commitlab's own writers with the idempotency check off: the duplicate
# the lecture warns of, found in the snapshot files alone.
add_test(NAME cli.import_finds_a_paimon_duplicate_on_disk
  COMMAND sh -c "set -e; rm -rf dup-table && ${IMPORT_CLI} race --store dir --dir dup-table --sched random --writers 2 --commits 3 --fault 'job-B:publish.after:nth=1:unknown' --idempotency-check off >/dev/null || true
    ${IMPORT_RUN} 1 'paimon log: dup-table/snapshot .*PROBLEM duplicate_commit at [0-9]+: snapshot [0-9]+ \\(APPEND by user job-B, identifier 1\\) repeats snapshot [0-9]+ \\(identifier 1\\)' -- ${IMPORT_CLI} import dup-table"
  WORKING_DIRECTORY ${IMPORT_DIR})

# The scenario of the last four commits: it runs as the log ordered them (the commented order
# lines), steps, and explore finds the DELETE that a concurrent blind append would refuse.
add_test(NAME cli.import_scenario_runs_steps_and_explores
  COMMAND sh -c "set -e; ${IMPORT_CLI} import ${REAL}/delta/basic-with-inserts-deletes-checkpoint --scenario 4 --writers commit --scenario-out last4.scn >/dev/null
    sed 's/^# order /order /' last4.scn > as-logged.scn
    ${IMPORT_RUN} 0 'ok: 4 of 4 expectations held' -- ${IMPORT_CLI} run as-logged.scn
    ${IMPORT_RUN} 0 'the run is over: 4 of 4 expectations held, ok' -- ${IMPORT_CLI} step as-logged.scn --keys nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnq
    ${IMPORT_RUN} 1 'expect last4.scn:[0-9]+: in [0-9]+ of [0-9]+ executions, shortest: counterexample 1     expect writer delete-13 ok \\(saw delete-13 refused: ConcurrentAppendException: Files were added to the root of the table by a concurrent update' -- ${IMPORT_CLI} explore last4.scn --stop-at-first"
  WORKING_DIRECTORY ${IMPORT_DIR})
