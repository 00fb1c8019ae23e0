// The vertical grid over a synthetic mountain and the K-dependent inputs of diffusion:
// wgtfac_c, theta_ref_mc and the truly-horizontal-diffusion metrics zd_diffcoef, zd_intcoef and
// zd_vertoffset (icon-grid.md §5, as icon4py computes them).
#include "metrics.h"

#include "sphere.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace fusec {
namespace {

const double kPi = std::acos(-1.0);

Status check_vertical_config(const VerticalGridConfig &config) {
  if (config.num_levels < 2)
    return Status::failure("the vertical grid needs at least 2 levels");
  if (!(config.model_top_height > 0.0) ||
      !(config.lowest_layer_thickness < config.model_top_height / config.num_levels))
    return Status::failure("the vertical grid needs 0 < lowest_layer_thickness < "
                           "model_top_height / num_levels");
  if (!(config.flat_height > 0.0) || !(config.decay_scale > 0.0))
    return Status::failure("flat_height and decay_scale must be positive");
  return Status::success();
}

// Interface heights over flat ground, top (k = 0) to surface (k = nlev).
std::vector<double> vct_a_heights(const VerticalGridConfig &config) {
  const int32_t n = config.num_levels;
  const double top = config.model_top_height;
  std::vector<double> vct_a(size_t(n) + 1);
  if (config.lowest_layer_thickness <= 0.01) {
    for (int32_t k = 0; k <= n; ++k)
      vct_a[k] = top * (n - k) / n;
    return vct_a;
  }
  auto profile = [&](int32_t k) {
    return 2.0 / kPi * std::acos(std::pow(double(k) / n, config.stretch_factor));
  };
  double exponent = std::log(config.lowest_layer_thickness / top) / std::log(profile(n - 1));
  for (int32_t k = 0; k <= n; ++k)
    vct_a[k] = top * std::pow(profile(k), exponent);
  return vct_a;
}

// The largest k with vct_a[k] >= damping height, 0 if the damping height is above the top.
int32_t damping_layer_end(const std::vector<double> &vct_a, double damping_height) {
  if (damping_height > vct_a[0])
    return 0;
  int32_t end = 0;
  for (int32_t k = 0; k < int32_t(vct_a.size()); ++k)
    if (vct_a[k] >= damping_height)
      end = k;
  return end;
}

std::vector<double> gaussian_mountain(const Grid &grid, const OrographyConfig &config) {
  const GridGeometry &g = grid.geometry();
  double half_width = config.half_width;
  if (half_width <= 0.0) {
    double area = 0.0;
    for (double a : g.cell_area)
      area += a;
    half_width = 4.0 * std::sqrt(area / grid.num_cells());
  }
  Vec3 centre =
      from_lonlat(config.center_lon_deg * kPi / 180.0, config.center_lat_deg * kPi / 180.0);
  std::vector<double> height(static_cast<size_t>(grid.num_cells()));
#pragma omp parallel for
  for (int32_t c = 0; c < grid.num_cells(); ++c) {
    double d = g.sphere_radius * arc(centre, point(g.cells, c)) / half_width;
    height[c] = config.height * std::exp(-d * d);
  }
  return height;
}

// z_ifc(c, k) = vct_a[k] + h(c) sinh((flat - vct_a[k]) / s) / sinh(flat / s) below flat_height.
std::vector<double> interface_heights(const std::vector<double> &vct_a,
                                      const std::vector<double> &topography,
                                      const VerticalGridConfig &config) {
  const size_t nc = topography.size();
  const int32_t levels = int32_t(vct_a.size());
  std::vector<double> decay(vct_a.size());
  for (int32_t k = 0; k < levels; ++k)
    decay[k] = vct_a[k] < config.flat_height
                   ? std::sinh((config.flat_height - vct_a[k]) / config.decay_scale) /
                         std::sinh(config.flat_height / config.decay_scale)
                   : 0.0;
  std::vector<double> z_ifc(nc * levels);
#pragma omp parallel for
  for (int32_t k = 0; k < levels; ++k)
    for (size_t c = 0; c < nc; ++c)
      z_ifc[c + k * nc] = vct_a[k] + topography[c] * decay[k];
  return z_ifc;
}

bool levels_descend(const std::vector<double> &z_ifc, size_t nc, int32_t nk) {
  for (int32_t k = 0; k < nk; ++k)
    for (size_t c = 0; c < nc; ++c)
      if (!(z_ifc[c + k * nc] > z_ifc[c + (k + 1) * nc]))
        return false;
  return true;
}

// Weight of full level k when interpolating to half level k (linear in height), extrapolated
// at the top and bottom half levels.
std::vector<double> weighting_factors(const std::vector<double> &z_ifc, size_t nc, int32_t nk) {
  std::vector<double> wgtfac(nc * (nk + 1));
#pragma omp parallel for
  for (int32_t k = 0; k <= nk; ++k)
    for (size_t c = 0; c < nc; ++c) {
      auto z = [&](int32_t level) { return z_ifc[c + level * nc]; };
      double w;
      if (k == 0)
        w = (z(1) - z(0)) / (z(2) - z(0));
      else if (k == nk)
        w = (z(nk - 1) - z(nk)) / (z(nk - 2) - z(nk));
      else
        w = (z(k - 1) - z(k)) / (z(k - 1) - z(k + 1));
      wgtfac[c + k * nc] = w;
    }
  return wgtfac;
}

// ICON's reference atmosphere: potential temperature at height z. With
// T(z) = (T0 - dT) + dT exp(-z/h), hydrostatic pressure p = p0sl B^(-g h / (Rd (T0 - dT)))
// with B = (exp(z/h) (T0 - dT) + dT) / T0, and Exner (p/p0ref)^(Rd/cpd), evaluated in logs.
double reference_theta(double z) {
  const double p0sl_bg = 101325.0, t0sl_bg = 288.15, del_t_bg = 75.0, h_scal_bg = 10000.0;
  const double p0ref = 100000.0, grav = 9.80665, rd = 287.04, cpd = 1004.64;
  double growth = std::exp(z / h_scal_bg);
  double log_pressure_ratio = std::log(p0sl_bg / p0ref) -
                              grav / rd * h_scal_bg / (t0sl_bg - del_t_bg) *
                                  std::log((growth * (t0sl_bg - del_t_bg) + del_t_bg) / t0sl_bg);
  double exner = std::exp(rd / cpd * log_pressure_ratio);
  double temperature = (t0sl_bg - del_t_bg) + del_t_bg / growth;
  return temperature / exner;
}

// The steep-terrain metrics of truly horizontal temperature diffusion (icon4py's
// compute_diffusion_mask_and_coef and compute_diffusion_intcoef_and_vertoffset). Only cells
// that are steep at the lowest level get non-zero values, so the full columns of the slope
// statistics are computed for those cells alone.
class SteepTerrain {
public:
  SteepTerrain(const Grid &grid, const CoefficientConfig &config,
               const NeighborArray<double> &cell_average, const std::vector<double> &z_ifc,
               DiffusionCoefficients &out)
      : grid_(grid), config_(config), average_(cell_average), z_ifc_(z_ifc), out_(out),
        nc_(grid.num_cells()), nk_(config.vertical.num_levels), c2e_(grid.table(Connectivity::C2E)),
        e2c_(grid.table(Connectivity::E2C)), c2e2c_(grid.table(Connectivity::C2E2C)),
        c2e2co_(grid.table(Connectivity::C2E2CO)),
        dual_edge_length_(grid.geometry().dual_edge_length) {}

