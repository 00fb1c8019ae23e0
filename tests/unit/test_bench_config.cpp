// Which targets: section of a pipeline configuration each fusec-bench backend runs with.

#include "Bench.h"

#include <catch2/catch.hpp>

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
