//===- FuseAcrossLists.cpp - fuse a producer and consumer across a list update ===//
//
// ICON's theta diffusion: z = A over the cells; z += B at the steep points
// (a point list); out = C(z) over the cells. The buffer z stands between A
// and C only because B updates it at a few entries. This pass makes C read
// A's result directly (so map fusion can put A and C in one kernel) and
// moves the list's work to the entries: before C, an application on the list
// computes A, B and C at each entry into side buffers; after C's stores,
// another one writes them into C's outputs at the entries. That pays for
// short lists only, and a list's length is known at run time: the part is
// versioned under `scf.if` on `stn.list_size`, the original kept for long
// lists.
//
//===----------------------------------------------------------------------===//

#include "passes/CostModel.h"
#include "passes/DomainUtils.h"
#include "passes/FusionUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace fusec {
#define GEN_PASS_DEF_FUSEACROSSLISTS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

constexpr llvm::StringLiteral kPass = "stn-fuse-across-lists";

/// Clones `apply`'s body at `point` before the builder's insertion point, its
/// reads of `buffer` (centre reads) replaced by `value`; returns its yields.
SmallVector<Value> cloneReplacingReads(OpBuilder &builder, ApplyOp apply, Value point,
                                       Value buffer, Value value) {
  IRMapping mapping;
  mapping.map(apply.getPoint(), point);
  for (Operation &op : apply.getBody().front().without_terminator()) {
    if (auto load = dyn_cast<LoadOp>(op); load && load.getField() == buffer) {
      mapping.map(load.getResult(), value);
      continue;
    }
    builder.clone(op, mapping);
  }
  SmallVector<Value> yields;
  for (Value yielded : apply.getYield().getValues())
    yields.push_back(mapping.lookupOrDefault(yielded));
  return yields;
}

/// Recomputes in `apply` every temporary it reads (and those they read) from
/// its producer's body, so that it depends on no box application: it runs
/// under its own condition, where map fusion cannot reach, on few points.
/// Reads at a data-dependent level offset stay reads.
void recomputeTemporaries(ApplyOp apply) {
  while (true) {
    LoadOp found;
    apply.walk([&](LoadOp load) {
      auto producer = load.getField().getDefiningOp<ApplyOp>();
      if (!found && producer && !producer.getPoints() && !load.getDynOffset() && !load.getLevel())
        found = load;
    });
    if (!found)
      return;
    auto producer = found.getField().getDefiningOp<ApplyOp>();
    OpBuilder builder(found);
    Value value = inlineProducer(builder, producer, cast<OpResult>(found.getField()).getResultNumber(),
                                 found.getPoint(), found.getLevelOffset());
    found.getResult().replaceAllUsesWith(value);
    found.erase();
  }
}

/// Whether `apply` or an application whose temporary it reads (and so on)
/// reads `field`.
bool readsTransitively(ApplyOp apply, Value field) {
  if (llvm::is_contained(fieldsReadBy(apply), field))
    return true;
  bool found = false;
  apply.walk([&](LoadOp load) {
    if (auto producer = load.getField().getDefiningOp<ApplyOp>())
      found = found || readsTransitively(producer, field);
  });
  return found;
}

std::string nameOf(Value field, StringRef unnamed) {
  StringRef name = fieldName(field);
  return name.empty() ? unnamed.str() : name.str();
}

/// One candidate: `store A to buf on D; [if (c)] { buf = B(buf) at L }; C(buf)
/// on D` with C's results stored over D.
struct ListUpdate {
  ApplyOp producer;      // A
  unsigned producerResult = 0;
  StoreOp producerStore; // S1: A into the buffer over D
  ApplyOp update;        // B, on the list
  StoreOp updateStore;   // B into the buffer at the list's entries
  Operation *updateOp = nullptr; // the scf.if around B, or B's store
  scf::IfOp condition;   // null when B runs unconditionally
  ApplyOp consumer;      // C
  SmallVector<StoreOp> consumerStores; // one per result of C, in result order
  Value buffer;
};

