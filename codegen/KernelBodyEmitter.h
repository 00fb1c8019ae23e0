//===- KernelBodyEmitter.h - statements of one kernel point -------*- C++ -*-===//
//
// Translates the region of a kernel in loop form into the C statements of one
// work item, shared by the CUDA and C++ emitters (only how the domain is cut
// into work items differs). Missing neighbours follow docs/dialect.md and are tracked
// statically: a point can be missing only when it comes through a `skip`
// connectivity or from a point that can be missing, and only loads and
// neighbour lookups at such points get a guard.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_KERNELBODYEMITTER_H
#define FUSEC_CODEGEN_KERNELBODYEMITTER_H

#include "codegen/NameTable.h"
#include "ir/StnOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace fusec::codegen {

/// The identifiers a kernel body refers to, set up by the kernel's emitter.
struct KernelScope {
  /// Identifiers in use inside the kernel function.
  NameTable names;
  /// Expressions of values defined outside the body (captured program values)
  /// and of the work item's box.
  llvm::DenseMap<mlir::Value, std::string> values;
  /// The leading-dimension parameter of each location (empty if unused).
  std::string leadingDimensions[3];
  /// Per connectivity name: the table parameter and its leading dimension
  /// (empty when every read is at slot 0); in blocked kernels also the
  /// parameter holding each entry's block.
  struct Table {
    std::string entries, ld, blocks;
  };
  llvm::StringMap<Table> tables;

  /// Blocked kernels (ICON's CPU layout, fusec_layout.nproma > 0): element
  /// (h, n, k) lies at h + n*ld + k*ld*N + jb*ld*(N*L - 1) with jb the block
  /// of h, so each point carries the expression of its block.
  bool blocked = false;
  /// The number-of-levels and nproma parameters (blocked kernels): nproma
  /// is every location's ld there, also where no ld parameter is passed.
  std::string numLevels, nproma;
  /// The block expression of points (neighbours).
  llvm::DenseMap<mlir::Value, std::string> pointBlocks;
  /// The block all points of the work item lie in (blocked kernels).
  std::string workItemBlock;
};

class KernelBodyEmitter {
public:
  /// `unrollReductions` adds `#pragma unroll` to neighbour loops (CUDA).
  KernelBodyEmitter(stn::KernelOp kernel, KernelScope &scope, bool unrollReductions);

  /// Emits the kernel's region for the work item whose box is in `scope`.
  mlir::LogicalResult emit(llvm::raw_ostream &os);

private:
  mlir::LogicalResult emitBlock(mlir::Block &block, llvm::raw_ostream &os);
  mlir::LogicalResult emitOp(mlir::Operation *op, llvm::raw_ostream &os);
  mlir::LogicalResult emitLoad(stn::LoadOp load, llvm::raw_ostream &os);
  mlir::LogicalResult emitNeighbor(stn::NeighborOp neighbor, llvm::raw_ostream &os);
  mlir::LogicalResult emitReduce(stn::ReduceOp reduce, llvm::raw_ostream &os);
  mlir::LogicalResult emitIf(mlir::scf::IfOp ifOp, llvm::raw_ostream &os);
  mlir::LogicalResult emitFor(mlir::scf::ForOp loop, llvm::raw_ostream &os);
  mlir::LogicalResult emitWrite(stn::WriteOp write, llvm::raw_ostream &os);

  /// The expression of `value` (an identifier or a literal).
  std::string expr(mlir::Value value);
  /// Declares `const T name = init;` for `value` with a fresh name.
  void declare(mlir::Value value, llvm::StringRef hint, llvm::StringRef init,
               llvm::raw_ostream &os);
  std::string freshTemporary();

  /// The element index of `field` at `point`, slot `slot` and `level`.
  std::string elementIndex(mlir::Value field, mlir::Value point, mlir::Value slot,
                           llvm::StringRef level);
  /// `k`, `k + 1`, `k + off - 2`: the level a load reads.
  std::string loadLevel(stn::LoadOp load);
  /// The expression of a level operand (empty when absent).
  std::string levelOf(mlir::Value level);
  const KernelScope::Table &table(mlir::FlatSymbolRefAttr conn);
  /// Blocked kernels: the block of `point` (known, else h / ld).
  std::string blockOf(mlir::Value point, llvm::StringRef ld);

  stn::KernelOp kernel;
  KernelScope &scope;
  bool unrollReductions;
  unsigned temporaries = 0;
};

} // namespace fusec::codegen

#endif // FUSEC_CODEGEN_KERNELBODYEMITTER_H
