// Limited-area grids cut from a global grid (icon-grid.md §1.6 and §3): boundary rows
// (refin_ctrl), ICON's reordering and the remapped tables.
#include "fusec/grid_generator.h"

#include "sphere.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fusec {
namespace {

// Cell rows are labelled up to this depth (the old generator labelled 12; nudging needs
// nudge_zone_width + 4 rows), so edge rows reach 2 * 14 = 28.
constexpr int32_t kLabelledCellRows = 14;
// ICON moves rows 1..5 of cells and vertices and rows 1..10 of edges to the front.
constexpr int32_t kMovedCellRows = 5;
constexpr int32_t kMovedEdgeRows = 10;
constexpr int32_t kMovedVertexRows = 5;

const double kDegree = std::acos(-1.0) / 180.0;

// Cell rows: kOutside for cells outside the domain, 0 for unlabelled cells inside.
constexpr int32_t kOutside = -1;

// Row r > 0 of each in-domain cell (0 = inside, beyond the labelled rows):
// row 1 touches an outside cell through a vertex, row r shares a vertex with a row r-1 cell.
std::vector<int32_t> label_cell_rows(const Grid &global, const std::vector<char> &in_domain) {
  const Table &c2v = global.table(Connectivity::C2V);
  const Table &v2c = global.table(Connectivity::V2C);
  int32_t num_cells = global.num_cells();
  int32_t num_vertices = global.num_vertices();
  std::vector<int32_t> row(size_t(num_cells), 0);
  for (int32_t c = 0; c < num_cells; ++c)
    if (!in_domain[c])
      row[c] = kOutside;
  // touches[v]: v has an adjacent cell of the row being spread.
  std::vector<char> touches(size_t(num_vertices), 0);
  for (int32_t r = 1; r <= kLabelledCellRows; ++r) {
    int32_t previous_row = r == 1 ? kOutside : r - 1;
#pragma omp parallel for
    for (int32_t v = 0; v < num_vertices; ++v) {
      char found = 0;
      for (int32_t k = 0; k < v2c.cols; ++k) {
        int32_t c = v2c(v, k);
        found |= c != kMissing && row[c] == previous_row;
      }
      touches[v] = found;
    }
#pragma omp parallel for
    for (int32_t c = 0; c < num_cells; ++c)
      if (row[c] == 0 && (touches[c2v(c, 0)] || touches[c2v(c, 1)] || touches[c2v(c, 2)]))
        row[c] = r;
  }
  return row;
}

// Vertex row: the largest row of its in-domain cells, 0 if one of them is unlabelled.
int32_t vertex_row(const Table &v2c, int32_t v, const std::vector<int32_t> &cell_row) {
  int32_t result = 0;
  for (int32_t k = 0; k < v2c.cols; ++k) {
    int32_t c = v2c(v, k);
    if (c == kMissing || cell_row[c] == kOutside)
      continue;
    if (cell_row[c] == 0)
      return 0;
    result = std::max(result, cell_row[c]);
  }
  return result;
}

// Edge row: the sum of its cells' rows, an outside cell counting 0; 0 next to an unlabelled
// cell.
int32_t edge_row(const Table &e2c, int32_t e, const std::vector<int32_t> &cell_row) {
  int32_t sum = 0;
  for (int32_t i = 0; i < 2; ++i) {
    int32_t c = e2c(e, i);
    if (cell_row[c] == 0)
      return 0;
    sum += cell_row[c] == kOutside ? 0 : cell_row[c];
  }
  return sum;
}

// The members of one location: global indices in LAM order and their rows.
struct Selection {
  std::vector<int32_t> global_index; // local -> global
  std::vector<int32_t> row;          // per local index
  std::vector<int32_t> local_index;  // global -> local, -1 outside
};

// Stable partition of the (global-order) members: rows 1..moved_rows first, row by row.
Selection order_by_rows(const std::vector<int32_t> &members, const std::vector<int32_t> &rows,
                        int32_t moved_rows, int32_t num_global) {
  Selection selection;
  for (int32_t r = 1; r <= moved_rows; ++r)
    for (size_t i = 0; i < members.size(); ++i)
      if (rows[i] == r)
        selection.global_index.push_back(members[i]);
  for (size_t i = 0; i < members.size(); ++i)
    if (rows[i] < 1 || rows[i] > moved_rows)
      selection.global_index.push_back(members[i]);
  selection.local_index.assign(size_t(num_global), kMissing);
  std::vector<int32_t> row_of_global(size_t(num_global), 0);
  for (size_t i = 0; i < members.size(); ++i)
    row_of_global[members[i]] = rows[i];
  for (size_t l = 0; l < selection.global_index.size(); ++l) {
    int32_t g = selection.global_index[l];
    selection.local_index[g] = int32_t(l);
    selection.row.push_back(row_of_global[g]);
  }
  return selection;
}

// table(l, n) = target.local_index[global_table(source.global_index[l], n)].
Table remap_table(const Table &global_table, const Selection &source, const Selection &target) {
  int32_t rows = int32_t(source.global_index.size());
  Table table(rows, global_table.cols, kMissing);
#pragma omp parallel for
  for (int32_t l = 0; l < rows; ++l)
    for (int32_t n = 0; n < global_table.cols; ++n) {
      int32_t g = global_table(source.global_index[l], n);
      table(l, n) = g == kMissing ? kMissing : target.local_index[g];
    }
  return table;
}

// Rotates the counter-clockwise rows of V2C, V2E and V2E2V of boundary vertices so that they
// start after a gap (at the first cell inside the domain), then moves -1 entries to the end.
// ring_size[v] is the number of cells around v on the global grid (5 or 6).
void pack_vertex_rows(const std::vector<int32_t> &ring_size, Table &v2c, Table &v2e, Table &v2e2v) {
#pragma omp parallel for
  for (int32_t v = 0; v < v2c.rows; ++v) {
    int32_t ring = ring_size[v];
    int32_t shift = 0;
    for (int32_t k = 0; k < ring; ++k)
      if (v2c(v, k) != kMissing && v2c(v, (k + ring - 1) % ring) == kMissing) {
        shift = k;
        break;
      }
    for (Table *table : {&v2c, &v2e, &v2e2v}) {
      int32_t packed[6];
      int32_t count = 0;
      for (int32_t k = 0; k < ring; ++k) {
        int32_t value = (*table)(v, (k + shift) % ring);
        if (value != kMissing)
          packed[count++] = value;
      }
      for (int32_t k = 0; k < table->cols; ++k)
        (*table)(v, k) = k < count ? packed[k] : kMissing;
    }
  }
}

Points subset(const Points &points, const std::vector<int32_t> &global_index) {
  Points result;
  for (int32_t g : global_index) {
    result.lon.push_back(points.lon[g]);
    result.lat.push_back(points.lat[g]);
    result.x.push_back(points.x[g]);
    result.y.push_back(points.y[g]);
    result.z.push_back(points.z[g]);
  }
  return result;
}

} // namespace

