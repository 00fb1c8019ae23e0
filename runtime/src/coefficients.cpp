// Horizontal diffusion coefficients (icon-grid.md §5): divergence, Laplacian and gradient
// factors, bilinear and RBF interpolation weights, normals at the diamond vertices, inverse
// lengths and nudging. The vertical fields are in metrics.cpp.
#include "fusec/coefficients.h"

#include "metrics.h"
#include "sphere.h"

#include <array>
#include <cmath>

namespace fusec {
namespace {

const double kPi = std::acos(-1.0);

// ICON's rotate_latlon: coordinates in a frame whose pole is (pollat, pollon).
void rotate_latlon(double lat, double lon, double pollat, double pollon, double &rotlat,
                   double &rotlon) {
  rotlat = std::asin(std::sin(lat) * std::sin(pollat) +
                     std::cos(lat) * std::cos(pollat) * std::cos(lon - pollon));
  rotlon = std::atan2(std::cos(lat) * std::sin(lon - pollon),
                      std::cos(lat) * std::sin(pollat) * std::cos(lon - pollon) -
                          std::sin(lat) * std::cos(pollat));
}

// Weights of 3 points around a centre (all lon/lat) with sum 1 - centre_weight that are exact
// for linear fields: the centre is rotated onto the equator and the weights are the
// barycentric coordinates of the centre in the rotated (lon, lat) plane.
std::array<double, 3> bilinear_weights(double lon0, double lat0, const std::array<double, 3> &lon,
                                       const std::array<double, 3> &lat, double centre_weight) {
  double pollat = lat0 >= 0.0 ? lat0 - 0.5 * kPi : lat0 + 0.5 * kPi;
  double y0 = 0, x0 = 0;
  rotate_latlon(lat0, lon0, pollat, lon0, y0, x0);
  double x[3], y[3];
  for (int i = 0; i < 3; ++i) {
    rotate_latlon(lat[i], lon[i], pollat, lon0, y[i], x[i]);
    x[i] -= x0;
    y[i] -= y0;
    if (x[i] > 3.5)
      x[i] -= 2.0 * kPi;
    if (x[i] < -3.5)
      x[i] += 2.0 * kPi;
  }
  auto cross = [&](int a, int b) { return x[a] * y[b] - y[a] * x[b]; };
  double area2 = cross(0, 1) + cross(1, 2) + cross(2, 0);
  double scale = (1.0 - centre_weight) / area2;
  return {scale * cross(1, 2), scale * cross(2, 0), scale * cross(0, 1)};
}

// Zonal and meridional components of a Cartesian vector at (lon, lat), normalised to length 1.
void unit_components(Vec3 vector, double lon, double lat, double &u, double &v) {
  u = dot(vector, east_unit(lon));
  v = dot(vector, north_unit(lon, lat));
  double length = std::hypot(u, v);
  u /= length;
  v /= length;
}

Vec3 primal_normal(const GridGeometry &g, int32_t e) {
  return {g.primal_normal_x[e], g.primal_normal_y[e], g.primal_normal_z[e]};
}
Vec3 dual_normal(const GridGeometry &g, int32_t e) {
  return {g.dual_normal_x[e], g.dual_normal_y[e], g.dual_normal_z[e]};
}

// Solves M c = b for a symmetric positive definite n x n matrix (row-major), as ICON does.
template <int N> void cholesky_solve(double (&m)[N][N], int n, double *b) {
  for (int j = 0; j < n; ++j) {
    for (int k = 0; k < j; ++k)
      m[j][j] -= m[j][k] * m[j][k];
    m[j][j] = std::sqrt(m[j][j]);
    for (int i = j + 1; i < n; ++i) {
      for (int k = 0; k < j; ++k)
        m[i][j] -= m[i][k] * m[j][k];
      m[i][j] /= m[j][j];
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < i; ++k)
      b[i] -= m[i][k] * b[k];
    b[i] /= m[i][i];
  }
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k < n; ++k)
      b[i] -= m[k][i] * b[k];
    b[i] /= m[i][i];
  }
}

double mean_cell_area(const Grid &grid) {
  double sum = 0.0;
  for (double area : grid.geometry().cell_area)
    sum += area;
  return sum / grid.num_cells();
}

// icon4py's default Gaussian RBF scale for vertices, from the mean spacing in km.
double vertex_rbf_scale(double resolution_km) {
  double scale =
      resolution_km < 2.0 ? 0.5 / (1.0 + 1.8 * std::pow(std::log(2.0 / resolution_km), 3.0)) : 0.5;
  return resolution_km <= 0.125 ? scale * std::pow(resolution_km / 0.125, 0.96) : scale;
}

