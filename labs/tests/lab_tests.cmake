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
  "1\\. race +AGREES.*2\\. excerpt +AGREES.*3\\. conflict +AGREES.*4\\. failover +AGREES.*5\\. dedicated +AGREES.*6\\. lsm +AGREES +scenarios/paimon_lsm\\.scn.*6\\. lsm +AGREES +scenarios/paimon_lsm_disjoint\\.scn.*7\\. idempotent +AGREES.*8\\. unknown +AGREES +scenarios/paimon_unknown\\.scn.*8\\. unknown +AGREES +scenarios/paimon_unknown_no_check\\.scn.*9\\. retries +AGREES.*10\\. crash +AGREES.*11\\. objectstore +AGREES +scenarios/object_store_check_then_put\\.scn.*11\\. objectstore +AGREES +scenarios/object_store_conditional_put\\.scn"
  lab paimon)

# Iceberg.
lab_test(iceberg_all 0
  "1\\. race +AGREES.*2\\. retries0 +AGREES.*3\\. counter +AGREES.*3\\. counter +AGREES.*3\\. counter +AGREES.*4\\. isolation +AGREES.*4\\. isolation +AGREES +scenarios/iceberg_overwrite_unvalidated\\.scn.*4\\. isolation +AGREES.*5\\. orphans +AGREES.*6\\. expiry +AGREES.*7\\. unknown +AGREES.*8\\. matrix +AGREES"
  lab iceberg)
lab_test(iceberg_race 0
  "WARN  \\[writer-b\\] CommitFailedException: Cannot commit to table events.*snapshot 3  append +user=writer-b  parent=2  total=3.*verdict: AGREES — the loser of the swap re-applies its append"
  lab iceberg --experiment race)
lab_test(iceberg_counter 0
  "ValidationException: Found conflicting files that can contain records matching ref\\(name=\"name\"\\) == \"hits\".*counter hits = 15.*\\(expected\\) lost_update: lost update: counter hits is 15, but 2 acknowledged increments of 5 from 10 make 20 \\(1 increment lost\\).*counter hits = 20.*3\\. counter +AGREES.*3\\. counter +AGREES.*3\\. counter +AGREES"
  lab iceberg --experiment counter)
lab_test(iceberg_expiry 0 "FileNotFoundException.*6\\. expiry +AGREES" lab iceberg --experiment expiry)

# Delta.
lab_test(delta_all 0 "1\\. conflicts +AGREES.*2\\. matrix +AGREES" lab delta)
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
# S2 第 5 讲's "atomic rename" on object stores, in the lab of the lecture it comes from.
lab_test(paimon_objectstore 0
  "\\(expected\\) lost: acknowledged commit .* is not in the table.*11\\. objectstore +AGREES +scenarios/object_store_check_then_put\\.scn.*11\\. objectstore +AGREES +scenarios/object_store_conditional_put\\.scn"
  lab paimon --experiment objectstore)

# The same flags for every lab, and their mistakes.
lab_test(json 0 "^\\{\"format\":\"commitlab-report\",\"version\":1,.*\"command\":\"lab\",\"settings\":\\{\"lab\":\"iceberg\",\"experiment\":\"counter\",.*\"section\":\\{\"lab\":\"iceberg\",\"number\":3,\"key\":\"counter\",.*\"lab\":\\{\"lab\":\"iceberg\",\"agrees\":true\\},\"ok\":true\\}$"
  lab iceberg --experiment counter --json)
lab_test(unknown_experiment 2 "commitlab lab: --experiment 'nope' is not one of conflicts, matrix"
  lab delta --experiment nope)
