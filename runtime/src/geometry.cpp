// Grid geometry from coordinates (icon-grid.md §1.3): centres, lengths, areas, normals and
// orientations. Every quantity is computed only where the caller left its array empty, so a
// grid file's stored values win over recomputed ones.
#include "geometry.h"

#include "sphere.h"

#include <string>

namespace fusec {
namespace {

// Fills `values` with compute(i) for i < n if it is empty, else checks its size.
template <typename T, typename Compute>
Status fill(std::vector<T> &values, int32_t n, const char *name, Compute compute) {
  if (!values.empty()) {
    if (values.size() != size_t(n))
      return Status::failure(std::string("geometry array ") + name + " has " +
                             std::to_string(values.size()) + " entries, expected " +
                             std::to_string(n));
    return Status::success();
  }
  values.resize(size_t(n));
#pragma omp parallel for
  for (int32_t i = 0; i < n; ++i)
    values[i] = compute(i);
  return Status::success();
}

// The same for an (n, cols) array, compute(i, j).
template <typename T, typename Compute>
Status fill(NeighborArray<T> &values, int32_t n, int32_t cols, const char *name, Compute compute) {
  if (!values.empty()) {
    if (values.rows != n || values.cols != cols || values.data.size() != size_t(n) * cols)
      return Status::failure(std::string("geometry array ") + name + " has shape (" +
                             std::to_string(values.rows) + ", " + std::to_string(values.cols) +
                             "), expected (" + std::to_string(n) + ", " + std::to_string(cols) +
                             ")");
    return Status::success();
  }
  values = NeighborArray<T>(n, cols, T{});
#pragma omp parallel for
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = 0; j < cols; ++j)
      values(i, j) = compute(i, j);
  return Status::success();
}

// Completes lon/lat from Cartesian coordinates or the other way round.
Status complete_coordinates(Points &points, int32_t n, const char *what) {
  bool has_lonlat = !points.lon.empty() || !points.lat.empty();
  bool has_cartesian = !points.x.empty() || !points.y.empty() || !points.z.empty();
  if (!has_lonlat && !has_cartesian)
    return Status::failure(std::string("no coordinates for the ") + what);
  if (has_cartesian) {
    if (points.x.size() != size_t(n) || points.y.size() != size_t(n) ||
        points.z.size() != size_t(n))
      return Status::failure(std::string("Cartesian coordinates of the ") + what + " have " +
                             std::to_string(points.x.size()) + " entries, expected " +
                             std::to_string(n));
    Status status =
        fill(points.lon, n, "lon", [&](int32_t i) { return longitude(point(points, i)); });
    if (!status)
      return status;
    return fill(points.lat, n, "lat", [&](int32_t i) { return latitude(point(points, i)); });
  }
  if (points.lon.size() != size_t(n) || points.lat.size() != size_t(n))
    return Status::failure(std::string("lon/lat of the ") + what + " have " +
                           std::to_string(points.lon.size()) + " entries, expected " +
                           std::to_string(n));
  auto cartesian = [&](int32_t i) { return from_lonlat(points.lon[i], points.lat[i]); };
  Status status = fill(points.x, n, "x", [&](int32_t i) { return cartesian(i).x; });
  if (status)
    status = fill(points.y, n, "y", [&](int32_t i) { return cartesian(i).y; });
  if (status)
    status = fill(points.z, n, "z", [&](int32_t i) { return cartesian(i).z; });
  return status;
}

// Sets the Cartesian coordinates of empty `points` from a position function.
template <typename Position>
void set_cartesian_if_empty(Points &points, int32_t n, Position position) {
  if (!points.x.empty() || !points.lon.empty())
    return;
  points.x.resize(size_t(n));
  points.y.resize(size_t(n));
  points.z.resize(size_t(n));
#pragma omp parallel for
  for (int32_t i = 0; i < n; ++i) {
    Vec3 p = position(i);
    points.x[i] = p.x;
    points.y[i] = p.y;
    points.z[i] = p.z;
  }
}

// Circumcentre of a triangle of unit vectors, on the outer side.
Vec3 circumcentre(Vec3 a, Vec3 b, Vec3 c) {
  Vec3 centre = normalized(cross(b - a, c - a));
  return dot(centre, a) < 0 ? -1.0 * centre : centre;
}

class GeometryBuilder {
public:
  GeometryBuilder(const Grid &grid, GridGeometry &geometry)
      : g_(geometry), e2c_(grid.table(Connectivity::E2C)), e2v_(grid.table(Connectivity::E2V)),
        c2v_(grid.table(Connectivity::C2V)), c2e_(grid.table(Connectivity::C2E)),
        v2e_(grid.table(Connectivity::V2E)), e2c2v_(grid.table(Connectivity::E2C2V)),
        num_cells_(grid.num_cells()), num_edges_(grid.num_edges()),
        num_vertices_(grid.num_vertices()), radius_(geometry.sphere_radius) {}

