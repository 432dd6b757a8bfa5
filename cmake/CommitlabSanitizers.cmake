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
endif()
