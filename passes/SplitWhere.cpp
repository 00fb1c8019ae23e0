//===- SplitWhere.cpp - each side of a `where` only where it is taken -----===//
//
// ICON's OpenACC code runs each branch of its diffusion as its own loop over
// the index range and under the `IF` that select it; the stencils, written as
// ICON4Py writes them, select per point with `where`. Without fusion every
// side of such a `where` is a kernel over the whole domain plus a select
// kernel. This pass gives the `none` pipeline ICON's loops: selects on uniform
// conditions become program-level branches, selects on index and level ranges
// become stores over the boxes where each side is taken, and the applications
// only one branch needs move into it; domain inference then computes each
// side only where it is used.
//
//===----------------------------------------------------------------------===//

#include "passes/DomainUtils.h"
#include "passes/FusionUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace fusec {
#define GEN_PASS_DEF_SPLITWHERE
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// A condition on the index of the point or on the level:
/// `index >= bound + offset` (a lower bound) or `index < bound + offset`.
struct RangeCondition {
  Value condition;
  bool horizontal;
  bool lower;
  Value bound; // uniform in the application
  int64_t offset;

  bool sameAs(const RangeCondition &other) const {
    if (horizontal != other.horizontal || lower != other.lower)
      return false;
    if (bound == other.bound)
      return offset == other.offset;
    std::optional<int64_t> a = getConstantBound(bound), b = getConstantBound(other.bound);
    return a && b && *a + offset == *b + other.offset;
  }
};

/// The conditions an application's selects depend on, when the application
/// is a selection: a body without regions, effects other than reads at its own
/// point and level, and selects whose conditions combine (`and`, `or`, `not`)
/// uniform values and comparisons of the index or level with uniform bounds.
struct Selection {
  SmallVector<Value> uniform;
  SmallVector<RangeCondition> ranges;
};

class SelectionAnalysis {
public:
  explicit SelectionAnalysis(ApplyOp apply) : apply(apply) {}

  FailureOr<Selection> run() {
    if (!apply.getPoint())
      return failure();
    Selection selection;
    for (Operation &op : apply.getBody().front()) {
      if (op.getNumRegions() != 0)
        return failure();
      if (auto load = dyn_cast<LoadOp>(op)) {
        if (load.getPoint() != apply.getPoint() || load.getNbr() || load.getDynOffset() ||
            load.getLevel() || load.getLevelOffset() != 0)
          return failure();
        continue;
      }
      if (auto select = dyn_cast<arith::SelectOp>(op))
        if (failed(collect(select.getCondition(), selection)))
          return failure();
      if (!isa<YieldOp, IndexOp, LevelOp>(op) && !isMemoryEffectFree(&op))
        return failure();
    }
    return selection;
  }

private:
  LogicalResult collect(Value condition, Selection &selection) {
    if (isUniformIn(condition, apply, uniform)) {
      if (!llvm::is_contained(selection.uniform, condition))
        selection.uniform.push_back(condition);
      return success();
    }
    Operation *def = condition.getDefiningOp();
    if (isa_and_nonnull<arith::AndIOp, arith::OrIOp>(def))
      return success(succeeded(collect(def->getOperand(0), selection)) &&
                     succeeded(collect(def->getOperand(1), selection)));
    if (auto negation = dyn_cast_or_null<arith::XOrIOp>(def)) {
      for (unsigned side : {0u, 1u})
        if (matchPattern(negation->getOperand(1 - side), m_One()))
          return collect(negation->getOperand(side), selection);
      return failure();
    }
    auto compare = dyn_cast_or_null<arith::CmpIOp>(def);
    if (!compare)
      return failure();
    std::optional<RangeCondition> range = rangeOf(compare);
    if (!range)
      return failure();
    for (const RangeCondition &known : selection.ranges)
      if (known.condition == condition)
        return success();
    selection.ranges.push_back(*range);
    return success();
  }

