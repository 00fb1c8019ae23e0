//===- MergeVertical.cpp - one kernel over the union of vertical ranges ---===//

#include "passes/FusionUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

namespace fusec {
#define GEN_PASS_DEF_MERGEVERTICAL
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

constexpr llvm::StringLiteral kPass = "stn-merge-vertical";

/// Same horizontal range, different vertical ranges.
bool splitOnlyVertically(ApplyOp a, ApplyOp b) {
  return a.getHlb() == b.getHlb() && a.getHub() == b.getHub() && a.getKlb() && b.getKlb() &&
         (a.getKlb() != b.getKlb() || a.getKub() != b.getKub());
}

struct MergeVerticalPass : public fusec::impl::MergeVerticalBase<MergeVerticalPass> {
  void runOnOperation() override {
    getOperation().walk([&](ProgramOp program) {
      auto explain = [&](ApplyOp merged, const std::string &names) {
        if (auto diag = remark(kPass, merged))
          *diag << "merged " << names
                << " over the union of their levels, each under its own level predicate";
      };
      while (mergeFirstCompatiblePair(program, splitOnlyVertically, explain)) {
      }
    });
  }
};

} // namespace
