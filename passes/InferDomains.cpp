//===- InferDomains.cpp - the domain every temporary needs ----------------===//

#include "passes/DomainUtils.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>

namespace fusec {
#define GEN_PASS_DEF_INFERDOMAINS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// A name for diagnostics: the application's `name`, else "a temporary".
std::string describe(ApplyOp apply) {
  if (auto name = apply.getName())
    return ("'" + *name + "'").str();
  return "a temporary";
}

class DomainInference {
public:
  explicit DomainInference(ApplyOp producer)
      : producer(producer), builder(producer), bounds(builder, producer.getLoc()) {}

  /// Gives `producer` the hull of what its users need; erases it when unused.
  LogicalResult run() {
    std::optional<Domain> need;
    for (Value result : producer.getResults())
      for (OpOperand &use : result.getUses()) {
        FailureOr<Domain> required = requiredBy(use);
        if (failed(required))
          return failure();
        if (need && (need->points || required->points) && !sameDomain(*need, *required))
          return use.getOwner()->emitError()
                 << describe(producer)
                 << " is needed both at the entries of a point list and elsewhere";
        need = need ? hull(*need, *required) : *required;
      }
    if (!need) {
      producer.erase();
      return success();
    }
    return assign(*need);
  }

private:
  FailureOr<Domain> requiredBy(OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto store = dyn_cast<StoreOp>(user))
      return hoisted(getDomain(store));
    auto load = dyn_cast<LoadOp>(user);
    auto consumer = user->getParentOfType<ApplyOp>();
    if (!load || !consumer)
      return user->emitError("a temporary can only be stored or read by another application");
    if (!consumer.isDomainInferred())
      return consumer.emitError("internal error: consumer domain not inferred before producer");
    Domain consumerDomain = hoisted(getDomain(consumer));
    Domain need;
    FieldShape shape = FieldShape::of(load.getField().getType());
    if (consumerDomain.points) {
      // Computed at the list's entries, like its consumer: which other points
      // and levels a list reaches is known only at run time.
      if (load.getPoint() != consumer.getPoint() || load.getLevelOffset() != 0 ||
          load.getDynOffset() || shape.vertical != VerticalKind::Full)
        return load.emitError() << describe(producer)
                                << " is read away from the entry of the point list being "
                                   "computed; pass it to the stencil as a field instead";
      need.points = consumerDomain.points;
      return need;
    }
    if (shape.location) {
      FailureOr<IndexRange> points = pointRange(load.getPoint(), consumer, *consumerDomain.horizontal);
      if (failed(points))
        return failure();
      need.horizontal = *points;
    }
    if (shape.vertical != VerticalKind::None) {
      if (!consumerDomain.vertical)
        return load.emitError() << describe(producer)
                                << " has levels but is read by an application without levels";
      if (load.getDynOffset()) {
        // Which levels a data-dependent read reaches is known only at run time:
        // every level the producer can compute without leaving what it reads.
        LevelSpan span = computableLevels(producer);
        need.vertical = IndexRange{bounds.constant(span.first),
                                   bounds.add(bounds.levels(VerticalKind::Full), span.endPastNlev)};
      } else {
        need.vertical = bounds.shift(*consumerDomain.vertical, load.getLevelOffset());
        if (failed(checkLevels(load, *need.vertical)))
          return failure();
      }
    }
    return need;
  }

  /// Levels `[first, nlev + endPastNlev)`.
  struct LevelSpan {
    int64_t first, endPastNlev;
  };

  /// The levels at which `apply` computes its results without a read at a
  /// fixed level offset leaving the field or temporary it reads: a half-level
  /// temporary of an expression over full-level fields ends at `nlev`.
  LevelSpan computableLevels(ApplyOp apply) {
    if (auto it = spans.find(apply); it != spans.end())
      return it->second;
    auto columnOf = [](Type type) {
      return LevelSpan{0, FieldShape::of(type).vertical == VerticalKind::Half ? 1 : 0};
    };
    LevelSpan span = columnOf(apply.getResultTypes().front());
    apply.getBody().walk([&](LoadOp load) {
      Value source = load.getField();
      if (load.getDynOffset() || FieldShape::of(source.getType()).vertical == VerticalKind::None)
        return;
      auto sourceApply = source.getDefiningOp<ApplyOp>();
      LevelSpan read = sourceApply ? computableLevels(sourceApply) : columnOf(source.getType());
      span.first = std::max(span.first, read.first - load.getLevelOffset());
      span.endPastNlev = std::min(span.endPastNlev, read.endPastNlev - load.getLevelOffset());
    });
    spans[apply] = span;
    return span;
  }