  /// `compare` as a range condition, when one side is the index or level and
  /// the other is uniform.
  std::optional<RangeCondition> rangeOf(arith::CmpIOp compare) {
    arith::CmpIPredicate predicate = compare.getPredicate();
    Value index = compare.getLhs(), bound = compare.getRhs();
    if (!isIndex(index)) {
      std::swap(index, bound);
      predicate = swapOperands(predicate);
    }
    if (!isIndex(index) || !isUniformIn(bound, apply, uniform))
      return std::nullopt;
    auto level = index.getDefiningOp<LevelOp>();
    std::optional<RangeEnd> end = rangeEndOf(predicate, level ? -level.getLevelOffset() : 0);
    if (!end)
      return std::nullopt;
    return RangeCondition{compare.getResult(), !level, end->lower, bound, end->offset};
  }

  bool isIndex(Value value) {
    if (auto index = value.getDefiningOp<IndexOp>())
      return index.getPoint() == apply.getPoint();
    auto level = value.getDefiningOp<LevelOp>();
    return level && !level.getLevel() && apply->isProperAncestor(level);
  }

  ApplyOp apply;
  llvm::DenseMap<Value, bool> uniform;
};

/// A box of the iteration space: horizontal and vertical index ranges.
struct Box {
  IndexRange horizontal, vertical;
};

/// Field targets of an application's results: result number and field.
using Targets = SmallVector<std::pair<unsigned, Value>>;

struct SplitWhereImpl {
  SplitWhereImpl(FrozenRewritePatternSet &patterns) : patterns(patterns) {}

  /// Splits `apply` (a selection) and reports whether anything changed.
  /// Bounds of the boxes it stores over are computed before `anchor` (by
  /// default `apply`), so that applications before it can be given them.
  bool run(ApplyOp apply, Operation *anchor = nullptr) {
    FailureOr<Selection> selection = SelectionAnalysis(apply).run();
    if (failed(selection))
      return false;
    if (!selection->uniform.empty() && unswitch(apply, selection->uniform.front(), anchor))
      return true;
    std::optional<Targets> targets = storedOnlyOverDomain(apply);
    if (targets && (!selection->ranges.empty() || forwardsAny(apply, *targets))) {
      // The versions go after `apply`, its boxes' bounds before it.
      OpBuilder builder(apply);
      builder.setInsertionPointAfter(apply);
      auto version = cast<ApplyOp>(builder.clone(*apply));
      created.clear();
      splitOnRanges(version, domainOf(apply), *targets, anchor ? anchor : apply.getOperation());
      eraseWithStores(apply);
      joinStores();
      return true;
    }
    if (!targets && !apply.isDomainInferred())
      return forward(apply);
    return false;
  }

  /// Moves every application whose uses all lie in a later program-level
  /// branch into it: into the side that uses it, or a copy into each side
  /// when both do (one of them runs). Returns whether one moved.
  bool sinkIntoBranches(ProgramOp program) {
    SmallVector<ApplyOp> applies;
    program.walk([&](ApplyOp apply) { applies.push_back(apply); });
    bool moved = false;
    for (ApplyOp apply : llvm::reverse(applies)) {
      Block *block = apply->getBlock();
      scf::IfOp branch;
      bool inBranch = !apply->use_empty();
      for (Operation *user : apply->getUsers()) {
        auto candidate = dyn_cast_or_null<scf::IfOp>(block->findAncestorOpInBlock(*user));
        inBranch &= candidate && (!branch || candidate == branch);
        branch = candidate;
      }
      if (!inBranch || !interferenceBetween(apply, branch, apply).empty())
        continue;
      for (Region *side : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!side->empty())
          sinkInto(apply, side->front());
      apply.erase();
      ++sunk;
      moved = true;
    }
    return moved;
  }

  /// Cuts are shared within one selection's split only (anchors go away).
  void forgetCuts() { cuts.clear(); }