class HorizontalCoefficients {
public:
  HorizontalCoefficients(const Grid &grid, DiffusionCoefficients &out)
      : grid_(grid), g_(grid.geometry()), out_(out), c2e_(grid.table(Connectivity::C2E)),
        c2e2c_(grid.table(Connectivity::C2E2C)), e2c_(grid.table(Connectivity::E2C)),
        v2e_(grid.table(Connectivity::V2E)), e2c2v_(grid.table(Connectivity::E2C2V)),
        nc_(grid.num_cells()), ne_(grid.num_edges()), nv_(grid.num_vertices()) {}

  void edge_fields(const NudgingConfig &nudging) {
    out_.area_edge.resize(size_t(ne_));
    out_.inv_primal_edge_length.resize(size_t(ne_));
    out_.inv_dual_edge_length.resize(size_t(ne_));
    out_.inv_vert_vert_length.resize(size_t(ne_));
    out_.tangent_orientation.resize(size_t(ne_));
    out_.nudgecoeff_e.assign(size_t(ne_), 0.0);
    // Global grids have refin_ctrl 0 everywhere, hence no nudging.
    int32_t nudging_start = grid_.start(Location::Edge, Zone::NudgingLevel2);
    const std::vector<int32_t> &refin = grid_.refin_ctrl(Location::Edge);
    const int32_t grf_nudge_start_e = 10;
    int32_t last_nudged_row = 2 * nudging.zone_width + grf_nudge_start_e - 3;
#pragma omp parallel for
    for (int32_t e = 0; e < ne_; ++e) {
      out_.area_edge[e] = g_.edge_length[e] * g_.dual_edge_length[e];
      out_.inv_primal_edge_length[e] = 1.0 / g_.edge_length[e];
      out_.inv_dual_edge_length[e] = 1.0 / g_.dual_edge_length[e];
      double vvl = g_.vert_vert_length[e];
      out_.inv_vert_vert_length[e] = vvl > 0.0 ? 1.0 / vvl : 0.0;
      out_.tangent_orientation[e] = double(g_.edge_system_orientation[e]);
      if (e >= nudging_start && refin[e] > 0 && refin[e] <= last_nudged_row)
        out_.nudgecoeff_e[e] = nudging.max_coefficient * std::exp(-(refin[e] - grf_nudge_start_e) /
                                                                  (2.0 * nudging.efold_width));
    }
  }

  // The primal normal and the tangent of each edge in the local frame of its diamond vertices;
  // 0 on lateral boundary row 1, as in ICON.
  void normals_at_vertices() {
    auto &pn_x = out_.primal_normal_vert_x, &pn_y = out_.primal_normal_vert_y;
    auto &dn_x = out_.dual_normal_vert_x, &dn_y = out_.dual_normal_vert_y;
    pn_x = pn_y = dn_x = dn_y = NeighborArray<double>(ne_, 4, 0.0);
    int32_t start = grid_.start(Location::Edge, Zone::LateralBoundary2);
#pragma omp parallel for
    for (int32_t e = start; e < ne_; ++e)
      for (int32_t j = 0; j < 4; ++j) {
        int32_t v = e2c2v_(e, j);
        if (v == kMissing)
          continue;
        double lon = g_.vertices.lon[v], lat = g_.vertices.lat[v];
        unit_components(primal_normal(g_, e), lon, lat, pn_x(e, j), pn_y(e, j));
        unit_components(dual_normal(g_, e), lon, lat, dn_x(e, j), dn_y(e, j));
      }
  }

  void cell_fields() {
    out_.area = g_.cell_area;
    out_.geofac_div = NeighborArray<double>(nc_, 3, 0.0);
    out_.geofac_n2s = NeighborArray<double>(nc_, 4, 0.0);
    out_.e_bln_c_s = NeighborArray<double>(nc_, 3, 0.0);
    int32_t row2_start = grid_.start(Location::Cell, Zone::LateralBoundary2);
#pragma omp parallel for
    for (int32_t c = 0; c < nc_; ++c) {
      std::array<double, 3> lon, lat;
      for (int32_t j = 0; j < 3; ++j) {
        int32_t e = c2e_(c, j);
        double length = g_.edge_length[e];
        out_.geofac_div(c, j) = length * g_.orientation_of_normal(c, j) / g_.cell_area[c];
        // Laplacian: sum over edges of geofac_div * (psi(c1) - psi(c0)) / D, regrouped.
        if (c >= row2_start) {
          double flux = length / (g_.cell_area[c] * g_.dual_edge_length[e]);
          out_.geofac_n2s(c, 0) -= flux;
          out_.geofac_n2s(c, 1 + j) += flux;
        }
        lon[j] = g_.edges.lon[e];
        lat[j] = g_.edges.lat[e];
      }
      std::array<double, 3> w = bilinear_weights(g_.cells.lon[c], g_.cells.lat[c], lon, lat, 0.0);
      for (int32_t j = 0; j < 3; ++j)
        out_.e_bln_c_s(c, j) = w[j];
    }
    out_.geofac_n2s_c.assign(out_.geofac_n2s.data.begin(), out_.geofac_n2s.data.begin() + nc_);
    out_.geofac_n2s_nbh = NeighborArray<double>(nc_, 3, 0.0);
    std::copy(out_.geofac_n2s.data.begin() + nc_, out_.geofac_n2s.data.end(),
              out_.geofac_n2s_nbh.data.begin());
  }

