// fusec::blend (runtime/include/fusec/arith.h): the branch-free select the C++ emitter prints
// for selects marked stn.blend must return the chosen value bit for bit.
#include "fusec/arith.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>

namespace {
template <typename T> bool sameBits(T a, T b) { return std::memcmp(&a, &b, sizeof a) == 0; }
} // namespace

TEST_CASE("blend chooses the bits of one operand", "[arith]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(sameBits(fusec::blend(true, -0.0, 0.0), -0.0));
  CHECK(sameBits(fusec::blend(false, -0.0, 0.0), 0.0));
  CHECK(sameBits(fusec::blend(true, nan, 1.0), nan));
  CHECK(sameBits(fusec::blend(false, nan, 1.0), 1.0));
  CHECK(sameBits(fusec::blend(true, -1.5f, 2.5f), -1.5f));
  CHECK(sameBits(fusec::blend(false, -1.5f, 2.5f), 2.5f));
  CHECK(fusec::blend<int32_t>(true, -7, 3) == -7);
  CHECK(fusec::blend<int32_t>(false, -7, 3) == 3);
  CHECK(fusec::blend<int64_t>(true, int64_t(1) << 40, -1) == int64_t(1) << 40);
  CHECK(fusec::blend<int64_t>(false, int64_t(1) << 40, -1) == -1);
  CHECK(fusec::blend(true, false, true) == false);
  CHECK(fusec::blend(false, false, true) == true);
}
