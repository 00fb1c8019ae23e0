// fusec runtime: generated ICON grids (global icosahedral RnBk and limited-area caps) and grid
// names.
#ifndef FUSEC_GRID_GENERATOR_H
#define FUSEC_GRID_GENERATOR_H

#include "fusec/grid.h"
#include "fusec/status.h"

#include <string>

namespace fusec {

// The global icosahedral grid RnBk: root division `root` >= 1, `level` >= 0 bisections.
// Cells are numbered along the refinement tree (the 4 children of a triangle are consecutive),
// vertices and edges in order of first appearance in the cell list, as in ICON's grid files.
Result<Grid> make_icosahedral_grid(int32_t root, int32_t level);

struct LimitedAreaConfig {
  double center_lat_deg = 46.5;
  double center_lon_deg = 8.0;
  // Cap radius (great-circle degrees); <= 0 picks default_lam_radius_deg(global).
  double radius_deg = 0.0;
};

// min(60°, max(20°, 30 mean cell spacings)): wide enough for the 14 labelled cell rows that
// lateral boundary and nudging zones need.
double default_lam_radius_deg(const Grid &global);

// The cells of `global` whose centres lie within the cap, with ICON's LAM ordering: entities
// with refin_ctrl 1..5 (cells, vertices) or 1..10 (edges) first, by row, then all others in
// global order. Neighbours outside the domain are -1. Single domain: the halo zones are empty.
Result<Grid> make_limited_area_grid(const Grid &global, const LimitedAreaConfig &config);

// What a grid name asks for. Accepted (case-insensitive):
//   rNbK, rNNbKK             global icosahedral grid, e.g. r2b4, R02B04
//   lam-<global>[:<radius_deg>[@<lat_deg>,<lon_deg>]]
//                            a spherical cap cut from <global>, e.g. lam-r2b4, lam-r2b5:20,
//                            lam-r2b4:30@0,0
//   <path>.nc                an ICON grid NetCDF file
struct GridSpec {
  enum class Kind { Global, LimitedArea, File };
  Kind kind = Kind::Global;
  int32_t root = 0;
  int32_t level = 0;
  LimitedAreaConfig lam;
  std::string path;
};

Result<GridSpec> parse_grid_spec(const std::string &text);
Result<Grid> make_grid(const GridSpec &spec);
Result<Grid> make_grid(const std::string &text);

} // namespace fusec

#endif // FUSEC_GRID_GENERATOR_H
