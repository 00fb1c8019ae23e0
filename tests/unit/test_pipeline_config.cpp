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
    split_gathers: true
    prefetch: true
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
  CHECK(*choice.splitGathers);
  CHECK(*choice.prefetch);
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
        "programs, stencils, targets)");
  CHECK(parseError("programs:\n  p:\n    pipeline: none\n") ==
        "cfg.yaml:3:5: error: program 'p' needs a 'reason': every exception says why");
  CHECK(parseError("stencils:\n  s:\n    kblock: 0\n    reason: x\n") ==
        "cfg.yaml:3:13: error: kblock of stencil 's' must be an integer from 1 to 1024");
  CHECK(parseError("stencils:\n  s:\n    recompute: maybe\n    reason: x\n") ==
        "cfg.yaml:3:16: error: recompute of stencil 's' must be true or false");
  CHECK(parseError("stencils:\n  s:\n    reason: x\n") ==
        "cfg.yaml:3:5: error: stencil 's' chooses nothing: give kblock, recompute, hblock, "
        "split_gathers or prefetch");
  CHECK(parseError("stencils:\n  s:\n    split_gathers: 3\n    reason: x\n") ==
        "cfg.yaml:3:20: error: split_gathers of stencil 's' must be true or false");
  CHECK(parseError("stencils:\n  s:\n    prefetch: often\n    reason: x\n") ==
        "cfg.yaml:3:15: error: prefetch of stencil 's' must be true or false");
  CHECK(parseError("stencils:\n  s:\n    hblock: 100\n    reason: x\n") ==
        "cfg.yaml:3:13: error: hblock of stencil 's' must be a multiple of 32 from 32 to 1024");
  CHECK(parseError("stencils:\n  s:\n    hblock: 2048\n    reason: x\n") ==
        "cfg.yaml:3:13: error: hblock of stencil 's' must be a multiple of 32 from 32 to 1024");
  CHECK(parseError("stencils:\n  s:\n    kblok: 2\n") ==
        "cfg.yaml:3:5: error: unknown key 'kblok' in stencil 's' (valid keys: hblock, kblock, "
        "prefetch, reason, recompute, split_gathers)");
  CHECK(parseError("default: [a\n").rfind("cfg.yaml:", 0) == 0);
}

TEST_CASE("writing and reading gives the same configuration", "[config]") {
  PipelineConfig config;
  config.defaultPipeline = "fuse-all";
  config.programs["p"] = {"none", "slower fused"};
  fusec::StencilChoice choice;
  choice.kblock = 8;
  choice.hblock = 256;
  choice.splitGathers = true;
  choice.prefetch = true;
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
  CHECK(*again.stencils.at("s").splitGathers);
  CHECK(*again.stencils.at("s").prefetch);
  CHECK_FALSE(again.stencils.at("s").recompute);
  CHECK(again.stencils.at("s").reason == "1.10x faster");
}

namespace {
const char *kTargetedConfig = R"(default: fuse-all
programs:
  p:
    pipeline: none
    reason: top
  q:
    pipeline: none
    reason: top
stencils:
  s:
    kblock: 4
    recompute: false
    reason: top
  t:
    hblock: 64
    reason: top
targets:
  cuda:
    default: none
    programs:
      p:
        pipeline: fuse-all
        reason: measured on a GPU
    stencils:
      s:
        hblock: 256
        kblock: 2
        reason: measured on a GPU
      u:
        kblock: 8
        reason: measured on a GPU
  cpp:
    stencils:
      t:
        hblock: 512
        reason: measured on a CPU
)";

PipelineConfig parsed(const std::string &text) {
  PipelineConfig config;
  std::string error;
  INFO(error);
  REQUIRE(fusec::parsePipelineConfig(text, "cfg.yaml", config, error));
  return config;
}
} // namespace

TEST_CASE("a target's choices are the top level overlaid by its section", "[config]") {
  PipelineConfig config = parsed(kTargetedConfig);
  REQUIRE(config.targets.size() == 2);

  PipelineConfig cuda = config.forTarget(fusec::ConfigTarget::Cuda);
  CHECK(cuda.targets.empty());
  CHECK(cuda.defaultPipeline == "none");
  CHECK(cuda.pipelineFor("p") == "fuse-all"); // the section's entry replaces the top level's
  CHECK(cuda.programs.at("p").reason == "measured on a GPU");
  CHECK(cuda.pipelineFor("q") == "none");     // the top level's entry stays
  CHECK(cuda.pipelineFor("other") == "none"); // the section's default
  // Keys win one by one: kblock and hblock from the section, recompute from the top level,
  // the reason from the section.
  const fusec::StencilChoice &s = cuda.stencils.at("s");
  CHECK(*s.kblock == 2);
  CHECK(*s.hblock == 256);
  CHECK(*s.recompute == false);
  CHECK(s.reason == "measured on a GPU");
  CHECK(*cuda.stencils.at("t").hblock == 64);
  CHECK(*cuda.stencils.at("u").kblock == 8);

  PipelineConfig cpp = config.forTarget(fusec::ConfigTarget::Cpp);
  CHECK(cpp.defaultPipeline == "fuse-all");
  CHECK(cpp.pipelineFor("p") == "none");
  CHECK(*cpp.stencils.at("s").kblock == 4);
  CHECK_FALSE(cpp.stencils.at("s").hblock);
  CHECK(*cpp.stencils.at("t").hblock == 512);
  CHECK(cpp.stencils.count("u") == 0);

  PipelineConfig top = config.topLevel();
  CHECK(top.targets.empty());
  CHECK(top.pipelineFor("p") == "none");
  CHECK(*top.stencils.at("t").hblock == 64);
  CHECK(top.stencils.count("u") == 0);
}