  int64_t unswitched = 0, boxes = 0, sunk = 0;

private:
  /// The fields `apply`'s results are stored into, when every use is a store
  /// right after it over its own domain, a box (a point list has no boxes to
  /// cut into).
  std::optional<Targets> storedOnlyOverDomain(ApplyOp apply) {
    if (!apply.isDomainInferred() || !apply.hasVerticalDomain() || !apply.hasHorizontalDomain() ||
        apply.getPoints())
      return std::nullopt;
    Targets targets;
    Operation *next = apply->getNextNode();
    unsigned uses = 0;
    for (OpResult result : apply->getResults())
      uses += std::distance(result.use_begin(), result.use_end());
    for (unsigned i = 0; i < uses; ++i, next = next->getNextNode()) {
      auto store = dyn_cast_or_null<StoreOp>(next);
      if (!store || store.getValue().getDefiningOp() != apply ||
          !sameDomain(getDomain(store), getDomain(apply)))
        return std::nullopt;
      targets.push_back({cast<OpResult>(store.getValue()).getResultNumber(), store.getField()});
    }
    return targets.empty() ? std::nullopt : std::optional<Targets>(targets);
  }

  static Box domainOf(ApplyOp apply) {
    Domain domain = getDomain(apply);
    return Box{*domain.horizontal, *domain.vertical};
  }

  static void eraseWithStores(ApplyOp apply) {
    for (Operation *user : llvm::make_early_inc_range(apply->getUsers()))
      user->erase();
    apply.erase();
  }

  /// Replaces the uses of `value` inside `within` by a constant.
  static void assume(ApplyOp within, Value value, bool holds) {
    OpBuilder builder = OpBuilder::atBlockBegin(&within.getBody().front());
    Value constant = builder.create<arith::ConstantIntOp>(within.getLoc(), holds, 1);
    value.replaceUsesWithIf(constant, [&](OpOperand &use) {
      return within->isProperAncestor(use.getOwner());
    });
  }

  void fold(ApplyOp apply) {
    (void)applyPatternsAndFoldGreedily(apply.getBody(), patterns);
  }

  /// Clones the uniform computation of `value` in `apply` before `anchor`.
  static Value hoist(Value value, ApplyOp apply, Operation *anchor, IRMapping &mapping) {
    OpBuilder builder(anchor);
    return cloneUniformComputation(builder, value, apply, mapping);
  }

