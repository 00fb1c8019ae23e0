//===- MergeVertical.cpp - one kernel over the union of vertical ranges ---===//

#include "passes/DomainUtils.h"
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

/// Same horizontal range, different vertical ranges (compared by value).
bool splitOnlyVertically(ApplyOp a, ApplyOp b) {
  Domain da = getDomain(a), db = getDomain(b);
  return sameRange(da.horizontal, db.horizontal) && da.vertical && db.vertical &&
         !(*da.vertical == *db.vertical);
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
      explainUnmergedPairs(program, splitOnlyVertically,
                           [&](ApplyOp later, const std::string &message) {
                             if (auto diag = remark(kPass, later))
                               *diag << message;
                           });
    });
  }
};

} // namespace