  /// The points `point` ranges over while the consumer runs over `centre`.
  FailureOr<IndexRange> pointRange(Value point, ApplyOp consumer, IndexRange centre) {
    if (point == consumer.getPoint())
      return centre;
    if (auto neighbor = point.getDefiningOp<NeighborOp>()) {
      FailureOr<IndexRange> from = pointRange(neighbor.getPoint(), consumer, centre);
      if (failed(from))
        return failure();
      return bounds.image(*from, neighbor.getConnAttr());
    }
    if (auto arg = dyn_cast<BlockArgument>(point))
      if (auto reduce = dyn_cast<ReduceOp>(arg.getOwner()->getParentOp())) {
        FailureOr<IndexRange> from = pointRange(reduce.getPoint(), consumer, centre);
        if (failed(from))
          return failure();
        return bounds.image(*from, reduce.getConnAttr());
      }
    return emitError(point.getLoc(), "cannot tell which points this read reaches");
  }

  LogicalResult checkLevels(LoadOp load, IndexRange levels) {
    std::optional<int64_t> lb = getConstantBound(levels.lb);
    if (lb && *lb < 0) {
      int64_t offset = load.getLevelOffset();
      return load.emitError() << describe(producer) << " is read at K" << (offset < 0 ? "" : "+")
                              << offset << " but the application starts at level "
                              << (*lb - offset);
    }
    return success();
  }

  Domain hoisted(Domain domain) {
    for (std::optional<IndexRange> *range : {&domain.horizontal, &domain.vertical})
      if (*range) {
        hoistFailed |= failed(hoistAbove((*range)->lb, producer));
        hoistFailed |= failed(hoistAbove((*range)->ub, producer));
      }
    return domain;
  }

  Domain hull(const Domain &a, const Domain &b) {
    Domain result;
    result.points = a.points;
    result.horizontal = a.horizontal ? (b.horizontal ? bounds.hull(*a.horizontal, *b.horizontal)
                                                     : *a.horizontal)
                                     : b.horizontal;
    result.vertical = a.vertical ? (b.vertical ? bounds.hull(*a.vertical, *b.vertical)
                                               : *a.vertical)
                                 : b.vertical;
    return result;
  }

  LogicalResult assign(const Domain &need) {
    if (hoistFailed)
      return producer.emitError() << "the domain " << describe(producer)
                                  << " needs is computed only after it";
    if (need.points) {
      if (llvm::any_of(producer.getResultTypes(), [](Type type) {
            return FieldShape::of(type).vertical != VerticalKind::Full;
          }))
        return producer.emitError() << describe(producer)
                                    << " has no levels and is read at the entries of a point list";
      producer.setPointList(need.points);
      return success();
    }
    bool hasLevels = llvm::any_of(producer.getResultTypes(), [](Type type) {
      return FieldShape::of(type).vertical != VerticalKind::None;
    });
    std::optional<IndexRange> horizontal = producer.getLocation() ? need.horizontal : std::nullopt;
    std::optional<IndexRange> vertical = hasLevels ? need.vertical : std::nullopt;
    if (producer.getLocation() && !horizontal)
      return producer.emitError() << describe(producer) << " is never read at a point";
    if (hasLevels && !vertical)
      return producer.emitError() << describe(producer) << " is never read at a level";
    producer.setDomain(horizontal ? horizontal->lb : Value(), horizontal ? horizontal->ub : Value(),
                       vertical ? vertical->lb : Value(), vertical ? vertical->ub : Value());
    return success();
  }

  ApplyOp producer;
  OpBuilder builder;
  BoundsBuilder bounds;
  bool hoistFailed = false;
  llvm::DenseMap<Operation *, LevelSpan> spans; // looked up, never iterated
};

struct InferDomainsPass : public fusec::impl::InferDomainsBase<InferDomainsPass> {
  void runOnOperation() override {
    getOperation().walk([&](ProgramOp program) {
      SmallVector<ApplyOp> applies;
      program.walk([&](ApplyOp apply) { applies.push_back(apply); });
      for (ApplyOp apply : llvm::reverse(applies)) {
        if (apply.isDomainInferred()) {
          if (apply.use_empty())
            apply.erase();
          continue;
        }
        if (failed(DomainInference(apply).run()))
          return signalPassFailure();
      }
    });
  }
};

} // namespace
