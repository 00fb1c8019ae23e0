// ICON's blocked CPU layout (fusec_layout.nproma): the extents an instance keeps, the block
// offsets of neighbour tables, comparisons in blocks, and the C API's flat <-> blocked copies.
#include "fusec/c_api.h"
#include "fusec/kernel_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace {

// 5 cells, 7 edges, 3 vertices; E2C with one missing neighbour.
struct SmallMesh {
  std::vector<int32_t> e2c = {0, 1, 2, 3, 4, 4, 3, /* slot 1 */ 1, 2, 3, 4, -1, 0, 0};
  fusec_connectivity table{"E2C", FUSEC_EDGE, FUSEC_CELL, 2, 7, 7, e2c.data()};
  fusec_mesh mesh{{5, 7, 3}, 1, &table};
};

} // namespace

TEST_CASE("Extents in the blocked layout: ld = nproma, ceil(points / nproma) blocks") {
  SmallMesh small;
  fusec::Extents extents;
  fusec_layout layout = {{0, 0, 0}, 2};
  REQUIRE(extents.init(&small.mesh, 4, &layout) == FUSEC_SUCCESS);
  CHECK(extents.blocked());
  CHECK(extents.ld[FUSEC_CELL] == 2);
  CHECK(extents.ld[FUSEC_VERTEX] == 2);
  CHECK(extents.blocks(FUSEC_CELL) == 3);
  CHECK(extents.blocks(FUSEC_EDGE) == 4);
  CHECK(extents.blocks(FUSEC_VERTEX) == 2);
  // Half levels (5) of 3 blocks of 2 cells; sparse 2-D edge fields: 4 blocks x 2 x 2 slots.
  CHECK(extents.elements(FUSEC_CELL, fusec::Levels::Half, 0) == 2 * 3 * 5);
  CHECK(extents.elements(FUSEC_EDGE, fusec::Levels::Flat, 2) == 2 * 4 * 2);
  CHECK(extents.elements(FUSEC_NO_LOCATION, fusec::Levels::Full, 0) == 4);
  fusec_exchange_field field =
      extents.describe("w", nullptr, FUSEC_F64, FUSEC_CELL, fusec::Levels::Half, 0);
  CHECK(field.ld == 2);
  CHECK(field.num_blocks == 3);
}

TEST_CASE("Extents refuse a blocked layout with another ld or a negative nproma") {
  SmallMesh small;
  fusec::Extents extents;
  fusec_layout mismatched = {{3, 0, 0}, 2};
  CHECK(extents.init(&small.mesh, 4, &mismatched) == FUSEC_ERROR_INVALID_ARGUMENT);
  fusec_layout same = {{2, 2, 2}, 2};
  CHECK(extents.init(&small.mesh, 4, &same) == FUSEC_SUCCESS);
  fusec_layout negative = {{0, 0, 0}, -1};
  CHECK(extents.init(&small.mesh, 4, &negative) == FUSEC_ERROR_INVALID_ARGUMENT);
  // The flat layout is as before: one block, ld >= points.
  fusec_layout flat = {{8, 0, 0}, 0};
  REQUIRE(extents.init(&small.mesh, 4, &flat) == FUSEC_SUCCESS);
  CHECK_FALSE(extents.blocked());
  CHECK(extents.ld[FUSEC_CELL] == 8);
  CHECK(extents.blocks(FUSEC_CELL) == 1);
  CHECK(extents.elements(FUSEC_CELL, fusec::Levels::Full, 0) == 8 * 4);
}