  // Green-Gauss gradient: for each cell edge e and each cell i of e, the normal at c times
  // geofac_div times the linear cell-to-edge weight c_lin_e[e, i], added to i's slot.
  void gradient_factors() {
    out_.geofac_grg_x = NeighborArray<double>(nc_, 4, 0.0);
    out_.geofac_grg_y = NeighborArray<double>(nc_, 4, 0.0);
    int32_t row2_start = grid_.start(Location::Cell, Zone::LateralBoundary2);
#pragma omp parallel for
    for (int32_t c = row2_start; c < nc_; ++c)
      for (int32_t j = 0; j < 3; ++j) {
        int32_t e = c2e_(c, j);
        double nx = 0, ny = 0;
        unit_components(primal_normal(g_, e), g_.cells.lon[c], g_.cells.lat[c], nx, ny);
        double c_lin_0 = g_.edge_cell_distance(e, 1) / g_.dual_edge_length[e];
        for (int32_t i = 0; i < 2; ++i) {
          double c_lin = i == 0 ? c_lin_0 : 1.0 - c_lin_0;
          int32_t slot = e2c_(e, i) == c ? 0 : 1 + j;
          out_.geofac_grg_x(c, slot) += nx * out_.geofac_div(c, j) * c_lin;
          out_.geofac_grg_y(c, slot) += ny * out_.geofac_div(c, j) * c_lin;
        }
      }
  }

  // Bilinear average over C2E2CO with centre weight 1/2 (ICON's c_bln_avg before its
  // mass-conservation iterations); used for the steep-terrain metrics.
  NeighborArray<double> cell_average_weights() const {
    const double centre_weight = 0.5;
    NeighborArray<double> weights(nc_, 4, 0.0);
    int32_t row2_start = grid_.start(Location::Cell, Zone::LateralBoundary2);
#pragma omp parallel for
    for (int32_t c = row2_start; c < nc_; ++c) {
      std::array<double, 3> lon, lat;
      for (int32_t j = 0; j < 3; ++j) {
        lon[j] = g_.cells.lon[c2e2c_(c, j)];
        lat[j] = g_.cells.lat[c2e2c_(c, j)];
      }
      std::array<double, 3> w =
          bilinear_weights(g_.cells.lon[c], g_.cells.lat[c], lon, lat, centre_weight);
      weights(c, 0) = centre_weight;
      for (int32_t j = 0; j < 3; ++j)
        weights(c, 1 + j) = w[j];
    }
    return weights;
  }

  // Vector RBF reconstruction of (u, v) at vertices from the normal components on V2E.
  void rbf_vertex_coefficients() {
    out_.rbf_vec_coeff_v1 = NeighborArray<double>(nv_, 6, 0.0);
    out_.rbf_vec_coeff_v2 = NeighborArray<double>(nv_, 6, 0.0);
    double scale = vertex_rbf_scale(std::sqrt(mean_cell_area(grid_)) / 1000.0);
    auto kernel = [scale](double distance) {
      double d = distance / scale;
      return std::exp(-d * d);
    };
    int32_t start = grid_.start(Location::Vertex, Zone::LateralBoundary2);
#pragma omp parallel for
    for (int32_t v = start; v < nv_; ++v) {
      int32_t slots[6];
      int n = 0;
      for (int32_t k = 0; k < 6; ++k)
        if (v2e_(v, k) != kMissing)
          slots[n++] = k;
      Vec3 centre = point(g_.vertices, v);
      Vec3 east = east_unit(g_.vertices.lon[v]);
      Vec3 north = north_unit(g_.vertices.lon[v], g_.vertices.lat[v]);
      Vec3 mid[6], normal[6];
      for (int i = 0; i < n; ++i) {
        int32_t e = v2e_(v, slots[i]);
        mid[i] = point(g_.edges, e);
        normal[i] = primal_normal(g_, e);
      }
      for (int component = 0; component < 2; ++component) {
        Vec3 direction = component == 0 ? east : north;
        double matrix[6][6], coeff[6], projection[6];
        for (int i = 0; i < n; ++i) {
          for (int j = 0; j <= i; ++j)
            matrix[i][j] = dot(normal[i], normal[j]) * kernel(arc(mid[i], mid[j]));
          projection[i] = dot(normal[i], direction);
          coeff[i] = kernel(arc(centre, mid[i])) * projection[i];
        }
        cholesky_solve(matrix, n, coeff);
        double norm = 0.0;
        for (int i = 0; i < n; ++i)
          norm += coeff[i] * projection[i];
        NeighborArray<double> &target =
            component == 0 ? out_.rbf_vec_coeff_v1 : out_.rbf_vec_coeff_v2;
        for (int i = 0; i < n; ++i)
          target(v, slots[i]) = coeff[i] / norm;
      }
    }
  }

private:
  const Grid &grid_;
  const GridGeometry &g_;
  DiffusionCoefficients &out_;
  const Table &c2e_, &c2e2c_, &e2c_, &v2e_, &e2c2v_;
  int32_t nc_, ne_, nv_;
};

} // namespace