class Fuser {
public:
  Fuser(ProgramOp program, int64_t pointsPerEntry)
      : program(program), pointsPerEntry(pointsPerEntry) {}

  unsigned run() {
    SmallVector<StoreOp> listStores;
    program.walk([&](StoreOp store) {
      if (store.getPoints())
        listStores.push_back(store);
    });
    unsigned fused = 0;
    for (StoreOp store : listStores) {
      ListUpdate update;
      std::optional<std::string> why = match(store, update);
      if (!why)
        continue;
      if (!why->empty()) {
        if (auto diag = remark(kPass, store))
          *diag << "not fused across the update of '" << nameOf(store.getField(), "buffer")
                << "' on its point list: " << *why;
        continue;
      }
      ListUpdate fusedVersion = version(update);
      rewrite(fusedVersion);
      ++fused;
    }
    return fused;
  }

private:
  /// Nothing when `store` is not a list update of a program-local buffer;
  /// else why it cannot be fused across, or "" when `update` is filled.
  std::optional<std::string> match(StoreOp store, ListUpdate &update) {
    auto alloc = store.getField().getDefiningOp<AllocOp>();
    auto apply = store.getValue().getDefiningOp<ApplyOp>();
    if (!alloc || !apply || apply.getPoints() != store.getPoints() ||
        apply.getNumResults() != 1 || !apply->hasOneUse())
      return std::nullopt;
    update.buffer = alloc.getResult();
    update.update = apply;
    update.updateStore = store;
    Block *block = store->getBlock();
    if (auto branch = dyn_cast<scf::IfOp>(store->getParentOp());
        branch && branch.getElseRegion().empty() && branch.getNumResults() == 0 &&
        branch.thenBlock()->getOperations().size() == 3 && apply->getBlock() == block) {
      update.condition = branch;
      update.updateOp = branch;
    } else if (apply->getBlock() == block) {
      update.updateOp = store;
    } else {
      return std::nullopt;
    }

    // The buffer's uses: the producer's store, this update, the consumer's reads.
    for (OpOperand &use : update.buffer.getUses()) {
      Operation *user = use.getOwner();
      if (user == store.getOperation())
        continue;
      if (auto other = dyn_cast<StoreOp>(user)) {
        if (update.producerStore || other.getPoints())
          return "the buffer is written elsewhere too";
        update.producerStore = other;
        continue;
      }
      auto load = dyn_cast<LoadOp>(user);
      auto reader = load ? load->getParentOfType<ApplyOp>() : ApplyOp();
      if (!reader)
        return "the buffer is used by something other than applications";
      if (reader == apply) {
        if (!isCentreRead(load, apply, update.buffer))
          return "the update reads the buffer away from its entry";
        continue;
      }
      if (update.consumer && update.consumer != reader)
        return "more than one application reads the buffer";
      update.consumer = reader;
      if (!isCentreRead(load, reader, update.buffer))
        return "its reader " + describeApply(reader) + " reads it away from the centre";
    }
    if (!update.producerStore || !update.consumer)
      return "no box writes the buffer before, or no application reads it after";
    StoreOp first = update.producerStore;
    ApplyOp consumer = update.consumer;
    Operation *updateOp = update.updateOp;
    // Where the update reads: its branch, or the application itself.
    Operation *updateReads = update.condition ? updateOp : apply.getOperation();
    if (first->getBlock() != updateOp->getBlock() || consumer->getBlock() != updateOp->getBlock() ||
        !first->isBeforeInBlock(updateReads) || !updateOp->isBeforeInBlock(consumer))
      return "the box store, the update and the reader are not in this order in one block";
    update.producer = first.getValue().getDefiningOp<ApplyOp>();
    if (!update.producer || update.producer.getPoints() ||
        !first.getValue().hasOneUse())
      return "what the box store writes is not an application's result used only there";
    update.producerResult = cast<OpResult>(first.getValue()).getResultNumber();
    if (consumer.getPoints() || !sameDomain(getDomain(first), getDomain(consumer)))
      return describeApply(consumer) + " does not run over the domain the buffer was written on";
    // Its results are computed at the entries too, where each point has one full level.
    if (llvm::any_of(consumer.getResultTypes(), [](Type type) {
          return FieldShape::of(type).vertical != VerticalKind::Full;
        }))
      return describeApply(consumer) + " has a result on half levels or without levels, which "
                                       "the list's entries cannot hold";

    // Each result of the consumer goes into one field over its domain, by
    // stores right after it.
    update.consumerStores.assign(consumer.getNumResults(), StoreOp());
    Operation *last = consumer;
    for (OpResult result : consumer.getResults()) {
      if (!result.hasOneUse())
        return describeApply(consumer) + "'s results are not each stored once";
      auto out = dyn_cast<StoreOp>(*result.getUsers().begin());
      if (!out || out->getBlock() != consumer->getBlock() ||
          !sameDomain(getDomain(out), getDomain(consumer)) || out.getField() == update.buffer)
        return describeApply(consumer) + "'s results are not each stored over its domain";
      update.consumerStores[result.getResultNumber()] = out;
      if (last->isBeforeInBlock(out))
        last = out;
    }
    for (Operation *op = consumer->getNextNode(); op != last; op = op->getNextNode())
      if (!isa<StoreOp>(op) && !isMemoryEffectFree(op))
        return "something runs between " + describeApply(consumer) + " and its stores";

    if (std::string why = lostRecomputation(update, update.producer); !why.empty())
      return why;

    // The update and the producer's reads move to just before the consumer.
    std::string moving = interferenceBetween(updateOp, consumer, apply);
    if (moving.empty() && updateReads != updateOp)
      moving = interferenceBetween(updateReads, updateOp, apply);
    if (!moving.empty())
      return "the update cannot move to " + describeApply(consumer) + ": " + moving;
    if (update.producer->getBlock() != consumer->getBlock() || !update.producer->hasOneUse())
      return describeApply(update.producer) + " is used elsewhere or in another block";
    if (std::string why = interferenceBetween(update.producer, consumer, update.producer);
        !why.empty())
      return describeApply(update.producer) + " cannot be recomputed at the entries: " + why;

    // The part from the producer to the consumer's last store is versioned
    // by the list's length; what else stands in it moves above it.
    for (Operation *op = update.producer->getNextNode(); op != last; op = op->getNextNode())
      if (!isPartOf(update, op) && !isa<ApplyOp>(op) &&
          !(isMemoryEffectFree(op) && op->getNumRegions() == 0))
        return "something with effects runs between " + describeApply(update.producer) +
               " and " + describeApply(consumer);
    return "";
  }

