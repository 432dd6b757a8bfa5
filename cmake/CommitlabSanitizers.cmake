# Applies COMMITLAB_SANITIZE to every target defined after this file is included.
if(COMMITLAB_SANITIZE)
  add_compile_options(-fsanitize=${COMMITLAB_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${COMMITLAB_SANITIZE})
  if(COMMITLAB_SANITIZE MATCHES "thread" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 warns that TSan does not model atomic_thread_fence (used inside Asio).
    add_compile_options(-Wno-tsan)
  endif()
  if(COMMITLAB_SANITIZE MATCHES "address")
    # Boost.Context fibers switch stacks; the scheduler tells ASan about each switch.
    add_compile_definitions(COMMITLAB_ASAN_FIBERS=1)
  endif()
  if(COMMITLAB_SANITIZE MATCHES "thread")
    add_compile_definitions(COMMITLAB_TSAN_FIBERS=1)
  endif()
  if(COMMITLAB_SANITIZE MATCHES "undefined")
    # UBSan's vptr check: tests that cannot run under it say so (GTEST_SKIP with the reason).
    add_compile_definitions(COMMITLAB_UBSAN_VPTR=1)
  endif()
endif()

# COMMITLAB_FUZZ: every library gets coverage feedback for libFuzzer and ASan+UBSan checks, so a
# harness explores and checks the code it calls, not only itself.
if(COMMITLAB_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "COMMITLAB_FUZZ needs clang (the fuzz preset sets CMAKE_CXX_COMPILER=clang++); "
                        "GCC has no libFuzzer. ./run.sh fuzz installs clang and libclang-rt-14-dev.")
  endif()
  if(COMMITLAB_SANITIZE)
    message(FATAL_ERROR "COMMITLAB_FUZZ brings its own sanitizers (address,undefined): leave COMMITLAB_SANITIZE empty")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
  add_compile_definitions(COMMITLAB_ASAN_FIBERS=1)
endif()
