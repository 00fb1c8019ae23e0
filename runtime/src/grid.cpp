// fusec::Grid: validation, derived connectivities, zone bounds, the C mesh descriptor.
#include "fusec/grid.h"

#include "geometry.h"

#include <algorithm>
#include <string>

namespace fusec {

const char *location_name(Location location) {
  switch (location) {
  case Location::Cell:
    return "Cell";
  case Location::Edge:
    return "Edge";
  case Location::Vertex:
    return "Vertex";
  }
  return "?";
}

size_t dtype_size(DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return 8;
  case DType::Float32:
  case DType::Int32:
    return 4;
  case DType::Bool:
    return 1;
  }
  return 0;
}

const ConnectivityInfo &connectivity_info(Connectivity connectivity) {
  static const ConnectivityInfo infos[kNumConnectivities] = {
      {"E2C", Location::Edge, Location::Cell, 2},
      {"E2V", Location::Edge, Location::Vertex, 2},
      {"E2C2V", Location::Edge, Location::Vertex, 4},
      {"E2C2E", Location::Edge, Location::Edge, 4},
      {"E2C2EO", Location::Edge, Location::Edge, 5},
      {"C2E", Location::Cell, Location::Edge, 3},
      {"C2V", Location::Cell, Location::Vertex, 3},
      {"C2E2C", Location::Cell, Location::Cell, 3},
      {"C2E2CO", Location::Cell, Location::Cell, 4},
      {"C2E2C2E", Location::Cell, Location::Edge, 9},
      {"C2E2C2E2C", Location::Cell, Location::Cell, 9},
      {"V2E", Location::Vertex, Location::Edge, 6},
      {"V2C", Location::Vertex, Location::Cell, 6},
      {"V2E2V", Location::Vertex, Location::Vertex, 6},
  };
  return infos[int(connectivity)];
}

const char *zone_name(Zone zone) {
  static const char *names[kNumZones] = {"LATERAL_BOUNDARY_LEVEL_1",
                                         "LATERAL_BOUNDARY_LEVEL_2",
                                         "LATERAL_BOUNDARY_LEVEL_3",
                                         "LATERAL_BOUNDARY_LEVEL_4",
                                         "LATERAL_BOUNDARY_LEVEL_5",
                                         "LATERAL_BOUNDARY_LEVEL_6",
                                         "LATERAL_BOUNDARY_LEVEL_7",
                                         "LATERAL_BOUNDARY_LEVEL_8",
                                         "NUDGING",
                                         "NUDGING_LEVEL_2",
                                         "INTERIOR",
                                         "LOCAL",
                                         "HALO",
                                         "HALO_LEVEL_2",
                                         "END"};
  return names[int(zone)];
}

int32_t count_neighbors(const Table &table, int32_t h) {
  int32_t count = 0;
  for (int32_t n = 0; n < table.cols; ++n)
    count += table(h, n) != kMissing;
  return count;
}

bool GridGeometry::operator==(const GridGeometry &o) const {
  return sphere_radius == o.sphere_radius && cells == o.cells && edges == o.edges &&
         vertices == o.vertices && cell_area == o.cell_area && dual_area == o.dual_area &&
         edge_length == o.edge_length && dual_edge_length == o.dual_edge_length &&
         vert_vert_length == o.vert_vert_length && edge_cell_distance == o.edge_cell_distance &&
         edge_vert_distance == o.edge_vert_distance && primal_normal_x == o.primal_normal_x &&
         primal_normal_y == o.primal_normal_y && primal_normal_z == o.primal_normal_z &&
         dual_normal_x == o.dual_normal_x && dual_normal_y == o.dual_normal_y &&
         dual_normal_z == o.dual_normal_z && primal_normal_u == o.primal_normal_u &&
         primal_normal_v == o.primal_normal_v && dual_normal_u == o.dual_normal_u &&
         dual_normal_v == o.dual_normal_v && edge_system_orientation == o.edge_system_orientation &&
         orientation_of_normal == o.orientation_of_normal && edge_orientation == o.edge_orientation;
}

