// A hand-made mesh of three cells and four edges (no vertices) whose `skip`
// tables hold missing (-1) neighbours, for the end-to-end tests of the C++
// backend. Tables are laid out table[h + n*rows].
//
//   C2E   (skip)  c0: e0 e1 e2    c1: e1 -- e3    c2: -- -- --
//   C2E2C (skip)  c0: c1 c2 --    c1: c0 -- c0    c2: c0 c1 c1
//   E2C           e0: c0 c1   e1: c0 c1   e2: c0 c2   e3: c1 c2
#ifndef FUSEC_TESTS_TINY_MESH_H
#define FUSEC_TESTS_TINY_MESH_H

#include "fusec/mesh.h"

#include <string>
#include <vector>

struct TinyMesh {
  static constexpr int32_t kCells = 3;
  static constexpr int32_t kEdges = 4;

  std::vector<int32_t> c2e = {0, 1, -1, /**/ 1, -1, -1, /**/ 2, 3, -1};
  std::vector<int32_t> c2e2c = {1, 0, 0, /**/ 2, -1, 1, /**/ -1, 0, 1};
  std::vector<int32_t> e2c = {0, 0, 0, 1, /**/ 1, 1, 2, 2};
  std::vector<fusec_connectivity> tables;
  fusec_mesh mesh;

  // All tables, or all but the one named `leave_out`.
  explicit TinyMesh(const char *leave_out = "") {
    add("C2E", FUSEC_CELL, FUSEC_EDGE, 3, kCells, c2e, leave_out);
    add("C2E2C", FUSEC_CELL, FUSEC_CELL, 3, kCells, c2e2c, leave_out);
    add("E2C", FUSEC_EDGE, FUSEC_CELL, 2, kEdges, e2c, leave_out);
    mesh.num_points[FUSEC_CELL] = kCells;
    mesh.num_points[FUSEC_EDGE] = kEdges;
    mesh.num_points[FUSEC_VERTEX] = 0;
    mesh.num_connectivities = static_cast<int32_t>(tables.size());
    mesh.connectivities = tables.data();
  }

private:
  void add(const char *name, fusec_location source, fusec_location target, int32_t neighbors,
           int32_t rows, const std::vector<int32_t> &entries, const char *leave_out) {
    if (std::string(name) == leave_out)
      return;
    tables.push_back({name, source, target, neighbors, rows, rows, entries.data()});
  }
};

#endif // FUSEC_TESTS_TINY_MESH_H
