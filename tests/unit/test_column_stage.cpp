// fusec::ColumnStage (stn.write {nontemporal} in the C++ columns layout): a column's levels staged
// and written with non-temporal stores for its whole cache lines, ordinary ones at its ends. The
// values must land exactly at [begin, end) of the column, whatever the column's alignment, and
// nothing around that range may change. The same for fusec::stream_copy, which ColumnStage and
// fusec-bench's non-temporal copy kernel write with.
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

/// stream_copy of `count` values between arrays that start `to_offset` and `from_offset`
/// elements after a 64-byte boundary.
template <typename T> void checkStreamCopy(int64_t count, int32_t to_offset, int32_t from_offset) {
  constexpr T untouched = T(-7);
  std::vector<T> source(from_offset + count + 64), destination(to_offset + count + 64, untouched);
  auto aligned = [](std::vector<T> &values, int32_t offset) {
    const uintptr_t address = reinterpret_cast<uintptr_t>(values.data());
    return values.data() + (64 - address % 64) % 64 / sizeof(T) + offset;
  };
  T *from = aligned(source, from_offset), *to = aligned(destination, to_offset);
  for (int64_t i = 0; i < count; ++i)
    from[i] = T(3 * i + 1);
  fusec::stream_copy(to, from, count);
  fusec::stream_fence();
  for (int64_t i = 0; i < static_cast<int64_t>(destination.size()); ++i) {
    const int64_t at = (destination.data() + i) - to;
    INFO("count " << count << ", offsets " << to_offset << " / " << from_offset << ", element "
                  << i);
    CHECK(destination[i] == (at >= 0 && at < count ? T(3 * at + 1) : untouched));
  }
}

} // namespace

TEST_CASE("stream_copy copies exactly its values, at any alignment of either array") {
  for (int64_t count : {0, 1, 7, 8, 16, 17, 100, 4099})
    for (auto [to_offset, from_offset] : {std::pair{0, 0}, {0, 3}, {5, 0}, {1, 1}, {15, 6}}) {
      checkStreamCopy<double>(count, to_offset, from_offset);
      checkStreamCopy<float>(count, to_offset, from_offset);
    }
}

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
