# Runs over many MPI ranks (docs/runtime.md, "Halo exchange over MPI"), included by
# tests/CMakeLists.txt. `fusec-bench run --ranks N` decomposes the grid over N ranks, runs each
# variant with fusec::MpiExchange as the exchange callback (the only communication during a
# run), gathers the owned points and compares them with the one-rank run bit for bit.
#   mpi-global-ranks-N   diffusion_step (every program of diffusion.stn with an `exchange`),
#                        3 steps, none and fuse-all, R2B3, 6 levels, random inputs, N = 1, 2, 4
#   mpi-lam-ranks-N      the same on lam-r2b4, realistic inputs
#   mpi-bad-argument-setup  rank 1 of 2 gets an unknown --set: both ranks print rank 1's
#                        message and exit with status 1 (checked collectively before the run)
#   mpi-all-programs-*  all 32 programs of diffusion.stn, one step, R2B3 on 2 ranks and
#                        lam-r2b4 on 4 ranks
#   mpi-columns-ranks-N  diffusion_step in the columns layout (ICON's blocked layout, nproma 1):
#                        each rank runs its wavefront groups kernel by kernel around the
#                        exchanges, the one-rank run through their plans; N = 2, 4
#   mpi-blocked-ranks-4  the same in ICON's blocked layout with nproma 8 (halo points packed from
#                        and unpacked into blocks)
#   mpi-cuda-host-ranks-2 diffusion_step as emitted CUDA run on the host (cuda-host), 2 ranks:
#                        device fields exchanged through the host-staged path
#   mpi-exchange-ranks-N fusec::MpiExchange alone (tests/mpi/exchange_test.cpp), N = 1..4
#   mpi-bad-argument-run rank 1 of 3 gets a zone bound beyond its grid: its P_run fails inside
#                        the step while the others wait in an exchange; it aborts them all
# Both failure tests run under a timeout (a hang fails them). Without MPI (FUSEC_MPI off) one
# test, mpi, reports the skip.
if(NOT FUSEC_MPI)
  add_test(NAME mpi COMMAND ${CMAKE_COMMAND} -E echo
           "skipped: fusec was configured without MPI (FUSEC_MPI off)")
  set_tests_properties(mpi PROPERTIES SKIP_REGULAR_EXPRESSION "skipped:")
  return()
endif()

set(mpi_stn ${PROJECT_SOURCE_DIR}/stencils/diffusion.stn)
# OpenMPI refuses root without the first two; the suppressions matter under the sanitizers only.
set(mpi_environment OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    OMPI_MCA_rmaps_base_oversubscribe=1
    LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/mpi/lsan-openmpi.supp)
set(mpi_common ${mpi_stn} --programs diffusion_step --pipelines none,fuse-all --nlev 6
    --steps 3 --repeat 2 --warmup 0)

foreach(ranks 1 2 4)
  add_test(NAME mpi-global-ranks-${ranks}
    COMMAND fusec-bench run ${mpi_common} --grid r2b3 --inputs random --ranks ${ranks})
  add_test(NAME mpi-lam-ranks-${ranks}
    COMMAND fusec-bench run ${mpi_common} --grid lam-r2b4 --inputs realistic --ranks ${ranks})
  # Exit status 0 only when every variant matched the one-rank run bit for bit.
  foreach(grid global lam)
    set_tests_properties(mpi-${grid}-ranks-${ranks} PROPERTIES
      ENVIRONMENT "${mpi_environment}" TIMEOUT 300 FAIL_REGULAR_EXPRESSION "\\| NO \\|")
  endforeach()
endforeach()

# Every program of diffusion.stn (those without an exchange compute their owned points from
# local neighbours only), one step, under none and fuse-all.
add_test(NAME mpi-all-programs-global-ranks-2
  COMMAND fusec-bench run ${mpi_stn} --programs all --pipelines none,fuse-all --nlev 6
          --repeat 0 --grid r2b3 --inputs random --ranks 2)
add_test(NAME mpi-all-programs-lam-ranks-4
  COMMAND fusec-bench run ${mpi_stn} --programs all --pipelines none,fuse-all --nlev 6
          --repeat 0 --grid lam-r2b4 --inputs realistic --ranks 4)
set_tests_properties(mpi-all-programs-global-ranks-2 mpi-all-programs-lam-ranks-4 PROPERTIES
  ENVIRONMENT "${mpi_environment}" TIMEOUT 600 FAIL_REGULAR_EXPRESSION "\\| NO \\|")