lab_test(unknown_lab 2 "unknown lab 'hudi' \\(expected one of paimon, iceberg, delta\\)" lab hudi)
lab_test(missing_lab 2 "missing the lab to run \\(expected one of paimon, iceberg, delta\\)" lab)
lab_test(bad_flag 2 "commitlab lab: unrecognised option '--bogus'" lab iceberg --bogus)
lab_test(help 0 "--experiment arg.*Sections \\(--experiment\\):.*paimon +race, excerpt, conflict, failover, dedicated, lsm, idempotent, unknown, retries, crash, objectstore.*iceberg +race, retries0, counter, isolation, orphans, expiry, unknown, matrix.*delta +conflicts, matrix"
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
lab_test(lecture_notes_jitter 0 "lectures: 「S2 第 5 讲」 credits the 0-20 % jitter.*seeds 1\\.\\.20, the race's median lost races were [0-9.]+ with jitter and [0-9.]+ without. with every storage latency fixed at its mean, [0-9.]+ and [0-9.]+: "
  lab paimon --experiment race --sched random --seed 3)
lab_test(lecture_notes_table_lock 0 "lectures: 「无锁并发写入」 argues against a table lock.*0 lost races, 60 commits in [0-9]+ ms \\([0-9]+/s\\), [0-9]+ ms spent waiting for the lock. optimistic: [0-9.]+ lost races"
  lab paimon --experiment race --sched random --seed 3)
lab_test(lecture_notes_corrections 0 "1\\. race.*2\\.2 writes the loser's failed swap as v41 → v43.*both built on v1.*3\\. counter.*here worker-b began its commit after worker-a's had landed: 0 lost swap\\(s\\), refused by validation on attempt 1.*4\\. isolation.*without validation it does not: this run's writer-2 lost 1 swap\\(s\\), re-applied its overwrite and committed, and the day holds 5 rows, its own only.*8\\. matrix.*SchemaUpdate\\.commit does not retry at all: in this matrix the SCHEMA change committed second lost [0-9]+ of its 10 races"
  lab iceberg)

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

# --timeline DIR: every run of every section draws its page (15 Paimon, 12 Iceberg, 6 Delta runs).
add_test(NAME lab.every_section_draws_its_timeline
  COMMAND sh -c "d='${CMAKE_CURRENT_BINARY_DIR}/lab-timelines' && rm -rf \"$d\" && for l in paimon iceberg delta; do $<TARGET_FILE:commitlab> lab $l --timeline \"$d\" > /dev/null || exit 1; done && ls \"$d\"/*.html | wc -l | grep -qx 33 && ls \"$d\" | grep -qx 03-conflict-paimon_conflict.html"
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
      COMMAND sh -c "out=$($<TARGET_FILE:commitlab> lab ${lab} --brief --lang ${lang}) || exit 1; printf '%s\\n' \"$out\" | /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/max_columns.py 100"
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endforeach()
endforeach()
# --lang zh: the lab's own words and the explanations in Chinese; log lines stay in English.
lab_test(lang_zh 0 "出处：S2 第 5 讲.*ERROR \\[compact-job-2\\] File deletion conflicts detected! Give up committing\\..*失败的作业数 = 1（compact-job-2 被拒绝）.*最新快照 id = 6.*原因：compact-job-2 的 COMPACT 提交被拒绝：File deletion conflicts detected!.*否：被 #5（compact-job-1）删除 +DELETE +剩下 DELETE：冲突.*不是删除文件的人.*结论：符合 — .*== 结论 == +3\\. conflict +符合"
  lab paimon --experiment conflict --lang zh)
lab_test(lang_zh_matrix 0 "每格是后提交一方的结果.*serializable（表级） +先提交 \\\\ 后提交 +APPEND +OVERWRITE.*APPEND +提交成功 +新数据 +新数据 +提交成功 +CommitFailed.*两两之间.*REWRITE +不会 +会冲突 +会冲突 +会冲突.*8\\. matrix +符合"
  lab iceberg --experiment matrix --lang zh)
lab_test(lang_bad 2 "commitlab lab: --lang 'fr' is not one of en, zh" lab paimon --lang fr)
lab_test(brief_json 2 "commitlab lab: --brief shortens the narration. --json has none" lab delta --brief --json)
# --class: every screen of every lab fits a projector (40 lines of 100 columns), says no line and no
# engine message twice, in both languages; not with --json, --brief or --verbose.
foreach(lab paimon iceberg delta)
  foreach(lang en zh)
    add_test(NAME lab.class_${lab}_${lang}_screens_fit_40_by_100
      COMMAND sh -c "out=$($<TARGET_FILE:commitlab> lab ${lab} --class --lang ${lang}) || exit 1; printf '%s\\n' \"$out\" | /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/class_screens.py 40 100"
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endforeach()
endforeach()
lab_test(class_asks_then_answers 0 "== 3\\. conflict: Two compaction jobs delete the same L0 files ==.*predict: +Both compaction jobs planned from snapshot 3.*\\[Enter: run · q: quit\\].*-- the run --.*-- the answer --.*why: compact-job-2's COMPACT commit was refused: File deletion conflicts detected!.*verdict: AGREES \\(19 of 19 expectations held\\).*again: commitlab run scenarios/paimon_conflict\\.scn --seed 1 --sched random"
  lab paimon --experiment conflict --class)
# A commit whose outcome nobody knows is not shown as refused (it landed on one table), nor is a
# reader that failed: the words say what happened.
lab_test(class_unknown_is_not_refused 0
  "w2 outcome unknown \\(why: below\\).*w1 outcome unknown: CommitStateUnknownException: .*the publish took effect"
  lab iceberg --experiment unknown --class)
lab_test(class_unknown_is_not_refused_zh 0 "w2 结果未知（原因见下）.*w1 结果未知：CommitStateUnknownException"
  lab iceberg --experiment unknown --class --lang zh)
lab_test(class_failed_reader_is_not_refused 0 "gone-reader 失败：FileNotFoundException: File does not exist"
  lab iceberg --experiment expiry --class --lang zh)
lab_test(class_not_with_brief 2 "commitlab lab: --class is a narration of its own: not with --json, --brief or --verbose"
  lab paimon --class --brief)
# --lang zh: everything a student reads is Chinese; English words stay only as the engines' log
# lines and what they quote, identifiers, the scenario files' names and the lectures' own terms.
# Outputs without log lines (--class, the stepper, a page) quote the log of the full lab runs.
# Every command's exit status counts: the quotes' runs at seed 3, not every section's own schedule,
# may differ from a claim (exit 1); anything above that (a usage error, a crash) fails the test.
set(ZH_WORDS "/usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/zh_words.py scenarios")
set(ZH_QUOTES ${CMAKE_CURRENT_BINARY_DIR}/zh-quotes)
foreach(lab paimon iceberg delta)
  add_test(NAME lab.zh_${lab}_has_no_english_words_of_its_own
    COMMAND sh -c "$<TARGET_FILE:commitlab> lab ${lab} --lang zh --sched random --seed 3 > '${ZH_QUOTES}-${lab}.txt'; [ $? -le 1 ] && ${ZH_WORDS} < '${ZH_QUOTES}-${lab}.txt' && out=$($<TARGET_FILE:commitlab> lab ${lab} --class --lang zh) && printf '%s\\n' \"$out\" | ${ZH_WORDS} --quotes '${ZH_QUOTES}-${lab}.txt'"
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()
add_test(NAME step.zh_has_no_english_words_of_its_own
  COMMAND sh -c "q='${ZH_QUOTES}-step.txt'; $<TARGET_FILE:commitlab> lab paimon --experiment conflict --lang zh > \"$q\" && out=$($<TARGET_FILE:commitlab> step scenarios/paimon_conflict.scn --lang zh --keys \"$(printf 'n%.0s' $(seq 130))q\" < /dev/null) && printf '%s\\n' \"$out\" | ${ZH_WORDS} --quotes \"$q\""
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME timeline.zh_page_has_no_english_words_of_its_own
  COMMAND sh -c "q='${ZH_QUOTES}-page.txt'; for l in paimon iceberg; do $<TARGET_FILE:commitlab> lab $l --lang zh --sched random --seed 3; [ $? -le 1 ] || exit 1; done > \"$q\" || exit 1; for f in paimon_conflict iceberg_counter_stale paimon_race; do $<TARGET_FILE:commitlab> timeline results/golden/$f.jsonl --lang zh -o '${CMAKE_CURRENT_BINARY_DIR}/zh-'$f.html > /dev/null && ${ZH_WORDS} --html --quotes \"$q\" < '${CMAKE_CURRENT_BINARY_DIR}/zh-'$f.html || exit 1; done"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

add_executable(brief_test tests/brief_test.cc)
target_link_libraries(brief_test PRIVATE commitlab_cli GTest::gtest_main GTest::gmock commitlab_warnings)
commitlab_discover_tests(brief_test unit)

add_executable(lab_text_test tests/lab_text_test.cc)
target_link_libraries(lab_text_test PRIVATE commitlab_cli GTest::gtest_main commitlab_warnings)
commitlab_discover_tests(lab_text_test unit)