namespace {

// Checks the shape of a stored table and that its entries are -1 or valid target indices.
Status check_table(const Table &table, Connectivity connectivity,
                   const std::array<int32_t, kNumLocations> &num_points, bool allow_missing) {
  const ConnectivityInfo &info = connectivity_info(connectivity);
  int32_t rows = num_points[int(info.source)];
  int32_t targets = num_points[int(info.target)];
  if (table.rows != rows || table.cols != info.max_neighbors ||
      table.data.size() != size_t(rows) * size_t(info.max_neighbors))
    return Status::failure(std::string(info.name) + " table has shape (" +
                           std::to_string(table.rows) + ", " + std::to_string(table.cols) +
                           "), expected (" + std::to_string(rows) + ", " +
                           std::to_string(info.max_neighbors) + ")");
  for (size_t i = 0; i < table.data.size(); ++i) {
    int32_t value = table.data[i];
    bool valid = value >= 0 && value < targets;
    if (!valid && !(allow_missing && value == kMissing))
      return Status::failure(std::string(info.name) + " entry (" +
                             std::to_string(i % size_t(rows)) + ", " +
                             std::to_string(i / size_t(rows)) + ") = " + std::to_string(value) +
                             " is not a valid " + location_name(info.target) + " index");
  }
  return Status::success();
}

// Every cell listed by E2C must list the edge in C2E: the derived tables rely on it.
Status check_edge_cell_consistency(const Table &e2c, const Table &c2e) {
  for (int32_t e = 0; e < e2c.rows; ++e) {
    int32_t valid_cells = 0;
    for (int32_t i = 0; i < 2; ++i) {
      int32_t c = e2c(e, i);
      if (c == kMissing)
        continue;
      ++valid_cells;
      if (c2e(c, 0) != e && c2e(c, 1) != e && c2e(c, 2) != e)
        return Status::failure("E2C lists cell " + std::to_string(c) + " for edge " +
                               std::to_string(e) + ", but C2E of that cell does not list the edge");
    }
    if (valid_cells == 0)
      return Status::failure("edge " + std::to_string(e) + " has no adjacent cell");
  }
  return Status::success();
}

int32_t position_in_row(const Table &table, int32_t h, int32_t value) {
  for (int32_t n = 0; n < table.cols; ++n)
    if (table(h, n) == value)
      return n;
  return kMissing;
}

// E2C2V: the edge's end points, then the far vertex of E2C[0] and of E2C[1].
Table diamond_vertices(const Table &e2c, const Table &e2v, const Table &c2v) {
  Table e2c2v(e2c.rows, 4, kMissing);
#pragma omp parallel for
  for (int32_t e = 0; e < e2c.rows; ++e) {
    int32_t v0 = e2v(e, 0), v1 = e2v(e, 1);
    e2c2v(e, 0) = v0;
    e2c2v(e, 1) = v1;
    for (int32_t i = 0; i < 2; ++i) {
      int32_t c = e2c(e, i);
      if (c == kMissing)
        continue;
      for (int32_t j = 0; j < 3; ++j) {
        int32_t v = c2v(c, j);
        if (v != v0 && v != v1)
          e2c2v(e, 2 + i) = v;
      }
    }
  }
  return e2c2v;
}

// E2C2E: for each adjacent cell, its two other edges in cyclic order after e.
Table quad_edges(const Table &e2c, const Table &c2e) {
  Table e2c2e(e2c.rows, 4, kMissing);
#pragma omp parallel for
  for (int32_t e = 0; e < e2c.rows; ++e) {
    for (int32_t i = 0; i < 2; ++i) {
      int32_t c = e2c(e, i);
      if (c == kMissing)
        continue;
      int32_t p = position_in_row(c2e, c, e);
      e2c2e(e, 2 * i) = c2e(c, (p + 1) % 3);
      e2c2e(e, 2 * i + 1) = c2e(c, (p + 2) % 3);
    }
  }
  return e2c2e;
}

// [h] followed by the row of `table`.
Table with_origin(const Table &table) {
  Table result(table.rows, table.cols + 1, kMissing);
  for (int32_t h = 0; h < table.rows; ++h)
    result(h, 0) = h;
  std::copy(table.data.begin(), table.data.end(), result.data.begin() + table.rows);
  return result;
}

// result[c][3j + i] = second[first[c][j]][i]: the composition of a cell-to-cell table with a
// 3-column table, -1 where first[c][j] is missing.
Table compose_through_cells(const Table &first, const Table &second) {
  Table result(first.rows, 3 * second.cols, kMissing);
#pragma omp parallel for
  for (int32_t c = 0; c < first.rows; ++c) {
    for (int32_t j = 0; j < first.cols; ++j) {
      int32_t neighbor = first(c, j);
      if (neighbor == kMissing)
        continue;
      for (int32_t i = 0; i < second.cols; ++i)
        result(c, second.cols * j + i) = second(neighbor, i);
    }
  }
  return result;
}

// Boundary rows of each location (icon-grid.md §2.9): cells and vertices have lateral boundary
// rows 1..4 and nudging row 5; edges have rows 1..8 and nudging rows 9 and 10.
struct ZoneRows {
  int32_t boundary_rows;
  int32_t nudging_rows;
};

ZoneRows zone_rows(Location location) {
  return location == Location::Edge ? ZoneRows{8, 2} : ZoneRows{4, 1};
}

// The zone bounds of one location from the owned points' refin_ctrl, which must place rows 1,
// 2, ... as consecutive blocks at the front; the halo lines follow the owned points.
Status compute_zone_bounds(Location location, const std::vector<int32_t> &refin,
                           const std::array<int32_t, 2> &num_halo,
                           std::array<IndexRange, kNumZones> &zones) {
  int32_t total = int32_t(refin.size());
  if (num_halo[0] < 0 || num_halo[1] < 0 || num_halo[0] + num_halo[1] > total)
    return Status::failure(std::string(location_name(location)) + " halo sizes " +
                           std::to_string(num_halo[0]) + " + " + std::to_string(num_halo[1]) +
                           " do not fit in " + std::to_string(total) + " points");
  int32_t n = total - num_halo[0] - num_halo[1]; // owned points
  ZoneRows rows = zone_rows(location);
  int32_t last_row = rows.boundary_rows + rows.nudging_rows;
  std::vector<IndexRange> row_range(last_row + 1, IndexRange{n, 0});
  std::vector<int32_t> row_count(last_row + 1, 0);
  for (int32_t i = 0; i < n; ++i) {
    int32_t row = refin[i];
    if (row < 1 || row > last_row)
      continue;
    row_range[row].start = std::min(row_range[row].start, i);
    row_range[row].end = std::max(row_range[row].end, i + 1);
    ++row_count[row];
  }
  int32_t next_start = 0;
  for (int32_t row = 1; row <= last_row; ++row) {
    IndexRange range = row_count[row] > 0 ? row_range[row] : IndexRange{0, 0};
    if (row_count[row] > 0 && (range.start != next_start || range.size() != row_count[row]))
      return Status::failure(std::string(location_name(location)) +
                             " indices are not ordered by refin_ctrl: row " + std::to_string(row) +
                             " is not the contiguous block starting at " +
                             std::to_string(next_start));
    if (row_count[row] > 0)
      next_start = range.end;
    Zone zone = row <= rows.boundary_rows ? Zone(int(Zone::LateralBoundary1) + row - 1)
                                          : Zone(int(Zone::Nudging) + row - rows.boundary_rows - 1);
    zones[int(zone)] = range;
  }
  zones[int(Zone::Interior)] = {next_start, n};
  zones[int(Zone::Local)] = {0, n};
  zones[int(Zone::Halo)] = {n, n + num_halo[0]};
  zones[int(Zone::HaloLevel2)] = {n + num_halo[0], total};
  zones[int(Zone::End)] = {total, total};
  return Status::success();
}

} // namespace

