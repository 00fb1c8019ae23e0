// Grid statistics and summaries.
#include "fusec/grid_info.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace fusec {
namespace {

// printf into a std::string.
template <typename... Args> std::string format(const char *pattern, Args... args) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, args...);
  return buffer;
}

// The zones that exist for a location (cells and vertices have 4 boundary levels and no
// second nudging level).
bool zone_applies(Location location, Zone zone) {
  if (location == Location::Edge)
    return true;
  return zone < Zone::LateralBoundary5 ||
         (zone > Zone::LateralBoundary8 && zone != Zone::NudgingLevel2);
}

struct Range {
  double min = HUGE_VAL;
  double max = -HUGE_VAL;
  double sum = 0.0;
  size_t count = 0;
  void add(double value) {
    min = std::min(min, value);
    max = std::max(max, value);
    sum += value;
    ++count;
  }
  double mean() const { return count ? sum / double(count) : 0.0; }
};

Range range_of(const std::vector<double> &values) {
  Range range;
  for (double value : values)
    range.add(value);
  return range;
}

void print_geometry(std::ostream &out, const Grid &grid) {
  const GridGeometry &g = grid.geometry();
  double sphere = 4.0 * std::acos(-1.0) * g.sphere_radius * g.sphere_radius;
  Range cell_area = range_of(g.cell_area), dual_area = range_of(g.dual_area);
  Range edge = range_of(g.edge_length), dual = range_of(g.dual_edge_length);
  out << "geometry (sphere radius " << format("%.6g", g.sphere_radius) << " m)\n";
  out << format("  cell area       mean %.6g m2  min %.6g  max %.6g  sum/4piR2 %.15f\n",
                cell_area.mean(), cell_area.min, cell_area.max, cell_area.sum / sphere);
  out << format("  dual area       mean %.6g m2  min %.6g  max %.6g  sum/4piR2 %.15f\n",
                dual_area.mean(), dual_area.min, dual_area.max, dual_area.sum / sphere);
  out << format("  edge length     mean %.6g m  min %.6g  max %.6g\n", edge.mean(), edge.min,
                edge.max);
  out << format("  dual edge       mean %.6g m  min %.6g  max %.6g\n", dual.mean(), dual.min,
                dual.max);
  out << format("  mean spacing    sqrt(mean cell area) = %.6g km\n",
                std::sqrt(cell_area.mean()) / 1000.0);
}

void print_zones(std::ostream &out, const Grid &grid) {
  out << format("zones %-26s %-18s %-18s %-18s\n", "", "Cell", "Edge", "Vertex");
  for (int z = 0; z < kNumZones; ++z) {
    std::string line = format("  %-30s", zone_name(Zone(z)));
    for (int l = 0; l < kNumLocations; ++l) {
      IndexRange range = grid.zone(Location(l), Zone(z));
      line += zone_applies(Location(l), Zone(z))
                  ? format(" %-18s", format("[%d, %d)", range.start, range.end).c_str())
                  : format(" %-18s", "-");
    }
    out << line << "\n";
  }
}

void print_tables(std::ostream &out, const Grid &grid) {
  out << format("neighbour tables %-8s %-14s %5s %5s %8s %10s\n", "", "", "min", "max", "mean",
                "missing");
  for (int i = 0; i < kNumConnectivities; ++i) {
    const ConnectivityInfo &info = connectivity_info(Connectivity(i));
    TableStatistics stats = table_statistics(grid, Connectivity(i));
    std::string shape = format("%s->%s x%d", location_name(info.source), location_name(info.target),
                               info.max_neighbors);
    out << format("  %-10s %-29s %5d %5d %8.4f %10lld\n", info.name, shape.c_str(),
                  stats.min_neighbors, stats.max_neighbors, stats.mean_neighbors,
                  static_cast<long long>(stats.missing_entries));
  }
}

template <typename T> void print_range(std::ostream &out, const FieldRef &field) {
  const T *values = static_cast<const T *>(field.data);
  const size_t count = field.layout.size();
  double min = HUGE_VAL, max = -HUGE_VAL;
#pragma omp parallel for reduction(min : min) reduction(max : max)
  for (size_t i = 0; i < count; ++i) {
    min = std::min(min, double(values[i]));
    max = std::max(max, double(values[i]));
  }
  std::string shape = location_name(field.location);
  if (field.layout.num_neighbors > 0)
    shape += format(" x%d", field.layout.num_neighbors);
  if (field.layout.num_levels > 0)
    shape += format(" x K%d", field.layout.num_levels);
  out << format("  %-24s %-18s min %-14.6g max %-14.6g\n", field.name.c_str(), shape.c_str(),
                min, max);
}

} // namespace

TableStatistics table_statistics(const Grid &grid, Connectivity connectivity) {
  const Table &table = grid.table(connectivity);
  TableStatistics stats;
  stats.min_neighbors = table.cols;
  int64_t valid = 0;
  for (int32_t h = 0; h < table.rows; ++h) {
    int32_t count = count_neighbors(table, h);
    stats.min_neighbors = std::min(stats.min_neighbors, count);
    stats.max_neighbors = std::max(stats.max_neighbors, count);
    valid += count;
  }
  stats.missing_entries = int64_t(table.rows) * table.cols - valid;
  stats.mean_neighbors = table.rows ? double(valid) / table.rows : 0.0;
  return stats;
}

int64_t euler_characteristic(const Grid &grid) {
  return int64_t(grid.num_vertices()) - grid.num_edges() + grid.num_cells();
}

int32_t count_pentagons(const Grid &grid) {
  const Table &v2c = grid.table(Connectivity::V2C);
  const Table &v2e = grid.table(Connectivity::V2E);
  int32_t pentagons = 0;
  for (int32_t v = 0; v < grid.num_vertices(); ++v) {
    int32_t cells = count_neighbors(v2c, v);
    pentagons += cells == 5 && count_neighbors(v2e, v) == cells;
  }
  return pentagons;
}

void print_grid_info(std::ostream &out, const Grid &grid) {
  out << "grid " << grid.name() << (grid.limited_area() ? " (limited area)" : " (global)") << "\n";
  out << format("  cells %d  edges %d  vertices %d\n", grid.num_cells(), grid.num_edges(),
                grid.num_vertices());
  out << format("  Euler characteristic V-E+C = %lld\n",
                static_cast<long long>(euler_characteristic(grid)));
  out << format("  pentagons %d\n", count_pentagons(grid));
  print_zones(out, grid);
  print_tables(out, grid);
  print_geometry(out, grid);
}

void print_coefficient_summary(std::ostream &out, const DiffusionCoefficients &coefficients) {
  out << format("coefficients (%d levels, damping layer ends at level %d)\n",
                coefficients.num_levels, coefficients.end_index_of_damping_layer);
  for (const FieldRef &field : coefficients.fields()) {
    if (field.dtype == DType::Int32)
      print_range<int32_t>(out, field);
    else
      print_range<double>(out, field);
  }
  size_t steep = 0;
  for (double coefficient : coefficients.zd_diffcoef)
    steep += coefficient != 0.0;
  out << format("  steep-terrain points (zd_diffcoef != 0): %zu\n", steep);
}

} // namespace fusec
