// Limited-area grids: boundary rows, ICON's ordering, zone bounds and skip values.
#include "fusec/grid.h"
#include "fusec/grid_generator.h"
#include "fusec/grid_info.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace fusec;

namespace {

const Grid &global_r2b4() {
  static const Grid grid = std::move(make_icosahedral_grid(2, 4)).value();
  return grid;
}

const Grid &lam_r2b4() {
  static const Grid grid = std::move(make_limited_area_grid(global_r2b4(), {})).value();
  return grid;
}

// The zones of a location in index order (lateral boundary rows, nudging, interior).
std::vector<Zone> ordered_zones(Location location) {
  std::vector<Zone> zones;
  int boundary_rows = location == Location::Edge ? 8 : 4;
  for (int row = 0; row < boundary_rows; ++row)
    zones.push_back(Zone(int(Zone::LateralBoundary1) + row));
  zones.push_back(Zone::Nudging);
  if (location == Location::Edge)
    zones.push_back(Zone::NudgingLevel2);
  zones.push_back(Zone::Interior);
  return zones;
}

} // namespace

TEST_CASE("a LAM is a disc: Euler characteristic 1", "[grid][lam]") {
  CHECK(euler_characteristic(lam_r2b4()) == 1);
  CHECK(lam_r2b4().limited_area());
  for (const char *name :
       {"lam-r2b3", "lam-r2b3:25@0,0", "lam-r2b4:15@-80,30", "lam-r3b2:40@10,170"}) {
    INFO(name);
    Result<Grid> lam = make_grid(name);
    REQUIRE(lam);
    CHECK(euler_characteristic(*lam) == 1);
  }
}

TEST_CASE("LAM zone bounds are contiguous and follow refin_ctrl", "[grid][lam]") {
  const Grid &grid = lam_r2b4();
  for (Location location : {Location::Cell, Location::Edge, Location::Vertex}) {
    INFO(location_name(location));
    int32_t n = grid.num_points(location);
    const std::vector<int32_t> &refin = grid.refin_ctrl(location);
    int32_t expected_start = 0;
    int32_t row = 1;
    for (Zone zone : ordered_zones(location)) {
      IndexRange range = grid.zone(location, zone);
      INFO(zone_name(zone));
      CHECK(range.start == expected_start);
      CHECK(range.size() > 0);
      for (int32_t i = range.start; i < range.end; ++i) {
        if (zone == Zone::Interior)
          REQUIRE((refin[i] == 0 || refin[i] > row - 1));
        else
          REQUIRE(refin[i] == row);
      }
      expected_start = range.end;
      ++row;
    }
    CHECK(expected_start == n);
    CHECK(grid.zone(location, Zone::Local) == IndexRange{0, n});
    CHECK(grid.zone(location, Zone::Halo) == IndexRange{n, n});
    CHECK(grid.zone(location, Zone::HaloLevel2) == IndexRange{n, n});
    CHECK(grid.zone(location, Zone::End) == IndexRange{n, n});
  }
  // Rows beyond the moved ones stay in the interior with their refin value (nudging needs
  // edge rows up to 2 * nudge_zone_width + 7).
  const std::vector<int32_t> &edge_refin = grid.refin_ctrl(Location::Edge);
  CHECK(*std::max_element(edge_refin.begin(), edge_refin.end()) >= 23);
}

TEST_CASE("global grids have empty boundary zones and start every zone at 0", "[grid][lam]") {
  const Grid &grid = global_r2b4();
  for (Location location : {Location::Cell, Location::Edge, Location::Vertex}) {
    int32_t n = grid.num_points(location);
    for (Zone zone : ordered_zones(location))
      if (zone != Zone::Interior)
        CHECK(grid.zone(location, zone) == IndexRange{0, 0});
    CHECK(grid.zone(location, Zone::Interior) == IndexRange{0, n});
    CHECK(grid.end(location, Zone::Local) == n);
    CHECK(grid.end(location, Zone::Halo) == n);
    CHECK(grid.end(location, Zone::HaloLevel2) == n);
  }
}

