//===- MapFusion.cpp - producer-consumer and sibling fusion ---------------===//

#include "passes/DomainUtils.h"
#include "passes/FusionUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dominance.h"
#include "llvm/Support/FormatVariadic.h"

namespace fusec {
#define GEN_PASS_DEF_MAPFUSION
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

constexpr llvm::StringLiteral kPass = "stn-map-fusion";

/// How a temporary is read by the applications that use it.
struct ReadSites {
  SmallVector<LoadOp> inlinable;
  int64_t evaluations = 0; // per consumer point: loads weighted by their folds' sizes
  bool throughNeighbours = false;
  bool allInlinable = true;
  bool stored = false;
  std::string refusal; // why some read cannot be inlined
};

class MapFusion {
public:
  MapFusion(ProgramOp program, bool recompute, int64_t bytesWeight)
      : program(program), recompute(recompute), bytesWeight(bytesWeight) {}

  void run() {
    while (fuseOneProducer() || fuseOneSiblingPair()) {
    }
    explainUnmergedPairs(program, sameDomains, [&](ApplyOp later, const std::string &message) {
      explain(later, "siblings " + message);
    });
  }

private:
  SmallVector<ApplyOp> applies() {
    SmallVector<ApplyOp> result;
    program.walk([&](ApplyOp apply) { result.push_back(apply); });
    return result;
  }

  /// Inlines the first temporary (in program order) whose reads the cost model
  /// allows to recompute; returns whether anything changed.
  bool fuseOneProducer() {
    for (ApplyOp producer : applies())
      for (auto [index, result] : llvm::enumerate(producer.getResults()))
        if (tryInline(producer, index, result))
          return true;
    return false;
  }

  /// Whether, once both are recomputed, CSE keeps only one of the two
  /// evaluations: the same point and level, one read dominating the other.
  static bool sameEvaluation(LoadOp a, LoadOp b, DominanceInfo &dominance) {
    return a.getPoint() == b.getPoint() && a.getLevelOffset() == b.getLevelOffset() &&
           a.getNbr() == b.getNbr() &&
           (dominance.properlyDominates(a.getOperation(), b.getOperation()) ||
            dominance.properlyDominates(b.getOperation(), a.getOperation()));
  }

  ReadSites collectReads(ApplyOp producer, Value result) {
    ReadSites sites;
    DominanceInfo dominance(program);
    for (Operation *user : result.getUsers()) {
      if (isa<StoreOp>(user)) {
        sites.stored = true;
        continue;
      }
      auto load = cast<LoadOp>(user);
      auto consumer = load->getParentOfType<ApplyOp>();
      std::string why;
      if (load.getDynOffset())
        why = "it is read at a data-dependent level";
      else if (std::string interference = interferenceBetween(producer, consumer, producer);
               !interference.empty())
        why = interference;
      else if (load.getPoint() != consumer.getPoint() && !recompute)
        why = "it is read through a neighbour table and recomputation is off";
      if (!why.empty()) {
        sites.allInlinable = false;
        if (sites.refusal.empty())
          sites.refusal = "not fused into " + describeApply(consumer) + ": " + why;
        continue;
      }
      sites.throughNeighbours |= load.getPoint() != consumer.getPoint();
      bool repeated = llvm::any_of(sites.inlinable, [&](LoadOp counted) {
        return sameEvaluation(counted, load, dominance);
      });
      sites.inlinable.push_back(load);
      if (!repeated)
        sites.evaluations += multiplicity(load, consumer);
    }
    return sites;
  }

  bool tryInline(ApplyOp producer, unsigned index, Value result) {
    if (producer.getKeepInMemory())
      return false;
    ReadSites sites = collectReads(producer, result);
    if (sites.inlinable.empty()) {
      if (!sites.refusal.empty())
        explain(producer, sites.refusal);
      return false;
    }
    // Cost model: recomputing costs the producer's work at every read; keeping
    // it costs one evaluation plus a write and a read of the temporary through
    // DRAM (bytes weighted by `bytes-weight` work units per byte).
    int64_t work = estimateWork(producer);
    int64_t reads = sites.evaluations;
    bool producerStays = sites.stored || !sites.allInlinable;
    int64_t bytes = 2 * (getElementType(result.getType()).getIntOrFloatBitWidth() / 8);
    int64_t recomputeCost = reads * work;
    int64_t keepCost = (producerStays ? 0 : work) + bytesWeight * bytes;
    if (reads > 1 && recomputeCost > keepCost) {
      explain(producer, llvm::formatv("not fused: {0} read {1} times{2}, recomputation would "
                                      "cost {3} work units against {4} to keep it in memory "
                                      "({5:f1}x the producer's work)",
                                      describeApply(producer), reads,
                                      sites.throughNeighbours ? " through neighbour tables" : "",
                                      recomputeCost, keepCost, double(recomputeCost) / work)
                            .str());
      return false;
    }
    for (LoadOp load : sites.inlinable) {
      OpBuilder builder(load);
      Value value = inlineProducer(builder, producer, index, load.getPoint(),
                                   load.getLevelOffset());
      load.replaceAllUsesWith(value);
      load.erase();
    }
    explain(producer, llvm::formatv("fused {0} into its readers: {1} read(s){2}, work {3} each",
                                    describeApply(producer), reads,
                                    sites.throughNeighbours ? " recomputed through neighbour tables"
                                                            : " at the centre",
                                    work)
                          .str());
    if (producer.use_empty())
      producer.erase();
    return true;
  }

  /// Merges the first pair of applications over the same domain.
  bool fuseOneSiblingPair() {
    return mergeFirstCompatiblePair(
        program,
        sameDomains,
        [&](ApplyOp merged, const std::string &names) {
          explain(merged, "fused siblings " + names + " (same domain): one kernel");
        });
  }

  static bool sameDomains(ApplyOp a, ApplyOp b) {
    return sameDomain(getDomain(a), getDomain(b));
  }

  void explain(ApplyOp at, const std::string &message) {
    if (auto diag = remark(kPass, at))
      *diag << message;
  }

  ProgramOp program;
  bool recompute;
  int64_t bytesWeight;
};

struct MapFusionPass : public fusec::impl::MapFusionBase<MapFusionPass> {
  using MapFusionBase::MapFusionBase;
  void runOnOperation() override {
    getOperation().walk([&](ProgramOp program) {
      MapFusion(program, recompute, bytesWeight).run();
    });
  }
};

} // namespace
