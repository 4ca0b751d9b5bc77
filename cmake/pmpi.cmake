# ---- libhetcoll_pmpi.so: the PMPI drop-in (src/mpi/pmpi.c, docs/pmpi.md) ----
# Included at the end of cmake/mpi_runtime.cmake (needs HC_MPI_RUNTIME_SOURCES and MPI::MPI_C).
# Self-contained: the runtime sources and the core are linked in; only the intercepted MPI_*
# functions are exported (cmake/pmpi.map), so it can be preloaded into any Open MPI program.
# A second copy against MPICH (libhetcoll_pmpi_mpich.so, with mpicc.mpich) is built for the
# test when MPICH is installed.
add_library(hetcoll_pmpi SHARED ${PROJECT_SOURCE_DIR}/src/mpi/pmpi.c ${HC_MPI_RUNTIME_SOURCES})
target_include_directories(hetcoll_pmpi PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(hetcoll_pmpi PRIVATE hetcoll_static MPI::MPI_C)
target_link_options(hetcoll_pmpi PRIVATE "-Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/pmpi.map")
set_target_properties(hetcoll_pmpi PROPERTIES LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/pmpi.map)
install(TARGETS hetcoll_pmpi LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

# The drop-in for MPICH programs: the same sources built with mpicc.mpich, installed beside the
# Open MPI one (docs/pmpi.md). Not under HETCOLL_SANITIZE (it links the core, instrumented there).
find_program(HC_MPICC_MPICH mpicc.mpich)
if(HC_MPICC_MPICH AND NOT HETCOLL_SANITIZE)
  set(HC_PMPI_MPICH ${CMAKE_CURRENT_BINARY_DIR}/libhetcoll_pmpi_mpich.so)
  add_custom_command(OUTPUT ${HC_PMPI_MPICH}
    COMMAND ${HC_MPICC_MPICH} -shared -fPIC -O2 -std=c11 -I${PROJECT_SOURCE_DIR}/include
            -I${PROJECT_SOURCE_DIR}/src -o ${HC_PMPI_MPICH} ${PROJECT_SOURCE_DIR}/src/mpi/pmpi.c
            ${HC_MPI_RUNTIME_SOURCES} $<TARGET_FILE:hetcoll_static> -ljansson -lClp -lCoinUtils -lm
            -Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/pmpi.map
    DEPENDS ${PROJECT_SOURCE_DIR}/src/mpi/pmpi.c ${HC_MPI_RUNTIME_SOURCES}
            ${PROJECT_SOURCE_DIR}/src/mpi/mpi_internal.h ${PROJECT_SOURCE_DIR}/cmake/pmpi.map
            hetcoll_static
    COMMENT "mpicc.mpich libhetcoll_pmpi_mpich.so" VERBATIM)
  add_custom_target(hc_pmpi_mpich_lib ALL DEPENDS ${HC_PMPI_MPICH})
  install(FILES ${HC_PMPI_MPICH} DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

# Not under HETCOLL_SANITIZE: an ASan library cannot be preloaded into a program built without.
if(HETCOLL_BUILD_TESTS AND NOT HETCOLL_SANITIZE)
  # tests/pmpi/test_pmpi.sh: an unmodified MPI program (pmpi_app, no hetcoll) with and without
  # LD_PRELOAD: identical digests and a verbose log proving the interception (label mpi).
  find_program(HC_PMPI_MPIRUN NAMES mpirun mpiexec REQUIRED)
  add_executable(pmpi_app ${PROJECT_SOURCE_DIR}/tests/pmpi/pmpi_app.c)
  target_link_libraries(pmpi_app PRIVATE MPI::MPI_C)
  # Random sizes and roots, drop-in against the MPI library in one run (not a test).
  add_executable(bench_pmpi_workload ${PROJECT_SOURCE_DIR}/bench/pmpi_workload.c)
  target_link_libraries(bench_pmpi_workload PRIVATE MPI::MPI_C m)
  set_target_properties(bench_pmpi_workload PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)
  add_executable(stress_pmpi ${PROJECT_SOURCE_DIR}/tests/mpi/stress.c)
  target_compile_definitions(stress_pmpi PRIVATE HC_STRESS_PMPI)
  target_link_libraries(stress_pmpi PRIVATE MPI::MPI_C)
  # Bounded stress runs (fresh seeds every time, printed): the API build and the drop-in build
  # under Open MPI, threads, error handlers. The acceptance runs are longer (docs/design.md).
  add_test(NAME mpi/stress_openmpi
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/mpi/stress.sh --mpi ompi --mpirun ${HC_PMPI_MPIRUN}
            --api $<TARGET_FILE:stress> --pmpi $<TARGET_FILE:stress_pmpi>
            --lib $<TARGET_FILE:hetcoll_pmpi> --cli $<TARGET_FILE:hetcoll_cli>
            --runs 2 --cases 60 --np "5 8"
            --replay ${PROJECT_SOURCE_DIR}/tests/mpi/stress_regressions.txt)
  set_tests_properties(mpi/stress_openmpi PROPERTIES LABELS mpi TIMEOUT 900)
  add_test(NAME mpi/pmpi_openmpi
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/pmpi/test_pmpi.sh ompi ${HC_PMPI_MPIRUN}
            $<TARGET_FILE:pmpi_app> $<TARGET_FILE:hetcoll_pmpi> 6)
  set_tests_properties(mpi/pmpi_openmpi PROPERTIES LABELS mpi TIMEOUT 300
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
  find_program(HC_MPIEXEC_MPICH mpiexec.mpich)
  if(HC_PMPI_MPICH AND HC_MPIEXEC_MPICH)
    set(lib ${HC_PMPI_MPICH})
    set(app ${CMAKE_CURRENT_BINARY_DIR}/pmpi_app_mpich)
    add_custom_command(OUTPUT ${app}
      COMMAND ${HC_MPICC_MPICH} -O2 -std=c11 -o ${app} ${PROJECT_SOURCE_DIR}/tests/pmpi/pmpi_app.c
      DEPENDS ${PROJECT_SOURCE_DIR}/tests/pmpi/pmpi_app.c
      COMMENT "mpicc.mpich pmpi_app_mpich" VERBATIM)
    set(stress_app ${CMAKE_CURRENT_BINARY_DIR}/stress_pmpi_mpich)
    add_custom_command(OUTPUT ${stress_app}
      COMMAND ${HC_MPICC_MPICH} -O2 -std=c11 -DHC_STRESS_PMPI -o ${stress_app}
              ${PROJECT_SOURCE_DIR}/tests/mpi/stress.c -lpthread
      DEPENDS ${PROJECT_SOURCE_DIR}/tests/mpi/stress.c
      COMMENT "mpicc.mpich stress_pmpi_mpich" VERBATIM)
    set(workload_app ${PROJECT_BINARY_DIR}/bench/bench_pmpi_workload_mpich)
    add_custom_command(OUTPUT ${workload_app}
      COMMAND ${HC_MPICC_MPICH} -O2 -std=c11 -o ${workload_app}
              ${PROJECT_SOURCE_DIR}/bench/pmpi_workload.c -lm
      DEPENDS ${PROJECT_SOURCE_DIR}/bench/pmpi_workload.c
      COMMENT "mpicc.mpich bench_pmpi_workload_mpich" VERBATIM)
    add_custom_target(hc_pmpi_mpich ALL DEPENDS ${app} ${stress_app} ${workload_app})
    add_dependencies(hc_pmpi_mpich hc_pmpi_mpich_lib)
    add_test(NAME mpi/stress_mpich_pmpi
      COMMAND bash ${PROJECT_SOURCE_DIR}/tests/mpi/stress.sh --mpi mpich --mpirun ${HC_MPIEXEC_MPICH}
              --pmpi ${stress_app} --lib ${lib} --cli $<TARGET_FILE:hetcoll_cli> --only pmpi,threads,errors
              --runs 2 --cases 40 --np "4 5")
    set_tests_properties(mpi/stress_mpich_pmpi PROPERTIES LABELS mpi TIMEOUT 900)
    add_test(NAME mpi/pmpi_mpich
      COMMAND bash ${PROJECT_SOURCE_DIR}/tests/pmpi/test_pmpi.sh mpich ${HC_MPIEXEC_MPICH} ${app}
              ${lib} 4)
    set_tests_properties(mpi/pmpi_mpich PROPERTIES LABELS mpi TIMEOUT 300)
  endif()
endif()