TEST_CASE("LAM boundary sizes: row-1 edges = row-1 vertices = 2E - 3C", "[grid][lam]") {
  const Grid &grid = lam_r2b4();
  int32_t boundary_edges = 2 * grid.num_edges() - 3 * grid.num_cells();
  CHECK(grid.zone(Location::Edge, Zone::LateralBoundary1).size() == boundary_edges);
  CHECK(grid.zone(Location::Vertex, Zone::LateralBoundary1).size() == boundary_edges);
  CHECK(grid.num_vertices() == (grid.num_cells() + boundary_edges) / 2 + 1);
  int32_t row1_cells = grid.zone(Location::Cell, Zone::LateralBoundary1).size();
  CHECK(row1_cells > boundary_edges);
  CHECK(row1_cells < 2 * boundary_edges + 12);
}

TEST_CASE("LAM skip values appear only at the lateral boundary", "[grid][lam]") {
  const Grid &grid = lam_r2b4();
  const std::vector<int32_t> &cell_row = grid.refin_ctrl(Location::Cell);
  const std::vector<int32_t> &edge_row = grid.refin_ctrl(Location::Edge);
  const std::vector<int32_t> &vertex_row = grid.refin_ctrl(Location::Vertex);
  const Table &e2c = grid.table(Connectivity::E2C);
  const Table &e2c2v = grid.table(Connectivity::E2C2V);
  const Table &c2e2c = grid.table(Connectivity::C2E2C);
  const Table &v2e = grid.table(Connectivity::V2E);
  const Table &v2c = grid.table(Connectivity::V2C);
  for (int32_t e = 0; e < grid.num_edges(); ++e) {
    bool boundary = count_neighbors(e2c, e) == 1;
    REQUIRE(boundary == (edge_row[e] == 1));
    REQUIRE(count_neighbors(e2c2v, e) == (boundary ? 3 : 4));
  }
  for (int32_t c = 0; c < grid.num_cells(); ++c)
    if (count_neighbors(c2e2c, c) < 3)
      REQUIRE(cell_row[c] == 1);
  int32_t closed_pentagons = 0;
  for (int32_t v = 0; v < grid.num_vertices(); ++v) {
    int32_t edges = count_neighbors(v2e, v), cells = count_neighbors(v2c, v);
    // Valid entries first, then -1.
    for (int32_t k = 0; k < 6; ++k) {
      REQUIRE((v2e(v, k) != kMissing) == (k < edges));
      REQUIRE((v2c(v, k) != kMissing) == (k < cells));
    }
    if (vertex_row[v] == 1)
      REQUIRE(edges == cells + 1);
    else
      REQUIRE(edges == cells);
    closed_pentagons += vertex_row[v] != 1 && cells == 5;
  }
  CHECK(closed_pentagons == count_pentagons(grid));
  // Diffusion's domains avoid every skip value: edges from LB5, cells from NUDGING.
  for (int32_t e = grid.start(Location::Edge, Zone::LateralBoundary5); e < grid.num_edges(); ++e)
    REQUIRE(count_neighbors(e2c2v, e) == 4);
  const Table &c2e2co = grid.table(Connectivity::C2E2CO);
  for (int32_t c = grid.start(Location::Cell, Zone::Nudging); c < grid.num_cells(); ++c)
    for (int32_t j = 0; j < 4; ++j)
      REQUIRE(count_neighbors(c2e2co, c2e2co(c, j)) == 4);
}

