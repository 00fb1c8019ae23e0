//===- StnOps.h - stn operations --------------------------------*- C++ -*-===//

#ifndef FUSEC_IR_STNOPS_H
#define FUSEC_IR_STNOPS_H

#include "ir/StnDialect.h"
#include "ir/StnTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace fusec::stn {

/// The memory of field buffers: what loads from fields read and stores,
/// kernel writes and exchanges write. Effects name the field value, so
/// analyses can tell fields apart.
struct FieldResource : public mlir::SideEffects::Resource::Base<FieldResource> {
  llvm::StringRef getName() final { return "stn.field"; }
};

/// A work item's scratch rows (`!stn.row`).
struct RowResource : public mlir::SideEffects::Resource::Base<RowResource> {
  llvm::StringRef getName() final { return "stn.row"; }
};

/// A kernel's slot in its wavefront's schedule, which a stage kernel writes: a stage left
/// with nothing to do (its writes found to store back what they read) is not erased as dead,
/// since the wavefront's stage numbers and waits point at it.
struct WavefrontStageResource : public mlir::SideEffects::Resource::Base<WavefrontStageResource> {
  llvm::StringRef getName() final { return "stn.wavefront_stage"; }
};

/// The caches, which `stn.prefetch` writes.
struct CacheResource : public mlir::SideEffects::Resource::Base<CacheResource> {
  llvm::StringRef getName() final { return "stn.cache"; }
};

} // namespace fusec::stn

#define GET_OP_CLASSES
#include "ir/StnOps.h.inc"

namespace fusec::stn {

/// Whether at most one of `a` and `b` runs: they lie on different sides of an
/// `scf.if` (the innermost op around both).
bool onExclusiveBranches(mlir::Operation *a, mlir::Operation *b);

/// The connectivity `name` declared in the module around `from`, or null.
ConnectivityOp lookupConnectivity(mlir::Operation *from, mlir::FlatSymbolRefAttr name);

/// Whether a `!stn.point` value can be a missing neighbour (-1). The current
/// point of an application or kernel and the neighbour a reduction visits
/// never are; a neighbour through a `skip` connectivity, or of a point that
/// may be missing, may be; anything else is assumed to be.
bool mayBeMissing(mlir::Value point);

/// The connectivity through which `point` was reached, if it is a neighbour
/// (of a `stn.neighbor` or the neighbour a reduction visits).
std::optional<llvm::StringRef> neighborTable(mlir::Value point);

/// The name the stencil author knows a field buffer by: its program
/// parameter's `stn.name` or its `var`'s name; empty when it has neither.
llvm::StringRef fieldName(mlir::Value field);

/// Whether the module of `op` is compiled for the columns layout (ICON's
/// blocked layout with one point per block; `stn.layout`).
bool columnsLayout(mlir::Operation *op);

/// The most points one work item of `kernel` has on CPUs: its `hblock`
/// attribute, else StnDialect::kCppPointsPerWorkItem.
int64_t cppPointsPerWorkItem(KernelOp kernel);

} // namespace fusec::stn

#endif // FUSEC_IR_STNOPS_H
