// fusec runtime built without NetCDF (FUSEC_RUNTIME_NETCDF=OFF, e.g. in a GPU bundle): grid
// files cannot be read or written; generated grids work as usual.
#include "fusec/grid_netcdf.h"

namespace fusec {

static Status unavailable(const std::string &path) {
  return Status::failure("cannot open ICON grid file '" + path +
                         "': this fusec runtime was built without NetCDF "
                         "(FUSEC_RUNTIME_NETCDF=OFF); use a generated grid (rNbK, lam-rNbK)");
}

Result<Grid> read_grid_netcdf(const std::string &path) { return unavailable(path); }

Status write_grid_netcdf(const Grid &, const std::string &path) { return unavailable(path); }

} // namespace fusec
