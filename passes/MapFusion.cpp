//===- MapFusion.cpp - producer-consumer and sibling fusion ---------------===//

#include "passes/CostModel.h"
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
  // Per consumer point, loads weighted by their folds' sizes: at the
  // consumer's point, and at other points (through neighbour tables).
  int64_t centreEvaluations = 0;
  int64_t neighbourEvaluations = 0;
  bool allInlinable = true;
  bool stored = false;
  // Consumers whose reads at neighbouring levels of their own point are
  // counted once: on CPUs the lower one is carried from the level before.
  SmallVector<ApplyOp> carriedInto;
  std::string refusal; // why some read cannot be inlined
};

class MapFusion {
public:
  MapFusion(ProgramOp program, bool recompute, CostWeights weights, StringRef target)
      : program(program), recompute(recompute), weights(weights), target(target) {}

  void run() {
    while (fuseOneProducer() || fuseOneSiblingPair()) {
    }
    auto siblings = [&](ApplyOp a, ApplyOp b) { return mergeable(a, b); };
    explainUnmergedPairs(program, siblings, [&](ApplyOp later, const std::string &message) {
      explain(later, "siblings " + message);
    });
    SmallVector<ApplyOp> all = applies();
    for (auto [i, earlier] : llvm::enumerate(all))
      for (ApplyOp later : llvm::ArrayRef(all).drop_front(i + 1))
        if (std::string why = siblingDomains(earlier, later) && !readsResultOf(later, earlier)
                                  ? siblingCostRefusal(earlier, later)
                                  : "";
            !why.empty())
          explain(later, "siblings not merged with " + describeApply(earlier) + ": " + why);
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

  /// Whether `b` reads one level above or below `a` at the consumer's own
  /// point (no neighbour, not under a branch), where stn-carry-levels takes
  /// the lower one from the level before: on CPUs, whose work items walk the
  /// levels of their points, unless the consumer chose one level per item.
  bool carriedEvaluation(LoadOp a, LoadOp b, ApplyOp consumer) const {
    Block *body = &consumer.getBody().front();
    return target == "cpp" && getDomain(consumer).vertical &&
           consumer.getKblock().value_or(StnDialect::kAllLevels) > 1 &&
           a->getBlock() == body && b->getBlock() == body &&
           a.getPoint() == consumer.getPoint() && b.getPoint() == consumer.getPoint() &&
           !a.getNbr() && !b.getNbr() && std::abs(a.getLevelOffset() - b.getLevelOffset()) == 1;
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
      else if (load.getPoint() == consumer.getPoint())
        why = streamRefusal(producer, consumer, result);
      if (why.empty())
        why = levelGatherRefusal(producer, consumer);
      if (!why.empty()) {
        sites.allInlinable = false;
        if (sites.refusal.empty())
          sites.refusal = "not fused into " + describeApply(consumer) + ": " + why;
        continue;
      }
      bool throughNeighbour = load.getPoint() != consumer.getPoint();
      bool repeated = llvm::any_of(sites.inlinable, [&](LoadOp counted) {
        return sameEvaluation(counted, load, dominance);
      });
      bool carried = !repeated && llvm::any_of(sites.inlinable, [&](LoadOp counted) {
        return carriedEvaluation(counted, load, consumer);
      });
      if (carried && !llvm::is_contained(sites.carriedInto, consumer))
        sites.carriedInto.push_back(consumer);
      repeated |= carried;
      sites.inlinable.push_back(load);
      if (!repeated)
        (throughNeighbour ? sites.neighbourEvaluations : sites.centreEvaluations) +=
            multiplicity(load, consumer);
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
    // Cost model (CostModel.h). A single read at the centre is always fused:
    // nothing is evaluated twice.
    int64_t reads = sites.centreEvaluations + sites.neighbourEvaluations;
    bool throughNeighbours = sites.neighbourEvaluations > 0;
    RecomputationCost cost = recomputationCost(
        producer, result, sites.centreEvaluations, sites.neighbourEvaluations,
        /*stays=*/sites.stored || !sites.allInlinable, weights);
    int64_t work = cost.work, recomputeCost = cost.recompute, keepCost = cost.keep;
    if (!cost.pays()) {
      explain(producer, llvm::formatv("not fused: {0} read {1} times{2}, recomputation would "
                                      "cost {3} work units against {4} to keep it in memory "
                                      "({5:f1}x the producer's work; {6} weights: gather {7}, "
                                      "byte {8})",
                                      describeApply(producer), reads,
                                      throughNeighbours ? " through neighbour tables" : "",
                                      recomputeCost, keepCost, double(recomputeCost) / work,
                                      weights.name, weights.gather, weights.bytes)
                            .str());
      return false;
    }
    for (ApplyOp consumer : sites.carriedInto)
      if (!consumer.getKblock()) {
        consumer.setKblock(StnDialect::kAllLevels);
        explain(consumer, llvm::formatv("walks all levels of its points (kblock = {0}): it reads "
                                        "{1} at neighbouring levels, the lower carried",
                                        StnDialect::kAllLevels, describeApply(producer))
                              .str());
      }
    // A producer's levels per work item (set for a carry, or chosen for its
    // stencil) go with its computation into consumers that chose none.
    if (std::optional<uint64_t> kblock = producer.getKblock())
      for (LoadOp load : sites.inlinable)
        if (auto consumer = load->getParentOfType<ApplyOp>(); !consumer.getKblock())
          consumer.setKblock(*kblock);
    for (LoadOp load : sites.inlinable) {
      OpBuilder builder(load);
      Value value = inlineProducer(builder, producer, index, load.getPoint(),
                                   load.getLevelOffset());
      load.replaceAllUsesWith(value);
      load.erase();
    }
    explain(producer, llvm::formatv("fused {0} into its readers: {1} read(s){2}, work {3} each",
                                    describeApply(producer), reads,
                                    throughNeighbours ? " recomputed through neighbour tables"
                                                      : " at the centre",
                                    work)
                          .str());
    if (producer.use_empty())
      producer.erase();
    return true;
  }

  /// Merges the first pair of sibling applications the cost model allows.
  bool fuseOneSiblingPair() {
    // The pair merged is the last one `compatible` was asked about.
    bool sameDomainPair = false;
    return mergeFirstCompatiblePair(
        program,
        [&](ApplyOp a, ApplyOp b) {
          sameDomainPair = sameDomains(a, b);
          return mergeable(a, b);
        },
        [&](ApplyOp merged, const std::string &names) {
          explain(merged, "fused siblings " + names +
                              (sameDomainPair ? " (same domain): one kernel"
                                              : " (one domain inside the other, both gather a "
                                                "field through the same table): one kernel, the "
                                                "inner part under a test of its range"));
        });
  }

  static bool sameDomains(ApplyOp a, ApplyOp b) {
    return sameDomain(getDomain(a), getDomain(b));
  }

  /// Siblings map fusion considers: over the same domain, or one inside the
  /// other when both gather a field through the same table, which one kernel
  /// reads once (the inner part runs under a test of its own range, and the
  /// hull is the outer domain: no point is added).
  static bool siblingDomains(ApplyOp a, ApplyOp b) {
    if (sameDomains(a, b))
      return true;
    Domain domainOfA = getDomain(a), domainOfB = getDomain(b);
    if (!containsDomain(domainOfA, domainOfB) && !containsDomain(domainOfB, domainOfA))
      return false;
    auto readsOfB = gatheredReads(b, b.getPoint());
    return llvm::any_of(gatheredReads(a, a.getPoint()),
                        [&](const auto &read) { return llvm::is_contained(readsOfB, read); });
  }

  bool mergeable(ApplyOp a, ApplyOp b) const {
    return siblingDomains(a, b) && siblingCostRefusal(a, b).empty();
  }

  /// Why one kernel of `a` and `b` would advance more address streams than
  /// the target keeps in registers (empty: it would not, or no more than one
  /// of them alone); `linking` (the temporary `b` reads from `a`) goes away.
  std::string streamRefusal(ApplyOp a, ApplyOp b, Value linking = nullptr) const {
    if (weights.addressStreams <= 0)
      return "";
    auto streamsOfA = addressStreams(a, a.getPoint());
    auto streamsOfB = addressStreams(b, b.getPoint());
    SmallVector<AddressStream> merged;
    for (const AddressStream &stream : llvm::concat<AddressStream>(streamsOfA, streamsOfB))
      if (!llvm::is_contained(merged, stream) &&
          !(linking && std::get<0>(stream) == linking.getAsOpaquePointer()))
        merged.push_back(stream);
    // Every result is a stream written; a producer's goes away with it.
    int64_t partA = streamsOfA.size() + a.getNumResults();
    int64_t partB = streamsOfB.size() + b.getNumResults();
    int64_t together = merged.size() + b.getNumResults() + (linking ? 0 : a.getNumResults());
    if (together <= weights.addressStreams || together <= std::max(partA, partB))
      return "";
    return llvm::formatv("one kernel would advance {0} address streams ({1} and {2} apart), more "
                         "than the {3} the {4} target keeps in registers",
                         together, partA, partB, weights.addressStreams, weights.name)
        .str();
  }

  /// Why one kernel of `a` and `b` would run the level loop of one at the
  /// pace of the other's reads at data-dependent levels (empty: the target
  /// mixes them, or both or neither read so).
  std::string levelGatherRefusal(ApplyOp a, ApplyOp b) const {
    if (weights.mixDataDependentLevels)
      return "";
    bool gathersA = readsAtDataDependentLevels(a), gathersB = readsAtDataDependentLevels(b);
    if (gathersA == gathersB)
      return "";
    return llvm::formatv("{0} reads at data-dependent levels and {1} does not; on the {2} "
                         "target one level loop would gather the levels of both",
                         describeApply(gathersA ? a : b), describeApply(gathersA ? b : a),
                         weights.name)
        .str();
  }

  /// Why the target's cost model keeps siblings apart (empty: it does not):
  /// one kernel would advance too many address streams, mix reads at
  /// data-dependent levels with contiguous ones, or both read through
  /// neighbour tables and gather no field in common.
  std::string siblingCostRefusal(ApplyOp a, ApplyOp b) const {
    if (std::string why = streamRefusal(a, b); !why.empty())
      return why;
    if (std::string why = levelGatherRefusal(a, b); !why.empty())
      return why;
    if (weights.mergeUnrelatedGathers)
      return "";
    auto readsOfA = gatheredReads(a, a.getPoint());
    auto readsOfB = gatheredReads(b, b.getPoint());
    if (readsOfA.empty() || readsOfB.empty() ||
        llvm::any_of(readsOfA, [&](const auto &read) { return llvm::is_contained(readsOfB, read); }))
      return "";
    return llvm::formatv("both read through neighbour tables ({0} and {1} field(s)) and share no "
                         "gathered field; on the {2} target one kernel would keep all their "
                         "address streams in registers",
                         readsOfA.size(), readsOfB.size(), weights.name)
        .str();
  }

  void explain(ApplyOp at, const std::string &message) {
    if (auto diag = remark(kPass, at))
      *diag << message;
  }

  ProgramOp program;
  bool recompute;
  CostWeights weights;
  StringRef target;
};

struct MapFusionPass : public fusec::impl::MapFusionBase<MapFusionPass> {
  using MapFusionBase::MapFusionBase;
  void runOnOperation() override {
    StringRef target = targetOf(getOperation());
    CostWeights weights = costWeightsFor(getOperation());
    if (bytesWeight >= 0)
      weights.bytes = bytesWeight;
    if (gatherWeight >= 0)
      weights.gather = gatherWeight;
    if (addressStreams >= 0)
      weights.addressStreams = addressStreams;
    if (mixDataDependentLevels >= 0)
      weights.mixDataDependentLevels = mixDataDependentLevels != 0;
    getOperation().walk([&](ProgramOp program) {
      MapFusion(program, recompute, weights, target).run();
    });
  }
};

} // namespace
