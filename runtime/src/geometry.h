// Geometry of a grid from its coordinates (internal to the runtime).
#ifndef FUSEC_RUNTIME_GEOMETRY_H
#define FUSEC_RUNTIME_GEOMETRY_H

#include "fusec/grid.h"

namespace fusec {

// Fills every empty array of `geometry` from the coordinates and the tables of `grid`
// (icon-grid.md §1.3); arrays already present are kept after a size check.
Result<GridGeometry> complete_geometry(const Grid &grid, GridGeometry geometry);

} // namespace fusec

#endif // FUSEC_RUNTIME_GEOMETRY_H
