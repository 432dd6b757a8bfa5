# Timeline pages in a real browser: Debian's headless chromium, driven over the DevTools pipe, and
# the SVG through librsvg's rsvg-convert. Both are installed by run.sh; a missing one fails the
# test with a message saying so, never a skip.
add_executable(timeline_browser_test tests/timeline_browser_test.cc tests/headless_chromium.cc)
target_link_libraries(timeline_browser_test PRIVATE nlohmann_json::nlohmann_json GTest::gtest_main GTest::gmock
                      commitlab_warnings)
target_compile_definitions(timeline_browser_test PRIVATE COMMITLAB_BINARY="$<TARGET_FILE:commitlab>"
                           COMMITLAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(timeline_browser_test commitlab)
# One browser at a time: each test starts its own, and two at once on two cores only slow each other.
gtest_discover_tests(timeline_browser_test DISCOVERY_MODE PRE_TEST PROPERTIES RESOURCE_LOCK chromium LABELS browser TIMEOUT 180)

# `commitlab step` through a pseudo-terminal (forkpty).
add_executable(step_pty_test tests/step_pty_test.cc)
target_link_libraries(step_pty_test PRIVATE util GTest::gtest_main commitlab_warnings)
target_compile_definitions(step_pty_test PRIVATE COMMITLAB_BINARY="$<TARGET_FILE:commitlab>"
                           COMMITLAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(step_pty_test commitlab)
gtest_discover_tests(step_pty_test DISCOVERY_MODE PRE_TEST PROPERTIES LABELS browser TIMEOUT 120)