# 16 levels: fuse-all's plans run from 12 (stn-wavefront's min-levels).
foreach(ranks 2 4)
  add_test(NAME mpi-columns-ranks-${ranks}
    COMMAND fusec-bench run ${mpi_stn} --programs diffusion_step --pipelines none,fuse-all
            --nlev 16 --steps 3 --repeat 2 --warmup 0 --grid lam-r2b4 --inputs realistic
            --ranks ${ranks} --layout columns)
endforeach()
add_test(NAME mpi-blocked-ranks-4
  COMMAND fusec-bench run ${mpi_common} --grid r2b3 --inputs random --ranks 4 --layout blocked:8)
set_tests_properties(mpi-columns-ranks-2 mpi-columns-ranks-4 mpi-blocked-ranks-4 PROPERTIES
  ENVIRONMENT "${mpi_environment}" TIMEOUT 300 FAIL_REGULAR_EXPRESSION "\\| NO \\|")

# The CUDA code path on the host (--backend cuda-host): device copies of the fields, exchanged
# through the host-staged path with the library's copy functions.
add_test(NAME mpi-cuda-host-ranks-2
  COMMAND fusec-bench run ${mpi_stn} --programs diffusion_step --pipelines fuse-all --nlev 4
          --steps 2 --repeat 0 --grid lam-r2b3 --backend cuda-host --ranks 2)
set_tests_properties(mpi-cuda-host-ranks-2 PROPERTIES
  ENVIRONMENT "${mpi_environment}" TIMEOUT 300 FAIL_REGULAR_EXPRESSION "\\| NO \\|")

# A job to hand to the ranks directly (fixture), then the two failures.
set(mpi_jobs ${CMAKE_CURRENT_BINARY_DIR}/mpi-jobs)
add_test(NAME mpi-job
  COMMAND fusec-bench run ${mpi_stn} --programs diffusion_step --pipelines fuse-all --nlev 4
          --grid r2b2 --ranks 2 --repeat 0 --rank-dir ${mpi_jobs})
set_tests_properties(mpi-job PROPERTIES ENVIRONMENT "${mpi_environment}" TIMEOUT 300
  FIXTURES_SETUP mpi-job)

add_test(NAME mpi-bad-argument-setup
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/expect_rank_failure.sh 60 2
          "rank 1: --set no_such_scalar: program 'diffusion_step' has no scalar parameter"
          ${MPIEXEC_EXECUTABLE} --oversubscribe
          -np 1 $<TARGET_FILE:fusec-bench-ranks> ${mpi_jobs}/fuse-all.job :
          -np 1 $<TARGET_FILE:fusec-bench-ranks> ${mpi_jobs}/fuse-all.job
                --set no_such_scalar=1)
add_test(NAME mpi-bad-argument-run
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/expect_rank_failure.sh 60 1
          "rank 1: diffusion_step: diffusion_step_run returned 5"
          ${MPIEXEC_EXECUTABLE} --oversubscribe
          -np 1 $<TARGET_FILE:fusec-bench-ranks> ${mpi_jobs}/fuse-all.job :
          -np 1 $<TARGET_FILE:fusec-bench-ranks> ${mpi_jobs}/fuse-all.job
                --set end_local_e=100000000 :
          -np 1 $<TARGET_FILE:fusec-bench-ranks> ${mpi_jobs}/fuse-all.job)
set_tests_properties(mpi-bad-argument-setup mpi-bad-argument-run PROPERTIES
  ENVIRONMENT "${mpi_environment}" TIMEOUT 90 FIXTURES_REQUIRED mpi-job)

# fusec::MpiExchange on its own: host fields, device fields through the host-staged path
# (fusec/mpi_exchange_cuda.h against fusec/cuda_host), mismatched exchanges.
add_executable(fusec-mpi-exchange-test mpi/exchange_test.cpp)
target_include_directories(fusec-mpi-exchange-test BEFORE PRIVATE
  ${PROJECT_SOURCE_DIR}/runtime/include/fusec/cuda_host)
target_link_libraries(fusec-mpi-exchange-test PRIVATE fusec_runtime_mpi)
foreach(ranks 1 2 3 4)
  add_test(NAME mpi-exchange-ranks-${ranks}
    COMMAND ${MPIEXEC_EXECUTABLE} --oversubscribe -np ${ranks}
            $<TARGET_FILE:fusec-mpi-exchange-test> lam-r2b3)
  set_tests_properties(mpi-exchange-ranks-${ranks} PROPERTIES
    ENVIRONMENT "${mpi_environment}" TIMEOUT 60 FAIL_REGULAR_EXPRESSION "FAILED")
endforeach()
