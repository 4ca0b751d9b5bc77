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

# Not under HETCOLL_SANITIZE: an ASan library cannot be preloaded into a program built without.
if(HETCOLL_BUILD_TESTS AND NOT HETCOLL_SANITIZE)
  # tests/pmpi/test_pmpi.sh: an unmodified MPI program (pmpi_app, no hetcoll) with and without
  # LD_PRELOAD: identical digests and a verbose log proving the interception (label mpi).
  find_program(HC_PMPI_MPIRUN NAMES mpirun mpiexec REQUIRED)
  add_executable(pmpi_app ${PROJECT_SOURCE_DIR}/tests/pmpi/pmpi_app.c)
  target_link_libraries(pmpi_app PRIVATE MPI::MPI_C)
  add_test(NAME mpi/pmpi_openmpi
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/pmpi/test_pmpi.sh ompi ${HC_PMPI_MPIRUN}
            $<TARGET_FILE:pmpi_app> $<TARGET_FILE:hetcoll_pmpi> 6)
  set_tests_properties(mpi/pmpi_openmpi PROPERTIES LABELS mpi TIMEOUT 300
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
  find_program(HC_MPICC_MPICH mpicc.mpich)
  find_program(HC_MPIEXEC_MPICH mpiexec.mpich)
  if(HC_MPICC_MPICH AND HC_MPIEXEC_MPICH)
    set(lib ${CMAKE_CURRENT_BINARY_DIR}/libhetcoll_pmpi_mpich.so)
    set(app ${CMAKE_CURRENT_BINARY_DIR}/pmpi_app_mpich)
    add_custom_command(OUTPUT ${lib}
      COMMAND ${HC_MPICC_MPICH} -shared -fPIC -O2 -std=c11 -I${PROJECT_SOURCE_DIR}/include
              -I${PROJECT_SOURCE_DIR}/src -o ${lib} ${PROJECT_SOURCE_DIR}/src/mpi/pmpi.c
              ${HC_MPI_RUNTIME_SOURCES} $<TARGET_FILE:hetcoll_static> -ljansson -lm
              -Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/pmpi.map
      DEPENDS ${PROJECT_SOURCE_DIR}/src/mpi/pmpi.c ${HC_MPI_RUNTIME_SOURCES}
              ${PROJECT_SOURCE_DIR}/src/mpi/mpi_internal.h ${PROJECT_SOURCE_DIR}/cmake/pmpi.map
              hetcoll_static
      COMMENT "mpicc.mpich libhetcoll_pmpi_mpich.so" VERBATIM)
    add_custom_command(OUTPUT ${app}
      COMMAND ${HC_MPICC_MPICH} -O2 -std=c11 -o ${app} ${PROJECT_SOURCE_DIR}/tests/pmpi/pmpi_app.c
      DEPENDS ${PROJECT_SOURCE_DIR}/tests/pmpi/pmpi_app.c
      COMMENT "mpicc.mpich pmpi_app_mpich" VERBATIM)
    add_custom_target(hc_pmpi_mpich ALL DEPENDS ${lib} ${app})
    add_test(NAME mpi/pmpi_mpich
      COMMAND bash ${PROJECT_SOURCE_DIR}/tests/pmpi/test_pmpi.sh mpich ${HC_MPIEXEC_MPICH} ${app}
              ${lib} 4)
    set_tests_properties(mpi/pmpi_mpich PROPERTIES LABELS mpi TIMEOUT 300)
  endif()
endif()
