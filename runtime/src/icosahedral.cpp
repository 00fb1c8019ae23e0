// The global icosahedral RnBk grid (icon-grid.md §1.2): icosahedron, root division by
// spherical linear interpolation, k bisections along the refinement tree, then ICON's
// neighbour tables.
#include "fusec/grid_generator.h"

#include "pair_map.h"
#include "sphere.h"

#include <array>
#include <cstdio>

namespace fusec {
namespace {

using Triangle = std::array<int32_t, 3>;

// Triangles with counter-clockwise corners (seen from outside) on the unit sphere.
struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<Triangle> triangles;
};

// Makes (a, b, c) counter-clockwise seen from outside.
Triangle counter_clockwise(const std::vector<Vec3> &vertices, Triangle t) {
  Vec3 a = vertices[t[0]], b = vertices[t[1]], c = vertices[t[2]];
  if (dot(cross(b - a, c - a), a) < 0)
    std::swap(t[1], t[2]);
  return t;
}

// Poles at (0, 0, ±1) and two rings of 5 vertices at latitude ±atan(1/2); the southern ring is
// rotated by 36°. Vertex 0 is the north pole, 1..5 the northern ring, 6..10 the southern ring,
// 11 the south pole.
TriangleMesh icosahedron() {
  const double pi = std::acos(-1.0);
  const double ring_z = std::cos(2.0 * std::acos(1.0 / (2.0 * std::sin(pi / 5.0))));
  const double ring_lat = std::asin(ring_z);
  TriangleMesh mesh;
  mesh.vertices.push_back({0.0, 0.0, 1.0});
  for (int k = 0; k < 5; ++k)
    mesh.vertices.push_back(from_lonlat(2.0 * pi * k / 5.0, ring_lat));
  for (int k = 0; k < 5; ++k)
    mesh.vertices.push_back(from_lonlat(2.0 * pi * (k + 0.5) / 5.0, -ring_lat));
  mesh.vertices.push_back({0.0, 0.0, -1.0});

  auto north = [](int k) { return 1 + (k % 5); };
  auto south = [](int k) { return 6 + (k % 5); };
  std::vector<Triangle> faces;
  for (int k = 0; k < 5; ++k)
    faces.push_back({0, north(k), north(k + 1)});
  for (int k = 0; k < 5; ++k) {
    faces.push_back({north(k), south(k), north(k + 1)});
    faces.push_back({north(k + 1), south(k), south(k + 1)});
  }
  for (int k = 0; k < 5; ++k)
    faces.push_back({11, south(k + 1), south(k)});
  for (const Triangle &face : faces)
    mesh.triangles.push_back(counter_clockwise(mesh.vertices, face));
  return mesh;
}

// Splits every face into n² triangles. Points on a face edge are computed once, from the
// lower-numbered corner, so that neighbouring faces share them.
TriangleMesh root_division(const TriangleMesh &ico, int32_t n) {
  TriangleMesh mesh;
  mesh.vertices = ico.vertices;
  std::vector<Vec3> &vertices = mesh.vertices;
  PairMap edge_ids(30);
  std::vector<std::vector<int32_t>> edge_points;

  // The vertex at fraction t/n along the icosahedron edge a -> b.
  auto edge_point = [&](int32_t a, int32_t b, int32_t t) {
    if (t == 0)
      return a;
    if (t == n)
      return b;
    int32_t lo = std::min(a, b), hi = std::max(a, b);
    int32_t t_from_lo = a < b ? t : n - t;
    bool inserted = false;
    int32_t id = edge_ids.find_or_insert(lo, hi, int32_t(edge_points.size()), inserted);
    if (inserted)
      edge_points.emplace_back(size_t(n + 1), kMissing);
    int32_t &index = edge_points[id][t_from_lo];
    if (index == kMissing) {
      index = int32_t(vertices.size());
      vertices.push_back(slerp(vertices[lo], vertices[hi], double(t_from_lo) / n));
    }
    return index;
  };

  for (const Triangle &face : ico.triangles) {
    // rows[i][j], 0 <= j <= i <= n: row i lies at fraction i/n from face[0] towards the edge
    // face[1] -> face[2], and j counts from the face[0] -> face[1] side.
    std::vector<std::vector<int32_t>> rows(size_t(n + 1));
    rows[0] = {face[0]};
    for (int32_t i = 1; i < n; ++i) {
      rows[i].resize(size_t(i + 1));
      rows[i][0] = edge_point(face[0], face[1], i);
      rows[i][i] = edge_point(face[0], face[2], i);
      for (int32_t j = 1; j < i; ++j) {
        rows[i][j] = int32_t(vertices.size());
        vertices.push_back(slerp(vertices[rows[i][0]], vertices[rows[i][i]], double(j) / i));
      }
    }
    rows[n].resize(size_t(n + 1));
    for (int32_t j = 0; j <= n; ++j)
      rows[n][j] = edge_point(face[1], face[2], j);
    for (int32_t i = 0; i < n; ++i) {
      for (int32_t j = 0; j <= i; ++j) {
        mesh.triangles.push_back({rows[i][j], rows[i + 1][j], rows[i + 1][j + 1]});
        if (j < i)
          mesh.triangles.push_back({rows[i][j], rows[i + 1][j + 1], rows[i][j + 1]});
      }
    }
  }
  return mesh;
}

// Splits each triangle (a, b, c) into its 4 children, stored consecutively:
// (a, ab, ca), (ab, b, bc), (ca, bc, c) and the centre (bc, ca, ab), all counter-clockwise.
TriangleMesh bisect(const TriangleMesh &parent) {
  TriangleMesh mesh;
  mesh.vertices = parent.vertices;
  mesh.triangles.reserve(4 * parent.triangles.size());
  PairMap midpoints(3 * parent.triangles.size() / 2);
  auto midpoint = [&](int32_t a, int32_t b) {
    bool inserted = false;
    int32_t index = midpoints.find_or_insert(a, b, int32_t(mesh.vertices.size()), inserted);
    if (inserted)
      mesh.vertices.push_back(normalized(mesh.vertices[a] + mesh.vertices[b]));
    return index;
  };
  for (const Triangle &t : parent.triangles) {
    int32_t ab = midpoint(t[0], t[1]);
    int32_t bc = midpoint(t[1], t[2]);
    int32_t ca = midpoint(t[2], t[0]);
    mesh.triangles.push_back({t[0], ab, ca});
    mesh.triangles.push_back({ab, t[1], bc});
    mesh.triangles.push_back({ca, bc, t[2]});
    mesh.triangles.push_back({bc, ca, ab});
  }
  return mesh;
}

// Numbers the vertices in order of first appearance when the cells are scanned in (tree) order,
// as edges are and as ICON's grid files do (vertices 0 and 1 are corners of cell 0). In order of
// creation, each bisection's midpoints would follow all older vertices, and the 16 vertices of
// an nproma block would gather from 16 different edge blocks on R2B4 instead of 9.
void number_vertices_by_cells(TriangleMesh &mesh) {
  std::vector<int32_t> new_index(mesh.vertices.size(), kMissing);
  std::vector<Vec3> vertices;
  vertices.reserve(mesh.vertices.size());
  for (Triangle &t : mesh.triangles)
    for (int32_t &v : t) {
      if (new_index[size_t(v)] == kMissing) {
        new_index[size_t(v)] = int32_t(vertices.size());
        vertices.push_back(mesh.vertices[size_t(v)]);
      }
      v = new_index[size_t(v)];
    }
  mesh.vertices = std::move(vertices);
}

int32_t position_of(const Table &c2v, int32_t c, int32_t v) {
  for (int32_t j = 0; j < 3; ++j)
    if (c2v(c, j) == v)
      return j;
  return kMissing;
}

// C2E, E2C, E2V and C2E2C. Edge j of a cell joins its corners j and j+1; edges are numbered in
// order of first appearance, E2C[e][0] is the first cell to list e and E2V[e] is sorted.
Status build_cell_edge_tables(GridTopology &topology) {
  int32_t num_cells = topology.num_points[int(Location::Cell)];
  int32_t num_edges = topology.num_points[int(Location::Edge)];
  const Table &c2v = topology.c2v;
  topology.c2e = Table(num_cells, 3, kMissing);
  topology.e2c = Table(num_edges, 2, kMissing);
  topology.e2v = Table(num_edges, 2, kMissing);
  PairMap edge_of_vertices(static_cast<size_t>(num_edges));
  int32_t next_edge = 0;
  for (int32_t c = 0; c < num_cells; ++c) {
    for (int32_t j = 0; j < 3; ++j) {
      int32_t a = c2v(c, j), b = c2v(c, (j + 1) % 3);
      bool inserted = false;
      int32_t e = edge_of_vertices.find_or_insert(a, b, next_edge, inserted);
      if (inserted) {
        if (next_edge == num_edges)
          return Status::failure("icosahedral grid: more edges than 3/2 of the cells");
        ++next_edge;
        topology.e2c(e, 0) = c;
        topology.e2v(e, 0) = std::min(a, b);
        topology.e2v(e, 1) = std::max(a, b);
      } else {
        topology.e2c(e, 1) = c;
      }
      topology.c2e(c, j) = e;
    }
  }
  if (next_edge != num_edges)
    return Status::failure("icosahedral grid: edge count does not match 3/2 of the cells");
  topology.c2e2c = Table(num_cells, 3, kMissing);
#pragma omp parallel for
  for (int32_t c = 0; c < num_cells; ++c)
    for (int32_t j = 0; j < 3; ++j) {
      int32_t e = topology.c2e(c, j);
      topology.c2e2c(c, j) = topology.e2c(e, 0) == c ? topology.e2c(e, 1) : topology.e2c(e, 0);
    }
  return Status::success();
}

// V2C, V2E and V2E2V by walking counter-clockwise around each vertex, starting at its
// lowest-numbered cell. In cell (v, a, b) the next cell around v lies across edge (b, v), and
// edge (v, a) separates the cell from the previous one.
Status build_vertex_tables(GridTopology &topology) {
  int32_t num_cells = topology.num_points[int(Location::Cell)];
  int32_t num_vertices = topology.num_points[int(Location::Vertex)];
  const Table &c2v = topology.c2v;
  std::vector<int32_t> first_cell(size_t(num_vertices), kMissing);
  for (int32_t c = num_cells - 1; c >= 0; --c)
    for (int32_t j = 0; j < 3; ++j)
      first_cell[c2v(c, j)] = c;
  topology.v2c = Table(num_vertices, 6, kMissing);
  topology.v2e = Table(num_vertices, 6, kMissing);
  topology.v2e2v = Table(num_vertices, 6, kMissing);
  int32_t unclosed = 0;
#pragma omp parallel for reduction(+ : unclosed)
  for (int32_t v = 0; v < num_vertices; ++v) {
    int32_t c = first_cell[v];
    int32_t k = 0;
    do {
      int32_t p = position_of(c2v, c, v);
      topology.v2c(v, k) = c;
      topology.v2e(v, k) = topology.c2e(c, p);
      topology.v2e2v(v, k) = c2v(c, (p + 1) % 3);
      ++k;
      c = topology.c2e2c(c, (p + 2) % 3);
    } while (c != first_cell[v] && k < 6);
    unclosed += c != first_cell[v];
  }
  if (unclosed > 0)
    return Status::failure("icosahedral grid: " + std::to_string(unclosed) +
                           " vertices have more than 6 cells");
  return Status::success();
}

} // namespace

