# Unit tests of the reference interpreter (codegen/interpreter).
add_executable(fusec-interpreter-tests
  ${CMAKE_CURRENT_LIST_DIR}/test_interpreter_main.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_interpreter_program.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_interpreter_kernel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_interpreter_arith.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_interpreter_errors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_interpreter_large.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_interpreter_points.cpp
)
target_link_libraries(fusec-interpreter-tests PRIVATE
  FusecInterpreter
  MLIRParser
  Catch2::Catch2
)
# Catch2 reports failures by throwing; LLVM's options turn exceptions off.
target_compile_options(fusec-interpreter-tests PRIVATE -fexceptions)
include(Catch)
catch_discover_tests(fusec-interpreter-tests)
