# `cmake --install build --prefix P` puts the engine's libraries (commitlab::core, commitlab::sim,
# commitlab::scenarios), their headers and the commitlab CLI under P, with a package that another
# CMake project finds with find_package(commitlab) (cmake/consumer/ is one, built by a test).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(COMMITLAB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/commitlab)

set_target_properties(commitlab_core PROPERTIES EXPORT_NAME core)
set_target_properties(commitlab_sim PROPERTIES EXPORT_NAME sim)
set_target_properties(commitlab_scenarios PROPERTIES EXPORT_NAME scenarios)

install(TARGETS commitlab_core commitlab_sim commitlab_scenarios EXPORT commitlabTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY core/include/ sim/include/ scenarios/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS commitlab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(EXPORT commitlabTargets NAMESPACE commitlab:: DESTINATION ${COMMITLAB_CMAKE_DIR})
configure_package_config_file(cmake/commitlabConfig.cmake.in ${PROJECT_BINARY_DIR}/commitlabConfig.cmake
                              INSTALL_DESTINATION ${COMMITLAB_CMAKE_DIR})
# 0.x: a minor version may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/commitlabConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/commitlabConfig.cmake ${PROJECT_BINARY_DIR}/commitlabConfigVersion.cmake
        DESTINATION ${COMMITLAB_CMAKE_DIR})

if(COMMITLAB_TESTS)
  # A sanitized or fuzz build's libraries need the same runtime in whatever links them.
  set(consumer_flags "")
  if(COMMITLAB_SANITIZE)
    set(consumer_flags "-fsanitize=${COMMITLAB_SANITIZE}")
  elseif(COMMITLAB_FUZZ)
    set(consumer_flags "-fsanitize=address,undefined")
  endif()
  add_test(NAME package.consumer
           COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                   -DWORK_DIR=${PROJECT_BINARY_DIR}/consumer-test -DLIBDIR=${CMAKE_INSTALL_LIBDIR}
                   -DCXX=${CMAKE_CXX_COMPILER} -DCXX_FLAGS=${consumer_flags} "-DPREFIX_PATH=${CMAKE_PREFIX_PATH}"
                   -P ${PROJECT_SOURCE_DIR}/cmake/consumer_test.cmake)
  set_tests_properties(package.consumer PROPERTIES LABELS package TIMEOUT 600)
endif()
