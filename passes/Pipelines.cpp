//===- Pipelines.cpp - named and textual pass pipelines -------------------===//

#include "passes/Pipelines.h"
#include "passes/PipelineConfig.h"
#include "passes/Passes.h"

#include "ir/StnDialect.h"

#include "mlir/IR/SymbolTable.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace fusec {

namespace {

/// A named pipeline: what `-O <name>` runs before domain inference (when it
/// starts the pipeline) and after it.
struct NamedPipeline {
  llvm::StringLiteral name;
  llvm::StringLiteral description;
  void (*build)(OpPassManager &);
  void (*buildBeforeInference)(OpPassManager &) = nullptr;
  /// What it runs in kernel form, after the kernel lowering.
  void (*buildKernelForm)(OpPassManager &) = nullptr;
};

void buildNone(OpPassManager &) {}

void buildNoneBeforeInference(OpPassManager &pm) { pm.addPass(createSplitWhere()); }

void buildFuseAll(OpPassManager &pm) {
  pm.addPass(createRemoveRedundantArrays());
  pm.addPass(createFuseAcrossLists());
  pm.addPass(createSplitApplies());
  pm.addPass(createMapFusion());
  pm.addPass(createMergeVertical());
  pm.addPass(createRemoveRedundantArrays());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createNarrowLevelRange());
  pm.addPass(createCanonicalizerPass());
  // After CSE: a value both sides of a select share is one value by then.
  pm.addPass(createUniformIf());
  // The branches of one condition test one value: stn-unswitch-kernels
  // splits a kernel once per condition.
  pm.addPass(createCSEPass());
  pm.addPass(createColumnOrder());
  pm.addPass(createSinkToStores());
}

void buildFuseAllKernelForm(OpPassManager &pm) { pm.addPass(createWavefront()); }

const NamedPipeline kNamedPipelines[] = {
    {"none",
     "one kernel per stencil application, each side of a 'where' only where it is taken: "
     "ICON's OpenACC loop structure",
     buildNone, buildNoneBeforeInference},
    {"fuse-all",
     "redundant-array removal, fusion across point-list updates, result splitting, map "
     "fusion with recomputation, vertical merging, in-place updates on the levels they change, "
     "branches on uniform conditions, CUDA blocks column by column, kernels that write their "
     "fields in place, and on CPUs (columns layout) groups of dependent kernels run tile by "
     "tile through the cache",
     buildFuseAll, nullptr, buildFuseAllKernelForm},
};

const NamedPipeline *findNamedPipeline(llvm::StringRef name) {
  for (const NamedPipeline &pipeline : kNamedPipelines)
    if (pipeline.name == name)
      return &pipeline;
  return nullptr;
}

std::string describeValidPipelines() {
  std::string text = "valid pipelines: ";
  for (const NamedPipeline &pipeline : kNamedPipelines)
    text += pipeline.name.str() + ", ";
  text += "or a comma-separated list of those and of passes:";
  for (llvm::StringRef pass :
       {"stn-map-fusion{recompute=true bytes-weight=25 gather-weight=14 address-streams=20 "
        "mix-data-dependent-levels=1}",
        "stn-merge-vertical",
        "stn-remove-redundant-arrays", "stn-fuse-across-lists{points-per-entry=100}",
        "stn-split-applies",
        "stn-k-blocking{block=4 stencils=<regex>}",
        "stn-narrow-level-range", "stn-uniform-if", "stn-column-order", "stn-sink-to-stores",
        "stn-split-where (before inference: first in the list)",
        "stn-wavefront{tile=1024} (in kernel form: after the lowering)",
        "canonicalize", "cse"})
    text += " " + pass.str();
  return text;
}

/// Passes of textual pipelines that run in kernel form, after the lowering.
bool isKernelFormPass(llvm::StringRef element) {
  return element == "stn-wavefront" || element.starts_with("stn-wavefront{");
}

} // namespace

