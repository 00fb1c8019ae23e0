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
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace fusec::codegen {

/// Blocked layout: the shape of a field whose block holds more than nproma
/// elements (anything but 2-D dense), so that an element's index depends on
/// its point's block. Gathers at a neighbour read the element's level-0 index
/// from a table of block offsets per shape (`HostTable::compute_block_offsets`).
struct BlockedShape {
  stn::VerticalKind vertical = stn::VerticalKind::None;
  int64_t sparseSize = 0;
  /// A buffer its wavefront folds: its index in the wavefront's folds (its
  /// columns lie wherever the plan put them), else -1.
  int64_t fold = -1;

  /// None for 2-D dense fields, which are the same in both layouts.
  static std::optional<BlockedShape> of(mlir::Type field);
  /// The shape of `field` as `kernel` addresses it (folded or not).
  static std::optional<BlockedShape> of(mlir::Value field, stn::KernelOp kernel);
  /// Elements of a point's column in a block beyond the point itself
  /// (N*Lv - 1), with `numLevels` the expression of the number of levels.
  std::string beyond(llvm::StringRef numLevels) const;
  /// A name part: "full", "half", "s4", "s4_full".
  std::string suffix() const;
  bool operator==(const BlockedShape &other) const {
    return vertical == other.vertical && sparseSize == other.sparseSize && fold == other.fold;
  }
};

/// Blocked layout: a name per field shape (block-offset parameters or
/// variables), in the order the shapes were met.
using NamesByShape = llvm::SmallVector<std::pair<BlockedShape, std::string>, 2>;

/// The name `names` holds for `shape`; the shape must be there.
const std::string &nameOfShape(const NamesByShape &names, const BlockedShape &shape);

/// The capacity of HostTable's block offsets (runtime/include/fusec/kernel_support.h).
constexpr size_t kMaxBlockOffsets = 8;

/// Blocked layout: the shapes a kernel loads at the points it reaches through
/// each neighbour table, in the kernel's order.
struct BlockedGathers {
  /// Per neighbour point (a stn.neighbor result or a fold's neighbour).
  llvm::DenseMap<mlir::Value, llvm::SmallVector<BlockedShape, 2>> atPoint;
  /// Per connectivity name, the union over its points.
  llvm::MapVector<llvm::StringRef, llvm::SmallVector<BlockedShape, 2>> perTable;

  static BlockedGathers of(stn::KernelOp kernel);
};

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
  /// block-offset parameters, one per shape in `gathers.perTable`; the
  /// counts of rows with a missing neighbour where stn.table_complete needs them.
  struct Table {
    std::string entries, ld;
    NamesByShape blockOffsets;
    /// HostTable::missing_before (tables stn.table_complete tests).
    std::string missingBefore;
  };
  llvm::StringMap<Table> tables;

  /// Blocked kernels (ICON's CPU layout, fusec_layout.nproma > 0): element
  /// (h, n, k) lies at h + n*ld + k*ld*N + jb*ld*(N*L - 1) with jb the block
  /// of h. The kernel's own points carry the loop's block; a neighbour's
  /// h + jb*ld*(N*L - 1) is read from the table's block offsets.
  bool blocked = false;
  BlockedGathers gathers;
  /// The number-of-levels and nproma parameters (blocked kernels): nproma
  /// is every location's ld there, also where no ld parameter is passed.
  std::string numLevels, nproma;
  /// The columns layout: blocked with nproma 1, so a point's levels are contiguous.
  bool columns() const { return blocked && nproma == "1"; }
  /// The block expression of points that are not neighbours.
  llvm::DenseMap<mlir::Value, std::string> pointBlocks;
  /// Per neighbour point, the variables holding its block offsets.
  llvm::DenseMap<mlir::Value, NamesByShape> pointOffsets;
  /// The block all points of the work item lie in (blocked kernels).
  std::string workItemBlock;
  /// Per fold of the kernel's wavefront read or written at a point that is no
  /// neighbour: the parameter holding each point's column start.
  llvm::DenseMap<int64_t, std::string> foldColumns;
  /// A kernel on a point list: the parameters holding its entries' cells and levels.
  struct PointListArrays {
    std::string cell, level;
  } list;
};

