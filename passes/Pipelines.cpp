//===- Pipelines.cpp - named and textual pass pipelines -------------------===//

#include "passes/Pipelines.h"
#include "passes/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace fusec {

namespace {

/// A named pipeline: what `-O <name>` runs after domain inference.
struct NamedPipeline {
  llvm::StringLiteral name;
  llvm::StringLiteral description;
  void (*build)(OpPassManager &);
};

void buildNone(OpPassManager &) {}

void buildFuseAll(OpPassManager &pm) {
  pm.addPass(createRemoveRedundantArrays());
  pm.addPass(createMapFusion());
  pm.addPass(createMergeVertical());
  pm.addPass(createRemoveRedundantArrays());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

const NamedPipeline kNamedPipelines[] = {
    {"none", "one kernel per stencil application: ICON's OpenACC loop structure", buildNone},
    {"fuse-all", "redundant-array removal, map fusion with recomputation, vertical merging",
     buildFuseAll},
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
  text += "or a comma-separated list of passes:";
  for (llvm::StringRef pass :
       {"stn-map-fusion{recompute=true bytes-weight=8}", "stn-merge-vertical",
        "stn-remove-redundant-arrays", "stn-k-blocking{block=4 stencils=<regex>}",
        "canonicalize", "cse"})
    text += " " + pass.str();
  return text;
}

} // namespace

LogicalResult buildOptimisationPipeline(OpPassManager &pm, llvm::StringRef spec,
                                        std::string &error) {
  pm.addPass(createInferDomains());
  if (const NamedPipeline *named = findNamedPipeline(spec.trim())) {
    named->build(pm);
    return success();
  }
  std::string message;
  llvm::raw_string_ostream messageStream(message);
  if (failed(parsePassPipeline(spec, pm, messageStream))) {
    error = "invalid pipeline '" + spec.str() + "': " + message + "\n" + describeValidPipelines();
    return failure();
  }
  return success();
}

void buildKernelLoweringPipeline(OpPassManager &pm) {
  pm.addPass(createLowerToKernels());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void registerFusecPasses() {
  registerStnPasses();
  for (const NamedPipeline &pipeline : kNamedPipelines)
    PassPipelineRegistration<>(("stn-pipeline-" + pipeline.name).str(), pipeline.description,
                               [&pipeline](OpPassManager &pm) {
                                 pm.addPass(createInferDomains());
                                 pipeline.build(pm);
                               });
}

} // namespace fusec
