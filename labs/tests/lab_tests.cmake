# Tests of `commitlab lab paimon | iceberg | delta`: end to end through the CLI (exit codes, each
# section's key lines and verdicts, the same text every run), and the lab's text helpers as unit
# tests. Included from labs/CMakeLists.txt when COMMITLAB_TESTS is on.
set(LAB_EXPECT_RUN ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_run.sh)
set(LAB_EXPECT_SAME ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_same.sh)

# lab_test(NAME CODE REGEX ARGS...): `commitlab ARGS...`, run from the project, exits with CODE and
# prints REGEX (newlines are spaces to the regex), and never shows where the machine keeps it.
function(lab_test name code regex)
  add_test(NAME lab.${name}
    COMMAND ${LAB_EXPECT_RUN} ${code} ${regex} --no-path ${PROJECT_SOURCE_DIR} -- $<TARGET_FILE:commitlab> ${ARGN}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endfunction()

# Paimon.
lab_test(paimon_conflict 0
  "== 3\\. conflict: Two compaction jobs delete the same L0 files == source: S2 第 5 讲.*claim:  the second of two compactions.*compactBefore = \\[data-[0-9a-f]{8}…-0\\.parquet, data-[0-9a-f]{8}…-1\\.parquet, data-[0-9a-f]{8}…-2\\.parquet\\].*snapshot 4  APPEND   user=compact-job-1  identifier=1  total=3.*snapshot 5  COMPACT  user=compact-job-1  identifier=1  total=3.*snapshot 6  APPEND   user=compact-job-2  identifier=1  total=3.*ERROR \\[compact-job-2\\] File deletion conflicts detected! Give up committing\\..*\\| Base commit user is: compact-job-2. Current commit user is: compact-job-2.*\\| Caused by: Trying to delete file data-.* which is not previously added\\..*latest snapshot id: 6.*verdict: AGREES — .*== Verdicts == +3\\. conflict +AGREES +scenarios/paimon_conflict\\.scn"
  lab paimon --experiment conflict)
lab_test(paimon_race_simulated 0
  "== 1\\. race: Two jobs append concurrently and race for snapshot ids ==.*simulated, seed=3 sched=random.*WARN  \\[job-[AB]\\] Atomic commit failed for snapshot #.*failed jobs: 0 latest snapshot id: 60 snapshots per commit user: \\{job-A=30, job-B=30\\}.*1\\. race +AGREES"
  lab paimon --experiment race --sched random --seed 3)
lab_test(paimon_race_on_threads 0 "OS threads and the real clock, as S2 第 5 讲 ran it.*1\\. race +AGREES"
  lab paimon --experiment race)
lab_test(paimon_all 0
  "1\\. race +AGREES.*2\\. excerpt +AGREES.*3\\. conflict +AGREES.*4\\. failover +AGREES.*5\\. dedicated +AGREES.*6\\. lsm +AGREES +scenarios/paimon_lsm\\.scn.*6\\. lsm +AGREES +scenarios/paimon_lsm_disjoint\\.scn.*7\\. idempotent +AGREES.*8\\. unknown +AGREES +scenarios/paimon_unknown\\.scn.*8\\. unknown +AGREES +scenarios/paimon_unknown_no_check\\.scn.*9\\. retries +AGREES.*10\\. crash +AGREES"
  lab paimon)

# Iceberg.
lab_test(iceberg_all 0
  "1\\. race +AGREES.*2\\. retries0 +AGREES.*3\\. counter +AGREES.*3\\. counter +AGREES.*3\\. counter +AGREES.*4\\. isolation +AGREES.*4\\. isolation +AGREES.*5\\. orphans +AGREES.*6\\. expiry +AGREES.*7\\. unknown +AGREES.*8\\. matrix +AGREES"
  lab iceberg)
lab_test(iceberg_race 0
  "WARN  \\[writer-b\\] CommitFailedException: Cannot commit to table events.*snapshot 3  append +user=writer-b  parent=2  total=3.*verdict: AGREES — the loser of the swap re-applies its append"
  lab iceberg --experiment race)
lab_test(iceberg_counter 0
  "ValidationException: Found conflicting files that can contain records matching ref\\(name=\"name\"\\) == \"hits\".*counter hits = 15.*\\(expected\\) lost_update: lost update: counter hits is 15, but 2 acknowledged increments of 5 from 10 make 20 \\(1 increment lost\\).*counter hits = 20.*3\\. counter +AGREES.*3\\. counter +AGREES.*3\\. counter +AGREES"
  lab iceberg --experiment counter)
lab_test(iceberg_expiry 0 "FileNotFoundException.*6\\. expiry +AGREES" lab iceberg --experiment expiry)

# Delta.
lab_test(delta_all 0 "1\\. conflicts +AGREES.*2\\. matrix +AGREES.*3\\. objectstore +AGREES" lab delta)
lab_test(delta_conflicts 0
  "FileAlreadyExistsException: appends/_delta_log/00000000000000000002\\.json.*ConcurrentDeleteDeleteException.*ConcurrentAppendException.*ConcurrentDeleteReadException.*ConcurrentTransactionException.*1\\. conflicts +AGREES +scenarios/delta_app_ids\\.scn"
  lab delta --experiment conflicts)
# The Delta chapter's six exceptions, each from a run of the conflicts section.
lab_test(delta_six_exceptions 0
  "ConcurrentDeleteDeleteException.*ConcurrentAppendException.*ConcurrentDeleteReadException.*ConcurrentTransactionException.*MetadataChangedException.*ProtocolChangedException.*1\\. conflicts +AGREES +scenarios/delta_metadata_protocol\\.scn"
  lab delta --experiment conflicts)
lab_test(delta_matrix 0
  "Serializable \\(table level\\) +winner \\\\ loser +INSERT +UPDATE +DELETE +MERGE +OPTIMIZE +INSERT +commits +Append +Append +Append +commits.*pairs.*OPTIMIZE +cannot +can +can +can +can.*WriteSerializable \\(table level\\).*INSERT +commits +commits +commits +commits +commits.*expectations: 50 of 50 held.*2\\. matrix +AGREES"
  lab delta --experiment matrix)
lab_test(delta_objectstore 0
  "\\(expected\\) lost: acknowledged commit .* is not in the table.*3\\. objectstore +AGREES +scenarios/object_store_check_then_put\\.scn.*3\\. objectstore +AGREES +scenarios/object_store_conditional_put\\.scn"
  lab delta --experiment objectstore)

# The same flags for every lab, and their mistakes.
lab_test(json 0 "^\\{\"format\":\"commitlab-report\",\"version\":1,.*\"command\":\"lab\",\"settings\":\\{\"lab\":\"iceberg\",\"experiment\":\"counter\",.*\"section\":\\{\"lab\":\"iceberg\",\"number\":3,\"key\":\"counter\",.*\"lab\":\\{\"lab\":\"iceberg\",\"agrees\":true\\},\"ok\":true\\}$"
  lab iceberg --experiment counter --json)
lab_test(unknown_experiment 2 "commitlab lab: --experiment 'nope' is not one of conflicts, matrix, objectstore"
  lab delta --experiment nope)
lab_test(unknown_lab 2 "unknown lab 'hudi' \\(expected one of paimon, iceberg, delta\\)" lab hudi)
lab_test(missing_lab 2 "missing the lab to run \\(expected one of paimon, iceberg, delta\\)" lab)
lab_test(bad_flag 2 "commitlab lab: unrecognised option '--bogus'" lab iceberg --bogus)
lab_test(help 0 "--experiment arg.*Sections \\(--experiment\\):.*paimon +race, excerpt, conflict, failover, dedicated, lsm, idempotent, unknown, retries, crash.*iceberg +race, retries0, counter, isolation, orphans, expiry, unknown, matrix.*delta +conflicts, matrix, objectstore"
  lab --help)
# From a folder without scenarios/, the lab finds them above its binary and still names them
# relative to the project.
add_test(NAME lab.finds_scenarios_from_its_binary
  COMMAND ${LAB_EXPECT_RUN} 0 "\\(scenarios/paimon_idempotent\\.scn: simulated.*7\\. idempotent +AGREES" --no-path ${PROJECT_SOURCE_DIR}
          -- $<TARGET_FILE:commitlab> lab paimon --experiment idempotent
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
# Scripted sections print the same text every run; so does a simulated race with a seed.
add_test(NAME lab.scripted_sections_print_the_same_every_run
  COMMAND sh -c "a=$($<TARGET_FILE:commitlab> lab iceberg; $<TARGET_FILE:commitlab> lab delta; $<TARGET_FILE:commitlab> lab paimon --experiment conflict) && b=$($<TARGET_FILE:commitlab> lab iceberg; $<TARGET_FILE:commitlab> lab delta; $<TARGET_FILE:commitlab> lab paimon --experiment conflict) && [ \"$a\" = \"$b\" ]"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME lab.race_is_reproducible_with_a_seed
  COMMAND ${LAB_EXPECT_SAME} -- $<TARGET_FILE:commitlab> lab paimon --experiment race --sched random --seed 11
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME schema.report_lab
  COMMAND sh -c "$<TARGET_FILE:commitlab> lab delta --json > '${CMAKE_CURRENT_BINARY_DIR}/report-lab.json' && /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/validate_json.py report '${CMAKE_CURRENT_BINARY_DIR}/report-lab.json'"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# --verbose prints a refusal whole, Paimon's advice included; without it, only its first lines.
lab_test(verbose_refusal_is_whole 0 "\\| Don't panic!.*\\| 1\\. Multiple jobs are writing into the same partition.*\\| Base commit user is: compact-job-2"
  lab paimon --experiment conflict --verbose)
add_test(NAME lab.refusal_is_short_by_default
  COMMAND sh -c "! $<TARGET_FILE:commitlab> lab paimon --experiment conflict | grep -q 'Don.t panic'"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# S2 第 5 讲's runs (docs/lectures.md#s2-5-race), pinned: 25, 18 and 11 lost races, 60 of 60 landing;
# and its excerpt of run 2.
lab_test(lecture_run_1 0 "S2 第 5 讲's run 1 lost 25 races: seed 12.*atomic commit failures: 25 .*snapshots per commit user: \\{job-A=30, job-B=30\\}.*1\\. race +AGREES"
  lab paimon --experiment race --lecture-run 1)
lab_test(lecture_run_2 0 "atomic commit failures: 18 .*1\\. race +AGREES" lab paimon --experiment race --lecture-run 2)
lab_test(lecture_run_3 0 "atomic commit failures: 11 .*1\\. race +AGREES" lab paimon --experiment race --lecture-run 3)
lab_test(lecture_run_bad 2 "commitlab lab: --lecture-run 4 is not one of 1, 2, 3" lab paimon --lecture-run 4)
lab_test(lecture_run_not_paimon 2 "commitlab lab: --lecture-run is for lab paimon" lab iceberg --lecture-run 1)
lab_test(lecture_run_with_seed 2 "--lecture-run chooses the seed" lab paimon --lecture-run 1 --seed 3)
lab_test(lecture_excerpt 0 "WARN  \\[job-B\\] Atomic commit failed for snapshot #1 by user job-B with identifier 1.*WARN  \\[job-B\\] Atomic commit failed for snapshot #2 by user job-B with identifier 1.*WARN  \\[job-B\\] Atomic commit failed for snapshot #4 by user job-B with identifier 1.*INFO  \\[job-B\\] Successfully commit snapshot 9 to table race_log by user job-B with identifier 1.*2\\. excerpt +AGREES"
  lab paimon --experiment excerpt)

# Where the lectures (docs/lectures.md) disagree, one line with the run's evidence.
lab_test(lecture_notes_iceberg 0 "race.*lectures: 「04 事务与并发控制」 3\\.3 tells Delta apart by every writer racing for one log version.*this run lost 1 race\\(s\\).*isolation.*lectures: 「04 事务与并发控制」 gives Iceberg Snapshot Isolation only.*This run: the DELETE under serializable was refused, under snapshot committed\\."
  lab iceberg)
lab_test(lecture_notes_delta 0 "lectures: 「04 事务与并发控制」 3\\.3 calls WriteSerializable Delta's default.*This matrix: [1-9][0-9]* of its 25 cells refused under Serializable, [1-9][0-9]* under WriteSerializable\\."
  lab delta --experiment matrix)
lab_test(lecture_notes_jitter 0 "lectures: 「S2 第 5 讲」 credits the 0-20 % jitter.*seeds 1\\.\\.20, the race lost [0-9.]+ races on average with it and [0-9.]+ with jitter=0"
  lab paimon --experiment race --sched random --seed 3)

# Iceberg's conflict matrix from 50 runs, laid out as Delta's is.
lab_test(iceberg_matrix 0 "serializable \\(table level\\).*APPEND +commits +new data +new data +commits +CommitFailed.*REWRITE +cannot +can +can +can.*snapshot isolation \\(table level\\).*APPEND +commits +commits +commits +commits +CommitFailed.*OVERWRITE +cannot +can.*8\\. matrix +AGREES"
  lab iceberg --experiment matrix)

lab_test(iceberg_unknown 0 "why: w1's publish of metadata v2 failed without saying whether it landed.*the store had taken it: metadata v2 is in the table.*Iceberg neither retries it nor cleans up.*7\\. unknown +AGREES"
  lab iceberg --experiment unknown)
lab_test(paimon_crash 0 "why: job crashed: simulated crash at publish.before of job +attempt 1 of snapshot #1 published nothing.*10\\. crash +AGREES"
  lab paimon --experiment crash)

# Each run says why (three of each kind at most); --no-explain leaves it out.
lab_test(explains_the_race 0 "why: job-[AB] lost the race for snapshot #[0-9]+ to job-[AB].*why: … and [0-9]+ more lost-race explanation\\(s\\) like these.*1\\. race +AGREES"
  lab paimon --experiment race --sched random --seed 3)
lab_test(explains_the_counter 0 "why: lost update: counter hits is 15.*worker-b read hits = 10 at metadata v1 and committed 15 as metadata v3: its read was stale"
  lab iceberg --experiment counter)
add_test(NAME lab.no_explain
  COMMAND sh -c "! $<TARGET_FILE:commitlab> lab paimon --experiment conflict --no-explain | grep -q '^why:'"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# --timeline DIR: every run of every section draws its page (12 Paimon, 11 Iceberg, 9 Delta runs).
add_test(NAME lab.every_section_draws_its_timeline
  COMMAND sh -c "d='${CMAKE_CURRENT_BINARY_DIR}/lab-timelines' && rm -rf \"$d\" && for l in paimon iceberg delta; do $<TARGET_FILE:commitlab> lab $l --timeline \"$d\" > /dev/null || exit 1; done && ls \"$d\"/*.html | wc -l | grep -qx 32 && ls \"$d\" | grep -qx 03-conflict-paimon_conflict.html"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# The drawing's path is printed, so this one may show where the build is.
add_test(NAME lab.timeline_svg
  COMMAND ${LAB_EXPECT_RUN} 0 "timeline: .*/01-race-iceberg_append_race\\.svg: 3 writer\\(s\\).*1\\. race +AGREES"
          -- $<TARGET_FILE:commitlab> lab iceberg --experiment race --timeline ${CMAKE_CURRENT_BINARY_DIR}/lab-svg
          --timeline-format svg
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
lab_test(timeline_bad_format 2 "commitlab lab: --timeline-format 'png' is not one of html, svg"
  lab iceberg --timeline t --timeline-format png)
lab_test(timeline_format_alone 2 "commitlab lab: --timeline-format needs --timeline DIR"
  lab iceberg --timeline-format svg)
lab_test(timeline_not_a_folder 2 "commitlab lab: --timeline README.md: cannot make a folder there"
  lab iceberg --timeline README.md)

# --brief: no line of any lab wider than 100 columns; not with --json.
foreach(lab paimon iceberg delta)
  foreach(lang en zh)
    add_test(NAME lab.brief_${lab}_${lang}_fits_100_columns
      COMMAND sh -c "$<TARGET_FILE:commitlab> lab ${lab} --brief --lang ${lang} | /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/max_columns.py 100"
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endforeach()
endforeach()
# --lang zh: the lab's own words and the explanations in Chinese; log lines stay in English.
lab_test(lang_zh 0 "出处：S2 第 5 讲.*ERROR \\[compact-job-2\\] File deletion conflicts detected! Give up committing\\..*失败的作业数 = 1 .*最新快照 id = 6.*原因：compact-job-2 的 COMPACT 提交被拒绝：File deletion conflicts detected!.*否：被 #5（compact-job-1）删除 +DELETE +剩下 DELETE：冲突.*不是删除文件的人.*结论：符合 — .*== 结论 == +3\\. conflict +符合"
  lab paimon --experiment conflict --lang zh)
lab_test(lang_zh_matrix 0 "每格是后提交一方的结果.*serializable（表级） +先提交 \\\\ 后提交 +APPEND +OVERWRITE.*APPEND +提交成功 +new data +new data +提交成功 +CommitFailed.*两两之间.*REWRITE +不会 +会冲突 +会冲突 +会冲突.*8\\. matrix +符合"
  lab iceberg --experiment matrix --lang zh)
lab_test(lang_bad 2 "commitlab lab: --lang 'fr' is not one of en, zh" lab paimon --lang fr)
lab_test(brief_json 2 "commitlab lab: --brief shortens the narration. --json has none" lab delta --brief --json)
add_executable(brief_test tests/brief_test.cc)
target_link_libraries(brief_test PRIVATE commitlab_cli GTest::gtest_main GTest::gmock commitlab_warnings)
commitlab_discover_tests(brief_test unit)

add_executable(lab_text_test tests/lab_text_test.cc)
target_link_libraries(lab_text_test PRIVATE commitlab_cli GTest::gtest_main commitlab_warnings)
commitlab_discover_tests(lab_text_test unit)
