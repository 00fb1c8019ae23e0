//===- Wavefront.cpp - kernels fused through the cache, tile by tile ------===//
//
// On a CPU, consecutive kernels that depend on each other (also through a
// neighbour table) can run interleaved tile by tile, so that what one writes
// is still in cache when the next reads it, without recomputing anything:
// `fusec::wavefront::Plan` runs such a group. This pass finds the groups in
// kernel form and wraps each in an `stn.wavefront` whose waits say, per pair
// of stages, how a point waits for the earlier stage: `same`, `gather`
// (reads what the points of its row of a table wrote) or `scatter`
// (overwrites what points whose row names it read).
//
// A group is a run of kernels, `scf.if`s around kernels and exchanges in one
// block, where each new kernel depends on the group and every dependence is
// one of those three. Kernels on different sides of an `scf.if` with the same
// points share a stage (at most one of them runs). Pure scalar ops in the run
// move before the group: the plan's domains and branches are then known
// before its first point runs.
//
//===----------------------------------------------------------------------===//

#include "passes/CostModel.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <map>
#include <set>
#include <tuple>

namespace fusec {
#define GEN_PASS_DEF_WAVEFRONT
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

using Order = WavefrontOp::Order;

/// How a kernel reaches the point of a field it reads: its own point, a
/// neighbour through one table, or otherwise (through two tables).
struct Reach {
  enum Kind { Own, Table, Other } kind;
  StringRef table;

  bool operator<(const Reach &other) const {
    return std::tie(kind, table) < std::tie(other.kind, other.table);
  }
};

Reach reachOf(KernelOp kernel, Value point) {
  if (!point || point == kernel.getPoint())
    return {Reach::Own, {}};
  if (auto neighbor = point.getDefiningOp<NeighborOp>())
    if (neighbor.getPoint() == kernel.getPoint())
      return {Reach::Table, neighbor.getConn()};
  if (auto argument = dyn_cast<BlockArgument>(point))
    if (auto reduce = dyn_cast<ReduceOp>(argument.getOwner()->getParentOp()))
      if (argument == reduce.getNeighbor() && reduce.getPoint() == kernel.getPoint())
        return {Reach::Table, reduce.getConn()};
  return {Reach::Other, {}};
}

/// The fields a kernel reads (with how it reaches them) and writes, in the
/// order of first access.
struct Accesses {
  llvm::MapVector<Value, std::set<Reach>> reads;
  llvm::SetVector<Value> writes;

  explicit Accesses(KernelOp kernel) {
    kernel.walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op))
        reads[load.getField()].insert(reachOf(kernel, load.getPoint()));
      else if (auto write = dyn_cast<WriteOp>(op))
        writes.insert(write.getField());
    });
  }
};

struct Wait {
  int64_t stage, on;
  Order order;
  StringRef table;

  bool operator<(const Wait &other) const {
    return std::tie(stage, on, order, table) <
           std::tie(other.stage, other.on, other.order, other.table);
  }
};

/// What `later` waits for in `earlier`, or the field it cannot wait on.
struct PairWaits {
  std::set<std::pair<Order, StringRef>> waits;
  Value unrepresentable;
};

PairWaits waitsBetween(const Accesses &earlier, const Accesses &later) {
  PairWaits result;
  auto note = [&](Value field, const std::set<Reach> &reaches, Order throughTable) {
    for (const Reach &reach : reaches) {
      if (reach.kind == Reach::Other)
        result.unrepresentable = field;
      else if (reach.kind == Reach::Own)
        result.waits.insert({Order::Same, {}});
      else
        result.waits.insert({throughTable, reach.table});
    }
  };
  for (Value field : earlier.writes) {
    auto read = later.reads.find(field);
    if (read != later.reads.end())
      note(field, read->second, Order::Gather);
    if (later.writes.contains(field))
      result.waits.insert({Order::Same, {}});
  }
  for (Value field : later.writes) {
    auto read = earlier.reads.find(field);
    if (read != earlier.reads.end())
      note(field, read->second, Order::Scatter);
  }
  return result;
}

