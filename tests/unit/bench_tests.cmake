# Unit tests of fusec-bench's library (tools/fusec-bench): inputs files, scalar expressions,
# field and point-list generators, verification, timing summaries, metrics and OpenACC files,
# and the comparison's figures; the pipeline configuration section each backend runs with.
add_executable(fusec-bench-tests
  ${CMAKE_CURRENT_LIST_DIR}/catch_main.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bench_config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bench_inputs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bench_outputs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bench_points.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bench_ranks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bench_generator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bench_verification.cpp
)
# Catch2 reports failures by throwing; LLVM's options turn exceptions off.
target_compile_options(fusec-bench-tests PRIVATE -fexceptions)
target_link_libraries(fusec-bench-tests PRIVATE FusecBench Catch2::Catch2)
include(Catch)
catch_discover_tests(fusec-bench-tests)