  /// Puts `apply` and everything after it that depends on it into a branch on
  /// `condition`, once per side with the condition known.
  bool unswitch(ApplyOp apply, Value condition, Operation *anchor) {
    Block *block = apply->getBlock();
    // The operations from `apply` to its last (transitive) user in the block.
    llvm::SmallPtrSet<Operation *, 16> dependent{apply};
    Operation *last = apply;
    for (Operation *op = apply; op; op = op->getNextNode()) {
      if (op->hasTrait<OpTrait::IsTerminator>())
        break;
      bool uses = dependent.contains(op);
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (Operation *def = operand.getDefiningOp())
            uses |= dependent.contains(block->findAncestorOpInBlock(*def));
      });
      if (uses) {
        dependent.insert(op);
        last = op;
      }
    }
    SmallVector<Operation *> range;
    for (Operation *op = apply;; op = op->getNextNode()) {
      range.push_back(op);
      if (op == last)
        break;
    }
    for (Operation *op : range)
      for (Operation *user : op->getUsers())
        if (!llvm::is_contained(range, block->findAncestorOpInBlock(*user)))
          return false;

    IRMapping hoisted;
    Value outside = hoist(condition, apply, apply, hoisted);
    OpBuilder builder(apply);
    auto branch = builder.create<scf::IfOp>(apply.getLoc(), TypeRange(), outside,
                                            /*withElseRegion=*/true);
    ApplyOp versions[2];
    for (bool holds : {true, false}) {
      OpBuilder inside = OpBuilder::atBlockBegin(holds ? branch.thenBlock() : branch.elseBlock());
      IRMapping mapping;
      for (Operation *op : range)
        inside.clone(*op, mapping);
      auto version = cast<ApplyOp>(mapping.lookup(apply.getOperation()));
      assume(version, mapping.lookupOrDefault(condition), holds);
      fold(version);
      versions[holds ? 0 : 1] = version;
    }
    for (Operation *op : llvm::reverse(range))
      op->erase();
    ++unswitched;
    for (ApplyOp version : versions)
      run(version, anchor ? anchor : branch.getOperation());
    return true;
  }

  /// Splits `version` (stored over `box`; a copy this call owns) on its first
  /// range condition, each part again until no condition is left. Parts go
  /// before `version`, bounds before `anchor`.
  void splitOnRanges(ApplyOp version, Box box, const Targets &targets, Operation *anchor) {
    FailureOr<Selection> selection = SelectionAnalysis(version).run();
    if (failed(selection) || selection->ranges.empty()) {
      finish(version, box, targets);
      keepUsedResults(version);
      return;
    }
    // Horizontal ranges first: ICON's loops split the points, then the levels.
    const RangeCondition *chosen = &selection->ranges.front();
    for (const RangeCondition &range : selection->ranges)
      if (range.horizontal) {
        chosen = &range;
        break;
      }
    RangeCondition range = *chosen;
    const IndexRange &axis = range.horizontal ? box.horizontal : box.vertical;
    Value cut = cutAt(range, version, axis, anchor);
    for (bool holds : {true, false}) {
      Box part = box;
      IndexRange &partAxis = range.horizontal ? part.horizontal : part.vertical;
      (holds == range.lower ? partAxis.lb : partAxis.ub) = cut;
      OpBuilder at(version);
      auto child = cast<ApplyOp>(at.clone(*version));
      child.setDomain(part.horizontal.lb, part.horizontal.ub, part.vertical.lb, part.vertical.ub);
      FailureOr<Selection> cloned = SelectionAnalysis(child).run();
      for (const RangeCondition &other : cloned->ranges)
        if (other.sameAs(range))
          assume(child, other.condition, holds);
      fold(child);
      splitOnRanges(child, part, targets, anchor);
    }
    version.erase();
  }

  /// Puts a copy of `apply` into `block` for the uses there: right before the
  /// first, so that nothing comes between it and the stores of its results,
  /// unless something before that writes what it reads.
  static void sinkInto(ApplyOp apply, Block &block) {
    Operation *first = nullptr;
    for (Operation *user : apply->getUsers())
      if (Operation *ancestor = block.findAncestorOpInBlock(*user))
        if (!first || ancestor->isBeforeInBlock(first))
          first = ancestor;
    if (!first)
      return;
    SmallVector<Value> read = fieldsReadBy(apply);
    for (Operation *op = &block.front(); op != first; op = op->getNextNode())
      if (isa<ExchangeOp>(op) ||
          (llvm::any_of(read, [&](Value field) { return writesField(op, field); }) &&
           !writesElsewhere(op, apply, block))) {
        first = &block.front();
        break;
      }
    OpBuilder builder(first);
    Operation *copy = builder.clone(*apply);
    for (auto [result, copied] : llvm::zip(apply->getResults(), copy->getResults()))
      result.replaceUsesWithIf(copied, [&](OpOperand &use) {
        return block.findAncestorOpInBlock(*use.getOwner()) != nullptr;
      });
  }

  /// Whether `op` is a store that writes none of what `apply` reads in
  /// `block`: `apply` reads that field only at its own point and level, and
  /// its one store in `block` (hence its domain) ends where `op`'s begins (the
  /// lateral boundary rows of vn, stored after the nudging zone).
  static bool writesElsewhere(Operation *op, ApplyOp apply, Block &block) {
    auto store = dyn_cast<StoreOp>(op);
    if (!store)
      return false;
    SmallVector<StoreOp> own;
    for (Operation *user : apply->getUsers()) {
      if (!block.findAncestorOpInBlock(*user))
        continue;
      auto ownStore = dyn_cast<StoreOp>(user);
      if (!ownStore || ownStore->getBlock() != &block)
        return false;
      own.push_back(ownStore);
    }
    return !readsAwayFromCentre(apply, store.getField()) && own.size() == 1 &&
           disjointDomains(getDomain(store), getDomain(own.front()));
  }

  /// Where `range` cuts `axis` (clamped into it), computed once per anchor.
  Value cutAt(const RangeCondition &range, ApplyOp version, const IndexRange &axis,
              Operation *anchor) {
    IRMapping hoisted;
    Value bound = hoist(range.bound, version, anchor, hoisted);
    for (const Cut &known : cuts)
      if (known.anchor == anchor && known.offset == range.offset && sameBound(known.bound, bound) &&
          known.axis == axis)
        return known.value;
    OpBuilder builder(anchor);
    BoundsBuilder bounds(builder, version.getLoc());
    Value cut = bounds.min(bounds.max(bounds.add(bound, range.offset), axis.lb), axis.ub);
    cuts.push_back({anchor, bound, range.offset, axis, cut});
    return cut;
  }

  /// The temporary `value` forwards unchanged (a load of it at the point).
  static Value forwardedTemp(Value value, Type type) {
    auto load = value.getDefiningOp<LoadOp>();
    if (!load || !isa<TempType>(load.getField().getType()) || load.getField().getType() != type)
      return Value();
    return load.getField();
  }

  /// Whether `value` is `field` read back unchanged (a selection reads only at
  /// its own point and level).
  static bool keepsField(Value value, Value field) {
    auto load = value.getDefiningOp<LoadOp>();
    return load && load.getField() == field;
  }

  /// Whether a result of `apply` is, unchanged, its own target or a temporary.
  bool forwardsAny(ApplyOp apply, const Targets &targets) {
    YieldOp yield = apply.getYield();
    for (auto [result, field] : targets) {
      Value value = yield.getOperand(result);
      if (keepsField(value, field) || forwardedTemp(value, apply.getResult(result).getType()))
        return true;
    }
    return false;
  }

  /// Stores what `apply` (free of range conditions) computes over `box`: a
  /// target read back unchanged is left alone, a forwarded temporary is
  /// stored directly, anything else from `apply` itself.
  void finish(ApplyOp apply, Box box, const Targets &targets) {
    YieldOp yield = apply.getYield();
    OpBuilder builder(apply);
    builder.setInsertionPointAfter(apply);
    for (auto [result, field] : targets) {
      Value value = yield.getOperand(result);
      if (keepsField(value, field))
        continue;
      Value stored = forwardedTemp(value, apply.getResult(result).getType());
      if (!stored)
        stored = apply.getResult(result);
      created.push_back(builder.create<StoreOp>(apply.getLoc(), stored, field, box.horizontal.lb,
                                                box.horizontal.ub, box.vertical.lb,
                                                box.vertical.ub, Value()));
      ++boxes;
    }
  }

  /// The box two boxes form together, when they do: the same range on one
  /// axis, one ending where the other begins on the other.
  static std::optional<Box> join(const Domain &a, const Domain &b) {
    auto adjacent = [](const IndexRange &x, const IndexRange &y) -> std::optional<IndexRange> {
      if (sameBound(x.ub, y.lb))
        return IndexRange{x.lb, y.ub};
      if (sameBound(y.ub, x.lb))
        return IndexRange{y.lb, x.ub};
      return std::nullopt;
    };
    if (*a.horizontal == *b.horizontal)
      if (std::optional<IndexRange> vertical = adjacent(*a.vertical, *b.vertical))
        return Box{*a.horizontal, *vertical};
    if (*a.vertical == *b.vertical)
      if (std::optional<IndexRange> horizontal = adjacent(*a.horizontal, *b.horizontal))
        return Box{*horizontal, *a.vertical};
    return std::nullopt;
  }

  /// Stores one split made of the same temporary into the same field over
  /// boxes that form a box together become one store, so its kernel writes
  /// under fewer conditions. The split's boxes are disjoint and nothing in
  /// between reads the field there, so the earlier store may wait for the
  /// later one.
  void joinStores() {
    for (bool joined = true; joined;) {
      joined = false;
      for (size_t i = 0; i < created.size() && !joined; ++i)
        for (size_t j = i + 1; j < created.size() && !joined; ++j) {
          StoreOp first = created[i], second = created[j];
          if (first.getValue() != second.getValue() || first.getField() != second.getField())
            continue;
          std::optional<Box> box = join(getDomain(first), getDomain(second));
          if (!box)
            continue;
          OpBuilder builder(second);
          created[j] = builder.create<StoreOp>(second.getLoc(), second.getValue(),
                                               second.getField(), box->horizontal.lb,
                                               box->horizontal.ub, box->vertical.lb,
                                               box->vertical.ub, Value());
          second.erase();
          first.erase();
          created.erase(created.begin() + i);
          --boxes;
          joined = true;
        }
    }
  }

  /// Drops the results of `apply` nothing uses (and what only they read), or
  /// `apply` itself when none is used: a part that keeps a field unchanged
  /// does not read it.
  void keepUsedResults(ApplyOp apply) {
    SmallVector<unsigned> used;
    for (OpResult result : apply->getResults())
      if (!result.use_empty())
        used.push_back(result.getResultNumber());
    if (used.empty()) {
      apply.erase();
      return;
    }
    if (used.size() == apply->getNumResults())
      return;
    SmallVector<Type> types;
    for (unsigned index : used)
      types.push_back(apply->getResult(index).getType());
    OpBuilder builder(apply);
    auto slim = builder.create<ApplyOp>(apply.getLoc(), types, apply.getLocation(), apply.getHlb(),
                                        apply.getHub(), apply.getKlb(), apply.getKub());
    if (auto name = apply.getNameAttr())
      slim.setNameAttr(name);
    slim.getBody().takeBody(apply.getBody());
    YieldOp yield = slim.getYield();
    SmallVector<Value> kept;
    for (unsigned index : used)
      kept.push_back(yield.getOperand(index));
    yield->setOperands(kept);
    for (auto [position, index] : llvm::enumerate(used))
      apply->getResult(index).replaceAllUsesWith(slim->getResult(position));
    apply.erase();
    fold(slim);
  }

  /// Replaces a temporary that only forwards others by them.
  bool forward(ApplyOp apply) {
    YieldOp yield = apply.getYield();
    SmallVector<Value> temps;
    for (auto [index, value] : llvm::enumerate(yield.getOperands())) {
      Value temp = forwardedTemp(value, apply.getResult(index).getType());
      if (!temp)
        return false;
      temps.push_back(temp);
    }
    for (auto [result, temp] : llvm::zip(apply.getResults(), temps))
      result.replaceAllUsesWith(temp);
    apply.erase();
    return true;
  }

  FrozenRewritePatternSet &patterns;
  struct Cut {
    Operation *anchor;
    Value bound;
    int64_t offset;
    IndexRange axis;
    Value value;
  };
  SmallVector<Cut> cuts;
  SmallVector<StoreOp> created; // by the split under way
};