TEST_CASE("Neighbour tables hold each entry's level-0 element per field shape, -1 where missing") {
  SmallMesh small;
  fusec::HostTable table;
  REQUIRE(table.load(&small.mesh, "E2C", FUSEC_EDGE, FUSEC_CELL, 2) == FUSEC_SUCCESS);
  CHECK(table.block_offsets(3) == nullptr);
  // Full-level cell fields with 4 levels, nproma 2: cell c at c % 2 + 2 * 4 * (c / 2).
  REQUIRE(table.compute_block_offsets(2, 4 - 1) == FUSEC_SUCCESS);
  const std::vector<int64_t> full = {0, 1, 8, 9, 16, 16, 9, 1, 8, 9, 16, -1, 0, 0};
  CHECK(std::vector<int64_t>(table.block_offsets(3), table.block_offsets(3) + 14) == full);
  // Half levels (5) are another shape, kept beside the first; computing one again is a no-op.
  REQUIRE(table.compute_block_offsets(2, 5 - 1) == FUSEC_SUCCESS);
  CHECK(table.block_offsets(4)[4] == 4 + 2 * 2 * 4);
  const int64_t *first = table.block_offsets(3);
  REQUIRE(table.compute_block_offsets(2, 3) == FUSEC_SUCCESS);
  CHECK(table.block_offsets(3) == first);
  CHECK(table.compute_block_offsets(0, 3) == FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(table.compute_block_offsets(2, -1) == FUSEC_ERROR_INVALID_ARGUMENT);
  // At most 8 shapes per table.
  for (int64_t beyond = 5; beyond < 11; ++beyond)
    REQUIRE(table.compute_block_offsets(2, beyond) == FUSEC_SUCCESS);
  CHECK(table.compute_block_offsets(2, 11) == FUSEC_ERROR_UNSUPPORTED_LAYOUT);
  table.release();
  CHECK(table.block_offsets(3) == nullptr);
}

TEST_CASE("Neighbour tables count the rows with a missing neighbour before each row") {
  SmallMesh small;
  fusec::HostTable table;
  REQUIRE(table.load(&small.mesh, "E2C", FUSEC_EDGE, FUSEC_CELL, 2) == FUSEC_SUCCESS);
  // Edge 4 alone has a -1 (slot 1): rows [lo, hi) are complete unless they hold row 4.
  const std::vector<int32_t> before = {0, 0, 0, 0, 0, 1, 1, 1};
  CHECK(std::vector<int32_t>(table.missing_before(), table.missing_before() + 8) == before);
  auto complete = [&](int lo, int hi) {
    return table.missing_before()[hi] == table.missing_before()[lo];
  };
  CHECK(complete(0, 4));
  CHECK(complete(5, 7));
  CHECK(complete(4, 4));
  CHECK_FALSE(complete(4, 5));
  CHECK_FALSE(complete(0, 7));
  table.release();
  CHECK(table.missing_before() == nullptr);
}

TEST_CASE("Blocked copies put (h, n, k) at jc + nproma*(n + N*(k + L*jb))") {
  // 5 points, 2 slots, 3 levels, nproma 2: 3 blocks of 2*2*3 = 12 elements.
  const int32_t points = 5, slots = 2, levels = 3;
  const int64_t nproma = 2;
  REQUIRE(fusec_blocked_size(points, nproma, slots, levels) == 36);
  CHECK(fusec_blocked_size(points, nproma, 0, 0) == 6);
  CHECK(fusec_blocked_size(points, 0, 0, 0) == 0);
  std::vector<double> flat(points * slots * levels), blocked(36, NAN), back(flat.size(), -1.0);
  for (size_t i = 0; i < flat.size(); ++i)
    flat[i] = static_cast<double>(i);
  REQUIRE(fusec_copy_to_blocked(FUSEC_F64, points, points, slots, levels, nproma, flat.data(),
                                blocked.data()) == FUSEC_SUCCESS);
  for (int32_t k = 0; k < levels; ++k)
    for (int32_t n = 0; n < slots; ++n)
      for (int32_t h = 0; h < points; ++h) {
        const int64_t jc = h % nproma, jb = h / nproma;
        CHECK(blocked[jc + nproma * (n + slots * (k + levels * jb))] ==
              flat[h + n * points + k * points * slots]);
      }
  // The last block's second point is padding: never written.
  for (int32_t k = 0; k < levels; ++k)
    for (int32_t n = 0; n < slots; ++n)
      CHECK(std::isnan(blocked[1 + nproma * (n + slots * (k + levels * 2))]));
  REQUIRE(fusec_copy_from_blocked(FUSEC_F64, points, points, slots, levels, nproma,
                                  blocked.data(), back.data()) == FUSEC_SUCCESS);
  CHECK(back == flat);
}

TEST_CASE("Blocked copies refuse bad shapes with a message") {
  std::vector<int32_t> flat(10), blocked(10);
  CHECK(fusec_copy_to_blocked(FUSEC_I32, 5, 5, 0, 0, 0, flat.data(), blocked.data()) ==
        FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(fusec_last_error()).find("nproma > 0") != std::string::npos);
  CHECK(fusec_copy_to_blocked(FUSEC_I32, 5, 4, 0, 0, 2, flat.data(), blocked.data()) ==
        FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(fusec_copy_from_blocked(FUSEC_I32, 5, 5, 0, 0, 2, nullptr, flat.data()) ==
        FUSEC_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("Comparisons in the blocked layout report the point and level") {
  // 3 points, 2 levels, nproma 2: blocks of 2*2 elements, the second block half used.
  std::vector<double> reference = {1, 2, 11, 12, /* block 1 */ 3, NAN, 13, NAN};
  std::vector<double> values = reference;
  values[6] = 13.5; // point 2, level 1
  fusec_field_check check{};
  check.location = FUSEC_CELL;
  check.tolerances = {1e-12, 1e-15};
  fusec::compare_field(values.data(), reference.data(), 3, 2, 0, 2, &check);
  CHECK(check.num_values == 6);
  CHECK(check.num_failures == 1);
  CHECK(check.worst_point == 2);
  CHECK(check.worst_level == 1);
  CHECK(check.worst_value == 13.5);
}
