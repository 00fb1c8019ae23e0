# Instances of one program (docs/integration.md), included by tests/CMakeLists.txt: the emitted
# C++ of stencils/diffusion.stn and tests/instances/instances_driver.cpp.
#   instances-interleaved   two instances on two grids with different level counts, called in
#                           turn, each against a reference; callbacks and timers per instance
#   instances-threads       four instances created, run and destroyed by four OpenMP threads
#                           at once, each against a reference
#   instances-threads-tsan  the same under ThreadSanitizer (clang-19, LLVM's libomp with
#                           Archer); skipped with a message where that is unavailable
#   instances-team          one run of tests/instances/team.stn (-O none) shared by a team of
#                           4 OpenMP threads, one of its kernels without a barrier after it
#   instances-team-tsan     the same under ThreadSanitizer: a barrier left out wrongly is a race
#   instances-wavefront     tests/codegen/wavefront.stn (columns layout, wavefront plans with
#                           tiles of 16 points at any level count) on teams of 1, 2 and 3
#                           threads: each plan gives bit for bit what its kernels give one
#                           after the other
#   instances-wavefront-tsan  a team of 4 under ThreadSanitizer: a missing plan barrier is a race
set(FUSEC_INSTANCES_DIR ${CMAKE_CURRENT_BINARY_DIR}/instances)
set(instances_stn ${PROJECT_SOURCE_DIR}/stencils/diffusion.stn)
add_custom_command(
  OUTPUT ${FUSEC_INSTANCES_DIR}/diffusion.cpp ${FUSEC_INSTANCES_DIR}/diffusion.h
  COMMAND ${CMAKE_COMMAND} -E make_directory ${FUSEC_INSTANCES_DIR}
  COMMAND fusec ${instances_stn} -O fuse-all --emit=cpp -o ${FUSEC_INSTANCES_DIR}/diffusion.cpp
  COMMAND fusec ${instances_stn} -o ${FUSEC_INSTANCES_DIR}/diffusion.h
  DEPENDS fusec ${instances_stn}
  COMMENT "diffusion.stn -> instances/diffusion.cpp, diffusion.h"
  VERBATIM)
set(team_stn ${CMAKE_CURRENT_SOURCE_DIR}/instances/team.stn)
add_custom_command(
  OUTPUT ${FUSEC_INSTANCES_DIR}/team.cpp ${FUSEC_INSTANCES_DIR}/team.h
  COMMAND ${CMAKE_COMMAND} -E make_directory ${FUSEC_INSTANCES_DIR}
  COMMAND fusec ${team_stn} -I ${PROJECT_SOURCE_DIR}/stencils -O none --emit=cpp
          -o ${FUSEC_INSTANCES_DIR}/team.cpp
  COMMAND fusec ${team_stn} -I ${PROJECT_SOURCE_DIR}/stencils -o ${FUSEC_INSTANCES_DIR}/team.h
  DEPENDS fusec ${team_stn} ${PROJECT_SOURCE_DIR}/stencils/icon.stn
  COMMENT "team.stn -> instances/team.cpp, team.h"
  VERBATIM)
set(wavefront_stn ${PROJECT_SOURCE_DIR}/tests/codegen/wavefront.stn)
set(wavefront_includes ${PROJECT_SOURCE_DIR}/tests/frontend/Inputs)
add_custom_command(
  OUTPUT ${FUSEC_INSTANCES_DIR}/wavefront.cpp ${FUSEC_INSTANCES_DIR}/wavefront.h
  COMMAND ${CMAKE_COMMAND} -E make_directory ${FUSEC_INSTANCES_DIR}
  COMMAND fusec ${wavefront_stn} -I ${wavefront_includes} --layout=columns
          -O "stn-wavefront{tile=16 min-levels=1}" --emit=cpp
          -o ${FUSEC_INSTANCES_DIR}/wavefront.cpp
  COMMAND fusec ${wavefront_stn} -I ${wavefront_includes} -o ${FUSEC_INSTANCES_DIR}/wavefront.h
  DEPENDS fusec ${wavefront_stn} ${wavefront_includes}/prelude.stn
  COMMENT "wavefront.stn -> instances/wavefront.cpp, wavefront.h"
  VERBATIM)
add_executable(fusec-instances-driver instances/instances_driver.cpp
               ${FUSEC_INSTANCES_DIR}/diffusion.cpp ${FUSEC_INSTANCES_DIR}/team.cpp
               ${FUSEC_INSTANCES_DIR}/wavefront.cpp)
target_include_directories(fusec-instances-driver PRIVATE ${FUSEC_INSTANCES_DIR})
target_link_libraries(fusec-instances-driver PRIVATE fusec_runtime OpenMP::OpenMP_CXX)

add_test(NAME instances-interleaved
  COMMAND fusec-instances-driver interleaved ${FUSEC_INSTANCES_DIR})
add_test(NAME instances-threads COMMAND fusec-instances-driver threads 4)
add_test(NAME instances-team COMMAND fusec-instances-driver team 4)
foreach(threads 1 2 3)
  add_test(NAME instances-wavefront-${threads} COMMAND fusec-instances-driver wavefront ${threads})
endforeach()

find_program(CLANGXX_19 clang++-19)
set(instances_libraries $<TARGET_FILE:fusec_runtime>)
if(FUSEC_RUNTIME_NETCDF)
  list(APPEND instances_libraries $<TARGET_FILE:netCDF::netcdf>)
endif()
foreach(mode threads team wavefront)
  add_test(NAME instances-${mode}-tsan
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/instances/run_tsan.sh
            "${CLANGXX_19}" ${PROJECT_SOURCE_DIR}/runtime/include ${FUSEC_INSTANCES_DIR}
            ${CMAKE_CURRENT_SOURCE_DIR}/instances/instances_driver.cpp
            ${FUSEC_INSTANCES_DIR}/tsan-${mode} ${mode} ${instances_libraries})
  set_tests_properties(instances-${mode}-tsan PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
