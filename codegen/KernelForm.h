//===- KernelForm.h - what emitters read from kernel-form IR ------*- C++ -*-===//
//
// The emitters accept only kernel form (docs/dialect.md; the CUDA and C++
// emitters its loop form). verifyKernelForm rejects anything else with a
// diagnostic at the offending op; the analyses
// below tell an emitter what a kernel or program needs from its surroundings.
// Every list is ordered by program order or by name, never by pointer.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_KERNELFORM_H
#define FUSEC_CODEGEN_KERNELFORM_H

#include "ir/StnOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <vector>

namespace fusec::codegen {

/// Fails with "module is not in kernel form: found <op>" at the first op that
/// kernel form does not allow, or with an explanation at the first kernel an
/// emitter cannot translate (levels read by a kernel without levels, a written
/// input, an unsupported element type, a point list used other than as the
/// domain of a kernel and by its stn.list_point).
mlir::LogicalResult verifyKernelForm(mlir::ModuleOp module);

/// What a kernel takes from its program.
struct KernelUses {
  /// Program-level values the kernel region uses, in order of first use;
  /// constants are left out (emitters inline them), and so is the point list
  /// the kernel runs on (part of its domain).
  llvm::SetVector<mlir::Value> captures;
  /// Captured fields the kernel writes.
  llvm::DenseSet<mlir::Value> written;
  /// Connectivities whose tables the kernel reads, by name.
  std::vector<stn::ConnectivityOp> tables;
  /// Those of `tables` read at a slot other than a constant 0: the kernel
  /// needs their leading dimension.
  llvm::StringSet<> tablesAtSlots;
  /// Those of `tables` whose rows stn.table_complete tests: the kernel needs
  /// their counts of rows with a missing neighbour.
  llvm::StringSet<> tablesTested;
  /// Locations whose leading dimension an element index needs (a field with
  /// levels, or a sparse field read at a slot other than 0), in enum order.
  std::vector<stn::GridLocation> locations;
  /// Whether a field with nlev + 1 levels is read or written.
  bool halfLevels = false;
};

KernelUses analyzeKernel(stn::KernelOp kernel);

/// The kernels of a program in program order (also those inside scf.if).
std::vector<stn::KernelOp> kernelsOf(stn::ProgramOp program);

/// The program-local buffers of a program in program order.
std::vector<stn::AllocOp> allocsOf(stn::ProgramOp program);

/// Connectivities the program's kernels read through, by name.
std::vector<stn::ConnectivityOp> kernelTablesOf(stn::ProgramOp program);

/// Connectivities stn.image reads on the host, by name.
std::vector<stn::ConnectivityOp> imageTablesOf(stn::ProgramOp program);

/// True when nothing that is emitted reads `value`: its users are dead, or
/// yield it into a result that is itself unused.
bool isUsed(mlir::Value value);

/// True when emitting `op` would only declare unused variables: it is no
/// terminator, has no effect (no write, kernel or exchange inside) and none of
/// its results is used.
bool isDead(mlir::Operation *op);

} // namespace fusec::codegen

#endif // FUSEC_CODEGEN_KERNELFORM_H
