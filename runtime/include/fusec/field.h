// fusec runtime: host-side field storage conventions shared by grids, coefficients and .npy I/O.
//
// Layout (ARCHITECTURE.md §6): the horizontal index is fastest, then the level, then the
// neighbour index:
//   dense 2-D   f[h]
//   dense 3-D   f[h + k*ld]
//   sparse 2-D  f[h + n*ld]            (also every neighbour table)
//   sparse 3-D  f[h + n*ld + k*ld*N]   (N = neighbours per point)
#ifndef FUSEC_FIELD_H
#define FUSEC_FIELD_H

#include "fusec/mesh.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fusec {

enum class Location { Cell = FUSEC_CELL, Edge = FUSEC_EDGE, Vertex = FUSEC_VERTEX };
constexpr int kNumLocations = 3;

// "Cell", "Edge" or "Vertex".
const char *location_name(Location location);

// The skip value of neighbour tables and sparse fields.
constexpr int32_t kMissing = -1;

// A per-point, per-neighbour array: entry (h, n) lives at data[h + n*rows], i.e. ld = rows.
template <typename T> struct NeighborArray {
  int32_t rows = 0;
  int32_t cols = 0;
  std::vector<T> data;

  NeighborArray() = default;
  NeighborArray(int32_t num_rows, int32_t num_cols, T fill)
      : rows(num_rows), cols(num_cols),
        data(static_cast<size_t>(num_rows) * static_cast<size_t>(num_cols), fill) {}

  T &operator()(int32_t h, int32_t n) { return data[h + static_cast<size_t>(n) * rows]; }
  const T &operator()(int32_t h, int32_t n) const {
    return data[h + static_cast<size_t>(n) * rows];
  }
  bool empty() const { return data.empty(); }
  bool operator==(const NeighborArray &other) const {
    return rows == other.rows && cols == other.cols && data == other.data;
  }
};

using Table = NeighborArray<int32_t>;

enum class DType { Float64, Float32, Int32, Bool };

// Bytes per element; Bool is one byte (numpy's |b1).
size_t dtype_size(DType dtype);

template <typename T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<double>() { return DType::Float64; }
template <> constexpr DType dtype_of<float>() { return DType::Float32; }
template <> constexpr DType dtype_of<int32_t>() { return DType::Int32; }
template <> constexpr DType dtype_of<uint8_t>() { return DType::Bool; }

// The shape of one field in the layout above. num_neighbors == 0 means dense and
// num_levels == 0 means no vertical dimension.
struct FieldLayout {
  int32_t num_points = 0;
  int32_t ld = 0; // >= num_points
  int32_t num_neighbors = 0;
  int32_t num_levels = 0;

  static FieldLayout dense(int32_t points, int32_t levels = 0) {
    return {points, points, 0, levels};
  }
  static FieldLayout sparse(int32_t points, int32_t neighbors, int32_t levels = 0) {
    return {points, points, neighbors, levels};
  }
  // Number of stored elements, padding included.
  size_t size() const {
    return static_cast<size_t>(ld) * (num_neighbors > 0 ? num_neighbors : 1) *
           (num_levels > 0 ? num_levels : 1);
  }
  bool operator==(const FieldLayout &o) const {
    return num_points == o.num_points && ld == o.ld && num_neighbors == o.num_neighbors &&
           num_levels == o.num_levels;
  }
};

// A named, read-only view of one host field.
struct FieldRef {
  std::string name;
  Location location = Location::Cell;
  FieldLayout layout;
  DType dtype = DType::Float64;
  const void *data = nullptr;
};

} // namespace fusec

#endif // FUSEC_FIELD_H
