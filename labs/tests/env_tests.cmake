# The hostile environment (labs/tests/env_case.sh): a full device, a closed stdout, no TMPDIR, an
# unreadable or read-only directory, a full disk, a thread limit, FIFOs and devices as input, a
# damaged table, runs that would never end. Each asserts a deliberate ending, never an abort.
set(ENV_CASES stdout_full stdout_closed trace_full no_tmpdir unreadable_dir readonly_snapshot disk_full catalog_disk_full
              thread_limit device_input top_snapshot_id bad_numbers two_fault_rules_replay seed_tables_removed
              endless_retry out_of_memory pool_thread_limit help_full latest_fifo writer_readonly output_not_ours
              foreign_dir foreign_history)
# Under ASan or TSan the runtime reserves terabytes of shadow address space at start, so a run under
# `ulimit -v` dies in the sanitizer before main: the out-of-memory case is a Release/debug test.
if(COMMITLAB_SANITIZE)
  list(REMOVE_ITEM ENV_CASES out_of_memory)
endif()
foreach(case IN LISTS ENV_CASES)
  add_test(NAME env.${case}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/env_case.sh $<TARGET_FILE:commitlab> ${PROJECT_SOURCE_DIR} ${case})
  set_tests_properties(env.${case} PROPERTIES LABELS env TIMEOUT 300)
endforeach()
