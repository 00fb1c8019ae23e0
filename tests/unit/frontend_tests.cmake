# Catch2 unit tests of the .stn lexer, parser and frontend (included from tests/unit).
add_executable(fusec-frontend-tests
  ${CMAKE_CURRENT_LIST_DIR}/test_frontend_main.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_frontend_lexer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_frontend_parser.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_frontend_translate.cpp
)
# HandleLLVMOptions adds -fno-exceptions globally; Catch2 needs exceptions.
target_compile_options(fusec-frontend-tests PRIVATE -fexceptions)
target_link_libraries(fusec-frontend-tests PRIVATE FusecFrontend Catch2::Catch2)
catch_discover_tests(fusec-frontend-tests)