  void compute() {
    out_.zd_diffcoef.assign(size_t(nc_) * nk_, 0.0);
    out_.zd_intcoef.assign(size_t(nc_) * 3 * nk_, 0.0);
    out_.zd_vertoffset.assign(size_t(nc_) * 3 * nk_, 0);
    std::vector<Differences> bottom(static_cast<size_t>(nc_));
#pragma omp parallel for
    for (int32_t c = 0; c < nc_; ++c)
      bottom[c] = differences(c, nk_ - 1);
    int32_t start = grid_.start(Location::Cell, Zone::Nudging);
#pragma omp parallel for schedule(dynamic, 1024)
    for (int32_t c = start; c < nc_; ++c) {
      Differences average{0.0, 0.0};
      for (int32_t j = 0; j < 4; ++j)
        if (int32_t n = c2e2co_(c, j); n != kMissing) {
          average.slope += average_(c, j) * bottom[n].slope;
          average.height += average_(c, j) * bottom[n].height;
        }
      if (steep(average))
        steep_cell(c);
    }
  }

private:
  // maxslp and maxhgtd: the largest |slope| and |height difference| across the cell's edges.
  struct Differences {
    double slope;
    double height;
  };

  // Full-level height.
  double z(int32_t c, int32_t k) const {
    return 0.5 * (z_ifc_[c + size_t(k) * nc_] + z_ifc_[c + size_t(k + 1) * nc_]);
  }

  Differences differences(int32_t c, int32_t k) const {
    Differences result{0.0, 0.0};
    for (int32_t j = 0; j < 3; ++j) {
      int32_t e = c2e_(c, j);
      int32_t c0 = e2c_(e, 0), c1 = e2c_(e, 1);
      if (c0 == kMissing || c1 == kMissing)
        continue;
      double difference = std::fabs(z(c1, k) - z(c0, k));
      result.slope = std::max(result.slope, difference / dual_edge_length_[e]);
      result.height = std::max(result.height, difference);
    }
    return result;
  }