/// An op between a group's items that moves before the group: it runs
/// there anyway, and has no effect a kernel could see.
bool isScalar(Operation *op) { return op->getNumRegions() == 0 && isMemoryEffectFree(op); }

bool sameStage(KernelOp a, KernelOp b) {
  return a.getLocation() == b.getLocation() && a.getHlb() == b.getHlb() &&
         a.getHub() == b.getHub();
}

/// Why `kernel` cannot be a stage, or empty.
std::string ineligible(KernelOp kernel) {
  if (!kernel.getLocation() || !kernel.getHlb())
    return kernel.getPoints() ? "runs on a point list" : "has no points";
  if (kernel.getLoopForm())
    return "is in loop form already";
  return "";
}

/// A run of a block's ops being grown into a group.
class Group {
public:
  struct Stage {
    SmallVector<KernelOp> kernels;
  };

  /// Tries to add `item` (a kernel or a branch around kernels): false, with
  /// `why` set, when it cannot join; the group is then unchanged.
  bool tryAdd(Operation *item, SmallVector<KernelOp> kernels, std::string &why) {
    size_t firstNew = stages.size();
    SmallVector<Stage> grown = stages;
    std::vector<std::pair<KernelOp, size_t>> placed;
    for (KernelOp kernel : kernels) {
      size_t stage = grown.size();
      for (size_t s = firstNew; s < grown.size() && stage == grown.size(); ++s) {
        bool fits = sameStage(grown[s].kernels.front(), kernel);
        for (size_t t = s; t < grown.size() && fits; ++t)
          for (KernelOp other : grown[t].kernels)
            fits = fits && onExclusiveBranches(other, kernel);
        if (fits)
          stage = s;
      }
      if (stage == grown.size())
        grown.emplace_back();
      grown[stage].kernels.push_back(kernel);
      placed.push_back({kernel, stage});
    }
    std::set<Wait> added;
    bool dependsOnGroup = false;
    for (auto [kernel, stage] : placed) {
      const Accesses &mine = accessesOf(kernel);
      for (size_t s = 0; s < stage; ++s)
        for (KernelOp earlier : grown[s].kernels) {
          if (onExclusiveBranches(earlier, kernel))
            continue;
          PairWaits pair = waitsBetween(accessesOf(earlier), mine);
          if (pair.unrepresentable) {
            why = "'" + kernel.getName().str() + "' reaches '" +
                  fieldName(pair.unrepresentable).str() + "' of '" + earlier.getName().str() +
                  "' through two tables";
            return false;
          }
          for (auto [order, table] : pair.waits)
            added.insert({static_cast<int64_t>(stage), static_cast<int64_t>(s), order, table});
          dependsOnGroup |= !pair.waits.empty() && s < firstNew;
        }
    }
    if (!stages.empty() && !dependsOnGroup) {
      why = "'" + kernels.front().getName().str() + "' does not depend on the group";
      return false;
    }
    stages = std::move(grown);
    waits.insert(added.begin(), added.end());
    items.push_back(item);
    noteExchanges(item);
    return true;
  }