TEST_CASE("a target without a section gets the top level", "[config]") {
  PipelineConfig config = parsed("default: none\ntargets:\n  cpp:\n");
  CHECK(config.targets.count(fusec::ConfigTarget::Cpp) == 1); // `cpp:` alone: an empty section
  CHECK(config.forTarget(fusec::ConfigTarget::Cpp).defaultPipeline == "none");
  CHECK(config.forTarget(fusec::ConfigTarget::Cuda).defaultPipeline == "none");
}

TEST_CASE("mistakes in target sections are errors with line and column", "[config]") {
  CHECK(parseError("targets:\n  gpu:\n    default: none\n") ==
        "cfg.yaml:2:3: error: unknown target 'gpu' in targets (valid targets: cpp, cuda)");
  CHECK(parseError("targets: [cpp]\n") ==
        "cfg.yaml:1:10: error: targets must be a mapping from target names (cpp, cuda)");
  CHECK(parseError("targets:\n  cuda:\n    targets: {}\n") ==
        "cfg.yaml:3:5: error: unknown key 'targets' in target 'cuda' (valid keys: default, "
        "programs, stencils)");
  CHECK(parseError("targets:\n  cpp:\n    stencils:\n      s:\n        hblock: 100\n"
                   "        reason: x\n") ==
        "cfg.yaml:5:17: error: hblock of stencil 's' must be a multiple of 32 from 32 to 1024");
  CHECK(parseError("targets:\n  cuda:\n    programs:\n      p:\n        pipeline: none\n") ==
        "cfg.yaml:5:9: error: program 'p' needs a 'reason': every exception says why");
  CHECK(parseError("targets:\n  cuda:\n    default: ''\n") ==
        "cfg.yaml:3:14: error: the default of target 'cuda' must be a non-empty string");
  CHECK(parseError("targets:\n  cuda: 3\n") ==
        "cfg.yaml:2:9: error: target 'cuda' must be a mapping");
}

TEST_CASE("targets are written after the top level, cpp before cuda", "[config]") {
  PipelineConfig config;
  fusec::StencilChoice gpu;
  gpu.hblock = 256;
  gpu.reason = "gpu";
  config.targets[fusec::ConfigTarget::Cuda].stencils["s"] = gpu;
  config.targets[fusec::ConfigTarget::Cpp]; // considered, nothing chosen
  config.programs["p"] = {"none", "top"};
  CHECK(fusec::printPipelineConfig(config, "header") == R"(# header
default: fuse-all
programs:
  p:
    pipeline: none
    reason: top
targets:
  cpp: {}
  cuda:
    stencils:
      s:
        hblock: 256
        reason: gpu
)");
  PipelineConfig again = parsed(fusec::printPipelineConfig(config, "header"));
  CHECK(again.targets.count(fusec::ConfigTarget::Cpp) == 1);
  CHECK(fusec::printPipelineConfig(again, "header") ==
        fusec::printPipelineConfig(config, "header"));
}

TEST_CASE("replacing one target's section keeps the rest of the file", "[config]") {
  // What fusec-bench --autotune --write-config does to an existing file.
  PipelineConfig file = parsed(kTargetedConfig);
  std::string cppBefore = fusec::printPipelineConfig(file.forTarget(fusec::ConfigTarget::Cpp), "");
  std::string topBefore = fusec::printPipelineConfig(file.topLevel(), "");
  fusec::StencilChoice tuned;
  tuned.kblock = 2;
  tuned.reason = "tuned";
  file.targets[fusec::ConfigTarget::Cuda] = {};
  file.targets[fusec::ConfigTarget::Cuda].stencils["v"] = tuned;

  PipelineConfig again = parsed(fusec::printPipelineConfig(file, "rewritten"));
  CHECK(fusec::printPipelineConfig(again.forTarget(fusec::ConfigTarget::Cpp), "") == cppBefore);
  CHECK(fusec::printPipelineConfig(again.topLevel(), "") == topBefore);
  PipelineConfig cuda = again.forTarget(fusec::ConfigTarget::Cuda);
  CHECK(cuda.defaultPipeline == "fuse-all"); // the old section's default went with it
  CHECK(*cuda.stencils.at("v").kblock == 2);
  CHECK(*cuda.stencils.at("s").kblock == 4);
  CHECK_FALSE(cuda.stencils.at("s").hblock);
}
