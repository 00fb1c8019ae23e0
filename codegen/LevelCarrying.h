//===- LevelCarrying.h - values a level loop takes from its last level -*- C++ -*-===//
//
// A thread (CUDA) or tile (C++) that computes consecutive levels k, k+1, ...
// can take a value computed at level k-1 instead of computing it again at
// level k: `vn[e, k - 1]` at level k is `vn[e, k]` at level k - 1, and so is
// a whole reduction or expression built from such reads. The analysis finds,
// among the top-level ops of a kernel body, each op A that is another op B
// with every level reference moved down by one (loads at offset o - 1 where B
// reads at o, `level` likewise, operands the same level-independent values or
// again such pairs). From the second level of the loop on, A's result is the
// value B had in the previous iteration, held in a register (or a per-point
// array on CPUs), and what only A needed is not computed any more.
//
// Fields the kernel writes are never carried: a write at level k - 1 may
// change what B read there before A would read it.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_LEVELCARRYING_H
#define FUSEC_CODEGEN_LEVELCARRYING_H

#include "ir/StnOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace fusec::codegen {

struct LevelCarrying {
  /// Ops whose result at level k is the result of `sources[i]` at level k - 1,
  /// mapped to the index of that source; both in program order.
  llvm::DenseMap<mlir::Operation *, unsigned> carriedFrom;
  llvm::SmallVector<mlir::Operation *> sources;
  /// Top-level ops still computed once the carried values are available.
  llvm::DenseSet<mlir::Operation *> steadyLive;

  bool empty() const { return sources.empty(); }
};

/// Carried values of `kernel`'s top-level ops, for a loop over its levels.
/// Without `carryLoads` a plain load is read again rather than carried: on
/// CPUs the level below is still in the L1 cache, and a carry would only add
/// a store.
LevelCarrying analyzeLevelCarrying(stn::KernelOp kernel, bool carryLoads);

} // namespace fusec::codegen

#endif // FUSEC_CODEGEN_LEVELCARRYING_H