Result<Grid> Grid::create(GridMetadata metadata, GridTopology topology, GridGeometry geometry) {
  const auto &num_points = topology.num_points;
  struct StoredTable {
    Table *table;
    Connectivity connectivity;
    bool allow_missing;
  };
  const StoredTable stored[] = {
      {&topology.c2v, Connectivity::C2V, false},    {&topology.c2e, Connectivity::C2E, false},
      {&topology.c2e2c, Connectivity::C2E2C, true}, {&topology.e2c, Connectivity::E2C, true},
      {&topology.e2v, Connectivity::E2V, false},    {&topology.v2c, Connectivity::V2C, true},
      {&topology.v2e, Connectivity::V2E, true},     {&topology.v2e2v, Connectivity::V2E2V, true},
  };
  for (const StoredTable &entry : stored)
    if (Status status =
            check_table(*entry.table, entry.connectivity, num_points, entry.allow_missing);
        !status)
      return status;
  if (Status status = check_edge_cell_consistency(topology.e2c, topology.c2e); !status)
    return status;

  Grid grid;
  grid.metadata_ = std::move(metadata);
  grid.num_points_ = num_points;
  for (int l = 0; l < kNumLocations; ++l) {
    std::vector<int32_t> &refin = topology.refin_ctrl[l];
    if (refin.empty())
      refin.assign(size_t(num_points[l]), 0);
    if (refin.size() != size_t(num_points[l]))
      return Status::failure(std::string("refin_ctrl of ") + location_name(Location(l)) + " has " +
                             std::to_string(refin.size()) + " entries, expected " +
                             std::to_string(num_points[l]));
    if (Status status =
            compute_zone_bounds(Location(l), refin, topology.num_halo[l], grid.zones_[l]);
        !status)
      return status;
    grid.refin_ctrl_[l] = std::move(refin);
  }
  const std::vector<int32_t> &cell_refin = grid.refin_ctrl_[int(Location::Cell)];
  grid.limited_area_ =
      std::any_of(cell_refin.begin(), cell_refin.end(), [](int32_t row) { return row > 0; });

  auto &tables = grid.tables_;
  tables[int(Connectivity::E2C2V)] = diamond_vertices(topology.e2c, topology.e2v, topology.c2v);
  tables[int(Connectivity::E2C2E)] = quad_edges(topology.e2c, topology.c2e);
  tables[int(Connectivity::E2C2EO)] = with_origin(tables[int(Connectivity::E2C2E)]);
  tables[int(Connectivity::C2E2CO)] = with_origin(topology.c2e2c);
  tables[int(Connectivity::C2E2C2E)] = compose_through_cells(topology.c2e2c, topology.c2e);
  tables[int(Connectivity::C2E2C2E2C)] = compose_through_cells(topology.c2e2c, topology.c2e2c);
  tables[int(Connectivity::C2V)] = std::move(topology.c2v);
  tables[int(Connectivity::C2E)] = std::move(topology.c2e);
  tables[int(Connectivity::C2E2C)] = std::move(topology.c2e2c);
  tables[int(Connectivity::E2C)] = std::move(topology.e2c);
  tables[int(Connectivity::E2V)] = std::move(topology.e2v);
  tables[int(Connectivity::V2C)] = std::move(topology.v2c);
  tables[int(Connectivity::V2E)] = std::move(topology.v2e);
  tables[int(Connectivity::V2E2V)] = std::move(topology.v2e2v);

  Result<GridGeometry> completed = complete_geometry(grid, std::move(geometry));
  if (!completed)
    return completed.status();
  grid.geometry_ = std::move(completed).value();
  grid.build_mesh_descriptors();
  return grid;
}

