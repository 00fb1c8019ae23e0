//===- bench_parameters.h - program parameters for fusec-bench's unit tests -*- C++ -*-===//

#ifndef FUSEC_TESTS_UNIT_BENCH_PARAMETERS_H
#define FUSEC_TESTS_UNIT_BENCH_PARAMETERS_H

#include "ProgramSignature.h"

#include <optional>
#include <string>

namespace fusec::bench::testing {

inline Parameter field(const std::string &name, std::optional<Location> location,
                       int32_t neighbors, Parameter::Vertical vertical,
                       DType dtype = DType::Float64,
                       Parameter::Intent intent = Parameter::Intent::In) {
  Parameter parameter;
  parameter.name = name;
  parameter.kind = ArgumentKind::Field;
  parameter.intent = intent;
  parameter.location = location;
  parameter.neighbors = neighbors;
  parameter.vertical = vertical;
  parameter.dtype = dtype;
  return parameter;
}

inline Parameter scalar(const std::string &name, ScalarArgument::Type type) {
  Parameter parameter;
  parameter.name = name;
  parameter.scalarType = type;
  return parameter;
}

inline Parameter points(const std::string &name, Location location = Location::Cell) {
  Parameter parameter;
  parameter.name = name;
  parameter.kind = ArgumentKind::Points;
  parameter.location = location;
  parameter.vertical = Parameter::Vertical::Full;
  return parameter;
}

} // namespace fusec::bench::testing

#endif // FUSEC_TESTS_UNIT_BENCH_PARAMETERS_H
