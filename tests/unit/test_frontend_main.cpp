// Catch2's main for the frontend unit tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