Grid::Grid(const Grid &other)
    : metadata_(other.metadata_), limited_area_(other.limited_area_),
      num_points_(other.num_points_), tables_(other.tables_), refin_ctrl_(other.refin_ctrl_),
      zones_(other.zones_), geometry_(other.geometry_) {
  build_mesh_descriptors();
}

Grid &Grid::operator=(const Grid &other) {
  if (this != &other) {
    Grid copy(other);
    *this = std::move(copy);
  }
  return *this;
}

void Grid::build_mesh_descriptors() {
  descriptors_.clear();
  for (int i = 0; i < kNumConnectivities; ++i) {
    const ConnectivityInfo &info = connectivity_info(Connectivity(i));
    const Table &table = tables_[i];
    descriptors_.push_back({info.name, fusec_location(info.source), fusec_location(info.target),
                            table.cols, table.rows, table.rows, table.data.data()});
  }
}

bool Grid::operator==(const Grid &other) const {
  const GridMetadata &a = metadata_, &b = other.metadata_;
  return a.name == b.name && a.root == b.root && a.level == b.level &&
         num_points_ == other.num_points_ && tables_ == other.tables_ &&
         refin_ctrl_ == other.refin_ctrl_ && zones_ == other.zones_ && geometry_ == other.geometry_;
}

fusec_mesh Grid::mesh() const {
  fusec_mesh mesh;
  for (int l = 0; l < kNumLocations; ++l)
    mesh.num_points[l] = num_points_[l];
  mesh.num_connectivities = int32_t(descriptors_.size());
  mesh.connectivities = descriptors_.data();
  return mesh;
}

} // namespace fusec