  // The C2E2CO average of the differences at level k.
  Differences averaged_differences(int32_t c, int32_t k) const {
    Differences average{0.0, 0.0};
    for (int32_t j = 0; j < 4; ++j)
      if (int32_t n = c2e2co_(c, j); n != kMissing) {
        Differences d = differences(n, k);
        average.slope += average_(c, j) * d.slope;
        average.height += average_(c, j) * d.height;
      }
    return average;
  }

  bool steep(const Differences &d) const {
    return d.slope >= config_.thslp_zdiffu || d.height >= config_.thhgtd_zdiffu;
  }

  void steep_cell(int32_t c) {
    std::vector<Differences> column(static_cast<size_t>(nk_));
    for (int32_t k = 0; k < nk_; ++k)
      column[k] = averaged_differences(c, k);
    // Levels [k_start, k_end): from the first steep level down to the lowest level that is
    // still above every neighbour's lowest full level.
    double highest_neighbour_bottom = -HUGE_VAL;
    for (int32_t j = 0; j < 3; ++j)
      highest_neighbour_bottom = std::max(highest_neighbour_bottom, z(c2e2c_(c, j), nk_ - 1));
    int32_t k_end = 0;
    while (k_end < nk_ && z(c, k_end) >= highest_neighbour_bottom)
      ++k_end;
    int32_t k_start = 0;
    while (!steep(column[k_start]))
      ++k_start;
    if (k_start >= k_end)
      return;
    for (int32_t k = k_start; k < k_end; ++k) {
      double by_slope = std::sqrt(std::max(0.0, column[k].slope - config_.thslp_zdiffu)) / 250.0;
      double by_height = 2e-4 * std::sqrt(std::max(0.0, column[k].height - config_.thhgtd_zdiffu));
      out_.zd_diffcoef[c + size_t(k) * nc_] = std::min(0.002, std::max(by_slope, by_height));
    }
    for (int32_t j = 0; j < 3; ++j)
      interpolate_from_neighbour(c, j, k_start, k_end);
  }

  // For each level k, the neighbour levels jk, jk+1 that bracket z(c, k) (the deepest jk with
  // z(n, jk) >= z(c, k), clipped to [0, nlev-2]) and the weight of level jk.
  void interpolate_from_neighbour(int32_t c, int32_t j, int32_t k_start, int32_t k_end) {
    int32_t n = c2e2c_(c, j);
    int32_t jk = 0;
    for (int32_t k = k_start; k < k_end; ++k) {
      double height = z(c, k);
      while (jk + 1 < nk_ && z(n, jk + 1) >= height)
        ++jk;
      int32_t upper = std::min(jk, nk_ - 2);
      size_t i = c + size_t(j) * nc_ + size_t(k) * nc_ * 3;
      out_.zd_intcoef[i] = (height - z(n, upper + 1)) / (z(n, upper) - z(n, upper + 1));
      out_.zd_vertoffset[i] = upper - k;
    }
  }

  const Grid &grid_;
  const CoefficientConfig &config_;
  const NeighborArray<double> &average_;
  const std::vector<double> &z_ifc_;
  DiffusionCoefficients &out_;
  int32_t nc_, nk_;
  const Table &c2e_, &e2c_, &c2e2c_, &c2e2co_;
  const std::vector<double> &dual_edge_length_;
};

} // namespace

Status compute_vertical_metrics(const Grid &grid, const CoefficientConfig &config,
                                const NeighborArray<double> &cell_average,
                                DiffusionCoefficients &out) {
  const VerticalGridConfig &vertical = config.vertical;
  const size_t nc = size_t(grid.num_cells());
  const int32_t nk = vertical.num_levels;
  if (Status status = check_vertical_config(vertical); !status)
    return status;
  out.vct_a = vct_a_heights(vertical);
  out.end_index_of_damping_layer = damping_layer_end(out.vct_a, vertical.rayleigh_damping_height);
  out.topography = gaussian_mountain(grid, config.orography);
  out.z_ifc = interface_heights(out.vct_a, out.topography, vertical);
  if (!levels_descend(out.z_ifc, nc, nk))
    return Status::failure("the mountain (" + std::to_string(config.orography.height) +
                           " m) is too high for this vertical grid: model levels cross");
  out.wgtfac_c = weighting_factors(out.z_ifc, nc, nk);
  out.theta_ref_mc.resize(nc * nk);
#pragma omp parallel for
  for (int32_t k = 0; k < nk; ++k)
    for (size_t c = 0; c < nc; ++c)
      out.theta_ref_mc[c + k * nc] =
          reference_theta(0.5 * (out.z_ifc[c + k * nc] + out.z_ifc[c + (k + 1) * nc]));
  SteepTerrain(grid, config, cell_average, out.z_ifc, out).compute();
  return Status::success();
}

} // namespace fusec
