// fusec runtime: ICON grid files (NetCDF), see ../shared/docs/icon-grid.md §2.
#ifndef FUSEC_GRID_NETCDF_H
#define FUSEC_GRID_NETCDF_H

#include "fusec/grid.h"
#include "fusec/status.h"

#include <string>

namespace fusec {

// Reads an ICON grid file. Connectivities are 1-based (k, entity) arrays; values <= 0 are
// missing. Geometry variables that are absent (Cartesian coordinates, normals, areas, ...) are
// computed from the coordinates; refin_*_ctrl, when present, define the zones.
Result<Grid> read_grid_netcdf(const std::string &path);

// Writes `grid` as an ICON grid file (NetCDF-4), with every variable read_grid_netcdf reads, so
// that reading it back gives an identical Grid. Missing neighbours are written as 0.
Status write_grid_netcdf(const Grid &grid, const std::string &path);

} // namespace fusec

#endif // FUSEC_GRID_NETCDF_H
