// Which targets: section of a pipeline configuration each fusec-bench backend runs with, and
// the pipelines --autotune tries.

#include "Autotune.h"
#include "Bench.h"

#include "passes/Pipelines.h"

#include <catch2/catch.hpp>

#include <algorithm>

using fusec::ConfigTarget;
using fusec::PipelineConfig;
using fusec::bench::Backend;

TEST_CASE("each backend runs its target's section", "[config]") {
  CHECK(fusec::bench::configTargetOf(Backend::Cpp) == ConfigTarget::Cpp);
  CHECK(fusec::bench::configTargetOf(Backend::Cuda) == ConfigTarget::Cuda);
  CHECK(fusec::bench::configTargetOf(Backend::CudaHost) == ConfigTarget::Cuda);
  CHECK_FALSE(fusec::bench::configTargetOf(Backend::Interpreter));

  PipelineConfig config;
  config.defaultPipeline = "none";
  config.targets[ConfigTarget::Cpp].defaultPipeline = "stn-map-fusion";
  config.targets[ConfigTarget::Cuda].defaultPipeline = "fuse-all";
  CHECK(fusec::bench::resolveForBackend(config, Backend::Cpp).defaultPipeline == "stn-map-fusion");
  CHECK(fusec::bench::resolveForBackend(config, Backend::Cuda).defaultPipeline == "fuse-all");
  CHECK(fusec::bench::resolveForBackend(config, Backend::CudaHost).defaultPipeline == "fuse-all");
  // The interpreter runs no target's code: the top level alone.
  PipelineConfig interpreted = fusec::bench::resolveForBackend(config, Backend::Interpreter);
  CHECK(interpreted.defaultPipeline == "none");
  CHECK(interpreted.targets.empty());
}

TEST_CASE("autotune's pipelines are fuse-all with one change each", "[config][autotune]") {
  std::vector<std::string> flat = fusec::bench::pipelineCandidates("fuse-all", false);
  std::vector<std::string> columns = fusec::bench::pipelineCandidates("fuse-all", true);
  // The start is not tried again; none is.
  CHECK(std::count(flat.begin(), flat.end(), "fuse-all") == 0);
  CHECK(std::count(flat.begin(), flat.end(), "none") == 1);
  CHECK(fusec::bench::pipelineCandidates("none", false).front() == "fuse-all");
  // Every variant keeps fuse-all's passes (a list of its own had fallen behind them).
  for (const std::string &pipeline : columns)
    if (pipeline != "none")
      for (const char *pass : {"stn-fuse-across-lists", "stn-split-applies", "stn-column-order",
                               "stn-sink-to-stores", "stn-wavefront"})
        CHECK(pipeline.find(pass) != std::string::npos);
  CHECK(std::count(flat.begin(), flat.end(), fusec::fuseAllPipeline("{bytes-weight=2}")) == 1);
  // Other wavefront tiles only where wavefronts run.
  CHECK(columns.size() == flat.size() + 2);
  CHECK(std::count(columns.begin(), columns.end(), fusec::fuseAllPipeline("", true, 256)) == 1);
  CHECK(std::count(columns.begin(), columns.end(), fusec::fuseAllPipeline("", true, 2048)) == 1);
  for (const std::string &pipeline : flat)
    CHECK(pipeline.find("tile=") == std::string::npos);
}