Result<Grid> make_icosahedral_grid(int32_t root, int32_t level) {
  if (root < 1 || level < 0)
    return Status::failure("icosahedral grid R" + std::to_string(root) + "B" +
                           std::to_string(level) + ": need root >= 1 and level >= 0");
  int64_t cells = 20 * int64_t(root) * root;
  for (int32_t i = 0; i < level && cells <= INT32_MAX; ++i)
    cells *= 4;
  if (cells * 3 / 2 > INT32_MAX)
    return Status::failure("icosahedral grid R" + std::to_string(root) + "B" +
                           std::to_string(level) + " has more edges than int32 indices allow");

  TriangleMesh mesh = root_division(icosahedron(), root);
  for (int32_t i = 0; i < level; ++i)
    mesh = bisect(mesh);
  number_vertices_by_cells(mesh);

  GridTopology topology;
  int32_t num_cells = int32_t(mesh.triangles.size());
  int32_t num_vertices = int32_t(mesh.vertices.size());
  topology.num_points = {num_cells, num_cells / 2 * 3, num_vertices};
  if (num_cells != cells || num_vertices != num_cells / 2 + 2)
    return Status::failure("icosahedral grid: wrong cell or vertex count");
  topology.c2v = Table(num_cells, 3, kMissing);
  for (int32_t c = 0; c < num_cells; ++c)
    for (int32_t j = 0; j < 3; ++j)
      topology.c2v(c, j) = mesh.triangles[c][j];
  if (Status status = build_cell_edge_tables(topology); !status)
    return status;
  if (Status status = build_vertex_tables(topology); !status)
    return status;

  GridGeometry geometry;
  geometry.vertices.x.resize(size_t(num_vertices));
  geometry.vertices.y.resize(size_t(num_vertices));
  geometry.vertices.z.resize(size_t(num_vertices));
  for (int32_t v = 0; v < num_vertices; ++v) {
    geometry.vertices.x[v] = mesh.vertices[v].x;
    geometry.vertices.y[v] = mesh.vertices[v].y;
    geometry.vertices.z[v] = mesh.vertices[v].z;
  }

  char name[32];
  std::snprintf(name, sizeof name, "R%02dB%02d", root, level);
  return Grid::create({name, root, level}, std::move(topology), std::move(geometry));
}

} // namespace fusec
