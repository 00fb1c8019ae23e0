//===- ProgramSignature.h - a program's parameters, as bench sees them -*- C++ -*-===//
//
// What fusec-bench needs to know about each parameter of a `stn.program`:
// its source name, whether it is a field (and its shape and element type), a
// scalar (and its C type) or a point list (and its location), and its intent.
// Only `describeProgram` (DescribeProgram.cpp) touches MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_PROGRAMSIGNATURE_H
#define FUSEC_TOOLS_BENCH_PROGRAMSIGNATURE_H

#include "HostField.h"

#include "fusec/grid.h"
#include "fusec/status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class Operation;
}

namespace fusec::bench {

struct Parameter {
  enum class Intent { In, Out, InOut };
  enum class Vertical { None, Full, Half };

  std::string name; // the source name
  ArgumentKind kind = ArgumentKind::Scalar;
  Intent intent = Intent::In;
  // Fields; point lists have a location and full levels.
  std::optional<Location> location;
  int32_t neighbors = 0;
  Vertical vertical = Vertical::None;
  DType dtype = DType::Float64;
  // Scalars.
  ScalarArgument::Type scalarType = ScalarArgument::Type::F64;

  bool isField() const { return kind == ArgumentKind::Field; }
  bool isScalar() const { return kind == ArgumentKind::Scalar; }
  bool isPoints() const { return kind == ArgumentKind::Points; }
  bool isOutput() const { return isField() && intent != Intent::In; }
  FieldFormat format(const Grid &grid, int32_t nlev) const;
  /// "Edge x K x f64, inout", "i32" or "points<Cell, K>", for messages.
  std::string describe() const;
};

struct ProgramSignature {
  std::string name;
  std::vector<Parameter> parameters;
  /// The location of the program's first output with a horizontal dimension:
  /// what `h_start`/`h_end` bound by default.
  std::optional<Location> outputLocation;

  const Parameter *find(const std::string &name) const;
};

/// Bytes read and written at least once by one call of `program` (the
/// memory-bandwidth limit's traffic, MemoryLimit.h): each input field read
/// once, each output written once, an inout field both; tables, scalars and
/// point lists (whose length the signature does not know) not counted.
uint64_t compulsoryBytes(const ProgramSignature &program, const Grid &grid, int32_t nlev);

/// The signature of `program` (a stn::ProgramOp). Fails on parameter types a
/// host buffer cannot hold.
Result<ProgramSignature> describeProgram(mlir::Operation *program);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_PROGRAMSIGNATURE_H
