# Catch2 unit tests of the runtime: grids, coefficients, .npy files, kernel support, wavefront
# schedules (included from tests/unit).
include(Catch)
add_executable(fusec-runtime-tests
  ${CMAKE_CURRENT_LIST_DIR}/test_grid_main.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_arith.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_grid.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_grid_lam.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_grid_netcdf.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_coefficients.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_decomposition.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_halo_exchange.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_npy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_blocked_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_point_list_runs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_column_stage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_wavefront.cpp
)
# HandleLLVMOptions adds -fno-exceptions globally; Catch2 needs exceptions.
target_compile_options(fusec-runtime-tests PRIVATE -fexceptions)
target_link_libraries(fusec-runtime-tests PRIVATE fusec_runtime Catch2::Catch2)
catch_discover_tests(fusec-runtime-tests)