  /// Whether `op`, which cannot be a stage (a kernel on a point list, or a
  /// branch around one), commutes with everything in the group so far: it
  /// then moves before the group, which goes on after it.
  bool tryMoveAhead(Operation *op) {
    if (items.empty() || op->getNumResults() != 0)
      return false;
    SmallVector<KernelOp> kernels;
    WalkResult walked = op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
      if (auto kernel = dyn_cast<KernelOp>(nested)) {
        kernels.push_back(kernel);
        return WalkResult::skip();
      }
      if (nested != op && (isa<scf::IfOp, scf::YieldOp>(nested) ||
                           (isPure(nested) && nested->getNumRegions() == 0)))
        return WalkResult::advance();
      return nested == op && isa<scf::IfOp>(op) ? WalkResult::advance()
                                                : WalkResult::interrupt();
    });
    if (walked.wasInterrupted() || kernels.empty())
      return false;
    for (KernelOp kernel : kernels) {
      const Accesses &mine = accessesOf(kernel);
      for (const Stage &stage : stages)
        for (KernelOp member : stage.kernels)
          if (conflict(mine, accessesOf(member)))
            return false;
      for (Value field : exchanged)
        if (mine.reads.count(field) || mine.writes.contains(field))
          return false;
    }
    ahead.insert(op);
    return true;
  }

  bool worthIt() const { return stages.size() >= 2 && !waits.empty(); }
  bool empty() const { return items.empty(); }
  Operation *front() const { return items.front(); }
  Operation *back() const { return items.back(); }

  /// Wraps the ops from the first item to the last in an stn.wavefront.
  WavefrontOp materialise(int64_t tile, int64_t minLevels) {
    Operation *first = items.front(), *last = items.back();
    SmallVector<Operation *> run;
    for (Operation *op = first;; op = op->getNextNode()) {
      run.push_back(op);
      if (op == last)
        break;
    }
    // Pure ops move before the group: those between its items and those
    // inside its branches (they are speculatable); then what commutes with it.
    for (Operation *op : run) {
      if (isScalar(op)) {
        op->moveBefore(first);
        continue;
      }
      if (ahead.contains(op))
        continue;
      SmallVector<Operation *> inner;
      op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
        if (isa<KernelOp>(nested))
          return WalkResult::skip();
        if (nested != op && isPure(nested) && nested->getNumRegions() == 0 &&
            !nested->hasTrait<OpTrait::IsTerminator>())
          inner.push_back(nested);
        return WalkResult::advance();
      });
      for (Operation *nested : inner)
        nested->moveBefore(first);
    }
    OpBuilder builder(first);
    MLIRContext *context = builder.getContext();
    SmallVector<Attribute> encoded;
    for (const Wait &wait : waits)
      encoded.push_back(WavefrontOp::encodeWait(
          context, {wait.stage, wait.on, wait.order,
                    wait.table.empty() ? nullptr : FlatSymbolRefAttr::get(context, wait.table)}));
    auto wavefront = builder.create<WavefrontOp>(
        first->getLoc(), builder.getI64IntegerAttr(tile), builder.getI64IntegerAttr(minLevels),
        builder.getArrayAttr(encoded), ValueRange(), builder.getArrayAttr({}));
    for (Operation *op : run)
      if (ahead.contains(op))
        op->moveBefore(wavefront);
    Block *body = builder.createBlock(&wavefront.getBody());
    for (Operation *op : run)
      if (!isScalar(op) && !ahead.contains(op))
        op->moveBefore(body, body->end());
    for (auto [stage, members] : llvm::enumerate(stages))
      for (KernelOp kernel : members.kernels)
        kernel.setStage(stage);
    return wavefront;
  }

  size_t numStages() const { return stages.size(); }
  /// An exchange between the group's items: nothing moves across it.
  void noteExchange(ExchangeOp exchange) {
    if (!items.empty())
      exchanged.insert(exchange.getFields().begin(), exchange.getFields().end());
  }
  /// The ops that moved before the group, in program order.
  ArrayRef<Operation *> movedAhead() const { return ahead.getArrayRef(); }

private:
  /// Whether two kernels' order matters: one writes what the other accesses.
  static bool conflict(const Accesses &a, const Accesses &b) {
    for (Value field : a.writes)
      if (b.reads.count(field) || b.writes.contains(field))
        return true;
    for (Value field : b.writes)
      if (a.reads.count(field))
        return true;
    return false;
  }

  void noteExchanges(Operation *item) {
    item->walk([&](ExchangeOp exchange) { exchanged.insert(exchange.getFields().begin(),
                                                           exchange.getFields().end()); });
  }

  const Accesses &accessesOf(KernelOp kernel) {
    auto found = cache.find(kernel);
    if (found == cache.end())
      found = cache.emplace(kernel, Accesses(kernel)).first;
    return found->second;
  }

  SmallVector<Operation *> items;
  llvm::SetVector<Operation *> ahead;
  llvm::SetVector<Value> exchanged;
  SmallVector<Stage> stages;
  std::set<Wait> waits;
  /// Looked up, never iterated; std::map keeps references valid across inserts.
  std::map<Operation *, Accesses> cache;
};

