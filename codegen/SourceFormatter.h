//===- SourceFormatter.h - lay out emitted C-family code ----------*- C++ -*-===//
//
// Emitters write code without caring about layout; clang-format (LLVM style,
// 100 columns) makes it tidy and stable, so kernels from different pipelines
// diff cleanly.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_SOURCEFORMATTER_H
#define FUSEC_CODEGEN_SOURCEFORMATTER_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace fusec::codegen {

/// `code` (C, C++ or CUDA) laid out by clang-format; reports failures at `loc`.
mlir::FailureOr<std::string> formatCppSource(mlir::Location loc, llvm::StringRef code);

} // namespace fusec::codegen

#endif // FUSEC_CODEGEN_SOURCEFORMATTER_H
