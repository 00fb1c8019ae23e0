//===- Emitters.h - source emitters for kernel-form stn -----------*- C++ -*-===//
//
// Each emitter reads a module in kernel form (every program body holds only
// stn.alloc, stn.nlev, stn.image, arith on scalars, scf.if, stn.exchange and
// stn.kernel ops) and writes one source file. They never modify the module.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_EMITTERS_H
#define FUSEC_CODEGEN_EMITTERS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

namespace fusec {

/// CUDA kernels plus the extern "C" interface (`.cu`).
mlir::LogicalResult emitCuda(mlir::ModuleOp module, llvm::raw_ostream &os);
/// C++17 with OpenMP plus the same extern "C" interface (`.cpp`).
mlir::LogicalResult emitCpp(mlir::ModuleOp module, llvm::raw_ostream &os);
/// The C header declaring the interface (`.h`), usable from C99 and C++.
mlir::LogicalResult emitHeader(mlir::ModuleOp module, llvm::raw_ostream &os);
/// The Fortran module with bind(c) interfaces (`.f90`).
mlir::LogicalResult emitFortran(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace fusec

#endif // FUSEC_CODEGEN_EMITTERS_H