Result<DiffusionCoefficients> compute_diffusion_coefficients(const Grid &grid,
                                                             const CoefficientConfig &config) {
  DiffusionCoefficients out;
  out.num_cells = grid.num_cells();
  out.num_edges = grid.num_edges();
  out.num_vertices = grid.num_vertices();
  out.num_levels = config.vertical.num_levels;
  HorizontalCoefficients horizontal(grid, out);
  horizontal.edge_fields(config.nudging);
  horizontal.normals_at_vertices();
  horizontal.cell_fields();
  horizontal.gradient_factors();
  horizontal.rbf_vertex_coefficients();
  if (Status status =
          compute_vertical_metrics(grid, config, horizontal.cell_average_weights(), out);
      !status)
    return status;
  return out;
}

std::vector<FieldRef> DiffusionCoefficients::fields() const {
  const int32_t nc = num_cells, ne = num_edges, nk = num_levels;
  auto dense = [](const char *name, Location location, int32_t n, const std::vector<double> &f,
                  int32_t levels = 0) {
    return FieldRef{name, location, FieldLayout::dense(n, levels), DType::Float64, f.data()};
  };
  auto sparse = [](const char *name, Location location, const NeighborArray<double> &f) {
    return FieldRef{name, location, FieldLayout::sparse(f.rows, f.cols), DType::Float64,
                    f.data.data()};
  };
  return {
      dense("area", Location::Cell, nc, area),
      sparse("geofac_div", Location::Cell, geofac_div),
      sparse("geofac_n2s", Location::Cell, geofac_n2s),
      dense("geofac_n2s_c", Location::Cell, nc, geofac_n2s_c),
      sparse("geofac_n2s_nbh", Location::Cell, geofac_n2s_nbh),
      sparse("geofac_grg_x", Location::Cell, geofac_grg_x),
      sparse("geofac_grg_y", Location::Cell, geofac_grg_y),
      sparse("e_bln_c_s", Location::Cell, e_bln_c_s),
      sparse("rbf_vec_coeff_v1", Location::Vertex, rbf_vec_coeff_v1),
      sparse("rbf_vec_coeff_v2", Location::Vertex, rbf_vec_coeff_v2),
      sparse("primal_normal_vert_x", Location::Edge, primal_normal_vert_x),
      sparse("primal_normal_vert_y", Location::Edge, primal_normal_vert_y),
      sparse("dual_normal_vert_x", Location::Edge, dual_normal_vert_x),
      sparse("dual_normal_vert_y", Location::Edge, dual_normal_vert_y),
      dense("area_edge", Location::Edge, ne, area_edge),
      dense("inv_primal_edge_length", Location::Edge, ne, inv_primal_edge_length),
      dense("inv_dual_edge_length", Location::Edge, ne, inv_dual_edge_length),
      dense("inv_vert_vert_length", Location::Edge, ne, inv_vert_vert_length),
      dense("tangent_orientation", Location::Edge, ne, tangent_orientation),
      dense("nudgecoeff_e", Location::Edge, ne, nudgecoeff_e),
      dense("topography", Location::Cell, nc, topography),
      dense("z_ifc", Location::Cell, nc, z_ifc, nk + 1),
      dense("wgtfac_c", Location::Cell, nc, wgtfac_c, nk + 1),
      dense("theta_ref_mc", Location::Cell, nc, theta_ref_mc, nk),
      dense("zd_diffcoef", Location::Cell, nc, zd_diffcoef, nk),
      FieldRef{"zd_intcoef", Location::Cell, FieldLayout::sparse(nc, 3, nk), DType::Float64,
               zd_intcoef.data()},
      FieldRef{"zd_vertoffset", Location::Cell, FieldLayout::sparse(nc, 3, nk), DType::Int32,
               zd_vertoffset.data()},
  };
}

} // namespace fusec
