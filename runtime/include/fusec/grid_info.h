// fusec runtime: grid statistics and human-readable summaries (used by fusec-grid --info).
#ifndef FUSEC_GRID_INFO_H
#define FUSEC_GRID_INFO_H

#include "fusec/coefficients.h"
#include "fusec/grid.h"

#include <cstdint>
#include <ostream>

namespace fusec {

struct TableStatistics {
  int32_t min_neighbors = 0; // valid entries per row
  int32_t max_neighbors = 0;
  double mean_neighbors = 0.0;
  int64_t missing_entries = 0; // number of -1
};

TableStatistics table_statistics(const Grid &grid, Connectivity connectivity);

// V - E + C: 2 for a global grid, 1 for a limited-area disc.
int64_t euler_characteristic(const Grid &grid);

// Vertices whose closed ring has 5 cells (the icosahedron's corners).
int32_t count_pentagons(const Grid &grid);

// Counts, Euler characteristic, pentagons, zones, neighbour statistics and geometry.
void print_grid_info(std::ostream &out, const Grid &grid);

// Range of every coefficient field and the number of steep-terrain points.
void print_coefficient_summary(std::ostream &out, const DiffusionCoefficients &coefficients);

} // namespace fusec

#endif // FUSEC_GRID_INFO_H
