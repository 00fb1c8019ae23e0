# ICON integration (docs/integration.md), included by tests/CMakeLists.txt: the FuseC package
# installed into a prefix under the build tree, and projects outside this build that use it as
# ICON's build would:
#   integration-c-consumer        tests/cmake, C++ backend: fusec_add_stencils + a C99 driver
#                                 (numbers, padding, verification, timers, error codes, the
#                                 cost of a call)
#   integration-cuda-consumer     tests/cmake, CUDA backend for sm_80 and sm_90: built and
#                                 linked only (no GPU needed)
# The C consumer also checks when fusec_add_stencils regenerates sources.
#   integration-fortran-consumer  tests/fortran, C++ backend: wrap_run_* of every diffusion
#                                 program against the interpreter (point lists from their
#                                 saved files), the exchange callback, verification, a point
#                                 list's status codes
#   integration-icon-driver       tests/icon-driver: an ICON-shaped Fortran call site of
#                                 diffusion_step in ICON's blocked layout with ICON's list of
#                                 steep points converted to fusec's, 10 steps against 10
#                                 interpreter steps (CUDA backend built where nvcc is found)
# The consumers' builds are serialised (RESOURCE_LOCK): each uses two cores.
set(FUSEC_INTEGRATION_DIR ${CMAKE_CURRENT_BINARY_DIR}/integration)
set(FUSEC_INTEGRATION_PREFIX ${FUSEC_INTEGRATION_DIR}/prefix)

add_test(NAME integration-install
  COMMAND ${CMAKE_COMMAND} --install ${PROJECT_BINARY_DIR} --prefix ${FUSEC_INTEGRATION_PREFIX}
          --component fusec)
set_tests_properties(integration-install PROPERTIES FIXTURES_SETUP fusec-package)

# The consumer's inputs: the .stn files (and configuration) it compiles.
set(stencils ${PROJECT_SOURCE_DIR}/stencils)
add_test(NAME integration-c-consumer
  COMMAND ${CMAKE_COMMAND}
          -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}/cmake
          -DBINARY_DIR=${FUSEC_INTEGRATION_DIR}/c-consumer
          -DPREFIX=${FUSEC_INTEGRATION_PREFIX}
          -DGENERATOR=${CMAKE_GENERATOR}
          "-DINPUTS=${stencils}/diffusion.stn$<SEMICOLON>${stencils}/icon.stn$<SEMICOLON>${CMAKE_CURRENT_SOURCE_DIR}/cmake/diffusion.yaml"
          -DCHECK_REGENERATION=ON
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/run_consumer.cmake)
set_tests_properties(integration-c-consumer PROPERTIES
  FIXTURES_REQUIRED fusec-package RESOURCE_LOCK fusec-consumer-build)

if(NVCC_EXECUTABLE)
  add_test(NAME integration-cuda-consumer
    COMMAND ${CMAKE_COMMAND}
            -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}/cmake
            -DBINARY_DIR=${FUSEC_INTEGRATION_DIR}/cuda-consumer
            -DPREFIX=${FUSEC_INTEGRATION_PREFIX}
            -DGENERATOR=${CMAKE_GENERATOR}
            -DBACKEND=cuda
            "-DINPUTS=${stencils}/diffusion.stn$<SEMICOLON>${stencils}/icon.stn$<SEMICOLON>${CMAKE_CURRENT_SOURCE_DIR}/cmake/diffusion.yaml"
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/run_consumer.cmake)
  set_tests_properties(integration-cuda-consumer PROPERTIES
    FIXTURES_REQUIRED fusec-package RESOURCE_LOCK fusec-consumer-build)
endif()

if(GFORTRAN_EXECUTABLE AND TARGET fusec-bench)
  # Inputs and interpreter outputs of every program on a limited-area grid.
  add_test(NAME integration-fortran-data
    COMMAND fusec-bench run ${stencils}/diffusion.stn --backend interp --pipelines none
            --grid lam-r2b3 --nlev 10 --repeat 0
            --save-outputs ${FUSEC_INTEGRATION_DIR}/diffusion-data)
  set_tests_properties(integration-fortran-data PROPERTIES FIXTURES_SETUP fusec-diffusion-data)
  add_test(NAME integration-fortran-consumer
    COMMAND ${CMAKE_COMMAND}
            -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}/fortran
            -DBINARY_DIR=${FUSEC_INTEGRATION_DIR}/fortran-consumer
            -DPREFIX=${FUSEC_INTEGRATION_PREFIX}
            -DGENERATOR=${CMAKE_GENERATOR}
            "-DINPUTS=${stencils}/diffusion.stn$<SEMICOLON>${stencils}/icon.stn"
            -DDATA_DIR=${FUSEC_INTEGRATION_DIR}/diffusion-data
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/run_consumer.cmake)
  set_tests_properties(integration-fortran-consumer PROPERTIES
    FIXTURES_REQUIRED "fusec-package;fusec-diffusion-data"
    RESOURCE_LOCK fusec-consumer-build)
  # The ICON-shaped example (tests/icon-driver): the initial state of diffusion_step and the
  # state after 10 interpreter steps (inputs computed from the grid: random ones grow without
  # bound over 10 steps), then the Fortran program on ICON's blocked layout.
  add_test(NAME integration-icon-driver-data
    COMMAND fusec-bench run ${stencils}/diffusion.stn --backend interp --pipelines none
            --programs diffusion_step --grid lam-r2b3 --nlev 10 --inputs realistic --steps 10
            --repeat 0
            --save-outputs ${FUSEC_INTEGRATION_DIR}/icon-driver-data)
  set_tests_properties(integration-icon-driver-data PROPERTIES
    FIXTURES_SETUP fusec-icon-driver-data)
  add_test(NAME integration-icon-driver
    COMMAND ${CMAKE_COMMAND}
            -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}/icon-driver
            -DBINARY_DIR=${FUSEC_INTEGRATION_DIR}/icon-driver
            -DPREFIX=${FUSEC_INTEGRATION_PREFIX}
            -DGENERATOR=${CMAKE_GENERATOR}
            "-DINPUTS=${stencils}/diffusion.stn$<SEMICOLON>${stencils}/icon.stn"
            -DDATA_DIR=${FUSEC_INTEGRATION_DIR}/icon-driver-data
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/run_consumer.cmake)
  set_tests_properties(integration-icon-driver PROPERTIES
    FIXTURES_REQUIRED "fusec-package;fusec-icon-driver-data"
    RESOURCE_LOCK fusec-consumer-build)
else()
  message(STATUS "integration-fortran-consumer and integration-icon-driver skipped: need "
                 "gfortran and fusec-bench")
endif()

# ICON's blocked CPU layout (fusec_layout.nproma): every diffusion program, unfused and fused,
# in the C++ backend against the interpreter with nproma 8, 16 and 32, on a limited-area grid
# whose cells, edges and vertices all end in a partly used block.
if(TARGET fusec-bench)
  foreach(nproma 8 16 32)
    add_test(NAME layout-blocked-nproma${nproma}
      COMMAND fusec-bench run ${stencils}/diffusion.stn --backend cpp --pipelines none,fuse-all
              --grid lam-r2b3 --nlev 10 --repeat 0 --layout blocked:${nproma})
    set_tests_properties(layout-blocked-nproma${nproma} PROPERTIES
      ENVIRONMENT OMP_NUM_THREADS=2 RESOURCE_LOCK fusec-bench-compile)
  endforeach()
endif()