double default_lam_radius_deg(const Grid &global) {
  double spacing_rad = std::sqrt(4.0 * std::acos(-1.0) / global.num_cells());
  return std::min(60.0, std::max(20.0, 30.0 * spacing_rad / kDegree));
}

Result<Grid> make_limited_area_grid(const Grid &global, const LimitedAreaConfig &config) {
  if (global.limited_area())
    return Status::failure("a limited-area grid can only be cut from a global grid");
  double radius_deg = config.radius_deg > 0 ? config.radius_deg : default_lam_radius_deg(global);
  if (radius_deg >= 180.0)
    return Status::failure("LAM radius must be below 180 degrees");
  if (std::fabs(config.center_lat_deg) > 90.0)
    return Status::failure("LAM centre latitude must lie in [-90, 90]");

  const GridGeometry &geometry = global.geometry();
  Vec3 centre = from_lonlat(config.center_lon_deg * kDegree, config.center_lat_deg * kDegree);
  int32_t num_cells = global.num_cells();
  std::vector<char> in_domain(static_cast<size_t>(num_cells));
  for (int32_t c = 0; c < num_cells; ++c)
    in_domain[c] = arc(centre, point(geometry.cells, c)) <= radius_deg * kDegree;
  std::vector<int32_t> cell_row = label_cell_rows(global, in_domain);

  std::vector<int32_t> cells, cell_rows, edges, edge_rows, vertices, vertex_rows;
  for (int32_t c = 0; c < num_cells; ++c)
    if (in_domain[c]) {
      cells.push_back(c);
      cell_rows.push_back(cell_row[c]);
    }
  if (cells.empty())
    return Status::failure("the LAM cap contains no cell centre");
  const Table &e2c = global.table(Connectivity::E2C);
  for (int32_t e = 0; e < global.num_edges(); ++e)
    if (in_domain[e2c(e, 0)] || in_domain[e2c(e, 1)]) {
      edges.push_back(e);
      edge_rows.push_back(edge_row(e2c, e, cell_row));
    }
  const Table &v2c = global.table(Connectivity::V2C);
  for (int32_t v = 0; v < global.num_vertices(); ++v) {
    bool member = false;
    for (int32_t k = 0; k < v2c.cols; ++k)
      member |= v2c(v, k) != kMissing && in_domain[v2c(v, k)];
    if (member) {
      vertices.push_back(v);
      vertex_rows.push_back(vertex_row(v2c, v, cell_row));
    }
  }

  Selection cell_sel = order_by_rows(cells, cell_rows, kMovedCellRows, num_cells);
  Selection edge_sel = order_by_rows(edges, edge_rows, kMovedEdgeRows, global.num_edges());
  Selection vertex_sel =
      order_by_rows(vertices, vertex_rows, kMovedVertexRows, global.num_vertices());

  GridTopology topology;
  topology.num_points = {int32_t(cells.size()), int32_t(edges.size()), int32_t(vertices.size())};
  topology.c2v = remap_table(global.table(Connectivity::C2V), cell_sel, vertex_sel);
  topology.c2e = remap_table(global.table(Connectivity::C2E), cell_sel, edge_sel);
  topology.c2e2c = remap_table(global.table(Connectivity::C2E2C), cell_sel, cell_sel);
  topology.e2c = remap_table(e2c, edge_sel, cell_sel);
  topology.e2v = remap_table(global.table(Connectivity::E2V), edge_sel, vertex_sel);
  topology.v2c = remap_table(v2c, vertex_sel, cell_sel);
  topology.v2e = remap_table(global.table(Connectivity::V2E), vertex_sel, edge_sel);
  topology.v2e2v = remap_table(global.table(Connectivity::V2E2V), vertex_sel, vertex_sel);
  std::vector<int32_t> ring_size;
  for (int32_t v : vertex_sel.global_index)
    ring_size.push_back(count_neighbors(v2c, v));
  pack_vertex_rows(ring_size, topology.v2c, topology.v2e, topology.v2e2v);
  topology.refin_ctrl = {cell_sel.row, edge_sel.row, vertex_sel.row};

  GridGeometry lam_geometry;
  lam_geometry.sphere_radius = geometry.sphere_radius;
  lam_geometry.cells = subset(geometry.cells, cell_sel.global_index);
  lam_geometry.edges = subset(geometry.edges, edge_sel.global_index);
  lam_geometry.vertices = subset(geometry.vertices, vertex_sel.global_index);

  const GridMetadata &parent = global.metadata();
  char name[96];
  std::snprintf(name, sizeof name, "lam-r%db%d:%g@%g,%g", parent.root, parent.level, radius_deg,
                config.center_lat_deg, config.center_lon_deg);
  return Grid::create({name, parent.root, parent.level}, std::move(topology),
                      std::move(lam_geometry));
}

} // namespace fusec
