# libhetcoll_mpi: the MPI runtime (include/hetcoll/mpi.h), built when MPI is found.
# HC_MPI_RUNTIME_SOURCES: set in the top-level CMakeLists.txt.
add_library(hetcoll_mpi SHARED ${HC_MPI_RUNTIME_SOURCES})
target_include_directories(hetcoll_mpi PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
# The core is libhetcoll.so: one copy of it per process, so that hc_error_detail() and every
# other piece of state are the ones the application sees (the drop-in, cmake/pmpi.cmake, stays
# self-contained instead and exports only MPI_* symbols).
target_link_libraries(hetcoll_mpi PUBLIC MPI::MPI_C hetcoll)
target_link_options(hetcoll_mpi PRIVATE "-Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/hetcoll.map")
set_target_properties(hetcoll_mpi PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
install(TARGETS hetcoll_mpi EXPORT hetcollTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

if(HETCOLL_BUILD_TESTS)
  pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)
  find_program(HC_MPIEXEC NAMES mpirun mpiexec REQUIRED)
  add_executable(test_mpi_runtime ${PROJECT_SOURCE_DIR}/tests/mpi/test_mpi_runtime.c)
  target_link_libraries(test_mpi_runtime PRIVATE hetcoll_mpi PkgConfig::CMOCKA m)
  target_compile_definitions(test_mpi_runtime PRIVATE HC_CLI="$<TARGET_FILE:hetcoll_cli>"
                             HC_TEST_DATA="${PROJECT_SOURCE_DIR}/tests/data")
  add_dependencies(test_mpi_runtime hetcoll_cli)
  # One copy of the core per process: libhetcoll_mpi needs libhetcoll.so and defines none of it.
  add_test(NAME mpi/one_core
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/mpi/check_one_core.sh $<TARGET_FILE:hetcoll_mpi>)
  set_tests_properties(mpi/one_core PROPERTIES LABELS mpi)
  # The stress driver (tests/mpi/stress.c): the API build here, the drop-in build (an ordinary
  # MPI program) in cmake/pmpi.cmake; tests/mpi/stress.sh runs both.
  add_executable(stress ${PROJECT_SOURCE_DIR}/tests/mpi/stress.c)
  target_link_libraries(stress PRIVATE hetcoll_mpi)
  # Issue 13's first finding, rebuilt: the reduce that went wrong at a segment boundary, with
  # the schedules that exercise it forced (5 runs; the old slot sizing failed ~1 run in 5).
  add_executable(loop_check ${PROJECT_SOURCE_DIR}/tests/mpi/loop_check.c)
  target_link_libraries(loop_check PRIVATE hetcoll_mpi)
  add_test(NAME mpi/loop_check_gusto
    COMMAND bash -c "for i in 1 2 3 4 5; do ${HC_MPIEXEC} --oversubscribe -np 5 $<TARGET_FILE:loop_check> 3 || exit 1; done")
  set_tests_properties(mpi/loop_check_gusto PROPERTIES LABELS mpi TIMEOUT 300
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;ASAN_OPTIONS=detect_leaks=0;HETCOLL_PLATFORM=builtin:gusto;HETCOLL_ALGO_REDUCE=ep-pq;HETCOLL_ALGO_BCAST=hier-auto;HETCOLL_ALGO_ALLTOALL=openshop")
  foreach(np 2 3 4 8 16)
    add_test(NAME mpi/runtime_np${np}
      COMMAND ${HC_MPIEXEC} --oversubscribe -np ${np} $<TARGET_FILE:test_mpi_runtime>)
    set_tests_properties(mpi/runtime_np${np} PROPERTIES LABELS mpi TIMEOUT 300
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;ASAN_OPTIONS=detect_leaks=0")
  endforeach()
endif()

# Overhead benchmark (not a test): mpirun -np 8 bench/bench_mpi_overhead
add_executable(bench_mpi_overhead ${PROJECT_SOURCE_DIR}/bench/mpi_overhead.c)
target_link_libraries(bench_mpi_overhead PRIVATE hetcoll_mpi)
set_target_properties(bench_mpi_overhead PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)

include(${PROJECT_SOURCE_DIR}/cmake/pmpi.cmake) # PMPI drop-in (engineer grid, issue 8)
