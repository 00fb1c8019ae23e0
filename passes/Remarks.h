//===- Remarks.h - `-Rpass=<regex>` explanations from passes ------*- C++ -*-===//
//
// Passes explain each decision (fused, or why not) as an MLIR remark at the
// source location of the stencil involved, in stencil terms. They are printed
// only for passes whose name matches the `-Rpass=` regular expression, like
// LLVM's optimisation remarks.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_PASSES_REMARKS_H
#define FUSEC_PASSES_REMARKS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace fusec {

/// Sets which passes explain themselves (a regular expression over pass
/// arguments such as `stn-map-fusion`); empty turns remarks off. Returns false
/// and sets `error` when the expression is invalid.
bool setRemarkFilter(llvm::StringRef regex, std::string &error);

/// A remark from `pass` at `op`, or nothing when remarks for `pass` are off.
std::optional<mlir::InFlightDiagnostic> remark(llvm::StringRef pass, mlir::Operation *op);

} // namespace fusec

#endif // FUSEC_PASSES_REMARKS_H
