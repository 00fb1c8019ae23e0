//===- BundleModel.h - what a GPU bundle holds --------------------*- C++ -*-===//
//
// `fusec-bench pack` writes a bundle's model.cpp, which defines bundleModel():
// the packed file's programs (signatures, output tolerances), the variants and
// their libraries, the inputs file (so that the runner generates each
// program's arguments on any grid exactly as fusec-bench would), the small
// grid whose inputs and interpreter outputs are packed as .npy files, the
// large grids the runner generates, and how often one step calls each program.
// No MLIR and no LLVM: the bundle builds with CMake, nvcc and a C++ compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_BUNDLE_BUNDLEMODEL_H
#define FUSEC_TOOLS_BENCH_BUNDLE_BUNDLEMODEL_H

#include "InputSpec.h"
#include "ProgramSignature.h"
#include "Verification.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fusec::bench {

struct BundleVariant {
  std::string name; // as in --pipelines
  /// The libraries' base name: <library>.exact.so and <library>.fma.so.
  std::string library;
  /// Programs the pipeline leaves as `-O none` compiles them.
  std::vector<std::string> unchangedPrograms;
};

struct BundleProgram {
  ProgramSignature signature;
  /// Per parameter: the tolerances of an output field (fusec-bench's defaults,
  /// --rtol/--atol and the inputs file already applied).
  std::vector<Tolerances> tolerances;
};

struct BundleStepCount {
  std::string name;
  unsigned count = 0;
};

/// One call of the step program on grids of one kind (limited area or global).
struct BundleStep {
  bool limitedArea = false;
  std::vector<BundleStepCount> calls;
  std::vector<BundleStepCount> uncovered;
};

struct BundleGrid {
  std::string spec; // rNbK or lam-rNbK[:radius[@lat,lon]]
  int32_t nlev = 0;
};

struct BundleModel {
  std::string input;  // the packed .stn file
  std::string inputs; // random or realistic
  uint64_t seed = 0;
  std::string packedBy; // fusec-bench's command line
  std::vector<BundleVariant> variants;
  std::vector<BundleProgram> programs;
  InputsFile inputsFile;
  /// Packed inputs and interpreter outputs: small/<program>/{inputs,reference}/.
  BundleGrid smallGrid;
  std::vector<BundleGrid> largeGrids;
  std::string stepProgram; // empty without a step among the programs
  std::vector<BundleStep> steps;
};

/// For model.cpp: a field parameter (location -1: vertical-only), a scalar one
/// and a point list.
inline Parameter bundleFieldParameter(const char *name, Parameter::Intent intent, int location,
                                      int32_t neighbors, Parameter::Vertical vertical,
                                      DType dtype) {
  Parameter parameter;
  parameter.name = name;
  parameter.kind = ArgumentKind::Field;
  parameter.intent = intent;
  if (location >= 0)
    parameter.location = Location(location);
  parameter.neighbors = neighbors;
  parameter.vertical = vertical;
  parameter.dtype = dtype;
  return parameter;
}

inline Parameter bundleScalarParameter(const char *name, ScalarArgument::Type type) {
  Parameter parameter;
  parameter.name = name;
  parameter.scalarType = type;
  return parameter;
}

inline Parameter bundlePointsParameter(const char *name, Location location) {
  Parameter parameter;
  parameter.name = name;
  parameter.kind = ArgumentKind::Points;
  parameter.location = location;
  parameter.vertical = Parameter::Vertical::Full;
  return parameter;
}

/// Defined by the bundle's generated model.cpp.
BundleModel bundleModel();

/// For model.cpp: the parsed expression or generator (pack wrote only ones
/// that parse; a bundle edited by hand into a bad one stops with a message).
ScalarExpression bundleScalar(const char *text);
FieldGenerator bundleField(const char *text);
PointsGenerator bundlePoints(const char *text);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_BUNDLE_BUNDLEMODEL_H