/// `a - b` for two level bounds: 0 for one value, the difference of two constants.
std::optional<int64_t> boundDifference(Value a, Value b) {
  if (a == b)
    return 0;
  APInt x, y;
  if (matchPattern(a, m_ConstantInt(&x)) && matchPattern(b, m_ConstantInt(&y)))
    return x.getSExtValue() - y.getSExtValue();
  return std::nullopt;
}

/// Whether `kernel` writes `field` at every point and level it runs on.
bool writesEverywhere(KernelOp kernel, Value field) {
  return llvm::any_of(kernel.getBody().front().getOps<WriteOp>(),
                      [&](WriteOp write) { return write.getField() == field; });
}

/// Whether every run of `block` runs a kernel of `stage` that writes `field`
/// everywhere: one at its top, or on both sides of a branch.
bool stageAlwaysWrites(Block &block, int64_t stage, Value field) {
  for (Operation &op : block) {
    if (auto kernel = dyn_cast<KernelOp>(op))
      if (kernel.getStage() == stage && writesEverywhere(kernel, field))
        return true;
    if (auto branch = dyn_cast<scf::IfOp>(op))
      if (!branch.getElseRegion().empty() &&
          stageAlwaysWrites(branch.getThenRegion().front(), stage, field) &&
          stageAlwaysWrites(branch.getElseRegion().front(), stage, field))
        return true;
  }
  return false;
}

using FoldAccess = WavefrontOp::FoldAccess;

/// The kernels of a wavefront in program order, each with what it accesses.
using KernelAccesses = std::vector<std::pair<KernelOp, Accesses>>;

/// What each stage of `wavefront` does to `field`, or why it cannot be folded.
std::optional<SmallVector<FoldAccess>> foldAccesses(WavefrontOp wavefront,
                                                    const KernelAccesses &kernels, Value field,
                                                    std::string &why) {
  FieldShape shape = FieldShape::of(field.getType());
  if (!shape.location || !shape.sparse.empty() || shape.vertical == VerticalKind::None) {
    why = "it is not a field over points and levels";
    return std::nullopt;
  }
  for (Operation *user : field.getUsers()) {
    if (!wavefront->isProperAncestor(user)) {
      why = "it is used outside the group";
      return std::nullopt;
    }
    // The plan runs on one rank only, where exchanges do nothing.
    if (!isa<ExchangeOp>(user) && !user->getParentOfType<KernelOp>()) {
      why = "'" + user->getName().getStringRef().str() + "' uses it";
      return std::nullopt;
    }
  }
  // Per stage: writes, reads at the point, gathers by table (sorted, unique).
  std::set<std::tuple<int64_t, int, StringRef>> accesses;
  // Each kernel reading it, with the lowest and highest level offset it reads.
  struct Reader {
    KernelOp kernel;
    int64_t lowest = 0, highest = 0;
    bool dynamic = false;
  };
  SmallVector<Reader> readers;
  for (const auto &entry : kernels) {
    KernelOp kernel = entry.first;
    const Accesses &mine = entry.second;
    int64_t stage = *kernel.getStage();
    auto read = mine.reads.find(field);
    bool writes = mine.writes.contains(field);
    if (writes && read != mine.reads.end()) {
      why = "'" + kernel.getName().str() + "' both reads and writes it";
      return std::nullopt;
    }
    if (writes) {
      if (!writesEverywhere(kernel, field)) {
        why = "'" + kernel.getName().str() + "' writes it only at some points";
        return std::nullopt;
      }
      accesses.insert({stage, FoldAccess::Write, StringRef()});
    }
    if (read == mine.reads.end())
      continue;
    for (const Reach &how : read->second) {
      if (how.kind == Reach::Other) {
        why = "'" + kernel.getName().str() + "' reads it through two tables";
        return std::nullopt;
      }
      accesses.insert({stage, how.kind == Reach::Own ? FoldAccess::Read : FoldAccess::Gather,
                       how.table});
    }
    Reader &reader = readers.emplace_back(Reader{kernel});
    kernel.walk([&](LoadOp load) {
      if (load.getField() != field)
        return;
      reader.dynamic |= load.getDynOffset() != nullptr;
      reader.lowest = std::min(reader.lowest, load.getLevelOffset());
      reader.highest = std::max(reader.highest, load.getLevelOffset());
    });
  }
  if (accesses.empty()) {
    why = "no kernel of the group uses it";
    return std::nullopt;
  }
  int64_t first = std::get<0>(*accesses.begin());
  if (std::get<1>(*accesses.begin()) != FoldAccess::Write) {
    why = "stage " + std::to_string(first) + " reads it before any stage writes it";
    return std::nullopt;
  }
  for (auto [stage, kind, table] : accesses)
    if (kind == FoldAccess::Write &&
        !stageAlwaysWrites(wavefront.getBody().front(), stage, field)) {
      why = "stage " + std::to_string(stage) + " writes it on some branches only";
      return std::nullopt;
    }
  // Every read lies within the levels every kernel of the first stage writes.
  for (const auto &entry : kernels) {
    KernelOp writer = entry.first;
    if (static_cast<int64_t>(*writer.getStage()) != first)
      continue;
    for (const Reader &reader : readers) {
      KernelOp kernel = reader.kernel;
      std::optional<int64_t> below = boundDifference(kernel.getKlb(), writer.getKlb());
      std::optional<int64_t> above = boundDifference(kernel.getKub(), writer.getKub());
      if (reader.dynamic || !below || !above || *below + reader.lowest < 0 ||
          *above + reader.highest > 0) {
        why = "'" + kernel.getName().str() + "' may read levels '" + writer.getName().str() +
              "' does not write";
        return std::nullopt;
      }
    }
  }
  SmallVector<FoldAccess> list;
  MLIRContext *context = field.getContext();
  for (auto [stage, kind, table] : accesses)
    list.push_back({static_cast<FoldAccess::Kind>(kind), stage,
                    table.empty() ? nullptr : FlatSymbolRefAttr::get(context, table)});
  return list;
}