std::string fuseAllPipeline(llvm::StringRef mapFusionOptions, bool mergeVertical,
                            int64_t wavefrontTile) {
  // buildFuseAll and buildFuseAllKernelForm, in order (a unit test compares the two).
  std::string pipeline = "stn-remove-redundant-arrays,stn-fuse-across-lists,stn-split-applies,"
                         "stn-map-fusion" +
                         mapFusionOptions.str() + (mergeVertical ? ",stn-merge-vertical" : "") +
                         ",stn-remove-redundant-arrays,canonicalize,cse,stn-narrow-level-range,"
                         "canonicalize,stn-uniform-if,cse,stn-column-order,stn-sink-to-stores,"
                         "stn-wavefront";
  if (wavefrontTile > 0)
    pipeline += "{tile=" + std::to_string(wavefrontTile) + "}";
  return pipeline;
}

/// Splits a textual pipeline at the commas outside pass options.
static llvm::SmallVector<llvm::StringRef> splitPipelineElements(llvm::StringRef spec) {
  llvm::SmallVector<llvm::StringRef> elements;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < spec.size(); ++i) {
    depth += spec[i] == '{' ? 1 : spec[i] == '}' ? -1 : 0;
    if (spec[i] == ',' && depth == 0) {
      elements.push_back(spec.slice(start, i).trim());
      start = i + 1;
    }
  }
  elements.push_back(spec.drop_front(start).trim());
  return elements;
}

void setOptimisationTarget(ModuleOp module, ConfigTarget target) {
  module->setAttr(stn::StnDialect::kTargetAttr,
                  StringAttr::get(module.getContext(), configTargetName(target)));
}

void setColumnsLayout(ModuleOp module) {
  module->setAttr(stn::StnDialect::kLayoutAttr,
                  StringAttr::get(module.getContext(), stn::StnDialect::kColumnsLayout));
}

LogicalResult buildOptimisationPipeline(OpPassManager &pm, llvm::StringRef spec,
                                        std::string &error) {
  llvm::SmallVector<llvm::StringRef> elements = splitPipelineElements(spec);
  // What needs the frontend's form (no domain inferred yet) comes first: a
  // leading named pipeline's own part, or a leading `stn-split-where`.
  size_t inferred = 0;
  if (const NamedPipeline *first = findNamedPipeline(elements.front());
      first && first->buildBeforeInference) {
    first->buildBeforeInference(pm);
  } else if (elements.front() == "stn-split-where") {
    pm.addPass(createSplitWhere());
    inferred = 1;
  }
  pm.addPass(createInferDomains());
  // Named pipelines may start or extend a list (`fuse-all,stn-k-blocking`);
  // the passes between them go to MLIR's pipeline parser.
  std::string passes;
  auto parsePending = [&]() -> LogicalResult {
    if (passes.empty())
      return success();
    std::string message;
    llvm::raw_string_ostream messageStream(message);
    if (failed(parsePassPipeline(passes, pm, messageStream))) {
      error = "invalid pipeline '" + spec.str() + "': " + message + "\n" + describeValidPipelines();
      return failure();
    }
    passes.clear();
    return success();
  };
  for (llvm::StringRef element : llvm::drop_begin(elements, inferred)) {
    if (isKernelFormPass(element)) {
      // Checked here, run by buildKernelLoweringPipeline.
      OpPassManager scratch(pm.getOpAnchorName(), pm.getNesting());
      std::string message;
      llvm::raw_string_ostream messageStream(message);
      if (failed(parsePassPipeline(element, scratch, messageStream))) {
        error = "invalid pipeline '" + spec.str() + "': " + message + "\n" +
                describeValidPipelines();
        return failure();
      }
      continue;
    }
    const NamedPipeline *named = findNamedPipeline(element);
    if (!named) {
      passes += (passes.empty() ? "" : ",") + element.str();
      continue;
    }
    if (failed(parsePending()))
      return failure();
    named->build(pm);
  }
  return parsePending();
}