  Status build() {
    Status status = complete_coordinates(g_.vertices, num_vertices_, "vertices");
    if (!status)
      return status;
    set_cartesian_if_empty(g_.cells, num_cells_, [&](int32_t c) {
      return circumcentre(vertex(c2v_(c, 0)), vertex(c2v_(c, 1)), vertex(c2v_(c, 2)));
    });
    set_cartesian_if_empty(g_.edges, num_edges_, [&](int32_t e) {
      return normalized(vertex(e2v_(e, 0)) + vertex(e2v_(e, 1)));
    });
    if (status)
      status = complete_coordinates(g_.cells, num_cells_, "cells");
    if (status)
      status = complete_coordinates(g_.edges, num_edges_, "edges");
    if (status)
      status = lengths();
    if (status)
      status = areas();
    if (status)
      status = orientations();
    if (status)
      status = normals();
    return status;
  }

private:
  Vec3 vertex(int32_t v) const { return point(g_.vertices, v); }
  Vec3 cell(int32_t c) const { return point(g_.cells, c); }
  Vec3 midpoint(int32_t e) const { return point(g_.edges, e); }
  // Centre of E2C[e][i], or the edge midpoint where that cell is missing (as icon4py does).
  Vec3 cell_or_midpoint(int32_t e, int32_t i) const {
    int32_t c = e2c_(e, i);
    return c == kMissing ? midpoint(e) : cell(c);
  }

  Status lengths() {
    Status status = fill(g_.edge_length, num_edges_, "edge_length", [&](int32_t e) {
      return radius_ * arc(vertex(e2v_(e, 0)), vertex(e2v_(e, 1)));
    });
    if (status)
      status = fill(g_.dual_edge_length, num_edges_, "dual_edge_length", [&](int32_t e) {
        return radius_ * arc(cell_or_midpoint(e, 0), cell_or_midpoint(e, 1));
      });
    if (status)
      status = fill(g_.vert_vert_length, num_edges_, "vert_vert_length", [&](int32_t e) {
        int32_t far0 = e2c2v_(e, 2), far1 = e2c2v_(e, 3);
        return far0 == kMissing || far1 == kMissing ? 0.0
                                                    : radius_ * arc(vertex(far0), vertex(far1));
      });
    if (status)
      status = fill(g_.edge_cell_distance, num_edges_, 2, "edge_cell_distance",
                    [&](int32_t e, int32_t i) {
                      int32_t c = e2c_(e, i);
                      return c == kMissing ? 0.0 : radius_ * arc(midpoint(e), cell(c));
                    });
    if (status)
      status = fill(
          g_.edge_vert_distance, num_edges_, 2, "edge_vert_distance",
          [&](int32_t e, int32_t i) { return radius_ * arc(midpoint(e), vertex(e2v_(e, i))); });
    return status;
  }

  Status areas() {
    double r2 = radius_ * radius_;
    Status status = fill(g_.cell_area, num_cells_, "cell_area", [&](int32_t c) {
      return r2 *
             spherical_triangle_area(vertex(c2v_(c, 0)), vertex(c2v_(c, 1)), vertex(c2v_(c, 2)));
    });
    // The dual cell of v is the union of the triangles (v, edge midpoint, cell centre) over its
    // edges and their cells; on a global grid these triangles tile the sphere exactly.
    if (status)
      status = fill(g_.dual_area, num_vertices_, "dual_area", [&](int32_t v) {
        double area = 0.0;
        for (int32_t k = 0; k < v2e_.cols; ++k) {
          int32_t e = v2e_(v, k);
          if (e == kMissing)
            continue;
          for (int32_t i = 0; i < 2; ++i)
            if (e2c_(e, i) != kMissing)
              area += spherical_triangle_area(vertex(v), midpoint(e), cell(e2c_(e, i)));
        }
        return r2 * area;
      });
    return status;
  }

