// fusec runtime: the geometric, interpolation and metric inputs of ICON's diffusion, computed
// from a grid as ICON computes them (icon-grid.md §5, diffusion-spec.md §3.8), and the
// vertical grid with a synthetic mountain that makes the steep-terrain fields non-trivial.
//
// Layouts follow fusec/field.h: (C, 3) arrays are NeighborArray, 3-D fields are flat vectors
// f[h + k*ld], sparse 3-D fields f[h + n*ld + k*ld*N], with ld = number of points.
#ifndef FUSEC_COEFFICIENTS_H
#define FUSEC_COEFFICIENTS_H

#include "fusec/field.h"
#include "fusec/grid.h"
#include "fusec/status.h"

#include <vector>

namespace fusec {

// icon4py's analytic vertical grid: vct_a[k] = H (2/pi acos((k/N)^s))^d with d chosen so that
// the lowest layer is `lowest_layer_thickness` thick (the maximal-layer-thickness correction
// is not applied). Terrain decays with height (SLEVE-like sinh profile) and vanishes above
// `flat_height`.
struct VerticalGridConfig {
  int32_t num_levels = 80;
  double model_top_height = 23500.0;
  double lowest_layer_thickness = 50.0;
  double stretch_factor = 1.0;
  double flat_height = 16000.0;
  double decay_scale = 4000.0;
  double rayleigh_damping_height = 12500.0;
};

// A Gaussian mountain h(d) = height exp(-(d/half_width)^2), d the great-circle distance from
// the centre. half_width <= 0 means 4 mean cell spacings.
struct OrographyConfig {
  double height = 3000.0;
  double center_lat_deg = 46.5;
  double center_lon_deg = 8.0;
  double half_width = 0.0; // m
};

// ICON's lateral nudging: nudgecoeff_e = max_coefficient exp(-(refin_e - 10) / (2 efold_width))
// for 10 <= refin_e <= 2 zone_width + 7 (max_coefficient = 5 * nudge_max_coeff).
struct NudgingConfig {
  int32_t zone_width = 8;
  double efold_width = 2.0;
  double max_coefficient = 0.1;
};

struct CoefficientConfig {
  VerticalGridConfig vertical;
  OrographyConfig orography;
  NudgingConfig nudging;
  double thslp_zdiffu = 0.025;  // slope threshold of truly horizontal diffusion
  double thhgtd_zdiffu = 200.0; // height-difference threshold (m)
};

struct DiffusionCoefficients {
  int32_t num_cells = 0;
  int32_t num_edges = 0;
  int32_t num_vertices = 0;
  int32_t num_levels = 0;

  // Cells.
  std::vector<double> area;             // (C) cell area
  NeighborArray<double> geofac_div;     // (C, C2E)
  NeighborArray<double> geofac_n2s;     // (C, C2E2CO)
  std::vector<double> geofac_n2s_c;     // (C) = geofac_n2s[:, 0]
  NeighborArray<double> geofac_n2s_nbh; // (C, C2E2C) = geofac_n2s[:, 1:]
  NeighborArray<double> geofac_grg_x;   // (C, C2E2CO)
  NeighborArray<double> geofac_grg_y;   // (C, C2E2CO)
  NeighborArray<double> e_bln_c_s;      // (C, C2E)
  // Vertices.
  NeighborArray<double> rbf_vec_coeff_v1; // (V, V2E), zonal component
  NeighborArray<double> rbf_vec_coeff_v2; // (V, V2E), meridional component
  // Edges.
  NeighborArray<double> primal_normal_vert_x; // (E, E2C2V)
  NeighborArray<double> primal_normal_vert_y;
  NeighborArray<double> dual_normal_vert_x;
  NeighborArray<double> dual_normal_vert_y;
  std::vector<double> area_edge;
  std::vector<double> inv_primal_edge_length;
  std::vector<double> inv_dual_edge_length;
  std::vector<double> inv_vert_vert_length;
  std::vector<double> tangent_orientation;
  std::vector<double> nudgecoeff_e;

  // Vertical grid and metrics.
  std::vector<double> vct_a; // (K+1) interface heights above flat ground (m)
  int32_t end_index_of_damping_layer = 0;
  std::vector<double> topography;     // (C) m
  std::vector<double> z_ifc;          // (C, K+1) interface heights
  std::vector<double> wgtfac_c;       // (C, K+1)
  std::vector<double> theta_ref_mc;   // (C, K) reference potential temperature
  std::vector<double> zd_diffcoef;    // (C, K)
  std::vector<double> zd_intcoef;     // (C, C2E2C, K)
  std::vector<int32_t> zd_vertoffset; // (C, C2E2C, K), relative level offsets

  // Every field above by name (the vertical grid and the damping index excepted).
  std::vector<FieldRef> fields() const;
};

// Fails on an invalid vertical configuration (see VerticalGridConfig) or a mountain so high
// that model levels cross.
Result<DiffusionCoefficients> compute_diffusion_coefficients(const Grid &grid,
                                                             const CoefficientConfig &config = {});

} // namespace fusec

#endif // FUSEC_COEFFICIENTS_H
