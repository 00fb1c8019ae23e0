// Strict reading and deterministic writing of pipeline configurations.

#include "passes/PipelineConfig.h"

#include <catch2/catch.hpp>

using fusec::PipelineConfig;

namespace {
std::string parseError(const std::string &text) {
  PipelineConfig config;
  std::string error;
  REQUIRE_FALSE(fusec::parsePipelineConfig(text, "cfg.yaml", config, error));
  return error;
}
} // namespace

TEST_CASE("a full configuration is read", "[config]") {
  PipelineConfig config;
  std::string error;
  REQUIRE(fusec::parsePipelineConfig(R"(default: none
programs:
  apply_diffusion_to_vn:
    pipeline: stn-map-fusion
    reason: measured faster
stencils:
  calculate_nabla2_for_w:
    recompute: false
    kblock: 4
    hblock: 64
    reason: autotuned
)",
                                     "cfg.yaml", config, error));
  CHECK(config.defaultPipeline == "none");
  CHECK(config.pipelineFor("apply_diffusion_to_vn") == "stn-map-fusion");
  CHECK(config.pipelineFor("other") == "none");
  const auto &choice = config.stencils.at("calculate_nabla2_for_w");
  CHECK(*choice.kblock == 4);
  CHECK(*choice.recompute == false);
  CHECK(*choice.hblock == 64);
  CHECK(choice.reason == "autotuned");
}

TEST_CASE("an empty file means fuse-all everywhere", "[config]") {
  PipelineConfig config;
  std::string error;
  REQUIRE(fusec::parsePipelineConfig("", "cfg.yaml", config, error));
  CHECK(config.pipelineFor("any") == "fuse-all");
}

TEST_CASE("mistakes are errors with line and column", "[config]") {
  CHECK(parseError("defualt: none\n") ==
        "cfg.yaml:1:1: error: unknown key 'defualt' in the configuration (valid keys: default, "
        "programs, stencils)");
  CHECK(parseError("programs:\n  p:\n    pipeline: none\n") ==
        "cfg.yaml:3:5: error: program 'p' needs a 'reason': every exception says why");
  CHECK(parseError("stencils:\n  s:\n    kblock: 0\n    reason: x\n") ==
        "cfg.yaml:3:13: error: kblock of stencil 's' must be an integer from 1 to 1024");
  CHECK(parseError("stencils:\n  s:\n    recompute: maybe\n    reason: x\n") ==
        "cfg.yaml:3:16: error: recompute of stencil 's' must be true or false");
  CHECK(parseError("stencils:\n  s:\n    reason: x\n") ==
        "cfg.yaml:3:5: error: stencil 's' chooses nothing: give kblock, recompute or hblock");
  CHECK(parseError("stencils:\n  s:\n    hblock: 100\n    reason: x\n") ==
        "cfg.yaml:3:13: error: hblock of stencil 's' must be a multiple of 32 from 32 to 1024");
  CHECK(parseError("stencils:\n  s:\n    hblock: 2048\n    reason: x\n") ==
        "cfg.yaml:3:13: error: hblock of stencil 's' must be a multiple of 32 from 32 to 1024");
  CHECK(parseError("stencils:\n  s:\n    kblok: 2\n") ==
        "cfg.yaml:3:5: error: unknown key 'kblok' in stencil 's' (valid keys: hblock, kblock, "
        "reason, recompute)");
  CHECK(parseError("default: [a\n").rfind("cfg.yaml:", 0) == 0);
}

TEST_CASE("writing and reading gives the same configuration", "[config]") {
  PipelineConfig config;
  config.defaultPipeline = "fuse-all";
  config.programs["p"] = {"none", "slower fused"};
  fusec::StencilChoice choice;
  choice.kblock = 8;
  choice.hblock = 256;
  choice.reason = "1.10x faster";
  config.stencils["s"] = choice;
  std::string text = fusec::printPipelineConfig(config, "written by a test");
  CHECK(text == fusec::printPipelineConfig(config, "written by a test"));
  PipelineConfig again;
  std::string error;
  REQUIRE(fusec::parsePipelineConfig(text, "again.yaml", again, error));
  CHECK(again.pipelineFor("p") == "none");
  CHECK(*again.stencils.at("s").kblock == 8);
  CHECK(*again.stencils.at("s").hblock == 256);
  CHECK_FALSE(again.stencils.at("s").recompute);
  CHECK(again.stencils.at("s").reason == "1.10x faster");
}
