add_executable(fusec-passes-tests
  ${CMAKE_CURRENT_LIST_DIR}/test_pipeline_config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_pipelines.cpp
  ${CMAKE_CURRENT_LIST_DIR}/catch_main.cpp)
target_compile_options(fusec-passes-tests PRIVATE -fexceptions)
target_link_libraries(fusec-passes-tests PRIVATE FusecPasses FusecPipelineConfig Catch2::Catch2)
catch_discover_tests(fusec-passes-tests)