TEST_CASE("LAM tables keep ICON's local orderings", "[grid][lam]") {
  const Grid &grid = lam_r2b4();
  const Table &c2e = grid.table(Connectivity::C2E);
  const Table &c2e2c = grid.table(Connectivity::C2E2C);
  const Table &e2c = grid.table(Connectivity::E2C);
  const Table &e2v = grid.table(Connectivity::E2V);
  const Table &e2c2v = grid.table(Connectivity::E2C2V);
  const Table &v2c = grid.table(Connectivity::V2C);
  const Table &v2e = grid.table(Connectivity::V2E);
  for (int32_t c = 0; c < grid.num_cells(); ++c)
    for (int32_t j = 0; j < 3; ++j) {
      int32_t e = c2e(c, j);
      int32_t across = e2c(e, 0) == c ? e2c(e, 1) : e2c(e, 0);
      REQUIRE(c2e2c(c, j) == across);
    }
  for (int32_t e = 0; e < grid.num_edges(); ++e) {
    REQUIRE(e2c2v(e, 0) == e2v(e, 0));
    REQUIRE(e2c2v(e, 1) == e2v(e, 1));
    REQUIRE((e2c(e, 0) == kMissing) == (e2c2v(e, 2) == kMissing));
    REQUIRE((e2c(e, 1) == kMissing) == (e2c2v(e, 3) == kMissing));
  }
  // Around a boundary vertex the cells are one counter-clockwise fan, framed by V2E:
  // V2E[v][k] and V2E[v][k+1] are the edges of V2C[v][k] at v.
  for (int32_t v = 0; v < grid.num_vertices(); ++v) {
    int32_t cells = count_neighbors(v2c, v);
    int32_t edges = count_neighbors(v2e, v);
    for (int32_t k = 0; k < cells; ++k) {
      int32_t c = v2c(v, k);
      int32_t next_edge = v2e(v, (k + 1) % edges);
      bool first_is_edge_of_c = false, next_is_edge_of_c = false;
      for (int32_t j = 0; j < 3; ++j) {
        first_is_edge_of_c |= c2e(c, j) == v2e(v, k);
        next_is_edge_of_c |= c2e(c, j) == next_edge;
      }
      REQUIRE(first_is_edge_of_c);
      REQUIRE(next_is_edge_of_c);
    }
  }
}

TEST_CASE("a LAM inherits the global geometry of its cells", "[grid][lam]") {
  const Grid &global = global_r2b4();
  const Grid &lam = lam_r2b4();
  const GridGeometry &g = global.geometry();
  const GridGeometry &l = lam.geometry();
  // Match every LAM cell to the global cell at the same centre.
  for (int32_t c = 0; c < lam.num_cells(); c += 17) {
    int32_t match = -1;
    for (int32_t gc = 0; gc < global.num_cells(); ++gc)
      if (g.cells.x[gc] == l.cells.x[c] && g.cells.y[gc] == l.cells.y[c] &&
          g.cells.z[gc] == l.cells.z[c])
        match = gc;
    REQUIRE(match >= 0);
    CHECK(l.cell_area[c] == g.cell_area[match]);
  }
  // Boundary edges measure their dual length to the edge midpoint, as icon4py does.
  const Table &e2c = lam.table(Connectivity::E2C);
  for (int32_t e = 0; e < lam.num_edges(); ++e)
    if (count_neighbors(e2c, e) == 1) {
      int32_t cell = e2c(e, 0) == kMissing ? e2c(e, 1) : e2c(e, 0);
      int32_t slot = e2c(e, 0) == kMissing ? 1 : 0;
      REQUIRE(l.dual_edge_length[e] == Approx(l.edge_cell_distance(e, slot)).epsilon(1e-12));
      REQUIRE(cell >= 0);
    }
}

TEST_CASE("LAM errors", "[grid][lam]") {
  LimitedAreaConfig too_large;
  too_large.radius_deg = 200.0;
  CHECK_FALSE(make_limited_area_grid(global_r2b4(), too_large));
  LimitedAreaConfig tiny;
  tiny.radius_deg = 0.01;
  Result<Grid> empty = make_limited_area_grid(global_r2b4(), tiny);
  REQUIRE_FALSE(empty);
  CHECK(empty.error().find("no cell") != std::string::npos);
  CHECK_FALSE(make_limited_area_grid(lam_r2b4(), {}));
}
