// ICON grid files (icon-grid.md §2). Connectivities are stored as 1-based (k, entity) arrays in
// C order, which is exactly our table layout data[h + k*rows] plus one.
#include "fusec/grid_netcdf.h"

#include <netcdf.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

namespace fusec {
namespace {

std::string nc_message(int code, const std::string &what) {
  return what + ": " + nc_strerror(code);
}

// Collects the first error; every call after a failure does nothing.
class NcWriter {
public:
  explicit NcWriter(const std::string &path) : path_(path) {
    int code = nc_create(path.c_str(), NC_CLOBBER | NC_NETCDF4, &ncid_);
    if (code != NC_NOERR) {
      status_ = Status::failure(nc_message(code, "cannot create " + path));
      ncid_ = -1;
    }
  }
  ~NcWriter() {
    if (ncid_ >= 0)
      nc_close(ncid_);
  }

  void dimension(const char *name, size_t length) {
    int id = -1;
    if (check(nc_def_dim(ncid_, name, length, &id), name))
      dims_[name] = id;
  }

  void attribute(const char *name, const std::string &value) {
    check(nc_put_att_text(ncid_, NC_GLOBAL, name, value.size(), value.c_str()), name);
  }
  void attribute(const char *name, double value) {
    check(nc_put_att_double(ncid_, NC_GLOBAL, name, NC_DOUBLE, 1, &value), name);
  }
  void attribute(const char *name, int32_t value) {
    check(nc_put_att_int(ncid_, NC_GLOBAL, name, NC_INT, 1, &value), name);
  }

  // A variable with dimensions `dims` (C order) and an optional units attribute.
  void variable(const char *name, std::initializer_list<const char *> dims, const double *data,
                const char *units = nullptr) {
    int varid = define(name, NC_DOUBLE, dims, units);
    if (status_)
      check(nc_put_var_double(ncid_, varid, data), name);
  }
  void variable(const char *name, std::initializer_list<const char *> dims, const int32_t *data) {
    int varid = define(name, NC_INT, dims, nullptr);
    if (status_)
      check(nc_put_var_int(ncid_, varid, data), name);
  }

  Status finish() {
    if (ncid_ >= 0) {
      int code = nc_close(ncid_);
      ncid_ = -1;
      if (status_ && code != NC_NOERR)
        status_ = Status::failure(nc_message(code, "cannot write " + path_));
    }
    return status_;
  }

private:
  bool check(int code, const std::string &what) {
    if (status_ && code != NC_NOERR)
      status_ = Status::failure(nc_message(code, path_ + ": " + what));
    return status_.ok();
  }

  int define(const char *name, nc_type type, std::initializer_list<const char *> dims,
             const char *units) {
    if (!status_)
      return -1;
    std::vector<int> dim_ids;
    for (const char *dim : dims)
      dim_ids.push_back(dims_.at(dim));
    int varid = -1;
    if (check(nc_def_var(ncid_, name, type, int(dim_ids.size()), dim_ids.data(), &varid), name) &&
        units != nullptr)
      check(nc_put_att_text(ncid_, varid, "units", std::string(units).size(), units), name);
    return varid;
  }