  /// After the rewrite the consumer's stores share a kernel with the
  /// producer, so a temporary it reads through a neighbour table (directly,
  /// or in what it inlines at its own point) that reads a field the consumer
  /// writes can no longer be recomputed there. Where the target's cost model
  /// would recompute it, the rewrite only trades the buffer for that
  /// temporary in memory (on CUDA, ICON's 13 for z_temp): why not, or "".
  std::string lostRecomputation(const ListUpdate &update, ApplyOp reader) {
    CostWeights weights = costWeightsFor(program);
    std::string why;
    reader.walk([&](LoadOp load) {
      auto producer = load.getField().getDefiningOp<ApplyOp>();
      if (!why.empty() || !producer || producer.getPoints())
        return;
      if (load.getPoint() == reader.getPoint()) {
        why = lostRecomputation(update, producer);
        return;
      }
      for (StoreOp store : update.consumerStores) {
        if (!readsTransitively(producer, store.getField()))
          continue;
        bool stays = llvm::any_of(load.getField().getUsers(), [&](Operation *user) {
          return !reader->isAncestor(user);
        });
        RecomputationCost cost = recomputationCost(producer, load.getField(), 0,
                                                   multiplicity(load, reader), stays, weights);
        if (cost.pays())
          why = describeApply(producer) + " would be recomputed in " + describeApply(reader) +
                " through a neighbour table on " + targetOf(program).str() + " (work " +
                std::to_string(cost.recompute) + " against " + std::to_string(cost.keep) +
                ") and could not be next to " + describeApply(update.consumer) +
                ", which writes '" + nameOf(store.getField(), "a field") + "' it reads";
        return;
      }
    });
    return why;
  }

