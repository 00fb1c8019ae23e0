//===- ProgramSignature.cpp - a program's parameters, as bench sees them --===//

#include "ProgramSignature.h"

namespace fusec::bench {

FieldFormat Parameter::format(const Grid &grid, int32_t nlev) const {
  FieldFormat format;
  format.location = location;
  format.points = location ? grid.num_points(*location) : 1;
  format.neighbors = neighbors;
  format.levels = vertical == Vertical::None ? 0 : vertical == Vertical::Full ? nlev : nlev + 1;
  format.dtype = dtype;
  return format;
}

static const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return "f64";
  case DType::Float32:
    return "f32";
  case DType::Int32:
    return "i32";
  case DType::Bool:
    return "i1";
  }
  return "?";
}

static const char *scalarTypeName(ScalarArgument::Type type) {
  switch (type) {
  case ScalarArgument::Type::F64:
    return "f64";
  case ScalarArgument::Type::F32:
    return "f32";
  case ScalarArgument::Type::I32:
    return "i32";
  case ScalarArgument::Type::I64:
    return "i64";
  case ScalarArgument::Type::Bool:
    return "bool";
  }
  return "?";
}

std::string Parameter::describe() const {
  if (isScalar())
    return scalarTypeName(scalarType);
  if (isPoints())
    return std::string("points<") + location_name(*location) + ", K>";
  std::string text;
  auto append = [&](const std::string &part) { text += (text.empty() ? "" : " x ") + part; };
  if (location)
    append(location_name(*location));
  if (neighbors > 0)
    append("[" + std::to_string(neighbors) + "]");
  if (vertical != Vertical::None)
    append(vertical == Vertical::Full ? "K" : "KHalf");
  append(dtypeName(dtype));
  const char *intentName[] = {"in", "out", "inout"};
  return text + ", " + intentName[int(intent)];
}

const Parameter *ProgramSignature::find(const std::string &name) const {
  for (const Parameter &parameter : parameters)
    if (parameter.name == name)
      return &parameter;
  return nullptr;
}

uint64_t compulsoryBytes(const ProgramSignature &program, const Grid &grid, int32_t nlev) {
  uint64_t bytes = 0;
  for (const Parameter &parameter : program.parameters) {
    if (!parameter.isField())
      continue;
    FieldFormat format = parameter.format(grid, nlev);
    uint64_t size = uint64_t(format.size()) * dtype_size(format.dtype);
    bytes += parameter.intent == Parameter::Intent::InOut ? 2 * size : size;
  }
  return bytes;
}

} // namespace fusec::bench