  std::string path_;
  int ncid_ = -1;
  Status status_;
  std::map<std::string, int> dims_;
};

// A table as it is stored in files: 1-based, 0 for a missing neighbour.
std::vector<int32_t> one_based(const Table &table) {
  std::vector<int32_t> values(table.data.size());
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = table.data[i] == kMissing ? 0 : table.data[i] + 1;
  return values;
}

double mean(const std::vector<double> &values) {
  double sum = 0.0;
  for (double value : values)
    sum += value;
  return values.empty() ? 0.0 : sum / double(values.size());
}

// A deterministic UUID-shaped identifier derived from the grid's name and size (FNV-1a).
std::string grid_uuid(const Grid &grid) {
  std::string key = grid.name() + "/" + std::to_string(grid.num_cells()) + "/" +
                    std::to_string(grid.num_edges()) + "/" + std::to_string(grid.num_vertices());
  uint64_t h1 = 1469598103934665603ULL, h2 = 0x9e3779b97f4a7c15ULL;
  for (unsigned char ch : key) {
    h1 = (h1 ^ ch) * 1099511628211ULL;
    h2 = (h2 ^ ch) * 0x100000001b3ULL + 0x632be59bd9b4e019ULL;
  }
  char text[40];
  std::snprintf(text, sizeof text, "%08x-%04x-%04x-%04x-%012llx", unsigned(h1 >> 32),
                unsigned(h1 >> 16) & 0xffffu, unsigned(h1) & 0xffffu, unsigned(h2 >> 48),
                static_cast<unsigned long long>(h2 & 0xffffffffffffULL));
  return text;
}

// ICON's refinement-level index ranges (icon-grid.md §2.5).
struct RefinementLevels {
  Location location;
  const char *dim;
  const char *start_name;
  const char *end_name;
  int32_t min_rl;
  int32_t max_rl;
};

const RefinementLevels kRefinementLevels[] = {
    {Location::Cell, "cell_grf", "start_idx_c", "end_idx_c", -8, 5},
    {Location::Edge, "edge_grf", "start_idx_e", "end_idx_e", -13, 10},
    {Location::Vertex, "vert_grf", "start_idx_v", "end_idx_v", -7, 5},
};

// Fortran start (1-based) and inclusive end of each refinement level from min_rl to max_rl:
// boundary rows from the zones, level 0 the interior, negative levels (halo, nests) empty.
void refinement_index_ranges(const Grid &grid, const RefinementLevels &levels,
                             std::vector<int32_t> &start, std::vector<int32_t> &end) {
  int32_t n = grid.num_points(levels.location);
  const std::vector<int32_t> &refin = grid.refin_ctrl(levels.location);
  for (int32_t rl = levels.min_rl; rl <= levels.max_rl; ++rl) {
    int32_t first = n, last = -1;
    for (int32_t i = 0; i < n && rl > 0; ++i)
      if (refin[i] == rl && i < grid.start(levels.location, Zone::Interior)) {
        first = std::min(first, i);
        last = std::max(last, i);
      }
    if (rl > 0) {
      bool present = last >= 0;
      start.push_back(present ? first + 1 : 1);
      end.push_back(present ? last + 1 : 0);
    } else if (rl == 0) {
      start.push_back(grid.start(levels.location, Zone::Interior) + 1);
      end.push_back(n);
    } else {
      start.push_back(n + 1);
      end.push_back(n);
    }
  }
}

void write_points(NcWriter &out, const Points &points, const char *dim, const char *lon,
                  const char *lat, const char *fortran_lon, const char *fortran_lat, const char *x,
                  const char *y, const char *z) {
  out.variable(lon, {dim}, points.lon.data(), "radian");
  out.variable(lat, {dim}, points.lat.data(), "radian");
  out.variable(fortran_lon, {dim}, points.lon.data(), "radian");
  out.variable(fortran_lat, {dim}, points.lat.data(), "radian");
  out.variable(x, {dim}, points.x.data(), "meters");
  out.variable(y, {dim}, points.y.data(), "meters");
  out.variable(z, {dim}, points.z.data(), "meters");
}

// clon_vertices / clat_vertices (cell, nv): the corners of every cell, for CDO and plotting.
void write_cell_bounds(NcWriter &out, const Grid &grid) {
  const Table &c2v = grid.table(Connectivity::C2V);
  const Points &vertices = grid.geometry().vertices;
  std::vector<double> lon(size_t(grid.num_cells()) * 3), lat(lon.size());
  for (int32_t c = 0; c < grid.num_cells(); ++c)
    for (int32_t j = 0; j < 3; ++j) {
      lon[size_t(c) * 3 + j] = vertices.lon[c2v(c, j)];
      lat[size_t(c) * 3 + j] = vertices.lat[c2v(c, j)];
    }
  out.variable("clon_vertices", {"cell", "nv"}, lon.data(), "radian");
  out.variable("clat_vertices", {"cell", "nv"}, lat.data(), "radian");
}

void write_geometry(NcWriter &out, const Grid &grid) {
  const GridGeometry &g = grid.geometry();
  write_points(out, g.cells, "cell", "clon", "clat", "lon_cell_centre", "lat_cell_centre",
               "cell_circumcenter_cartesian_x", "cell_circumcenter_cartesian_y",
               "cell_circumcenter_cartesian_z");
  write_points(out, g.edges, "edge", "elon", "elat", "lon_edge_centre", "lat_edge_centre",
               "edge_middle_cartesian_x", "edge_middle_cartesian_y", "edge_middle_cartesian_z");
  write_points(out, g.vertices, "vertex", "vlon", "vlat", "longitude_vertices", "latitude_vertices",
               "cartesian_x_vertices", "cartesian_y_vertices", "cartesian_z_vertices");
  write_cell_bounds(out, grid);
  out.variable("cell_area", {"cell"}, g.cell_area.data(), "m2");
  out.variable("cell_area_p", {"cell"}, g.cell_area.data(), "m2");
  out.variable("dual_area", {"vertex"}, g.dual_area.data(), "m2");
  out.variable("dual_area_p", {"vertex"}, g.dual_area.data(), "m2");
  out.variable("edge_length", {"edge"}, g.edge_length.data(), "m");
  out.variable("dual_edge_length", {"edge"}, g.dual_edge_length.data(), "m");
  out.variable("edge_cell_distance", {"nc", "edge"}, g.edge_cell_distance.data.data(), "m");
  out.variable("edge_vert_distance", {"nc", "edge"}, g.edge_vert_distance.data.data(), "m");
  out.variable("edge_primal_normal_cartesian_x", {"edge"}, g.primal_normal_x.data());
  out.variable("edge_primal_normal_cartesian_y", {"edge"}, g.primal_normal_y.data());
  out.variable("edge_primal_normal_cartesian_z", {"edge"}, g.primal_normal_z.data());
  out.variable("edge_dual_normal_cartesian_x", {"edge"}, g.dual_normal_x.data());
  out.variable("edge_dual_normal_cartesian_y", {"edge"}, g.dual_normal_y.data());
  out.variable("edge_dual_normal_cartesian_z", {"edge"}, g.dual_normal_z.data());
  out.variable("zonal_normal_primal_edge", {"edge"}, g.primal_normal_u.data());
  out.variable("meridional_normal_primal_edge", {"edge"}, g.primal_normal_v.data());
  out.variable("zonal_normal_dual_edge", {"edge"}, g.dual_normal_u.data());
  out.variable("meridional_normal_dual_edge", {"edge"}, g.dual_normal_v.data());
  out.variable("edge_system_orientation", {"edge"}, g.edge_system_orientation.data());
  out.variable("orientation_of_normal", {"nv", "cell"}, g.orientation_of_normal.data.data());
  out.variable("edge_orientation", {"ne", "vertex"}, g.edge_orientation.data.data());
}

void write_global_attributes(NcWriter &out, const Grid &grid) {
  const GridGeometry &g = grid.geometry();
  out.attribute("title", std::string("ICON grid generated by fusec"));
  out.attribute("institution", std::string("fusec"));
  out.attribute("source", std::string("fusec runtime grid generator"));
  out.attribute("fusec_grid_name", grid.name());
  out.attribute("uuidOfHGrid", grid_uuid(grid));
  out.attribute("uuidOfParHGrid", std::string("00000000-0000-0000-0000-000000000000"));
  out.attribute("number_of_grid_used", int32_t(0));
  out.attribute("ICON_grid_file_uri", std::string(""));
  out.attribute("center", int32_t(0));
  out.attribute("subcenter", int32_t(0));
  out.attribute("crs_id", std::string(""));
  out.attribute("crs_name", std::string("Spherical coordinates"));
  out.attribute("grid_mapping_name", std::string("lat_long_on_sphere"));
  out.attribute("ellipsoid_name", std::string("Sphere"));
  out.attribute("semi_major_axis", g.sphere_radius);
  out.attribute("inverse_flattening", 0.0);
  out.attribute("grid_root", grid.metadata().root);
  out.attribute("grid_level", grid.metadata().level);
  out.attribute("grid_geometry", int32_t(1));
  out.attribute("grid_cell_type", int32_t(3));
  out.attribute("sphere_radius", g.sphere_radius);
  out.attribute("mean_edge_length", mean(g.edge_length));
  out.attribute("mean_dual_edge_length", mean(g.dual_edge_length));
  out.attribute("mean_cell_area", mean(g.cell_area));
  out.attribute("mean_dual_cell_area", mean(g.dual_area));
}

// Reads variables of a grid file; a failed read leaves its target empty and is remembered.
class NcReader {
public:
  explicit NcReader(const std::string &path) : path_(path) {
    int code = nc_open(path.c_str(), NC_NOWRITE, &ncid_);
    if (code != NC_NOERR) {
      status_ = Status::failure(nc_message(code, "cannot open grid file " + path));
      ncid_ = -1;
    }
  }
  ~NcReader() {
    if (ncid_ >= 0)
      nc_close(ncid_);
  }
  const Status &status() const { return status_; }

