# The package test: installs the build in BUILD_DIR into WORK_DIR/prefix, builds cmake/consumer
# against it with find_package(commitlab), runs it, and checks what it printed.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DLIBDIR=lib -DCXX=... -DCXX_FLAGS=...
#         -DPREFIX_PATH=... -P consumer_test.cmake
file(REMOVE_RECURSE ${WORK_DIR})

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer test: ${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
foreach(f ${LIBDIR}/cmake/commitlab/commitlabConfig.cmake include/commitlab/core/status.h bin/commitlab)
  if(NOT EXISTS ${WORK_DIR}/prefix/${f})
    message(FATAL_ERROR "consumer test: the install has no ${f}")
  endif()
endforeach()
# The prefix, and where the build found fmt, Boost and nlohmann-json: nothing of the source tree.
step("configuring the consumer" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/cmake/consumer -B ${WORK_DIR}/build
     "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix;${PREFIX_PATH}" -DCMAKE_CXX_COMPILER=${CXX} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
     -DCMAKE_BUILD_TYPE=Release)
step("building the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step("running the consumer" ${WORK_DIR}/build/consumer)
if(NOT step_output MATCHES "latest snapshot 20, lost races [0-9]+, expectations 2 passed, 0 failed")
  message(FATAL_ERROR "consumer test: unexpected output: ${step_output}")
endif()
message(STATUS "consumer: ${step_output}")
