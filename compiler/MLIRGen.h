//===- MLIRGen.h - from the checked AST to the stn dialect --------*- C++ -*-===//

#ifndef FUSEC_COMPILER_MLIRGEN_H
#define FUSEC_COMPILER_MLIRGEN_H

#include "compiler/AST.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace fusec {

/// Translates a translation unit that passed Sema into a module at program
/// level: one stn.connectivity per connectivity, one stn.program per program
/// of the main file. Every stencil call becomes its own stn.apply.
mlir::OwningOpRef<mlir::ModuleOp> generateMLIR(mlir::MLIRContext &context,
                                               const ast::TranslationUnit &unit,
                                               const llvm::SourceMgr &sourceMgr);

} // namespace fusec

#endif // FUSEC_COMPILER_MLIRGEN_H