  int32_t dimension(const char *name) {
    int id = -1;
    size_t length = 0;
    if (status_ && (nc_inq_dimid(ncid_, name, &id) != NC_NOERR ||
                    nc_inq_dimlen(ncid_, id, &length) != NC_NOERR))
      fail(std::string("dimension '") + name + "' is missing");
    return int32_t(length);
  }

  bool has(const char *name) const {
    int varid = -1;
    return ncid_ >= 0 && nc_inq_varid(ncid_, name, &varid) == NC_NOERR;
  }

  std::string text_attribute(const char *name) const {
    size_t length = 0;
    if (ncid_ < 0 || nc_inq_attlen(ncid_, NC_GLOBAL, name, &length) != NC_NOERR)
      return "";
    std::string value(length, '\0');
    if (nc_get_att_text(ncid_, NC_GLOBAL, name, value.data()) != NC_NOERR)
      return "";
    return value;
  }
  bool double_attribute(const char *name, double &value) const {
    return ncid_ >= 0 && nc_get_att_double(ncid_, NC_GLOBAL, name, &value) == NC_NOERR;
  }
  int32_t int_attribute(const char *name, int32_t fallback) const {
    int value = 0;
    return ncid_ >= 0 && nc_get_att_int(ncid_, NC_GLOBAL, name, &value) == NC_NOERR ? int32_t(value)
                                                                                    : fallback;
  }

