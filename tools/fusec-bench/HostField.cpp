//===- HostField.cpp - program arguments held on the host -----------------===//

#include "HostField.h"

#include "fusec/kernel_support.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fusec::bench {

void *allocateHugePageAligned(size_t bytes) {
  void *memory = allocate_host_buffer(bytes);
  if (!memory) {
    std::fprintf(stderr, "fusec-bench: out of memory for a field of %zu bytes\n", bytes);
    std::abort();
  }
  return memory;
}

size_t FieldFormat::size() const {
  return static_cast<size_t>(points) * static_cast<size_t>(neighbors > 0 ? neighbors : 1) *
         static_cast<size_t>(levels > 0 ? levels : 1);
}

FieldLayout FieldFormat::npyLayout() const {
  if (!location)
    return FieldLayout::dense(levels);
  return FieldLayout{points, points, neighbors, levels};
}

FieldFormat::Position FieldFormat::position(size_t index) const {
  Position position;
  if (!location) {
    position.level = static_cast<int32_t>(index);
    return position;
  }
  size_t slots = static_cast<size_t>(neighbors > 0 ? neighbors : 1);
  position.point = static_cast<int32_t>(index % points);
  size_t rest = index / points;
  position.neighbor = static_cast<int32_t>(rest % slots);
  position.level = static_cast<int32_t>(rest / slots);
  return position;
}

std::string FieldFormat::describe() const {
  std::string text;
  if (location)
    text = location_name(*location);
  if (neighbors > 0)
    text += " x " + std::to_string(neighbors) + " neighbours";
  if (levels > 0)
    text += (text.empty() ? "" : " x ") + std::to_string(levels) + " levels";
  return text;
}

NpyArray pointListToNpy(const PointList &list) {
  NpyArray array;
  array.dtype = DType::Int32;
  array.shape = {static_cast<int64_t>(list.size()), 2};
  std::vector<int32_t> rows;
  rows.reserve(2 * list.size());
  for (size_t i = 0; i < list.size(); ++i)
    rows.insert(rows.end(), {list.points[i], list.levels[i]});
  array.bytes.resize(rows.size() * sizeof(int32_t));
  std::memcpy(array.bytes.data(), rows.data(), array.bytes.size());
  return array;
}

Result<PointList> pointListFromNpy(const NpyArray &array, const std::string &source) {
  if (array.dtype != DType::Int32 || array.shape.size() != 2 || array.shape[1] != 2)
    return Status::failure(source + ": a point list needs int32 of shape (N, 2), not " +
                           npy_descr(array.dtype) + " of shape " + shape_string(array.shape));
  size_t entries = static_cast<size_t>(array.shape[0]);
  auto at = [&](size_t entry, size_t column) {
    size_t index = array.fortran_order ? entry + column * entries : 2 * entry + column;
    int32_t value;
    std::memcpy(&value, array.bytes.data() + index * sizeof value, sizeof value);
    return value;
  };
  PointList list;
  for (size_t entry = 0; entry < entries; ++entry) {
    list.points.push_back(at(entry, 0));
    list.levels.push_back(at(entry, 1));
  }
  return list;
}

Status checkPointList(const PointList &list, int32_t points, int32_t nlev) {
  std::vector<bool> seen(static_cast<size_t>(points) * static_cast<size_t>(nlev));
  for (size_t i = 0; i < list.size(); ++i) {
    int32_t point = list.points[i], level = list.levels[i];
    std::string entry = "entry " + std::to_string(i) + " (point " + std::to_string(point) +
                        ", level " + std::to_string(level) + ")";
    if (point < 0 || point >= points || level < 0 || level >= nlev)
      return Status::failure(entry + " lies outside the " + std::to_string(points) +
                             " points and " + std::to_string(nlev) + " levels");
    size_t key = static_cast<size_t>(level) * points + point;
    if (seen[key])
      return Status::failure(entry + " is in the list twice");
    seen[key] = true;
  }
  return Status::success();
}

double HostField::get(size_t index) const {
  const uint8_t *element = bytes_.data() + index * dtype_size(format_.dtype);
  switch (format_.dtype) {
  case DType::Float64: {
    double value;
    std::memcpy(&value, element, sizeof value);
    return value;
  }
  case DType::Float32: {
    float value;
    std::memcpy(&value, element, sizeof value);
    return value;
  }
  case DType::Int32: {
    int32_t value;
    std::memcpy(&value, element, sizeof value);
    return value;
  }
  case DType::Bool:
    return *element != 0 ? 1.0 : 0.0;
  }
  return 0.0;
}

void HostField::set(size_t index, double value) {
  uint8_t *element = bytes_.data() + index * dtype_size(format_.dtype);
  switch (format_.dtype) {
  case DType::Float64:
    std::memcpy(element, &value, sizeof value);
    return;
  case DType::Float32: {
    float rounded = static_cast<float>(value);
    std::memcpy(element, &rounded, sizeof rounded);
    return;
  }
  case DType::Int32: {
    int32_t integer = static_cast<int32_t>(std::lround(value));
    std::memcpy(element, &integer, sizeof integer);
    return;
  }
  case DType::Bool:
    *element = value != 0.0 ? 1 : 0;
    return;
  }
}

} // namespace fusec::bench
