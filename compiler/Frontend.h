//===- Frontend.h - from .stn source to the stn dialect -----------*- C++ -*-===//

#ifndef FUSEC_COMPILER_FRONTEND_H
#define FUSEC_COMPILER_FRONTEND_H

#include "compiler/Defines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace fusec {

struct FrontendOptions {
  /// Where imports are looked for after the importing file's directory.
  std::vector<std::string> includeDirs;
  /// `-D name=value` settings.
  std::vector<Define> defines;
  /// Errors after this many are dropped and the frontend stops.
  unsigned maxErrors = 20;
};

/// Reads, checks and translates the .stn file `path` (and its imports) into a
/// module at program level. The sources stay in `sourceMgr` (for later
/// diagnostics); errors are printed to `errs`. Returns null on any error.
mlir::OwningOpRef<mlir::ModuleOp> translateStnFile(llvm::StringRef path,
                                                   const FrontendOptions &options,
                                                   llvm::SourceMgr &sourceMgr,
                                                   mlir::MLIRContext &context,
                                                   llvm::raw_ostream &errs);

/// The same for source text named `name` (imports are read from disk).
mlir::OwningOpRef<mlir::ModuleOp> translateStnSource(llvm::StringRef source,
                                                     llvm::StringRef name,
                                                     const FrontendOptions &options,
                                                     llvm::SourceMgr &sourceMgr,
                                                     mlir::MLIRContext &context,
                                                     llvm::raw_ostream &errs);

} // namespace fusec

#endif // FUSEC_COMPILER_FRONTEND_H
