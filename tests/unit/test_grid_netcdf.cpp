// ICON grid files: the writer's output reads back identically; minimal files are completed.
#include "fusec/grid_generator.h"
#include "fusec/grid_netcdf.h"

#include <catch2/catch.hpp>
#include <netcdf.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <unistd.h>

using namespace fusec;

namespace {

// A file name under /tmp that no concurrent test run shares; removed on destruction.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string &name)
      : path("/tmp/fusec-runtime-tests-" + std::to_string(getpid()) + "-" + name) {}
  ~TempFile() { std::remove(path.c_str()); }
};

void nc(int code) { REQUIRE(code == NC_NOERR); }

// Writes only the tables (1-based, pentagon slots as -1) and the vertex longitudes and
// latitudes, like a minimal third-party grid file; `skip` names a table to leave out.
void write_minimal_file(const Grid &grid, const std::string &path, const std::string &skip) {
  int ncid = -1, cell = -1, edge = -1, vertex = -1, nv = -1, nc2 = -1, ne = -1;
  nc(nc_create(path.c_str(), NC_CLOBBER | NC_NETCDF4, &ncid));
  nc(nc_def_dim(ncid, "cell", size_t(grid.num_cells()), &cell));
  nc(nc_def_dim(ncid, "edge", size_t(grid.num_edges()), &edge));
  nc(nc_def_dim(ncid, "vertex", size_t(grid.num_vertices()), &vertex));
  nc(nc_def_dim(ncid, "nv", 3, &nv));
  nc(nc_def_dim(ncid, "nc", 2, &nc2));
  nc(nc_def_dim(ncid, "ne", 6, &ne));
  struct Stored {
    const char *name;
    Connectivity connectivity;
    int k_dim, entity_dim;
  };
  for (Stored s : {Stored{"vertex_of_cell", Connectivity::C2V, nv, cell},
                   Stored{"edge_of_cell", Connectivity::C2E, nv, cell},
                   Stored{"neighbor_cell_index", Connectivity::C2E2C, nv, cell},
                   Stored{"adjacent_cell_of_edge", Connectivity::E2C, nc2, edge},
                   Stored{"edge_vertices", Connectivity::E2V, nc2, edge},
                   Stored{"cells_of_vertex", Connectivity::V2C, ne, vertex},
                   Stored{"edges_of_vertex", Connectivity::V2E, ne, vertex},
                   Stored{"vertices_of_vertex", Connectivity::V2E2V, ne, vertex}}) {
    if (skip == s.name)
      continue;
    std::vector<int> values;
    for (int32_t value : grid.table(s.connectivity).data)
      values.push_back(value == kMissing ? -1 : value + 1);
    int dims[2] = {s.k_dim, s.entity_dim}, varid = -1;
    nc(nc_def_var(ncid, s.name, NC_INT, 2, dims, &varid));
    nc(nc_put_var_int(ncid, varid, values.data()));
  }
  int vlon = -1, vlat = -1;
  nc(nc_def_var(ncid, "vlon", NC_DOUBLE, 1, &vertex, &vlon));
  nc(nc_def_var(ncid, "vlat", NC_DOUBLE, 1, &vertex, &vlat));
  nc(nc_put_var_double(ncid, vlon, grid.geometry().vertices.lon.data()));
  nc(nc_put_var_double(ncid, vlat, grid.geometry().vertices.lat.data()));
  nc(nc_close(ncid));
}

} // namespace

TEST_CASE("a written global grid reads back identically", "[grid][netcdf]") {
  Result<Grid> grid = make_icosahedral_grid(2, 2);
  REQUIRE(grid);
  TempFile file("global.nc");
  Status written = write_grid_netcdf(*grid, file.path);
  INFO(written.message());
  REQUIRE(written);
  Result<Grid> read = read_grid_netcdf(file.path);
  INFO(read.error());
  REQUIRE(read);
  CHECK(*read == *grid);
  CHECK(read->metadata().root == 2);
  CHECK(read->metadata().level == 2);
}

TEST_CASE("a written LAM reads back identically, zones included", "[grid][netcdf]") {
  Result<Grid> lam = make_grid("lam-r2b3:40@20,-30");
  REQUIRE(lam);
  TempFile file("lam.nc");
  REQUIRE(write_grid_netcdf(*lam, file.path));
  Result<Grid> read = read_grid_netcdf(file.path);
  INFO(read.error());
  REQUIRE(read);
  CHECK(read->limited_area());
  CHECK(read->zone(Location::Edge, Zone::NudgingLevel2) ==
        lam->zone(Location::Edge, Zone::NudgingLevel2));
  CHECK(*read == *lam);
  // make_grid reads .nc names.
  Result<Grid> by_name = make_grid(file.path);
  REQUIRE(by_name);
  CHECK(*by_name == *lam);
}

TEST_CASE("a minimal grid file (tables, vertex lon/lat, -1 skips) is completed", "[grid][netcdf]") {
  Result<Grid> grid = make_icosahedral_grid(2, 1);
  REQUIRE(grid);
  TempFile file("minimal.nc");
  write_minimal_file(*grid, file.path, "");
  Result<Grid> read = read_grid_netcdf(file.path);
  INFO(read.error());
  REQUIRE(read);
  CHECK_FALSE(read->limited_area());
  CHECK(read->name() == file.path.substr(5));
  for (int i = 0; i < kNumConnectivities; ++i)
    CHECK(read->table(Connectivity(i)) == grid->table(Connectivity(i)));
  const GridGeometry &a = read->geometry(), &b = grid->geometry();
  for (int32_t c = 0; c < grid->num_cells(); ++c)
    REQUIRE(a.cell_area[c] == Approx(b.cell_area[c]).epsilon(1e-12));
  for (int32_t e = 0; e < grid->num_edges(); ++e) {
    REQUIRE(a.dual_edge_length[e] == Approx(b.dual_edge_length[e]).epsilon(1e-10));
    REQUIRE(a.primal_normal_x[e] == Approx(b.primal_normal_x[e]).margin(1e-12));
    REQUIRE(a.edge_system_orientation[e] == b.edge_system_orientation[e]);
  }
  CHECK(a.orientation_of_normal == b.orientation_of_normal);
  CHECK(a.edge_orientation == b.edge_orientation);
}

TEST_CASE("grid file errors name the problem", "[grid][netcdf]") {
  Result<Grid> missing = read_grid_netcdf("/nonexistent/grid.nc");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().find("/nonexistent/grid.nc") != std::string::npos);

  Result<Grid> grid = make_icosahedral_grid(1, 0);
  REQUIRE(grid);
  TempFile file("incomplete.nc");
  write_minimal_file(*grid, file.path, "edge_vertices");
  Result<Grid> incomplete = read_grid_netcdf(file.path);
  REQUIRE_FALSE(incomplete);
  CHECK(incomplete.error().find("edge_vertices") != std::string::npos);

  CHECK_FALSE(write_grid_netcdf(*grid, "/nonexistent/dir/grid.nc"));
}
