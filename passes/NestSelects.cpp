//===- NestSelects.cpp - selects on one test each in C++ point loops ------===//

#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace fusec {
#define GEN_PASS_DEF_NESTSELECTS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// `condition ? whenTrue : whenFalse` with each conjunction and disjunction
/// in `condition` taken apart into selects on its operands.
Value nest(OpBuilder &builder, Location loc, Value condition, Value whenTrue, Value whenFalse) {
  if (auto both = condition.getDefiningOp<arith::AndIOp>()) {
    Value inner = nest(builder, loc, both.getRhs(), whenTrue, whenFalse);
    return nest(builder, loc, both.getLhs(), inner, whenFalse);
  }
  if (auto either = condition.getDefiningOp<arith::OrIOp>()) {
    Value inner = nest(builder, loc, either.getRhs(), whenTrue, whenFalse);
    return nest(builder, loc, either.getLhs(), whenTrue, inner);
  }
  return builder.create<arith::SelectOp>(loc, condition, whenTrue, whenFalse);
}

bool isConjunctionOrDisjunction(Value condition) {
  return isa_and_nonnull<arith::AndIOp, arith::OrIOp>(condition.getDefiningOp());
}

/// Erases `op` and then the conjunctions and disjunctions that fed only it.
void eraseWithDeadConditions(Operation *op) {
  SmallVector<Value> operands(op->getOperands());
  op->erase();
  for (Value operand : operands) {
    Operation *definition = operand.getDefiningOp();
    if (definition && definition->use_empty() && isa<arith::AndIOp, arith::OrIOp>(definition))
      eraseWithDeadConditions(definition);
  }
}

struct NestSelectsPass : public fusec::impl::NestSelectsBase<NestSelectsPass> {
  void runOnOperation() override {
    SmallVector<arith::SelectOp> selects;
    getOperation().walk([&](scf::ForOp loop) {
      if (!loop->hasAttr(StnDialect::kSimdAttr))
        return;
      loop.getBody()->walk([&](arith::SelectOp select) {
        if (select.getCondition().getType().isInteger(1) &&
            isConjunctionOrDisjunction(select.getCondition()))
          selects.push_back(select);
      });
    });
    for (arith::SelectOp select : selects) {
      OpBuilder builder(select);
      Value nested = nest(builder, select.getLoc(), select.getCondition(), select.getTrueValue(),
                          select.getFalseValue());
      select.getResult().replaceAllUsesWith(nested);
      eraseWithDeadConditions(select);
      numNested++;
    }
    if (!selects.empty())
      if (auto diag = remark("stn-nest-selects", getOperation()))
        *diag << selects.size() << " select(s) on a combined test nested into selects on one test each";
  }
};

} // namespace
