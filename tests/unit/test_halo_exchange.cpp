// Packing and unpacking halo points (fusec/halo_exchange.h): what fusec::MpiExchange moves,
// checked on one process by handing every rank's packed messages to its peers directly.
#include "fusec/decomposition.h"
#include "fusec/grid_generator.h"
#include "fusec/halo_exchange.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

using namespace fusec;

namespace {

// A value that names the global point, slot and level.
double value_at(int32_t global, int32_t slot, int32_t level) {
  return global + 0.25 * slot + 1e-3 * level + 1.0;
}

struct RankFields {
  std::vector<double> cell;   // Cell x K (3 levels), ld padded by 5
  std::vector<int32_t> edge;  // Edge x E2C[2] x K (2 levels), i32
  std::vector<float> vertex;  // Vertex, no levels, f32
  std::vector<double> column; // vertical-only: no halo
  std::array<fusec_exchange_field, 4> fields;
};

constexpr int32_t kCellLevels = 3, kEdgeLevels = 2, kEdgeSlots = 2, kPad = 5;

// Owned points hold their values, halo points NaN or -1.
RankFields make_fields(const LocalDomain &domain) {
  RankFields f;
  int32_t cells = domain.grid.num_cells(), edges = domain.grid.num_edges(),
          vertices = domain.grid.num_vertices();
  int64_t cell_ld = cells + kPad;
  f.cell.assign(size_t(cell_ld * kCellLevels), std::numeric_limits<double>::quiet_NaN());
  f.edge.assign(size_t(edges * kEdgeSlots * kEdgeLevels), -1);
  f.vertex.assign(size_t(vertices), std::numeric_limits<float>::quiet_NaN());
  f.column.assign(7, 3.0);
  for (int32_t h = 0; h < domain.points.num_owned[int(Location::Cell)]; ++h)
    for (int32_t k = 0; k < kCellLevels; ++k)
      f.cell[size_t(h + k * cell_ld)] = value_at(domain.global_index(Location::Cell, h), 0, k);
  for (int32_t h = 0; h < domain.points.num_owned[int(Location::Edge)]; ++h)
    for (int32_t k = 0; k < kEdgeLevels; ++k)
      for (int32_t n = 0; n < kEdgeSlots; ++n)
        f.edge[size_t(h + n * edges + k * edges * kEdgeSlots)] =
            10 * domain.global_index(Location::Edge, h) + 3 * k + n;
  for (int32_t h = 0; h < domain.points.num_owned[int(Location::Vertex)]; ++h)
    f.vertex[size_t(h)] = float(value_at(domain.global_index(Location::Vertex, h), 0, 0));
  f.fields[0] = {"cell", f.cell.data(), FUSEC_F64, FUSEC_CELL, kCellLevels, 0, cell_ld};
  f.fields[1] = {"edge", f.edge.data(), FUSEC_I32, FUSEC_EDGE, kEdgeLevels, kEdgeSlots, edges};
  f.fields[2] = {"vertex", f.vertex.data(), FUSEC_F32, FUSEC_VERTEX, 0, 0, vertices};
  f.fields[3] = {"column", f.column.data(), FUSEC_F64, FUSEC_NO_LOCATION, 7, 0, 1};
  return f;
}

} // namespace