class KernelBodyEmitter {
public:
  /// `unrollReductions` adds `#pragma unroll` to neighbour loops (CUDA).
  KernelBodyEmitter(stn::KernelOp kernel, KernelScope &scope, bool unrollReductions);

  /// Emits the kernel's region for the work item whose box is in `scope`.
  mlir::LogicalResult emit(llvm::raw_ostream &os);
  /// Declares a fusec::ColumnStage for each non-temporal write of the kernel
  /// (columns layout), to print before its work items; empty when it has none.
  std::string declareColumnStages();

private:
  mlir::LogicalResult emitBlock(mlir::Block &block, llvm::raw_ostream &os);
  mlir::LogicalResult emitOp(mlir::Operation *op, llvm::raw_ostream &os);
  mlir::LogicalResult emitLoad(stn::LoadOp load, llvm::raw_ostream &os);
  mlir::LogicalResult emitNeighbor(stn::NeighborOp neighbor, llvm::raw_ostream &os);
  mlir::LogicalResult emitReduce(stn::ReduceOp reduce, llvm::raw_ostream &os);
  mlir::LogicalResult emitIf(mlir::scf::IfOp ifOp, llvm::raw_ostream &os);
  mlir::LogicalResult emitFor(mlir::scf::ForOp loop, llvm::raw_ostream &os);
  mlir::LogicalResult emitWhile(mlir::scf::WhileOp loop, llvm::raw_ostream &os);
  /// Assigns `yielded` to the loop's carried `variables` at the end of an iteration.
  void assignYielded(llvm::ArrayRef<std::string> variables, mlir::ValueRange yielded,
                     llvm::raw_ostream &os);
  mlir::LogicalResult emitWrite(stn::WriteOp write, llvm::raw_ostream &os);
  /// After a loop over levels: the columns its non-temporal writes staged.
  void storeColumnStages(mlir::scf::ForOp loop, llvm::raw_ostream &os);
  mlir::LogicalResult emitListPoint(stn::ListPointOp entry, llvm::raw_ostream &os);
  mlir::LogicalResult emitPrefetch(stn::PrefetchOp prefetch, llvm::raw_ostream &os);

  /// The expression of `value` (an identifier or a literal).
  std::string expr(mlir::Value value);
  /// Declares `const T name = init;` for `value` with a fresh name.
  void declare(mlir::Value value, llvm::StringRef hint, llvm::StringRef init,
               llvm::raw_ostream &os);
  std::string freshTemporary();

  /// The element index of `field` at `point`, slot `slot` and `level`.
  std::string elementIndex(mlir::Value field, mlir::Value point, mlir::Value slot,
                           llvm::StringRef level);
  /// The part of `field`'s element index that `level` contributes (the level
  /// times its stride).
  std::string levelTerm(mlir::Value field, llvm::StringRef level);
  /// `k`, `k + 1`, `k + off - 2`: the level a load reads.
  std::string loadLevel(stn::LoadOp load);
  /// The expression of a level operand (empty when absent).
  std::string levelOf(mlir::Value level);
  const KernelScope::Table &table(mlir::FlatSymbolRefAttr conn);
  /// Blocked kernels: the block of `point` (known, else h / ld).
  std::string blockOf(mlir::Value point, llvm::StringRef ld);
  /// Blocked kernels: declares the block offsets of the neighbour `point` at
  /// table position `position` (-1 where `guard` < 0); returns whether the
  /// point's own index is needed (by anything but loads through those
  /// offsets and presence tests). Always true in flat kernels.
  bool declareBlockOffsets(mlir::Value point, const KernelScope::Table &entries,
                           llvm::StringRef position, llvm::StringRef guard,
                           llvm::raw_ostream &os);
  /// What is tested `>= 0` for whether `point` is present: one of its block
  /// offsets where it has them, else its index.
  std::string presence(mlir::Value point);

  stn::KernelOp kernel;
  KernelScope &scope;
  bool unrollReductions;
  unsigned temporaries = 0;
  /// The fusec::ColumnStage of each non-temporal write.
  llvm::DenseMap<mlir::Operation *, std::string> columnStages;
};

} // namespace fusec::codegen

#endif // FUSEC_CODEGEN_KERNELBODYEMITTER_H