void buildKernelLoweringPipeline(OpPassManager &pm, llvm::StringRef spec) {
  pm.addPass(createLowerToKernels());
  pm.addPass(createUnswitchKernels());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // After CSE: the loads of the value in place are one op per field by then.
  pm.addPass(createConditionalWrites());
  if (spec.empty())
    return;
  for (llvm::StringRef element : splitPipelineElements(spec)) {
    if (const NamedPipeline *named = findNamedPipeline(element)) {
      if (named->buildKernelForm)
        named->buildKernelForm(pm);
    } else if (isKernelFormPass(element)) {
      // buildOptimisationPipeline checked the element.
      (void)parsePassPipeline(element, pm, llvm::nulls());
    }
  }
}

void buildLoopLoweringPipeline(OpPassManager &pm) {
  pm.addPass(createLowerToLoops());
  pm.addPass(createUnrollReductions());
  pm.addPass(createHoistLoopInvariant());
  // One op per value before carrying: the unrolled folds of recomputed
  // producers read the same tables and coefficients, and the level carry
  // matches operands by identity.
  pm.addPass(createCSEPass());
  pm.addPass(createCarryLevels());
  pm.addPass(createUnswitchLoops());
  // The columns layout's loops over levels: after the uniform tests are decided.
  pm.addPass(createSplitLevelLoops());
  // Before the split: each version's gathers move to its own scalar loop.
  pm.addPass(createUnswitchMissingNeighbors());
  pm.addPass(createSplitGatherLoops());
  // After the unswitching, which decides the uniform parts of combined tests.
  pm.addPass(createNestSelects());
  // After the nesting: its tests are one comparison each.
  pm.addPass(createUnswitchColumnTests());
  // After the nesting: a select on an index test nested in one on data stays a select.
  pm.addPass(createBlendSelects());
  // Again: the versions the unswitching and splitting made hold loads that no
  // longer change in their loops (a coefficient read on one side of a test),
  // and loads that the two sides of a test each had in one loop.
  pm.addPass(createHoistLoopInvariant());
  pm.addPass(createCSEPass());
  pm.addPass(createPrefetchColumns());
  // After the prefetches: a field a kernel asks the cache for is one it reads.
  pm.addPass(createStreamStores());
  pm.addPass(createElideBarriers());
}

/// True when the application computes stencil `name` (alone or fused).
static bool computesStencil(stn::ApplyOp apply, llvm::StringRef name) {
  llvm::SmallVector<llvm::StringRef> parts;
  apply.getName().value_or("").split(parts, '+');
  return llvm::is_contained(parts, name);
}

static LogicalResult markStencilChoices(ModuleOp module, const PipelineConfig &config,
                                        std::string &error) {
  for (const auto &[name, choice] : config.stencils) {
    bool found = false;
    module.walk([&](stn::ApplyOp apply) {
      if (!computesStencil(apply, name))
        return;
      found = true;
      if (choice.kblock)
        apply.setKblock(*choice.kblock);
      if (choice.recompute && !*choice.recompute)
        apply.setKeepInMemory(true);
    });
    if (!found) {
      error = "the configuration names stencil '" + name + "', which no program applies";
      return failure();
    }
  }
  for (const auto &[name, choice] : config.programs)
    if (!SymbolTable::lookupSymbolIn(module, name)) {
      error = "the configuration names program '" + name + "', which the file does not define";
      return failure();
    }
  return success();
}

