//===- BlendSelects.cpp - branch-free selects on per-point data in C++ ----===//

#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"

namespace fusec {
#define GEN_PASS_DEF_BLENDSELECTS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// True when `value`, computed in `loop`, depends on a field's data (a load
/// of a field or of a scratch row) rather than only on the point's index,
/// neighbour tables and values the loop does not compute.
bool dependsOnData(Value value, scf::ForOp loop, llvm::DenseMap<Value, bool> &known) {
  auto it = known.find(value);
  if (it != known.end())
    return it->second;
  Operation *definition = value.getDefiningOp();
  bool result = false;
  if (definition && loop->isProperAncestor(definition)) {
    if (isa<LoadOp, RowLoadOp>(definition))
      result = true;
    else
      result = llvm::any_of(definition->getOperands(),
                            [&](Value operand) { return dependsOnData(operand, loop, known); });
  }
  known[value] = result;
  return result;
}

struct BlendSelectsPass : public fusec::impl::BlendSelectsBase<BlendSelectsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    unsigned blended = 0;
    getOperation().walk([&](scf::ForOp loop) {
      if (!loop->hasAttr(StnDialect::kSimdAttr))
        return;
      llvm::DenseMap<Value, bool> known;
      loop.getBody()->walk([&](arith::SelectOp select) {
        // Selects of an inner loop are that loop's (only `stn.simd` loops vectorise).
        if (select->getParentOfType<scf::ForOp>() != loop ||
            select->hasAttr(StnDialect::kBlendAttr) ||
            !dependsOnData(select.getCondition(), loop, known))
          return;
        select->setAttr(StnDialect::kBlendAttr, UnitAttr::get(context));
        blended++;
      });
    });
    numBlended += blended;
    if (blended)
      if (auto diag = remark("stn-blend-selects", getOperation()))
        *diag << blended << " select(s) on a test of per-point data printed as "
              << "branch-free blends";
  }
};

} // namespace
