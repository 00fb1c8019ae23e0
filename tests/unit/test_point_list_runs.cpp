// fusec::list_run (stn.list_run in the C++ columns layout): the length of the run of entries of
// one cell at consecutive levels, compared 16 entries at a time, against an entry-by-entry scan.
#include "fusec/kernel_support.h"

#include <catch2/catch.hpp>

#include <random>
#include <vector>

namespace {

int32_t scannedRun(const std::vector<int32_t> &cell, const std::vector<int32_t> &level, int32_t e,
                   int32_t end) {
  int32_t length = 1;
  while (e + length < end && cell[e + length] == cell[e] && level[e + length] == level[e] + length)
    ++length;
  return length;
}

} // namespace

TEST_CASE("list_run ends where the cell changes, a level is skipped or the work item ends") {
  // Cell 7 at levels 0..39, then cell 7 again from level 41 (a skipped level), then cell 8 from
  // level 0, then cell 7 at level 3 twice (a repeated level ends a run too).
  std::vector<int32_t> cell, level;
  for (int32_t k = 0; k < 40; ++k)
    cell.push_back(7), level.push_back(k);
  for (int32_t k = 41; k < 60; ++k)
    cell.push_back(7), level.push_back(k);
  for (int32_t k = 0; k < 18; ++k)
    cell.push_back(8), level.push_back(k);
  cell.insert(cell.end(), {7, 7}), level.insert(level.end(), {3, 3});
  const int32_t size = static_cast<int32_t>(cell.size());
  CHECK(fusec::list_run(cell.data(), level.data(), 0, size) == 40);
  CHECK(fusec::list_run(cell.data(), level.data(), 40, size) == 19);
  CHECK(fusec::list_run(cell.data(), level.data(), 59, size) == 18);
  CHECK(fusec::list_run(cell.data(), level.data(), 77, size) == 1);
  CHECK(fusec::list_run(cell.data(), level.data(), 78, size) == 1);
  // From inside a run, and cut by the work item's end.
  CHECK(fusec::list_run(cell.data(), level.data(), 5, size) == 35);
  CHECK(fusec::list_run(cell.data(), level.data(), 0, 33) == 33);
  CHECK(fusec::list_run(cell.data(), level.data(), 0, 16) == 16);
  CHECK(fusec::list_run(cell.data(), level.data(), 0, 1) == 1);
}

TEST_CASE("list_run agrees with an entry-by-entry scan on random runs") {
  std::mt19937 rng(12);
  std::uniform_int_distribution<int32_t> runLength(1, 90), cells(0, 3), startLevel(0, 5);
  std::vector<int32_t> cell, level;
  while (cell.size() < 4000) {
    int32_t c = cells(rng), k = startLevel(rng), n = runLength(rng);
    for (int32_t i = 0; i < n; ++i)
      cell.push_back(c), level.push_back(k + i);
  }
  const int32_t size = static_cast<int32_t>(cell.size());
  for (int32_t end : {size, size - 7, 1024, 100})
    for (int32_t e = 0; e < end; ++e)
      REQUIRE(fusec::list_run(cell.data(), level.data(), e, end) ==
              scannedRun(cell, level, e, end));
}