/// An op in a remark: the (first) kernel it holds.
std::string describe(Operation *op) {
  KernelOp kernel = dyn_cast<KernelOp>(op);
  if (!kernel)
    op->walk([&](KernelOp inner) {
      kernel = inner;
      return WalkResult::interrupt();
    });
  return "'" + (kernel ? kernel.getName() : op->getName().getStringRef()).str() + "'";
}

/// The kernels of an item, in program order, or nothing when `op` is no item:
/// a kernel, or a branch holding only kernels, exchanges, branches and pure
/// ops. `why` says what keeps it out.
std::optional<SmallVector<KernelOp>> itemKernels(Operation *op, std::string &why) {
  if (auto kernel = dyn_cast<KernelOp>(op)) {
    why = ineligible(kernel);
    if (!why.empty()) {
      why = "'" + kernel.getName().str() + "' " + why;
      return std::nullopt;
    }
    return SmallVector<KernelOp>{kernel};
  }
  auto branch = dyn_cast<scf::IfOp>(op);
  if (!branch || branch.getNumResults() != 0) {
    why = "'" + op->getName().getStringRef().str() + "' comes between";
    return std::nullopt;
  }
  SmallVector<KernelOp> kernels;
  WalkResult walked = op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
    if (auto kernel = dyn_cast<KernelOp>(nested)) {
      std::string reason = ineligible(kernel);
      if (!reason.empty()) {
        why = "'" + kernel.getName().str() + "' " + reason;
        return WalkResult::interrupt();
      }
      kernels.push_back(kernel);
      return WalkResult::skip();
    }
    // Branches with results would leave their values inside the group.
    if (isa<ExchangeOp, scf::YieldOp>(nested) ||
        (isa<scf::IfOp>(nested) && nested->getNumResults() == 0) ||
        (isPure(nested) && nested->getNumRegions() == 0))
      return WalkResult::advance();
    why = "'" + nested->getName().getStringRef().str() + "' comes between";
    return WalkResult::interrupt();
  });
  if (walked.wasInterrupted())
    return std::nullopt;
  if (kernels.empty()) {
    why = "a branch without kernels comes between";
    return std::nullopt;
  }
  return kernels;
}