  static bool isPartOf(ListUpdate &update, Operation *op) {
    return op == update.producer.getOperation() || op == update.producerStore.getOperation() ||
           op == update.update.getOperation() || op == update.updateOp ||
           op == update.consumer.getOperation() ||
           llvm::is_contained(update.consumerStores, op);
  }

  /// The applications before `producer` in its block whose results only
  /// `part` (or such applications) reads and that can move down to it (no
  /// write in between of what they read), in block order.
  static SmallVector<Operation *> feedingApplications(ApplyOp producer,
                                                      ArrayRef<Operation *> part) {
    llvm::SmallPtrSet<Operation *, 8> readers(part.begin(), part.end());
    SmallVector<Operation *> feeding;
    Block *block = producer->getBlock();
    for (Operation *op = producer->getPrevNode(); op; op = op->getPrevNode()) {
      auto apply = dyn_cast<ApplyOp>(op);
      if (!apply || apply->use_empty() ||
          !interferenceBetween(apply, producer, apply).empty())
        continue;
      bool onlyPart = llvm::all_of(apply->getUsers(), [&](Operation *user) {
        Operation *inBlock = block->findAncestorOpInBlock(*user);
        return inBlock && readers.contains(inBlock);
      });
      if (!onlyPart)
        continue;
      readers.insert(op);
      feeding.insert(feeding.begin(), op);
    }
    return feeding;
  }

  /// Puts the part under `scf.if` on whether the fused version pays: the
  /// update does not run, or the list has at most one entry per
  /// `pointsPerEntry` points of the consumer's box (per level). The else
  /// side keeps the part as it is; returns the then side's copy, to rewrite.
  ListUpdate version(ListUpdate &update) {
    ApplyOp producer = update.producer, consumer = update.consumer;
    Operation *last = consumer;
    for (StoreOp store : update.consumerStores)
      if (last->isBeforeInBlock(store))
        last = store;
    SmallVector<Operation *> part, others;
    for (Operation *op = producer; op != last->getNextNode(); op = op->getNextNode())
      (isPartOf(update, op) ? part : others).push_back(op);
    // The applications only the part reads (ICON's 13 and 14 before the
    // producer) go with it, so that map fusion finds them in each version.
    SmallVector<Operation *> feeding = feedingApplications(producer, part);
    for (Operation *op : others)
      op->moveBefore(feeding.empty() ? producer.getOperation() : feeding.front());
    for (Operation *op : feeding)
      op->moveBefore(producer);
    part.insert(part.begin(), feeding.begin(), feeding.end());

    Location loc = consumer.getLoc();
    OpBuilder builder(part.front());
    auto i32 = [&](int64_t value) {
      return builder.create<arith::ConstantIntOp>(loc, value, 32).getResult();
    };
    Value entries = builder.create<ListSizeOp>(loc, update.update.getPoints());
    Value points = consumer.getHlb()
                       ? builder.create<arith::SubIOp>(loc, consumer.getHub(), consumer.getHlb())
                       : i32(1);
    Value levels = consumer.getKlb()
                       ? builder.create<arith::SubIOp>(loc, consumer.getKub(), consumer.getKlb())
                       : i32(1);
    Value perLevel = builder.create<arith::DivSIOp>(
        loc, entries, builder.create<arith::MaxSIOp>(loc, levels, i32(1)));
    Value limit = builder.create<arith::DivSIOp>(loc, points, i32(pointsPerEntry));
    Value pays = builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, perLevel, limit);
    if (update.condition) {
      Value off = builder.create<arith::XOrIOp>(
          loc, update.condition.getCondition(),
          builder.create<arith::ConstantIntOp>(loc, 1, 1));
      pays = builder.create<arith::OrIOp>(loc, off, pays);
    }
    auto branch = builder.create<scf::IfOp>(loc, TypeRange(), pays, /*withElseRegion=*/true);
    Operation *elseYield = branch.elseBlock()->getTerminator();
    for (Operation *op : part)
      op->moveBefore(elseYield);
    OpBuilder thenBuilder(branch.thenBlock()->getTerminator());
    IRMapping mapping;
    for (Operation *op : part)
      thenBuilder.clone(*op, mapping);