/// `hblock` of the configured stencils, on the kernels computing them (the
/// largest when a fused kernel computes several): what the emitters read; and
/// `split_gathers` and `prefetch` when a stencil they compute asks for it.
static void markKernelBlocks(ModuleOp module, const PipelineConfig &config) {
  module.walk([&](stn::KernelOp kernel) {
    // A version made by stn-unswitch-kernels computes what its kernel did.
    llvm::StringRef name = kernel.getName();
    for (llvm::StringRef marker : {".if_", ".unless_"})
      name = name.take_front(name.find(marker));
    llvm::SmallVector<llvm::StringRef> parts;
    name.split(parts, '+');
    std::optional<int64_t> hblock;
    bool splitGathers = false;
    std::optional<bool> prefetch;
    for (llvm::StringRef part : parts) {
      auto choice = config.stencils.find(part.str());
      if (choice == config.stencils.end())
        continue;
      if (choice->second.hblock)
        hblock = std::max(hblock.value_or(0), *choice->second.hblock);
      splitGathers = splitGathers || choice->second.splitGathers.value_or(false);
      // A fused kernel prefetches every column if one of its stencils asks.
      if (choice->second.prefetch)
        prefetch = prefetch.value_or(false) || *choice->second.prefetch;
    }
    Builder builder(kernel.getContext());
    if (hblock)
      kernel->setAttr("hblock", builder.getI64IntegerAttr(*hblock));
    if (splitGathers)
      kernel->setAttr(stn::StnDialect::kSplitGathersAttr, builder.getUnitAttr());
    if (prefetch)
      kernel->setAttr(stn::StnDialect::kPrefetchAttr, builder.getBoolAttr(*prefetch));
  });
}

LogicalResult runPipelines(ModuleOp module, const PipelineConfig &config, bool lower,
                           std::string &error) {
  if (failed(markStencilChoices(module, config, error)))
    return failure();
  // Programs grouped by pipeline, in order of first appearance.
  llvm::SmallVector<std::pair<std::string, llvm::SmallVector<std::string>>> groups;
  for (auto program : module.getOps<stn::ProgramOp>()) {
    std::string pipeline = config.pipelineFor(program.getSymName().str());
    auto group = llvm::find_if(groups, [&](const auto &entry) { return entry.first == pipeline; });
    if (group == groups.end())
      groups.push_back({pipeline, {}}), group = std::prev(groups.end());
    group->second.push_back(program.getSymName().str());
  }
  llvm::StringMap<OwningOpRef<ModuleOp>> compiled;
  for (auto &[pipeline, programs] : groups) {
    OwningOpRef<ModuleOp> copy = module.clone();
    for (auto program : llvm::make_early_inc_range(copy->getOps<stn::ProgramOp>()))
      if (!llvm::is_contained(programs, program.getSymName()))
        program.erase();
    PassManager pm(module.getContext());
    if (failed(buildOptimisationPipeline(pm, pipeline, error)))
      return failure();
    if (lower)
      buildKernelLoweringPipeline(pm, pipeline);
    if (failed(pm.run(*copy))) {
      error = "the pipeline '" + pipeline + "' failed";
      return failure();
    }
    for (const std::string &name : programs)
      compiled[name] = copy->clone();
  }
  // Put each program back in its place, compiled by its own pipeline.
  for (auto program : llvm::make_early_inc_range(module.getOps<stn::ProgramOp>())) {
    ModuleOp source = *compiled[program.getSymName()];
    auto result = SymbolTable::lookupSymbolIn(source, program.getSymName());
    OpBuilder(program).clone(*result);
    program.erase();
  }
  if (lower)
    markKernelBlocks(module, config);
  return success();
}

void registerPipelinePasses() {
  static const bool registered = [] {
    registerFusecPasses();
    registerCanonicalizerPass();
    registerCSEPass();
    return true;
  }();
  (void)registered;
}

void registerFusecPasses() {
  registerStnPasses();
  for (const NamedPipeline &pipeline : kNamedPipelines)
    PassPipelineRegistration<>(("stn-pipeline-" + pipeline.name).str(), pipeline.description,
                               [&pipeline](OpPassManager &pm) {
                                 if (pipeline.buildBeforeInference)
                                   pipeline.buildBeforeInference(pm);
                                 pm.addPass(createInferDomains());
                                 pipeline.build(pm);
                               });
}

} // namespace fusec