  // A variable of `count` values, if the file has it.
  void optional(const char *name, size_t count, std::vector<double> &values) {
    if (has(name))
      read(name, count, values, &nc_get_var_double);
  }
  void optional(const char *name, size_t count, std::vector<int32_t> &values) {
    if (has(name))
      read(name, count, values, &nc_get_var_int);
  }
  template <typename T>
  void optional(const char *name, int32_t rows, int32_t cols, NeighborArray<T> &values) {
    if (!has(name))
      return;
    values = NeighborArray<T>(rows, cols, T{});
    optional(name, values.data.size(), values.data);
  }
  void required(const char *name, size_t count, std::vector<int32_t> &values) {
    if (!has(name))
      fail(std::string("variable '") + name + "' is missing");
    else
      read(name, count, values, &nc_get_var_int);
  }

  // A (k, entity) connectivity: 1-based, values <= 0 missing.
  Table table(const char *name, int32_t rows, int32_t cols) {
    Table table(rows, cols, kMissing);
    std::vector<int32_t> stored;
    required(name, table.data.size(), stored);
    if (status_)
      for (size_t i = 0; i < stored.size(); ++i)
        table.data[i] = stored[i] <= 0 ? kMissing : stored[i] - 1;
    return table;
  }

private:
  template <typename T, typename Get>
  void read(const char *name, size_t count, std::vector<T> &values, Get get) {
    if (!status_)
      return;
    int varid = -1, ndims = 0;
    nc_inq_varid(ncid_, name, &varid);
    nc_inq_varndims(ncid_, varid, &ndims);
    std::vector<int> dims(size_t(std::max(ndims, 0)));
    nc_inq_vardimid(ncid_, varid, dims.data());
    size_t total = 1;
    for (int dim : dims) {
      size_t length = 0;
      nc_inq_dimlen(ncid_, dim, &length);
      total *= length;
    }
    if (total != count) {
      fail(std::string("variable '") + name + "' has " + std::to_string(total) +
           " values, expected " + std::to_string(count));
      return;
    }
    values.resize(count);
    if (int code = get(ncid_, varid, values.data()); code != NC_NOERR)
      fail(nc_message(code, std::string("cannot read '") + name + "'"));
  }
  void fail(const std::string &message) {
    if (status_)
      status_ = Status::failure(path_ + ": " + message);
  }