struct WavefrontPass : public fusec::impl::WavefrontBase<WavefrontPass> {
  using WavefrontBase::WavefrontBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (targetOf(module) != "cpp" || !columnsLayout(module))
      return;
    if (tile < 1 || minLevels < 1) {
      module.emitError() << "stn-wavefront: tile and min-levels must be at least 1";
      return signalPassFailure();
    }
    for (ProgramOp program : module.getOps<ProgramOp>())
      groupBlock(program.getBody().front());
  }

  /// Folds the buffers only `wavefront` uses, where every read is of a value
  /// the group wrote (foldAccesses), in the order of the program's allocs.
  void foldBuffers(WavefrontOp wavefront) {
    KernelAccesses kernels;
    llvm::SetVector<Value> candidates;
    for (KernelOp kernel : wavefront.getKernels()) {
      const Accesses &mine = kernels.emplace_back(kernel, Accesses(kernel)).second;
      for (Value field : mine.writes)
        if (field.getDefiningOp<AllocOp>())
          candidates.insert(field);
    }
    SmallVector<Value> folds;
    SmallVector<Attribute> lists;
    MLIRContext *context = wavefront.getContext();
    for (Value field : candidates) {
      std::string why;
      std::optional<SmallVector<FoldAccess>> accesses = foldAccesses(wavefront, kernels, field, why);
      if (!accesses) {
        if (auto diag = remark("stn-wavefront", wavefront))
          *diag << "'" << fieldName(field) << "' is not folded: " << why;
        continue;
      }
      SmallVector<Attribute> encoded;
      for (const FoldAccess &access : *accesses)
        encoded.push_back(WavefrontOp::encodeFoldAccess(context, access));
      folds.push_back(field);
      lists.push_back(ArrayAttr::get(context, encoded));
      ++numFolds;
    }
    wavefront.getFoldsMutable().assign(folds);
    wavefront.setFoldAccessesAttr(ArrayAttr::get(context, lists));
  }

  void groupBlock(Block &block) {
    Group group;
    auto close = [&](StringRef why) {
      if (group.empty())
        return;
      if (group.worthIt()) {
        WavefrontOp wavefront = group.materialise(tile, minLevels);
        ++numGroups;
        numStages += group.numStages();
        if (fold)
          foldBuffers(wavefront);
        if (auto diag = remark("stn-wavefront", wavefront)) {
          *diag << "wavefront of " << group.numStages() << " stages:";
          for (KernelOp kernel : wavefront.getKernels())
            *diag << " '" << kernel.getName() << "' (stage " << *kernel.getStage() << ")";
          for (Value folded : wavefront.getFolds())
            *diag << (folded == wavefront.getFolds().front() ? "; folds" : ",") << " '"
                  << fieldName(folded) << "'";
          for (Operation *moved : group.movedAhead())
            if (moved->getBlock() == wavefront->getBlock() && moved->isBeforeInBlock(wavefront))
              *diag << "; " << describe(moved) << " moves before it";
          if (!why.empty())
            *diag << "; it ends because " << why;
        }
      }
      group = Group();
    };
    for (Operation &op : llvm::make_early_inc_range(block.without_terminator())) {
      if (isScalar(&op))
        continue;
      if (isa<ExchangeOp>(op)) {
        group.noteExchange(cast<ExchangeOp>(op));
        continue;
      }
      std::string why;
      std::optional<SmallVector<KernelOp>> kernels = itemKernels(&op, why);
      if (kernels && group.tryAdd(&op, *kernels, why))
        continue;
      if (!kernels && group.tryMoveAhead(&op))
        continue;
      close(why);
      if (kernels && !group.tryAdd(&op, *kernels, why))
        group = Group();
    }
    close("");
    // Groups inside the branches no group took.
    for (Operation &op : block)
      if (auto branch = dyn_cast<scf::IfOp>(op))
        for (Region &region : branch->getRegions())
          for (Block &inner : region)
            groupBlock(inner);
  }
};

} // namespace