    ListUpdate copy = update;
    copy.producer = cast<ApplyOp>(mapping.lookup(producer.getOperation()));
    copy.producerStore = cast<StoreOp>(mapping.lookup(update.producerStore.getOperation()));
    copy.updateOp = mapping.lookup(update.updateOp);
    copy.consumer = cast<ApplyOp>(mapping.lookup(consumer.getOperation()));
    for (StoreOp &store : copy.consumerStores)
      store = cast<StoreOp>(mapping.lookup(store.getOperation()));
    if (update.condition) {
      copy.condition = cast<scf::IfOp>(copy.updateOp);
      copy.update = *copy.condition.thenBlock()->getOps<ApplyOp>().begin();
      copy.updateStore = *copy.condition.thenBlock()->getOps<StoreOp>().begin();
    } else {
      copy.update = cast<ApplyOp>(mapping.lookup(update.update.getOperation()));
      copy.updateStore = cast<StoreOp>(copy.updateOp);
    }
    return copy;
  }

  void rewrite(ListUpdate &update) {
    ApplyOp producer = update.producer, apply = update.update, consumer = update.consumer;
    Value list = apply.getPoints();
    Location loc = consumer.getLoc();
    OpBuilder builder(consumer);
    SmallVector<Type> types(consumer.getResultTypes());
    std::string listName = nameOf(list, "list");

    // Side buffers for the consumer's results at the entries.
    SmallVector<Value> sides;
    {
      OpBuilder top(&program.getBody().front(), program.getBody().front().begin());
      for (StoreOp store : update.consumerStores)
        sides.push_back(top.create<AllocOp>(
            program.getLoc(), store.getField().getType(),
            top.getStringAttr(nameOf(store.getField(), "output") + "_at_" + listName)));
    }

    auto underCondition = [&](OpBuilder &at) -> OpBuilder {
      if (!update.condition)
        return at;
      auto branch = at.create<scf::IfOp>(loc, TypeRange(), update.condition.getCondition(),
                                         /*withElseRegion=*/false);
      return branch.getThenBodyBuilder();
    };
    auto listApply = [&](OpBuilder &at, StringRef name) {
      auto made = at.create<ApplyOp>(loc, types, consumer.getLocation(), Value(), Value(), Value(),
                                     Value());
      made.setPointList(list);
      made.setNameAttr(at.getStringAttr(name));
      return made;
    };

    // Before the consumer: A, B and C at each entry inside C's domain; the
    // outputs' current values elsewhere (C leaves them as they are).
    OpBuilder before = underCondition(builder);
    ApplyOp entries = listApply(before, (consumer.getName().value_or("apply") + "_at_" + listName).str());
    {
      Block &body = entries.getBody().front();
      OpBuilder inside = OpBuilder::atBlockEnd(&body);
      Value point = entries.getPoint();
      Value inDomain;
      auto conjoin = [&](Value test) {
        inDomain = inDomain ? inside.create<arith::AndIOp>(loc, inDomain, test) : test;
      };
      if (consumer.getHlb())
        conjoin(inRangeTest(inside, loc, inside.create<IndexOp>(loc, point), consumer.getHlb(),
                            consumer.getHub()));
      if (consumer.getKlb())
        conjoin(inRangeTest(inside, loc, inside.create<LevelOp>(loc, 0), consumer.getKlb(),
                            consumer.getKub()));
      SmallVector<Type> elements;
      for (Type type : types)
        elements.push_back(FieldShape::of(type).elementType);
      auto guard = inside.create<scf::IfOp>(loc, elements, inDomain, /*withElseRegion=*/true);
      OpBuilder thenBuilder = guard.getThenBodyBuilder();
      Value a = inlineProducer(thenBuilder, producer, update.producerResult, point, 0);
      Value b = cloneReplacingReads(thenBuilder, apply, point, update.buffer, a).front();
      thenBuilder.create<scf::YieldOp>(
          loc, cloneReplacingReads(thenBuilder, consumer, point, update.buffer, b));
      OpBuilder elseBuilder = guard.getElseBodyBuilder();
      SmallVector<Value> current;
      for (auto [store, element] : llvm::zip_equal(update.consumerStores, elements))
        current.push_back(elseBuilder.create<LoadOp>(loc, element, store.getField(), point,
                                                     Value(), Value(), Value(), 0));
      elseBuilder.create<scf::YieldOp>(loc, current);
      inside.create<YieldOp>(loc, guard.getResults());
      recomputeTemporaries(entries);
    }
    for (auto [result, side] : llvm::zip_equal(entries.getResults(), sides))
      before.create<StoreOp>(loc, result, side, Value(), Value(), Value(), Value(), list);

    // The consumer reads the producer's result instead of the buffer.
    SmallVector<LoadOp> reads;
    consumer.walk([&](LoadOp load) {
      if (load.getField() == update.buffer)
        reads.push_back(load);
    });
    Value produced = producer.getResult(update.producerResult);
    for (LoadOp load : reads)
      load.getFieldMutable().assign(produced);

    // After the consumer's stores: the entries' values into its outputs.
    Operation *last = consumer;
    for (StoreOp store : update.consumerStores)
      if (last->isBeforeInBlock(store))
        last = store;
    builder.setInsertionPointAfter(last);
    OpBuilder after = underCondition(builder);
    ApplyOp results = listApply(after, (consumer.getName().value_or("apply") + "_results_at_" + listName).str());
    {
      OpBuilder inside = OpBuilder::atBlockEnd(&results.getBody().front());
      SmallVector<Value> values;
      for (auto [side, type] : llvm::zip_equal(sides, types))
        values.push_back(inside.create<LoadOp>(loc, FieldShape::of(type).elementType, side,
                                               results.getPoint(), Value(), Value(), Value(), 0));
      inside.create<YieldOp>(loc, values);
    }
    for (auto [result, store] : llvm::zip_equal(results.getResults(), update.consumerStores))
      after.create<StoreOp>(loc, result, store.getField(), Value(), Value(), Value(), Value(), list);

    if (auto diag = remark(kPass, consumer))
      *diag << "fused " << describeApply(producer) << " and " << describeApply(consumer)
            << " across the update of '" << nameOf(update.buffer, "buffer") << "' on '" << listName
            << "': " << describeApply(apply) << " and both run at its entries before, and their "
            << "results are written there after, when the list has at most one entry per "
            << pointsPerEntry << " points (else the buffer stays)";

    Operation *alloc = update.buffer.getDefiningOp();
    if (update.condition) {
      update.condition.erase();
    } else {
      update.updateStore.erase();
      apply.erase();
    }
    update.producerStore.erase();
    if (alloc->use_empty())
      alloc->erase();
  }

  ProgramOp program;
  int64_t pointsPerEntry;
};

struct FuseAcrossListsPass : public fusec::impl::FuseAcrossListsBase<FuseAcrossListsPass> {
  using FuseAcrossListsBase::FuseAcrossListsBase;

  void runOnOperation() override {
    if (pointsPerEntry < 1) {
      getOperation().emitError() << "stn-fuse-across-lists: points-per-entry must be at least 1";
      return signalPassFailure();
    }
    getOperation().walk(
        [&](ProgramOp program) { numFused += Fuser(program, pointsPerEntry).run(); });
  }
};

} // namespace