TEST_CASE("halo messages fill every halo point with its owner's values", "[halo_exchange]") {
  for (const char *name : {"r2b2", "lam-r2b3"})
    for (int32_t num_ranks : {1, 2, 3, 5}) {
      INFO(name << " on " << num_ranks << " ranks");
      Grid global = std::move(make_grid(name)).value();
      Decomposition parts = std::move(decompose(global, num_ranks)).value();
      std::vector<LocalDomain> domains;
      std::vector<RankFields> fields;
      for (int32_t r = 0; r < num_ranks; ++r)
        domains.push_back(std::move(make_local_domain(global, parts, r)).value());
      for (int32_t r = 0; r < num_ranks; ++r)
        fields.push_back(make_fields(domains[size_t(r)]));

      std::vector<std::vector<HaloMessagePlan>> plans;
      for (int32_t r = 0; r < num_ranks; ++r) {
        Result<std::vector<HaloMessagePlan>> plan =
            plan_halo_messages(domains[size_t(r)], fields[size_t(r)].fields.data(), 4, 2);
        REQUIRE(plan);
        for (size_t p = 1; p < plan->size(); ++p)
          CHECK((*plan)[p - 1].peer < (*plan)[p].peer);
        plans.push_back(std::move(*plan));
      }
      if (num_ranks == 1)
        CHECK(plans[0].empty());
      // Pack every message, then deliver it: one buffer per (sender, receiver).
      for (int32_t r = 0; r < num_ranks; ++r)
        for (const HaloMessagePlan &plan : plans[size_t(r)]) {
          if (plan.send_bytes == 0)
            continue;
          const HaloMessagePlan *back = nullptr;
          for (const HaloMessagePlan &candidate : plans[size_t(plan.peer)])
            if (candidate.peer == r)
              back = &candidate;
          REQUIRE(back);
          REQUIRE(back->receive_bytes == plan.send_bytes);
          std::vector<uint8_t> message(plan.send_bytes);
          size_t offset = 0;
          for (size_t f = 0; f < 4; ++f)
            if (plan.send_points[f]) {
              pack_halo(fields[size_t(r)].fields[f], *plan.send_points[f],
                        message.data() + offset);
              offset += halo_block_bytes(fields[size_t(r)].fields[f], plan.send_points[f]->size());
            }
          REQUIRE(offset == message.size());
          offset = 0;
          for (size_t f = 0; f < 4; ++f)
            if (back->receive_points[f]) {
              unpack_halo(fields[size_t(plan.peer)].fields[f], *back->receive_points[f],
                          message.data() + offset);
              offset += halo_block_bytes(fields[size_t(plan.peer)].fields[f],
                                         back->receive_points[f]->size());
            }
        }
      // Now every local point, halos included, holds the global values; padding is untouched.
      for (int32_t r = 0; r < num_ranks; ++r) {
        const LocalDomain &domain = domains[size_t(r)];
        const RankFields &f = fields[size_t(r)];
        int32_t cells = domain.grid.num_cells(), edges = domain.grid.num_edges();
        int64_t cell_ld = cells + kPad;
        bool cells_ok = true, edges_ok = true, vertices_ok = true, padding_ok = true;
        for (int32_t h = 0; h < cells; ++h)
          for (int32_t k = 0; k < kCellLevels; ++k)
            cells_ok &= f.cell[size_t(h + k * cell_ld)] ==
                        value_at(domain.global_index(Location::Cell, h), 0, k);
        for (int32_t h = cells; h < cell_ld; ++h)
          padding_ok &= std::isnan(f.cell[size_t(h)]);
        for (int32_t h = 0; h < edges; ++h)
          for (int32_t k = 0; k < kEdgeLevels; ++k)
            for (int32_t n = 0; n < kEdgeSlots; ++n)
              edges_ok &= f.edge[size_t(h + n * edges + k * edges * kEdgeSlots)] ==
                          10 * domain.global_index(Location::Edge, h) + 3 * k + n;
        for (int32_t h = 0; h < domain.grid.num_vertices(); ++h)
          vertices_ok &= f.vertex[size_t(h)] ==
                         float(value_at(domain.global_index(Location::Vertex, h), 0, 0));
        CHECK(cells_ok);
        CHECK(edges_ok);
        CHECK(vertices_ok);
        CHECK(padding_ok);
        CHECK(f.column == std::vector<double>(7, 3.0));
      }
    }
}

TEST_CASE("one halo line exchanges only line-1 points", "[halo_exchange]") {
  Grid global = std::move(make_grid("r2b2")).value();
  Decomposition parts = std::move(decompose(global, 3)).value();
  LocalDomain domain = std::move(make_local_domain(global, parts, 1)).value();
  RankFields f = make_fields(domain);
  auto one = plan_halo_messages(domain, f.fields.data(), 1, 1);
  auto two = plan_halo_messages(domain, f.fields.data(), 1, 2);
  REQUIRE(one);
  REQUIRE(two);
  size_t line1 = 0, both = 0;
  for (const HaloMessagePlan &plan : *one)
    line1 += plan.receive_bytes;
  for (const HaloMessagePlan &plan : *two)
    both += plan.receive_bytes;
  int32_t halo1 = domain.points.num_halo[int(Location::Cell)][0];
  int32_t halo2 = domain.points.num_halo[int(Location::Cell)][1];
  CHECK(line1 == size_t(halo1) * kCellLevels * sizeof(double));
  CHECK(both == size_t(halo1 + halo2) * kCellLevels * sizeof(double));
}