  std::string path_;
  int ncid_ = -1;
  Status status_;
};

void read_points(NcReader &in, int32_t n, Points &points, const char *lon, const char *lat,
                 const char *x, const char *y, const char *z) {
  in.optional(lon, size_t(n), points.lon);
  in.optional(lat, size_t(n), points.lat);
  in.optional(x, size_t(n), points.x);
  in.optional(y, size_t(n), points.y);
  in.optional(z, size_t(n), points.z);
}

// icon4py's reading of refin_ctrl: negative values (nest overlap in parent grids) become |x|,
// except the "outside" markers -4 (cells, vertices) and -8 (edges), which become 0.
void normalise_refin(std::vector<int32_t> &refin, int32_t outside_marker) {
  for (int32_t &row : refin)
    if (row < 0)
      row = row == outside_marker ? 0 : -row;
}

// edge_system_orientation, if every stored value is ±1 (some files hold NaN on boundary edges);
// otherwise empty, so that it is recomputed.
std::vector<int32_t> read_orientation(NcReader &in, size_t count) {
  std::vector<double> stored;
  in.optional("edge_system_orientation", count, stored);
  std::vector<int32_t> orientation;
  for (double value : stored) {
    if (value != 1.0 && value != -1.0)
      return {};
    orientation.push_back(int32_t(value));
  }
  return orientation;
}

std::string basename_of(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

Status write_grid_netcdf(const Grid &grid, const std::string &path) {
  NcWriter out(path);
  out.dimension("cell", size_t(grid.num_cells()));
  out.dimension("edge", size_t(grid.num_edges()));
  out.dimension("vertex", size_t(grid.num_vertices()));
  out.dimension("nv", 3);
  out.dimension("ne", 6);
  out.dimension("nc", 2);
  out.dimension("max_chdom", 1);
  for (const RefinementLevels &levels : kRefinementLevels)
    out.dimension(levels.dim, size_t(levels.max_rl - levels.min_rl + 1));
  write_global_attributes(out, grid);

  struct StoredTable {
    const char *name;
    Connectivity connectivity;
    const char *k_dim;
    const char *entity_dim;
  };
  const StoredTable tables[] = {
      {"vertex_of_cell", Connectivity::C2V, "nv", "cell"},
      {"edge_of_cell", Connectivity::C2E, "nv", "cell"},
      {"neighbor_cell_index", Connectivity::C2E2C, "nv", "cell"},
      {"adjacent_cell_of_edge", Connectivity::E2C, "nc", "edge"},
      {"edge_vertices", Connectivity::E2V, "nc", "edge"},
      {"cells_of_vertex", Connectivity::V2C, "ne", "vertex"},
      {"edges_of_vertex", Connectivity::V2E, "ne", "vertex"},
      {"vertices_of_vertex", Connectivity::V2E2V, "ne", "vertex"},
  };
  for (const StoredTable &table : tables)
    out.variable(table.name, {table.k_dim, table.entity_dim},
                 one_based(grid.table(table.connectivity)).data());
  out.variable("refin_c_ctrl", {"cell"}, grid.refin_ctrl(Location::Cell).data());
  out.variable("refin_e_ctrl", {"edge"}, grid.refin_ctrl(Location::Edge).data());
  out.variable("refin_v_ctrl", {"vertex"}, grid.refin_ctrl(Location::Vertex).data());
  for (const RefinementLevels &levels : kRefinementLevels) {
    std::vector<int32_t> start, end;
    refinement_index_ranges(grid, levels, start, end);
    out.variable(levels.start_name, {"max_chdom", levels.dim}, start.data());
    out.variable(levels.end_name, {"max_chdom", levels.dim}, end.data());
  }
  write_geometry(out, grid);
  return out.finish();
}

Result<Grid> read_grid_netcdf(const std::string &path) {
  NcReader in(path);
  GridTopology topology;
  int32_t num_cells = in.dimension("cell");
  int32_t num_edges = in.dimension("edge");
  int32_t num_vertices = in.dimension("vertex");
  topology.num_points = {num_cells, num_edges, num_vertices};
  topology.c2v = in.table("vertex_of_cell", num_cells, 3);
  topology.c2e = in.table("edge_of_cell", num_cells, 3);
  topology.c2e2c = in.table("neighbor_cell_index", num_cells, 3);
  topology.e2c = in.table("adjacent_cell_of_edge", num_edges, 2);
  topology.e2v = in.table("edge_vertices", num_edges, 2);
  topology.v2c = in.table("cells_of_vertex", num_vertices, 6);
  topology.v2e = in.table("edges_of_vertex", num_vertices, 6);
  topology.v2e2v = in.table("vertices_of_vertex", num_vertices, 6);
  auto &refin = topology.refin_ctrl;
  in.optional("refin_c_ctrl", size_t(num_cells), refin[int(Location::Cell)]);
  in.optional("refin_e_ctrl", size_t(num_edges), refin[int(Location::Edge)]);
  in.optional("refin_v_ctrl", size_t(num_vertices), refin[int(Location::Vertex)]);
  normalise_refin(refin[int(Location::Cell)], -4);
  normalise_refin(refin[int(Location::Edge)], -8);
  normalise_refin(refin[int(Location::Vertex)], -4);

  GridGeometry g;
  if (!in.double_attribute("sphere_radius", g.sphere_radius))
    g.sphere_radius = kEarthRadius;
  read_points(in, num_cells, g.cells, "clon", "clat", "cell_circumcenter_cartesian_x",
              "cell_circumcenter_cartesian_y", "cell_circumcenter_cartesian_z");
  read_points(in, num_edges, g.edges, "elon", "elat", "edge_middle_cartesian_x",
              "edge_middle_cartesian_y", "edge_middle_cartesian_z");
  read_points(in, num_vertices, g.vertices, "vlon", "vlat", "cartesian_x_vertices",
              "cartesian_y_vertices", "cartesian_z_vertices");
  in.optional(in.has("cell_area") ? "cell_area" : "cell_area_p", size_t(num_cells), g.cell_area);
  in.optional(in.has("dual_area") ? "dual_area" : "dual_area_p", size_t(num_vertices), g.dual_area);
  in.optional("edge_length", size_t(num_edges), g.edge_length);
  in.optional("dual_edge_length", size_t(num_edges), g.dual_edge_length);
  in.optional("edge_cell_distance", num_edges, 2, g.edge_cell_distance);
  in.optional("edge_vert_distance", num_edges, 2, g.edge_vert_distance);
  in.optional("edge_primal_normal_cartesian_x", size_t(num_edges), g.primal_normal_x);
  in.optional("edge_primal_normal_cartesian_y", size_t(num_edges), g.primal_normal_y);
  in.optional("edge_primal_normal_cartesian_z", size_t(num_edges), g.primal_normal_z);
  in.optional("edge_dual_normal_cartesian_x", size_t(num_edges), g.dual_normal_x);
  in.optional("edge_dual_normal_cartesian_y", size_t(num_edges), g.dual_normal_y);
  in.optional("edge_dual_normal_cartesian_z", size_t(num_edges), g.dual_normal_z);
  in.optional("zonal_normal_primal_edge", size_t(num_edges), g.primal_normal_u);
  in.optional("meridional_normal_primal_edge", size_t(num_edges), g.primal_normal_v);
  in.optional("zonal_normal_dual_edge", size_t(num_edges), g.dual_normal_u);
  in.optional("meridional_normal_dual_edge", size_t(num_edges), g.dual_normal_v);
  g.edge_system_orientation = read_orientation(in, size_t(num_edges));
  in.optional("orientation_of_normal", num_cells, 3, g.orientation_of_normal);
  in.optional("edge_orientation", num_vertices, 6, g.edge_orientation);
  if (!in.status())
    return in.status();

  GridMetadata metadata;
  metadata.name = in.text_attribute("fusec_grid_name");
  if (metadata.name.empty())
    metadata.name = basename_of(path);
  metadata.root = in.int_attribute("grid_root", 0);
  metadata.level = in.int_attribute("grid_level", 0);
  Result<Grid> grid = Grid::create(std::move(metadata), std::move(topology), std::move(g));
  if (!grid)
    return Status::failure(path + ": " + grid.error());
  return grid;
}

} // namespace fusec
