//===- FusionUtils.cpp - shared pieces of the fusion passes ---------------===//

#include "passes/FusionUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "passes/DomainUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <array>

using namespace mlir;
using namespace fusec::stn;

namespace fusec {

std::string describeApply(ApplyOp apply) {
  if (auto name = apply.getName())
    return ("'" + *name + "'").str();
  return "an unnamed application";
}

Value inlineProducer(OpBuilder &builder, ApplyOp producer, unsigned resultIndex, Value point,
                     int64_t levelOffset) {
  IRMapping mapping;
  Block &body = producer.getBody().front();
  if (producer.getPoint())
    mapping.map(producer.getPoint(), point);
  for (Operation &op : body.without_terminator()) {
    Operation *clone = builder.clone(op, mapping);
    if (levelOffset == 0)
      continue;
    clone->walk([&](Operation *nested) {
      if (auto load = dyn_cast<LoadOp>(nested)) {
        if (FieldShape::of(load.getField().getType()).vertical != VerticalKind::None)
          load.setOffset(static_cast<uint64_t>(load.getLevelOffset() + levelOffset));
      } else if (auto level = dyn_cast<LevelOp>(nested)) {
        level.setOffset(static_cast<uint64_t>(level.getLevelOffset() + levelOffset));
      }
    });
  }
  // The producer may yield a value defined outside it (a scalar parameter).
  Value value = mapping.lookupOrDefault(producer.getYield().getValues()[resultIndex]);
  if (!point || !mayBeMissing(point))
    return value;
  Location loc = producer.getLoc();
  Value valid = builder.create<ValidOp>(loc, point);
  Value zero = builder.create<arith::ConstantOp>(loc, builder.getZeroAttr(value.getType()));
  return builder.create<arith::SelectOp>(loc, valid, value, zero);
}

bool isUniformIn(Value value, Operation *root, llvm::DenseMap<Value, bool> &known) {
  if (auto found = known.find(value); found != known.end())
    return found->second;
  Operation *definition = value.getDefiningOp();
  bool uniform;
  if (!definition)
    uniform = !root->isAncestor(value.getParentBlock()->getParentOp());
  else if (!root->isProperAncestor(definition))
    uniform = true;
  else
    uniform = (isa<NumLevelsOp>(definition) || !isa<StnDialect>(definition->getDialect())) &&
              definition->getNumRegions() == 0 && isMemoryEffectFree(definition) &&
              llvm::all_of(definition->getOperands(), [&](Value operand) {
                return isUniformIn(operand, root, known);
              });
  known[value] = uniform;
  return uniform;
}

Value cloneUniformComputation(OpBuilder &builder, Value value, Operation *root,
                              IRMapping &mapping) {
  if (Value known = mapping.lookupOrNull(value))
    return known;
  Operation *definition = value.getDefiningOp();
  if (!definition || !root->isProperAncestor(definition))
    return value;
  for (Value operand : definition->getOperands())
    cloneUniformComputation(builder, operand, root, mapping);
  Operation *clone = builder.clone(*definition, mapping);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

int64_t multiplicity(Operation *op, Operation *root) {
  int64_t count = 1;
  for (auto reduce = op->getParentOfType<ReduceOp>(); reduce && root->isAncestor(reduce);
       reduce = reduce->getParentOfType<ReduceOp>())
    if (ConnectivityOp conn = lookupConnectivity(reduce, reduce.getConnAttr()))
      count *= conn.getSize();
  return count;
}

bool readsAwayFromCentre(ApplyOp apply, Value field) {
  bool away = false;
  apply.walk([&](LoadOp load) {
    if (load.getField() == field &&
        (load.getPoint() != apply.getPoint() || load.getLevelOffset() != 0 || load.getDynOffset()))
      away = true;
  });
  return away;
}

bool isCentreRead(LoadOp load, ApplyOp apply, Value field) {
  return load.getField() == field && load->getParentOp() == apply.getOperation() &&
         load.getPoint() == apply.getPoint() && !load.getNbr() && !load.getDynOffset() &&
         !load.getLevel() && load.getLevelOffset() == 0;
}

bool readsAtDataDependentLevels(ApplyOp apply) {
  return apply
      .walk([](LoadOp load) {
        return load.getDynOffset() ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

SmallVector<Value> fieldsReadBy(Operation *op) {
  SmallVector<Value> fields;
  op->walk([&](LoadOp load) {
    Value field = load.getField();
    if (isa<FieldType>(field.getType()) && !llvm::is_contained(fields, field))
      fields.push_back(field);
  });
  return fields;
}

bool writesField(Operation *op, Value field) {
  bool writes = false;
  op->walk([&](Operation *nested) {
    if (auto store = dyn_cast<StoreOp>(nested))
      writes |= store.getField() == field;
    else if (auto write = dyn_cast<WriteOp>(nested))
      writes |= write.getField() == field;
    else if (auto exchange = dyn_cast<ExchangeOp>(nested))
      writes |= llvm::is_contained(exchange.getFields(), field);
  });
  return writes;
}

bool touches(Operation *op, Value value) {
  return op
      ->walk([&](Operation *nested) {
        return llvm::is_contained(nested->getOperands(), value) ? WalkResult::interrupt()
                                                                : WalkResult::advance();
      })
      .wasInterrupted();
}

std::string interferenceBetween(Operation *from, Operation *to, Operation *reader) {
  if (from->getBlock() != to->getBlock())
    return "they are in different branches";
  SmallVector<Value> inputs = fieldsReadBy(reader);
  for (Operation *op = from->getNextNode(); op && op != to; op = op->getNextNode()) {
    bool hasExchange = false;
    op->walk([&](ExchangeOp) { hasExchange = true; });
    if (hasExchange)
      return "a halo exchange lies between them";
    for (Value field : inputs)
      if (writesField(op, field)) {
        std::string name = "a field";
        if (auto arg = dyn_cast<BlockArgument>(field))
          if (auto program = dyn_cast<ProgramOp>(arg.getOwner()->getParentOp());
              program && !program.getArgName(arg.getArgNumber()).empty())
            name = ("'" + program.getArgName(arg.getArgNumber()) + "'").str();
        if (auto alloc = field.getDefiningOp<AllocOp>())
          if (auto allocName = alloc.getName())
            name = ("'" + *allocName + "'").str();
        return name + " it reads is written in between";
      }
  }
  return "";
}

} // namespace fusec

namespace fusec {

/// The vertical kinds of `apply`'s results (full or half levels, or none).
static SmallVector<VerticalKind> verticalKinds(ApplyOp apply) {
  SmallVector<VerticalKind> kinds;
  for (Type type : apply.getResultTypes())
    kinds.push_back(FieldShape::of(type).vertical);
  return kinds;
}

/// One application computes results of one vertical kind, or of both when
/// each part with full-level results runs over the other's levels too: the
/// hull of a half-level domain and a full-level one may otherwise reach past
/// the full levels.
static bool levelsFitVerticalKinds(ApplyOp a, ApplyOp b) {
  SmallVector<VerticalKind> kindsOfA = verticalKinds(a), kindsOfB = verticalKinds(b);
  SmallVector<VerticalKind> kinds(kindsOfA);
  llvm::append_range(kinds, kindsOfB);
  if (llvm::all_equal(kinds))
    return true;
  if (llvm::is_contained(kinds, VerticalKind::None))
    return false;
  std::optional<IndexRange> levelsOfA = getDomain(a).vertical, levelsOfB = getDomain(b).vertical;
  if (!levelsOfA || !levelsOfB)
    return false;
  return (!llvm::is_contained(kindsOfA, VerticalKind::Full) ||
          rangeContains(*levelsOfA, *levelsOfB)) &&
         (!llvm::is_contained(kindsOfB, VerticalKind::Full) ||
          rangeContains(*levelsOfB, *levelsOfA));
}

bool mergeFirstCompatiblePair(
    ProgramOp program, function_ref<bool(ApplyOp, ApplyOp)> compatible,
    function_ref<void(ApplyOp merged, const std::string &message)> explain) {
  SmallVector<ApplyOp> all;
  program.walk([&](ApplyOp apply) { all.push_back(apply); });
  for (auto [i, earlier] : llvm::enumerate(all))
    for (ApplyOp later : llvm::ArrayRef(all).drop_front(i + 1)) {
      if (earlier->getBlock() != later->getBlock() || !earlier.isDomainInferred() ||
          !later.isDomainInferred() || earlier.getLocation() != later.getLocation() ||
          !levelsFitVerticalKinds(earlier, later) || !compatible(earlier, later) ||
          readsResultOf(later, earlier) ||
          !interferenceBetween(earlier, later, later).empty())
        continue;
      std::string names = describeApply(earlier) + " and " + describeApply(later);
      if (FailureOr<ApplyOp> merged = mergeApplies(earlier, later); succeeded(merged)) {
        explain(*merged, names);
        return true;
      }
    }
  return false;
}

static SmallVector<Value> capturedValues(Region &region);

/// Why `later` cannot move up to `earlier`: what it uses that is computed
/// between them.
static std::string computedBetween(ApplyOp earlier, ApplyOp later) {
  for (Value value : capturedValues(later.getBody()))
    if (auto apply = value.getDefiningOp<ApplyOp>();
        apply && apply->getBlock() == earlier->getBlock() && earlier->isBeforeInBlock(apply))
      return "the later one reads " + describeApply(apply) + ", computed between them";
  return "a bound of the later one is computed only after the earlier one";
}

void explainUnmergedPairs(ProgramOp program, function_ref<bool(ApplyOp, ApplyOp)> compatible,
                          function_ref<void(ApplyOp later, const std::string &message)> explain) {
  SmallVector<ApplyOp> all;
  program.walk([&](ApplyOp apply) { all.push_back(apply); });
  for (auto [i, earlier] : llvm::enumerate(all))
    for (ApplyOp later : llvm::ArrayRef(all).drop_front(i + 1)) {
      if (earlier.getLocation() != later.getLocation() || !earlier.isDomainInferred() ||
          !later.isDomainInferred() || !compatible(earlier, later))
        continue;
      std::string why;
      if (!levelsFitVerticalKinds(earlier, later))
        why = "one computes half levels, the other full levels on fewer of them";
      else if (earlier->getBlock() != later->getBlock())
        why = "they run under different conditions (if branches)";
      else if (readsResultOf(later, earlier))
        continue; // producer and consumer: map fusion explains its decision
      else
        why = interferenceBetween(earlier, later, later);
      if (why.empty())
        why = computedBetween(earlier, later);
      explain(later, "not merged with " + describeApply(earlier) + ": " + why);
    }
}

bool readsResultOf(ApplyOp apply, ApplyOp producer) {
  bool reads = false;
  apply.walk([&](LoadOp load) {
    reads |= load.getField().getDefiningOp() == producer.getOperation();
  });
  return reads;
}

/// Values defined outside `region` that it uses.
static SmallVector<Value> capturedValues(Region &region) {
  SmallVector<Value> captured;
  region.walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (!region.isAncestor(operand.getParentRegion()) && !llvm::is_contained(captured, operand))
        captured.push_back(operand);
  });
  return captured;
}

/// `index in [range)` for the part of a merged application that had `range`.
Value inRangeTest(OpBuilder &builder, Location loc, Value index, Value lb, Value ub) {
  Value lower = builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, index, lb);
  Value upper = builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, index, ub);
  return builder.create<arith::AndIOp>(loc, lower, upper);
}

FailureOr<ApplyOp> mergeApplies(ApplyOp earlier, ApplyOp later) {
  // A point list has no hull with anything but itself.
  if (earlier.getPoints() != later.getPoints())
    return failure();
  // Everything `later` uses must be available where `earlier` stands.
  SmallVector<Value> needed = capturedValues(later.getBody());
  for (Value bound : later->getOperands())
    needed.push_back(bound);
  for (Value value : needed)
    if (failed(hoistAbove(value, earlier)))
      return failure();

  OpBuilder builder(earlier);
  Location loc = earlier.getLoc();
  BoundsBuilder bounds(builder, loc);
  auto hullOf = [&](Value a, Value b, bool lower) -> Value {
    if (!a || !b)
      return a ? a : b;
    return lower ? bounds.min(a, b) : bounds.max(a, b);
  };
  Value hlb = hullOf(earlier.getHlb(), later.getHlb(), true);
  Value hub = hullOf(earlier.getHub(), later.getHub(), false);
  Value klb = hullOf(earlier.getKlb(), later.getKlb(), true);
  Value kub = hullOf(earlier.getKub(), later.getKub(), false);

  SmallVector<Type> types(earlier.getResultTypes());
  llvm::append_range(types, later.getResultTypes());
  auto merged = builder.create<ApplyOp>(loc, types, earlier.getLocation(), hlb, hub, klb, kub);
  if (Value points = earlier.getPoints())
    merged.setPointList(points);
  // Parts of one application (stn-split-applies) keep its name when merged again.
  StringRef earlierName = earlier.getName().value_or("apply");
  StringRef laterName = later.getName().value_or("apply");
  SmallVector<StringRef> earlierParts;
  earlierName.split(earlierParts, '+');
  std::string name = earlier.getName() && later.getName() &&
                             llvm::is_contained(earlierParts, laterName)
                         ? earlierName.str()
                         : (earlierName + "+" + laterName).str();
  merged.setNameAttr(builder.getStringAttr(name));
  if (auto kblock = std::max(earlier.getKblock().value_or(1), later.getKblock().value_or(1));
      kblock > 1)
    merged.setKblock(kblock);
  merged.setNoLevelCarry(earlier.getNoLevelCarry() || later.getNoLevelCarry());
  // The merged kernel's points share and move what both parts' points do.
  if (earlier.getColumnOrder() || later.getColumnOrder()) {
    std::array<int64_t, 2> bytes = {0, 0};
    for (ApplyOp part : {earlier, later})
      if (std::optional<ArrayRef<int64_t>> partBytes = part.getColumnOrder())
        for (size_t i = 0; i < bytes.size(); ++i)
          bytes[i] += (*partBytes)[i]; // two counts: the verifier checks it
    merged.setColumnOrderAttr(builder.getDenseI64ArrayAttr(bytes));
  }

  Block &body = merged.getBody().front();
  OpBuilder inside = OpBuilder::atBlockEnd(&body);
  SmallVector<Value> yields;
  for (ApplyOp part : {earlier, later}) {
    // The part's own domain, where it differs from the merged one.
    Value condition;
    auto conjoin = [&](Value test) {
      condition = condition ? inside.create<arith::AndIOp>(loc, condition, test) : test;
    };
    if (part.getHlb() && !sameRange(IndexRange{part.getHlb(), part.getHub()}, IndexRange{hlb, hub}))
      conjoin(inRangeTest(inside, loc, inside.create<IndexOp>(loc, merged.getPoint()),
                          part.getHlb(), part.getHub()));
    if (part.getKlb() && !sameRange(IndexRange{part.getKlb(), part.getKub()}, IndexRange{klb, kub}))
      conjoin(inRangeTest(inside, loc, inside.create<LevelOp>(loc, 0), part.getKlb(),
                          part.getKub()));
    auto partYields = part.getYield().getValues();
    if (!condition) {
      Value point = merged.getPoint();
      IRMapping mapping;
      if (part.getPoint())
        mapping.map(part.getPoint(), point);
      for (Operation &op : part.getBody().front().without_terminator())
        inside.clone(op, mapping);
      for (Value value : partYields)
        yields.push_back(mapping.lookupOrDefault(value));
      continue;
    }
    auto guard = inside.create<scf::IfOp>(loc, TypeRange(ValueRange(partYields)), condition,
                                          /*withElseRegion=*/true);
    OpBuilder thenBuilder = guard.getThenBodyBuilder();
    IRMapping mapping;
    if (part.getPoint())
      mapping.map(part.getPoint(), merged.getPoint());
    for (Operation &op : part.getBody().front().without_terminator())
      thenBuilder.clone(op, mapping);
    SmallVector<Value> thenValues;
    for (Value value : partYields)
      thenValues.push_back(mapping.lookupOrDefault(value));
    thenBuilder.create<scf::YieldOp>(loc, thenValues);
    OpBuilder elseBuilder = guard.getElseBodyBuilder();
    SmallVector<Value> zeros;
    for (Value value : partYields)
      zeros.push_back(elseBuilder.create<arith::ConstantOp>(
          loc, elseBuilder.getZeroAttr(value.getType())));
    elseBuilder.create<scf::YieldOp>(loc, zeros);
    llvm::append_range(yields, guard.getResults());
  }
  inside.create<YieldOp>(loc, yields);

  unsigned split = earlier.getNumResults();
  for (auto [index, result] : llvm::enumerate(earlier.getResults()))
    result.replaceAllUsesWith(merged.getResult(index));
  for (auto [index, result] : llvm::enumerate(later.getResults()))
    result.replaceAllUsesWith(merged.getResult(split + index));
  earlier.erase();
  later.erase();
  return merged;
}

} // namespace fusec
