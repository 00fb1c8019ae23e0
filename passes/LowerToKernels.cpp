//===- LowerToKernels.cpp - one stn.kernel per application ----------------===//

#include "passes/CostModel.h"
#include "passes/DomainUtils.h"
#include "passes/FusionUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace fusec {
#define GEN_PASS_DEF_LOWERTOKERNELS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

std::string applyName(ApplyOp apply, unsigned index) {
  if (auto name = apply.getName())
    return name->str();
  return "apply" + std::to_string(index);
}

/// The levels per work item of `apply`'s kernel: its own `kblock`, else, on
/// CPUs, all levels when it reads at data-dependent levels. Such reads scatter
/// over the levels of a field, and while one block of points walks its levels
/// they stay in cache; level by level, each sweep over the domain evicted
/// them (the steep-point correction of apply_diffusion_to_theta_and_exner).
int64_t levelsPerWorkItem(ApplyOp apply) {
  if (apply.getPoints())
    return 1; // each entry of a point list has its own level
  if (std::optional<uint64_t> kblock = apply.getKblock())
    return *kblock;
  if (targetOf(apply) != "cpp" || !getDomain(apply).vertical)
    return 1;
  if (!readsAtDataDependentLevels(apply))
    return 1;
  if (auto diag = remark("stn-lower-to-kernels", apply))
    *diag << "reads at data-dependent levels: on CPUs each work item walks all levels "
             "of its points (kblock = "
          << StnDialect::kAllLevels << ")";
  return StnDialect::kAllLevels;
}

/// Builds `index/level in [lb, ub)` tests inside a kernel.
Value inRange(OpBuilder &builder, Location loc, Value index, IndexRange range) {
  Value lower = builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, index, range.lb);
  Value upper = builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, index, range.ub);
  return builder.create<arith::AndIOp>(loc, lower, upper);
}

class ProgramLowering {
public:
  explicit ProgramLowering(ProgramOp program) : program(program) {}

  LogicalResult run() {
    SmallVector<ApplyOp> applies;
    program.walk([&](ApplyOp apply) { applies.push_back(apply); });
    for (auto [index, apply] : llvm::enumerate(applies))
      if (failed(lower(apply, index)))
        return failure();
    return success();
  }

private:
  /// What one result of an application becomes.
  struct ResultPlan {
    Value buffer;                        // materialised copy, if any
    SmallVector<StoreOp> directStores;   // written by the kernel itself
    SmallVector<StoreOp> copiedStores;   // written later from `buffer`
  };

  LogicalResult lower(ApplyOp apply, unsigned index) {
    if (!apply.isDomainInferred())
      return apply.emitError("domain not inferred: run stn-infer-domains first");
    std::string name = applyName(apply, index);
    SmallVector<ResultPlan> plans(apply.getNumResults());
    for (auto [i, result] : llvm::enumerate(apply.getResults()))
      if (failed(plan(apply, result, name + "_" + std::to_string(i), plans[i])))
        return failure();

    OpBuilder builder(apply);
    Domain domain = getDomain(apply);
    auto kernel = builder.create<KernelOp>(
        apply.getLoc(), builder.getStringAttr(name), apply.getLocationAttr(),
        domain.horizontal ? domain.horizontal->lb : Value(),
        domain.horizontal ? domain.horizontal->ub : Value(),
        domain.vertical ? domain.vertical->lb : Value(),
        domain.vertical ? domain.vertical->ub : Value(), domain.points, levelsPerWorkItem(apply),
        apply.getNoLevelCarry(), /*loop_form=*/false, /*nowait=*/false,
        apply.getColumnOrderAttr(), /*stage=*/IntegerAttr());
    kernel.getBody().takeBody(apply.getBody());
    YieldOp yield = cast<YieldOp>(kernel.getBody().front().getTerminator());
    builder.setInsertionPoint(yield);
    for (auto [value, plan] : llvm::zip(yield.getValues(), plans)) {
      if (plan.buffer)
        builder.create<WriteOp>(yield.getLoc(), value, plan.buffer, kernel.getPoint(), Value());
      for (StoreOp store : plan.directStores)
        writeUnder(builder, kernel, value, store);
    }
    builder.create<YieldOp>(yield.getLoc());
    yield.erase();

    for (ResultPlan &plan : plans) {
      for (StoreOp store : plan.directStores)
        store.erase();
      for (StoreOp store : plan.copiedStores)
        emitCopyKernel(store, plan.buffer);
    }
    for (auto [result, plan] : llvm::zip(apply.getResults(), plans))
      if (plan.buffer)
        result.replaceAllUsesWith(plan.buffer);
    apply.erase();
    return success();
  }

  /// Decides how `result` reaches its readers and stores.
  LogicalResult plan(ApplyOp apply, Value result, const std::string &bufferName,
                     ResultPlan &plan) {
    bool needsBuffer = false;
    for (Operation *user : result.getUsers()) {
      auto store = dyn_cast<StoreOp>(user);
      if (!store) {
        needsBuffer = true; // read by a later application
        continue;
      }
      if (canWriteInKernel(apply, store))
        plan.directStores.push_back(store);
      else
        plan.copiedStores.push_back(store);
    }
    if (needsBuffer || !plan.copiedStores.empty())
      plan.buffer = allocate(result.getType(), bufferName);
    return success();
  }