struct SplitWherePass : public fusec::impl::SplitWhereBase<SplitWherePass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      if (op.getDialectNamespace() == "arith")
        op.getCanonicalizationPatterns(set, context);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    SplitWhereImpl impl(patterns);
    getOperation().walk([&](ProgramOp program) {
      SmallVector<ApplyOp> applies;
      program.walk([&](ApplyOp apply) { applies.push_back(apply); });
      bool changed = false;
      // Later applications first: a selection's own uses are settled before
      // the selections it reads are looked at.
      for (ApplyOp apply : llvm::reverse(applies)) {
        std::string name = apply.getName().value_or("application").str();
        impl.forgetCuts();
        if (!impl.run(apply))
          continue;
        changed = true;
        if (auto diag = remark("stn-split-where", program))
          *diag << "'" << name << "' selects by index, level or a uniform condition: each side "
                << "is now computed only where it is taken";
      }
      if (!changed)
        return;
      while (impl.sinkIntoBranches(program)) {
      }
      // Folding left constants at program level that nothing uses.
      SmallVector<Operation *> hostOps;
      program.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa<ApplyOp>(op))
          return WalkResult::skip();
        if (isa<arith::ArithDialect>(op->getDialect()))
          hostOps.push_back(op);
        return WalkResult::advance();
      });
      for (Operation *op : llvm::reverse(hostOps))
        if (isOpTriviallyDead(op))
          op->erase();
    });
    numUnswitched += impl.unswitched;
    numStores += impl.boxes;
    numSunk += impl.sunk;
  }

  FrozenRewritePatternSet patterns;
};

} // namespace
