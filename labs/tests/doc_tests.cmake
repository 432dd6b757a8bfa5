# The documentation's examples, run: every ```console block of README.md and docs/**/*.md, its
# commands in order, their output compared with the page (labs/tests/doc_examples.py says how).
add_test(NAME docs.examples
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/doc_examples.py ${PROJECT_SOURCE_DIR} $<TARGET_FILE:commitlab>)
set_tests_properties(docs.examples PROPERTIES TIMEOUT 900)
# Their links: every relative link and image names a file, and every anchor a heading of its page
# as GitHub slugs it (labs/tests/doc_links.py).
add_test(NAME docs.links
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/doc_links.py ${PROJECT_SOURCE_DIR})
