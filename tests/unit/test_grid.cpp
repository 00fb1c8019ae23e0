// Global icosahedral grids: counts, topology, ICON's orderings and geometry.
#include "fusec/grid.h"
#include "fusec/grid_generator.h"
#include "fusec/grid_info.h"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <set>

using namespace fusec;

namespace {

using V3 = std::array<double, 3>;

V3 sub(V3 a, V3 b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(V3 a, V3 b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
V3 cross(V3 a, V3 b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
V3 at(const Points &p, int32_t i) { return {p.x[i], p.y[i], p.z[i]}; }

const Grid &r2b3() {
  static const Grid grid = std::move(make_icosahedral_grid(2, 3)).value();
  return grid;
}

bool row_contains(const Table &table, int32_t h, int32_t value) {
  for (int32_t n = 0; n < table.cols; ++n)
    if (table(h, n) == value)
      return true;
  return false;
}

} // namespace

TEST_CASE("RnBk grids have ICON's counts, Euler characteristic 2 and 12 pentagons", "[grid]") {
  struct Case {
    int32_t root, level;
  };
  for (Case c : {Case{1, 0}, Case{1, 2}, Case{2, 0}, Case{2, 2}, Case{3, 1}, Case{5, 0}}) {
    Result<Grid> grid = make_icosahedral_grid(c.root, c.level);
    REQUIRE(grid);
    int64_t cells = 20 * int64_t(c.root) * c.root * (int64_t(1) << (2 * c.level));
    INFO("R" << c.root << "B" << c.level);
    CHECK(grid->num_cells() == cells);
    CHECK(grid->num_edges() == cells * 3 / 2);
    CHECK(grid->num_vertices() == cells / 2 + 2);
    CHECK(euler_characteristic(*grid) == 2);
    CHECK(count_pentagons(*grid) == 12);
    CHECK_FALSE(grid->limited_area());
  }
  CHECK(r2b3().num_cells() == 5120);
  CHECK(r2b3().name() == "R02B03");
}

TEST_CASE("invalid grid sizes are rejected", "[grid]") {
  CHECK_FALSE(make_icosahedral_grid(0, 2));
  CHECK_FALSE(make_icosahedral_grid(2, -1));
  Result<Grid> huge = make_icosahedral_grid(2, 14);
  REQUIRE_FALSE(huge);
  CHECK(huge.error().find("int32") != std::string::npos);
}

TEST_CASE("every edge of a global grid has two cells and only V2* tables skip", "[grid]") {
  const Grid &grid = r2b3();
  TableStatistics e2c = table_statistics(grid, Connectivity::E2C);
  CHECK(e2c.min_neighbors == 2);
  CHECK(e2c.missing_entries == 0);
  for (int i = 0; i < kNumConnectivities; ++i) {
    Connectivity connectivity = Connectivity(i);
    TableStatistics stats = table_statistics(grid, connectivity);
    bool vertex_table = connectivity_info(connectivity).source == Location::Vertex;
    INFO(connectivity_info(connectivity).name);
    // The 6th slot of the 12 pentagons.
    CHECK(stats.missing_entries == (vertex_table ? 12 : 0));
  }
  const Table &v2e = grid.table(Connectivity::V2E);
  for (int32_t v = 0; v < grid.num_vertices(); ++v)
    if (count_neighbors(v2e, v) == 5)
      CHECK(v2e(v, 5) == kMissing);
}

TEST_CASE("cells are counter-clockwise and edge j joins corners j and j+1", "[grid]") {
  const Grid &grid = r2b3();
  const Points &vertices = grid.geometry().vertices;
  const Table &c2v = grid.table(Connectivity::C2V);
  const Table &c2e = grid.table(Connectivity::C2E);
  const Table &e2v = grid.table(Connectivity::E2V);
  for (int32_t c = 0; c < grid.num_cells(); ++c) {
    V3 a = at(vertices, c2v(c, 0)), b = at(vertices, c2v(c, 1)), d = at(vertices, c2v(c, 2));
    REQUIRE(dot(cross(sub(b, a), sub(d, a)), a) > 0);
    for (int32_t j = 0; j < 3; ++j) {
      std::set<int32_t> edge{e2v(c2e(c, j), 0), e2v(c2e(c, j), 1)};
      REQUIRE(edge == std::set<int32_t>{c2v(c, j), c2v(c, (j + 1) % 3)});
    }
  }
}

TEST_CASE("vertices and edges are numbered in order of first appearance in the cells", "[grid]") {
  // As in ICON's grid files, so that a block of points gathers from a few blocks of neighbours.
  const Grid &grid = r2b3();
  const Table &c2v = grid.table(Connectivity::C2V);
  const Table &c2e = grid.table(Connectivity::C2E);
  int32_t next_vertex = 0, next_edge = 0;
  for (int32_t c = 0; c < grid.num_cells(); ++c)
    for (int32_t j = 0; j < 3; ++j) {
      REQUIRE(c2v(c, j) <= next_vertex);
      next_vertex += c2v(c, j) == next_vertex;
      REQUIRE(c2e(c, j) <= next_edge);
      next_edge += c2e(c, j) == next_edge;
    }
  CHECK(next_vertex == grid.num_vertices());
  CHECK(next_edge == grid.num_edges());
}

TEST_CASE("C2E2C[c][j] is the cell across C2E[c][j]", "[grid]") {
  const Grid &grid = r2b3();
  const Table &c2e = grid.table(Connectivity::C2E);
  const Table &c2e2c = grid.table(Connectivity::C2E2C);
  const Table &e2c = grid.table(Connectivity::E2C);
  for (int32_t c = 0; c < grid.num_cells(); ++c)
    for (int32_t j = 0; j < 3; ++j) {
      int32_t e = c2e(c, j);
      int32_t across = e2c(e, 0) == c ? e2c(e, 1) : e2c(e, 0);
      REQUIRE(row_contains(e2c, e, c));
      REQUIRE(c2e2c(c, j) == across);
    }
}

TEST_CASE("E2C2V is ICON's diamond: the edge's end points, then the far vertices", "[grid]") {
  const Grid &grid = r2b3();
  const Table &e2c2v = grid.table(Connectivity::E2C2V);
  const Table &e2v = grid.table(Connectivity::E2V);
  const Table &e2c = grid.table(Connectivity::E2C);
  const Table &c2v = grid.table(Connectivity::C2V);
  const GridGeometry &g = grid.geometry();
  for (int32_t e = 0; e < grid.num_edges(); ++e) {
    REQUIRE(e2c2v(e, 0) == e2v(e, 0));
    REQUIRE(e2c2v(e, 1) == e2v(e, 1));
    for (int32_t i = 0; i < 2; ++i) {
      int32_t far = e2c2v(e, 2 + i);
      REQUIRE(row_contains(c2v, e2c(e, i), far));
      REQUIRE(far != e2v(e, 0));
      REQUIRE(far != e2v(e, 1));
    }
    // The far vertices lie on opposite sides of the edge, about sqrt(3) edge lengths apart
    // (1.38 next to the pentagons).
    REQUIRE(g.vert_vert_length[e] > 1.3 * g.edge_length[e]);
  }
}

TEST_CASE("E2C2E lists the other edges of each cell in cyclic order after e", "[grid]") {
  const Grid &grid = r2b3();
  const Table &e2c2e = grid.table(Connectivity::E2C2E);
  const Table &e2c2eo = grid.table(Connectivity::E2C2EO);
  const Table &e2c = grid.table(Connectivity::E2C);
  const Table &c2e = grid.table(Connectivity::C2E);
  for (int32_t e = 0; e < grid.num_edges(); ++e) {
    REQUIRE(e2c2eo(e, 0) == e);
    for (int32_t i = 0; i < 2; ++i) {
      int32_t c = e2c(e, i);
      int32_t p = c2e(c, 0) == e ? 0 : c2e(c, 1) == e ? 1 : 2;
      REQUIRE(e2c2e(e, 2 * i) == c2e(c, (p + 1) % 3));
      REQUIRE(e2c2e(e, 2 * i + 1) == c2e(c, (p + 2) % 3));
    }
    for (int32_t n = 0; n < 4; ++n)
      REQUIRE(e2c2eo(e, n + 1) == e2c2e(e, n));
  }
}

TEST_CASE("C2E2CO, C2E2C2E and C2E2C2E2C compose C2E2C", "[grid]") {
  const Grid &grid = r2b3();
  const Table &c2e2c = grid.table(Connectivity::C2E2C);
  const Table &c2e2co = grid.table(Connectivity::C2E2CO);
  const Table &c2e2c2e = grid.table(Connectivity::C2E2C2E);
  const Table &c2e2c2e2c = grid.table(Connectivity::C2E2C2E2C);
  const Table &c2e = grid.table(Connectivity::C2E);
  for (int32_t c = 0; c < grid.num_cells(); ++c) {
    REQUIRE(c2e2co(c, 0) == c);
    for (int32_t j = 0; j < 3; ++j) {
      int32_t n = c2e2c(c, j);
      REQUIRE(c2e2co(c, 1 + j) == n);
      for (int32_t i = 0; i < 3; ++i) {
        REQUIRE(c2e2c2e(c, 3 * j + i) == c2e(n, i));
        REQUIRE(c2e2c2e2c(c, 3 * j + i) == c2e2c(n, i));
      }
    }
  }
}

TEST_CASE("V2C, V2E and V2E2V are counter-clockwise and aligned", "[grid]") {
  const Grid &grid = r2b3();
  const Table &v2c = grid.table(Connectivity::V2C);
  const Table &v2e = grid.table(Connectivity::V2E);
  const Table &v2e2v = grid.table(Connectivity::V2E2V);
  const Table &e2c = grid.table(Connectivity::E2C);
  const Table &e2v = grid.table(Connectivity::E2V);
  const Points &cells = grid.geometry().cells;
  const Points &vertices = grid.geometry().vertices;
  for (int32_t v = 0; v < grid.num_vertices(); ++v) {
    int32_t ring = count_neighbors(v2c, v);
    REQUIRE(count_neighbors(v2e, v) == ring);
    V3 centre = at(vertices, v);
    for (int32_t k = 0; k < ring; ++k) {
      int32_t previous = v2c(v, (k + ring - 1) % ring), cell = v2c(v, k);
      int32_t e = v2e(v, k);
      // V2E[v][k] separates V2C[v][k-1] from V2C[v][k]; V2E2V[v][k] is its far end.
      REQUIRE(row_contains(e2c, e, previous));
      REQUIRE(row_contains(e2c, e, cell));
      REQUIRE(v2e2v(v, k) == (e2v(e, 0) == v ? e2v(e, 1) : e2v(e, 0)));
      // Consecutive cells turn counter-clockwise around v.
      V3 a = sub(at(cells, previous), centre), b = sub(at(cells, cell), centre);
      REQUIRE(dot(cross(a, b), centre) > 0);
    }
  }
}

TEST_CASE("normals point from E2C[0] to E2C[1] and orientations agree", "[grid]") {
  const Grid &grid = r2b3();
  const GridGeometry &g = grid.geometry();
  const Table &e2c = grid.table(Connectivity::E2C);
  const Table &e2v = grid.table(Connectivity::E2V);
  int positive = 0;
  for (int32_t e = 0; e < grid.num_edges(); ++e) {
    V3 n = {g.primal_normal_x[e], g.primal_normal_y[e], g.primal_normal_z[e]};
    V3 t = {g.dual_normal_x[e], g.dual_normal_y[e], g.dual_normal_z[e]};
    V3 r = at(g.edges, e);
    REQUIRE(dot(n, n) == Approx(1.0).epsilon(1e-12));
    REQUIRE(std::fabs(dot(n, t)) < 1e-12);
    REQUIRE(std::fabs(dot(n, r)) < 1e-12);
    V3 r_cross_t = cross(r, t);
    REQUIRE(dot(r_cross_t, n) == Approx(1.0).epsilon(1e-12));
    REQUIRE(dot(n, sub(at(g.cells, e2c(e, 1)), at(g.cells, e2c(e, 0)))) > 0);
    // t is +-(v1 - v0) with the stored sign.
    double along = dot(t, sub(at(g.vertices, e2v(e, 1)), at(g.vertices, e2v(e, 0))));
    REQUIRE((along > 0 ? 1 : -1) == g.edge_system_orientation[e]);
    REQUIRE(g.primal_normal_u[e] * g.primal_normal_u[e] +
                g.primal_normal_v[e] * g.primal_normal_v[e] ==
            Approx(1.0).epsilon(1e-12));
    positive += g.edge_system_orientation[e] > 0;
  }
  // ICON grids have both orientations.
  CHECK(positive > 0);
  CHECK(positive < grid.num_edges());

  const Table &c2e = grid.table(Connectivity::C2E);
  for (int32_t c = 0; c < grid.num_cells(); ++c)
    for (int32_t j = 0; j < 3; ++j)
      REQUIRE(g.orientation_of_normal(c, j) == (e2c(c2e(c, j), 0) == c ? 1 : -1));

  // edge_orientation[v][k] = +1 when the normal circulates counter-clockwise around v.
  const Table &v2e = grid.table(Connectivity::V2E);
  for (int32_t v = 0; v < grid.num_vertices(); ++v)
    for (int32_t k = 0; k < v2e.cols; ++k) {
      int32_t e = v2e(v, k);
      if (e == kMissing) {
        REQUIRE(g.edge_orientation(v, k) == 0);
        continue;
      }
      V3 centre = at(g.vertices, v);
      V3 n = {g.primal_normal_x[e], g.primal_normal_y[e], g.primal_normal_z[e]};
      double circulation = dot(n, cross(centre, sub(at(g.edges, e), centre)));
      REQUIRE(g.edge_orientation(v, k) == (circulation > 0 ? 1 : -1));
    }
}

TEST_CASE("the discrete curl of a discrete gradient vanishes", "[grid]") {
  const Grid &grid = r2b3();
  const GridGeometry &g = grid.geometry();
  const Table &e2c = grid.table(Connectivity::E2C);
  const Table &v2e = grid.table(Connectivity::V2E);
  std::vector<double> psi(size_t(grid.num_cells()));
  for (int32_t c = 0; c < grid.num_cells(); ++c)
    psi[c] = std::sin(3.0 * g.cells.lon[c]) * std::cos(2.0 * g.cells.lat[c]) + 0.1 * c;
  for (int32_t v = 0; v < grid.num_vertices(); ++v) {
    double curl = 0.0, scale = 0.0;
    for (int32_t k = 0; k < v2e.cols; ++k) {
      int32_t e = v2e(v, k);
      if (e == kMissing)
        continue;
      double gradient = (psi[e2c(e, 1)] - psi[e2c(e, 0)]) / g.dual_edge_length[e];
      curl += g.edge_orientation(v, k) * g.dual_edge_length[e] * gradient;
      scale += std::fabs(psi[e2c(e, 1)]);
    }
    REQUIRE(std::fabs(curl) <= 1e-12 * scale);
  }
}

TEST_CASE("cell and dual areas recover the sphere", "[grid]") {
  for (int32_t level : {0, 2, 4}) {
    Result<Grid> grid = make_icosahedral_grid(2, level);
    REQUIRE(grid);
    const GridGeometry &g = grid->geometry();
    const double sphere = 4.0 * std::acos(-1.0) * kEarthRadius * kEarthRadius;
    double cells = 0.0, duals = 0.0, kites = 0.0;
    for (double a : g.cell_area)
      cells += a;
    for (double a : g.dual_area)
      duals += a;
    for (int32_t e = 0; e < grid->num_edges(); ++e)
      kites += 0.5 * g.edge_length[e] * g.dual_edge_length[e];
    INFO("R02B0" << level);
    CHECK(std::fabs(cells / sphere - 1.0) < 1e-10);
    CHECK(std::fabs(duals / sphere - 1.0) < 1e-10);
    // The planar kite areas L*D/2 approximate the sphere to second order.
    CHECK(std::fabs(kites / sphere - 1.0) < 0.05);
  }
}

TEST_CASE("mean lengths match ICON's nominal R2B4 values", "[grid]") {
  Result<Grid> grid = make_icosahedral_grid(2, 4);
  REQUIRE(grid);
  const GridGeometry &g = grid->geometry();
  double edge = 0.0, dual = 0.0;
  for (int32_t e = 0; e < grid->num_edges(); ++e) {
    edge += g.edge_length[e];
    dual += g.dual_edge_length[e];
    // ICON's area_edge = L * D is the area of the primal/dual quadrilateral.
    REQUIRE(g.edge_vert_distance(e, 0) == Approx(0.5 * g.edge_length[e]).epsilon(1e-9));
    REQUIRE(g.edge_cell_distance(e, 0) + g.edge_cell_distance(e, 1) ==
            Approx(g.dual_edge_length[e]).epsilon(1e-6));
  }
  // icon-grid.md §1.1: 239.8 km and 138.5 km for the optimised grid; the natural grid is
  // within a few percent.
  CHECK(edge / grid->num_edges() == Approx(239.8e3).epsilon(0.02));
  CHECK(dual / grid->num_edges() == Approx(138.5e3).epsilon(0.03));
}

TEST_CASE("generation is deterministic", "[grid]") {
  Result<Grid> first = make_icosahedral_grid(2, 2);
  Result<Grid> second = make_icosahedral_grid(2, 2);
  REQUIRE(first);
  REQUIRE(second);
  CHECK(*first == *second);
}

TEST_CASE("mesh() views the tables through the C descriptor", "[grid]") {
  const Grid &grid = r2b3();
  fusec_mesh mesh = grid.mesh();
  CHECK(mesh.num_points[FUSEC_CELL] == grid.num_cells());
  CHECK(mesh.num_points[FUSEC_EDGE] == grid.num_edges());
  CHECK(mesh.num_points[FUSEC_VERTEX] == grid.num_vertices());
  CHECK(mesh.num_connectivities == kNumConnectivities);
  const fusec_connectivity *e2c2v = fusec_mesh_find(&mesh, "E2C2V");
  REQUIRE(e2c2v != nullptr);
  CHECK(e2c2v->source == FUSEC_EDGE);
  CHECK(e2c2v->target == FUSEC_VERTEX);
  CHECK(e2c2v->max_neighbors == 4);
  CHECK(e2c2v->num_rows == grid.num_edges());
  CHECK(e2c2v->ld == grid.num_edges());
  CHECK(e2c2v->table == grid.table(Connectivity::E2C2V).data.data());
  CHECK(fusec_mesh_find(&mesh, "C2X") == nullptr);
  CHECK(fusec_mesh_find(nullptr, "E2C") == nullptr);

  // A copy has its own descriptors.
  Grid copy = grid;
  fusec_mesh copy_mesh = copy.mesh();
  CHECK(fusec_mesh_find(&copy_mesh, "V2E")->table == copy.table(Connectivity::V2E).data.data());
  CHECK(copy == grid);
}

TEST_CASE("grid names", "[grid]") {
  Result<GridSpec> global = parse_grid_spec("R02B04");
  REQUIRE(global);
  CHECK(global->kind == GridSpec::Kind::Global);
  CHECK(global->root == 2);
  CHECK(global->level == 4);

  Result<GridSpec> lam = parse_grid_spec("lam-r2b5:25.5@-10,120");
  REQUIRE(lam);
  CHECK(lam->kind == GridSpec::Kind::LimitedArea);
  CHECK(lam->level == 5);
  CHECK(lam->lam.radius_deg == 25.5);
  CHECK(lam->lam.center_lat_deg == -10.0);
  CHECK(lam->lam.center_lon_deg == 120.0);

  Result<GridSpec> lam_default = parse_grid_spec("lam-r2b4");
  REQUIRE(lam_default);
  CHECK(lam_default->lam.radius_deg == 0.0);

  Result<GridSpec> file = parse_grid_spec("/data/icon_grid_0013_R02B04_R.nc");
  REQUIRE(file);
  CHECK(file->kind == GridSpec::Kind::File);
  CHECK(file->path == "/data/icon_grid_0013_R02B04_R.nc");

  for (const char *bad : {"", "r2", "r2b", "b4", "r0b2", "x2b4", "r2b4:10", "lam-r2b4:",
                          "lam-r2b4:-5", "lam-r2b4:10@5", "lam-r2b4:10@a,b", "lam-", "r2b4x"}) {
    INFO("'" << bad << "'");
    Result<GridSpec> spec = parse_grid_spec(bad);
    CHECK_FALSE(spec);
  }
  Result<Grid> unknown = make_grid("torus");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().find("expected rNbK") != std::string::npos);
}