TEST_CASE("exchanged fields that do not fit the domain are rejected", "[halo_exchange]") {
  Grid global = std::move(make_grid("r2b2")).value();
  Decomposition parts = std::move(decompose(global, 2)).value();
  LocalDomain domain = std::move(make_local_domain(global, parts, 0)).value();
  RankFields f = make_fields(domain);

  fusec_exchange_field small = f.fields[1];
  small.ld = domain.grid.num_edges() - 1;
  auto rejected = plan_halo_messages(domain, &small, 1, 2);
  REQUIRE_FALSE(rejected);
  CHECK(rejected.error().find("ld") != std::string::npos);

  fusec_exchange_field located = f.fields[0];
  located.location = 7;
  CHECK_FALSE(plan_halo_messages(domain, &located, 1, 2));

  fusec_exchange_field typed = f.fields[0];
  typed.type = fusec_element_type(42);
  CHECK_FALSE(plan_halo_messages(domain, &typed, 1, 2));

  CHECK_FALSE(plan_halo_messages(domain, f.fields.data(), 4, 3));
  CHECK(halo_block_bytes(f.fields[2], 3) == 16); // 3 floats, rounded up to 8 bytes
  CHECK(halo_block_bytes(f.fields[3], 3) == 0);  // no location, no halo
}

TEST_CASE("halo blocks are the same from the flat and the blocked layout", "[halo_exchange]") {
  Grid global = std::move(make_grid("r2b2")).value();
  Decomposition parts = std::move(decompose(global, 3)).value();
  LocalDomain domain = std::move(make_local_domain(global, parts, 2)).value();
  const int32_t cells = domain.grid.num_cells(), levels = 3, slots = 2;
  std::vector<int32_t> points;
  for (int32_t h = cells - 1; h >= 0; h -= 3)
    points.push_back(h);
  for (int64_t nproma : {1, 4, 16}) {
    CAPTURE(nproma);
    const int64_t blocks = (cells + nproma - 1) / nproma;
    std::vector<double> flat(size_t(cells) * slots * levels), blocked(size_t(blocks * nproma) *
                                                                      slots * levels, -1.0);
    for (int32_t h = 0; h < cells; ++h)
      for (int32_t n = 0; n < slots; ++n)
        for (int32_t k = 0; k < levels; ++k) {
          double value = value_at(h, n, k);
          flat[size_t(h + n * cells + k * cells * slots)] = value;
          blocked[size_t(h % nproma + nproma * (n + slots * (k + levels * (h / nproma))))] = value;
        }
    fusec_exchange_field flat_field = {"f", flat.data(), FUSEC_F64, FUSEC_CELL, levels, slots,
                                       cells, 1};
    fusec_exchange_field blocked_field = {"f", blocked.data(), FUSEC_F64, FUSEC_CELL, levels,
                                          slots, nproma, int32_t(blocks)};
    REQUIRE(check_exchange_field(blocked_field, domain));
    size_t bytes = halo_block_bytes(flat_field, points.size());
    std::vector<uint8_t> from_flat(bytes), from_blocked(bytes);
    pack_halo(flat_field, points, from_flat.data());
    pack_halo(blocked_field, points, from_blocked.data());
    CHECK(from_flat == from_blocked);

    // Unpacking negated values into the blocked field changes exactly those elements.
    std::vector<double> negated(bytes / sizeof(double));
    std::memcpy(negated.data(), from_flat.data(), bytes);
    for (double &value : negated)
      value = -value;
    unpack_halo(blocked_field, points, negated.data());
    size_t changed = 0;
    for (int32_t h = 0; h < cells; ++h)
      for (int32_t n = 0; n < slots; ++n)
        for (int32_t k = 0; k < levels; ++k) {
          double value =
              blocked[size_t(h % nproma + nproma * (n + slots * (k + levels * (h / nproma))))];
          bool listed = std::find(points.begin(), points.end(), h) != points.end();
          CHECK(value == (listed ? -value_at(h, n, k) : value_at(h, n, k)));
          changed += listed;
        }
    CHECK(changed == points.size() * slots * levels);
  }
  fusec_exchange_field cramped = {"f", points.data(), FUSEC_F64, FUSEC_CELL, levels, 0, 4,
                                  int32_t(cells / 4 - 1)};
  auto rejected = check_exchange_field(cramped, domain);
  REQUIRE_FALSE(rejected);
  CHECK(rejected.message().find("block") != std::string::npos);
}
