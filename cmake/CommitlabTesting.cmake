# How the suite is labelled, so `ctest -L unit` (or -LE long) picks a part of it:
#   unit      GoogleTest binaries of the libraries and the CLI's pieces
#   scenario  the scenario language's tests (parser, runner, upstream cases, explorer)
#   golden    each scenario's recorded history replayed, the histories' schema, and the sweeps' recorded rows
#   cli       the commitlab binary run as a user would (commands, labs, reports, schemas)
#   browser   timeline pages in headless chromium, the stepper on a pseudo-terminal
#   bench     each Google Benchmark binary for a moment (it still runs; timings are not judged)
#   long      minutes each: the 100,000-seed explorations, kill -9 races
#   package   `cmake --install`, then a project outside the tree builds against the package
#   style     the sources are formatted as .clang-format says (cmake/check_format.sh)
#   cluster   a single-node Slurm cluster started by the test, running sharded searches
#   env, fuzz, fuzz-smoke: set where those tests are made
# Every test has a timeout: 300 s unless its family sets one. The scenario tests get 900 s: in the
# debug build (build/debug, no optimisation) the thousand-seed replay and determinism tests take
# minutes where Release takes seconds.
set(COMMITLAB_TEST_TIMEOUT 300)

# commitlab_discover_tests(TARGET LABEL [TIMEOUT s] [LONG gtest-filter]): registers a GoogleTest
# binary's tests under LABEL with TIMEOUT (COMMITLAB_TEST_TIMEOUT by default); those matching LONG
# are labelled long instead, with 1200 s.
function(commitlab_discover_tests target label)
  cmake_parse_arguments(ARG "" "LONG;TIMEOUT" "" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT ${COMMITLAB_TEST_TIMEOUT})
  endif()
  if(ARG_LONG)
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST TEST_FILTER "-${ARG_LONG}"
                         PROPERTIES LABELS ${label} TIMEOUT ${ARG_TIMEOUT})
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST TEST_FILTER "${ARG_LONG}"
                         PROPERTIES LABELS long TIMEOUT 1200)
  else()
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS ${label} TIMEOUT ${ARG_TIMEOUT})
  endif()
endfunction()

# commitlab_label_tests(): called at the end of a directory's CMakeLists (CMake sets a test's
# properties only where add_test made it). Its tests without a label get one by name
# (scenario.golden.* and schema.golden_* are golden, the rest cli), and those without a timeout
# COMMITLAB_TEST_TIMEOUT.
function(commitlab_label_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test ${tests})
    get_test_property(${test} LABELS labels)
    if(NOT labels)
      if(test MATCHES "^(scenario|schema)\\.golden")
        set_tests_properties(${test} PROPERTIES LABELS golden)
      else()
        set_tests_properties(${test} PROPERTIES LABELS cli)
      endif()
    endif()
    get_test_property(${test} TIMEOUT timeout)
    if(NOT timeout)
      set_tests_properties(${test} PROPERTIES TIMEOUT ${COMMITLAB_TEST_TIMEOUT})
    endif()
  endforeach()
endfunction()
