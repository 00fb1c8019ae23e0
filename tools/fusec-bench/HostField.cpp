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