  /// A store can happen inside the application's kernel when nothing between
  /// them touches the field and the kernel never reads the field elsewhere
  /// than where it writes it.
  bool canWriteInKernel(ApplyOp apply, StoreOp store) {
    Value field = store.getField();
    if (store->getBlock() != apply->getBlock() || readsAwayFromCentre(apply, field))
      return false;
    for (Operation *op = apply->getNextNode(); op != store; op = op->getNextNode()) {
      // Another store of the same values, or of anything to points this store
      // does not write (`none`'s boxes from stn-split-where), may come first.
      if (auto other = dyn_cast<StoreOp>(op); other && other.getField() == field &&
          (other.getValue() == store.getValue() ||
           disjointDomains(getDomain(other), getDomain(store))))
        continue;
      if (touches(op, field))
        return false;
    }
    Domain domain = getDomain(store);
    for (std::optional<IndexRange> range : {domain.horizontal, domain.vertical})
      if (range && (failed(hoistAbove(range->lb, apply)) || failed(hoistAbove(range->ub, apply))))
        return false;
    return true;
  }

  Value allocate(Type tempType, const std::string &name) {
    OpBuilder builder(&program.getBody().front(), program.getBody().front().begin());
    FieldShape shape = FieldShape::of(tempType);
    auto fieldType = FieldType::get(tempType.getContext(), shape.location, "", 0, shape.vertical,
                                    shape.elementType);
    return builder.create<AllocOp>(program.getLoc(), fieldType, builder.getStringAttr(name));
  }

  /// Writes `value` into the store's field, guarded when the store covers
  /// less than the kernel's domain.
  void writeUnder(OpBuilder &builder, KernelOp kernel, Value value, StoreOp store) {
    Location loc = store.getLoc();
    Domain kernelDomain = getDomain(kernel), storeDomain = getDomain(store);
    Value condition;
    auto conjoin = [&](Value test) {
      condition = condition ? builder.create<arith::AndIOp>(loc, condition, test) : test;
    };
    if (storeDomain.horizontal && !(storeDomain.horizontal == kernelDomain.horizontal)) {
      Value index = builder.create<IndexOp>(loc, kernel.getPoint());
      conjoin(inRange(builder, loc, index, *storeDomain.horizontal));
    }
    if (storeDomain.vertical && !(storeDomain.vertical == kernelDomain.vertical)) {
      Value level = builder.create<LevelOp>(loc, 0);
      conjoin(inRange(builder, loc, level, *storeDomain.vertical));
    }
    if (!condition) {
      builder.create<WriteOp>(loc, value, store.getField(), kernel.getPoint(), Value());
      return;
    }
    auto guard = builder.create<scf::IfOp>(loc, condition, /*withElseRegion=*/false);
    OpBuilder inside = guard.getThenBodyBuilder();
    inside.create<WriteOp>(loc, value, store.getField(), kernel.getPoint(), Value());
  }

  /// Replaces `store` by a kernel copying `buffer` into the field.
  void emitCopyKernel(StoreOp store, Value buffer) {
    OpBuilder builder(store);
    Domain domain = getDomain(store);
    FieldShape shape = FieldShape::of(store.getField().getType());
    StringRef field = fieldName(store.getField());
    std::string name = "copy_to_" + (field.empty() ? std::string("field") : field.str());
    auto kernel = builder.create<KernelOp>(
        store.getLoc(), name,
        shape.location ? GridLocationAttr::get(builder.getContext(), *shape.location)
                       : GridLocationAttr(),
        domain.horizontal ? domain.horizontal->lb : Value(),
        domain.horizontal ? domain.horizontal->ub : Value(),
        domain.vertical ? domain.vertical->lb : Value(),
        domain.vertical ? domain.vertical->ub : Value(), domain.points, /*kblock=*/1,
        /*no_level_carry=*/false, /*loop_form=*/false, /*nowait=*/false,
        /*column_order=*/DenseI64ArrayAttr(), /*stage=*/IntegerAttr());
    Block *body = new Block();
    kernel.getBody().push_back(body);
    Value point;
    if (shape.location)
      point = body->addArgument(PointType::get(builder.getContext(), *shape.location),
                                store.getLoc());
    OpBuilder inside = OpBuilder::atBlockEnd(body);
    Value value = inside.create<LoadOp>(store.getLoc(), shape.elementType, buffer, point,
                                        Value(), Value(), Value(), 0);
    inside.create<WriteOp>(store.getLoc(), value, store.getField(), point, Value());
    inside.create<YieldOp>(store.getLoc());
    store.erase();
  }

  ProgramOp program;
};

struct LowerToKernelsPass : public fusec::impl::LowerToKernelsBase<LowerToKernelsPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](ProgramOp program) {
      return failed(ProgramLowering(program).run()) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
