// fusec::ColumnStage (stn.write {nontemporal} in the C++ columns layout): a column's levels staged
// and written with non-temporal stores for its whole cache lines, ordinary ones at its ends. The
// values must land exactly at [begin, end) of the column, whatever the column's alignment, and
// nothing around that range may change.
#include "fusec/kernel_support.h"

#include <catch2/catch.hpp>

#include <vector>

namespace {

template <typename T> void checkStoredRange(int32_t levels, int32_t offset, int32_t begin,
                                            int32_t end) {
  // The column starts `offset` elements after a 64-byte boundary.
  constexpr T untouched = T(-7);
  std::vector<T> memory(offset + levels + 64, untouched);
  const uintptr_t address = reinterpret_cast<uintptr_t>(memory.data());
  const int32_t boundary = static_cast<int32_t>((64 - address % 64) % 64 / sizeof(T));
  T *column = memory.data() + boundary + offset;
  fusec::ColumnStage<T> stage(levels + 1);
  for (int32_t k = begin; k < end; ++k)
    stage[k] = T(1000 + k);
  stage.store(column + begin, begin, end);
  for (int32_t i = 0; i < static_cast<int32_t>(memory.size()); ++i) {
    const int32_t k = i - boundary - offset;
    INFO("levels " << levels << ", offset " << offset << ", [" << begin << ", " << end
                   << "), element " << i);
    CHECK(memory[i] == (k >= begin && k < end ? T(1000 + k) : untouched));
  }
}

} // namespace

TEST_CASE("ColumnStage writes exactly the levels it staged, at any alignment") {
  for (int32_t offset : {0, 1, 3, 7, 8, 15})
    for (auto [begin, end] : {std::pair{0, 80}, {1, 80}, {0, 81}, {3, 5}, {0, 8}, {5, 77}}) {
      checkStoredRange<double>(81, offset, begin, end);
      checkStoredRange<float>(81, offset, begin, end);
    }
  // An empty range writes nothing.
  checkStoredRange<double>(80, 0, 10, 10);
}

TEST_CASE("ColumnStage holds columns longer than its inline storage") {
  checkStoredRange<double>(300, 5, 0, 300);
  checkStoredRange<float>(1000, 2, 17, 999);
}
