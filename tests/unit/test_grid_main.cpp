// The Catch2 main of fusec-runtime-tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