  Status orientations() {
    Status status =
        fill(g_.edge_system_orientation, num_edges_, "edge_system_orientation", [&](int32_t e) {
          Vec3 along = vertex(e2v_(e, 1)) - vertex(e2v_(e, 0));
          Vec3 across = cell_or_midpoint(e, 1) - cell_or_midpoint(e, 0);
          return dot(cross(along, across), midpoint(e)) < 0 ? -1 : 1;
        });
    if (status)
      status = fill(g_.orientation_of_normal, num_cells_, 3, "orientation_of_normal",
                    [&](int32_t c, int32_t j) { return e2c_(c2e_(c, j), 0) == c ? 1 : -1; });
    if (status)
      status = fill(g_.edge_orientation, num_vertices_, v2e_.cols, "edge_orientation",
                    [&](int32_t v, int32_t k) {
                      int32_t e = v2e_(v, k);
                      if (e == kMissing)
                        return 0;
                      int32_t sign = e2v_(e, 0) == v ? 1 : -1;
                      return sign * g_.edge_system_orientation[e];
                    });
    return status;
  }

  // t = orientation * normalize(v1 - v0) and n = r x t, so that n points from E2C[0] to E2C[1].
  Vec3 tangent(int32_t e) const {
    return double(g_.edge_system_orientation[e]) *
           normalized(vertex(e2v_(e, 1)) - vertex(e2v_(e, 0)));
  }
  Vec3 primal_normal(int32_t e) const { return cross(midpoint(e), tangent(e)); }

  Status normals() {
    const Points &edges = g_.edges;
    auto east = [&](int32_t e) { return east_unit(edges.lon[e]); };
    auto north = [&](int32_t e) { return north_unit(edges.lon[e], edges.lat[e]); };
    Status status = fill(g_.primal_normal_x, num_edges_, "primal_normal_x",
                         [&](int32_t e) { return primal_normal(e).x; });
    if (status)
      status = fill(g_.primal_normal_y, num_edges_, "primal_normal_y",
                    [&](int32_t e) { return primal_normal(e).y; });
    if (status)
      status = fill(g_.primal_normal_z, num_edges_, "primal_normal_z",
                    [&](int32_t e) { return primal_normal(e).z; });
    if (status)
      status = fill(g_.dual_normal_x, num_edges_, "dual_normal_x",
                    [&](int32_t e) { return tangent(e).x; });
    if (status)
      status = fill(g_.dual_normal_y, num_edges_, "dual_normal_y",
                    [&](int32_t e) { return tangent(e).y; });
    if (status)
      status = fill(g_.dual_normal_z, num_edges_, "dual_normal_z",
                    [&](int32_t e) { return tangent(e).z; });
    auto stored_primal = [&](int32_t e) {
      return Vec3{g_.primal_normal_x[e], g_.primal_normal_y[e], g_.primal_normal_z[e]};
    };
    auto stored_dual = [&](int32_t e) {
      return Vec3{g_.dual_normal_x[e], g_.dual_normal_y[e], g_.dual_normal_z[e]};
    };
    if (status)
      status = fill(g_.primal_normal_u, num_edges_, "primal_normal_u",
                    [&](int32_t e) { return dot(stored_primal(e), east(e)); });
    if (status)
      status = fill(g_.primal_normal_v, num_edges_, "primal_normal_v",
                    [&](int32_t e) { return dot(stored_primal(e), north(e)); });
    if (status)
      status = fill(g_.dual_normal_u, num_edges_, "dual_normal_u",
                    [&](int32_t e) { return dot(stored_dual(e), east(e)); });
    if (status)
      status = fill(g_.dual_normal_v, num_edges_, "dual_normal_v",
                    [&](int32_t e) { return dot(stored_dual(e), north(e)); });
    return status;
  }

  GridGeometry &g_;
  const Table &e2c_, &e2v_, &c2v_, &c2e_, &v2e_, &e2c2v_;
  int32_t num_cells_, num_edges_, num_vertices_;
  double radius_;
};

} // namespace

Result<GridGeometry> complete_geometry(const Grid &grid, GridGeometry geometry) {
  GeometryBuilder builder(grid, geometry);
  if (Status status = builder.build(); !status)
    return status;
  return geometry;
}

} // namespace fusec
