//===- PipelineConfig.h - per-program and per-stencil choices -----*- C++ -*-===//
//
// A YAML file (e.g. stencils/diffusion.yaml) picks the pipeline per program and
// options per stencil; every exception to the default carries a reason:
//
//   default: fuse-all
//   programs:
//     apply_diffusion_to_vn:
//       pipeline: stn-remove-redundant-arrays,stn-map-fusion
//       reason: vertical merging measured slower on this program
//   stencils:
//     calculate_nabla2_for_w:
//       recompute: false         # keep its result in memory
//       kblock: 4                # levels per thread
//       hblock: 64               # points per OpenMP work item / CUDA threads per block
//       split_gathers: true      # C++: gathers in a scalar loop, the rest vectorised
//       reason: measured 1.2x faster (fusec-bench --autotune)
//   targets:                     # choices for one emit target only
//     cuda:                      # or cpp; each holds default, programs, stencils
//       stencils:
//         calculate_nabla2_for_w:
//           hblock: 256
//           reason: measured on a GPU
//
// What applies to a target is the top level overlaid by that target's section
// (`forTarget`): its `default` and program entries replace the top level's, and
// a stencil entry's keys win one by one, so the entry above keeps recompute and
// kblock from the top level and takes hblock 256 (and its own reason).
//
// Reading is strict: unknown keys, targets, programs or stencils, missing
// reasons and bad values are errors with the file's line and column. This library uses
// yaml-cpp, which reports errors by throwing, so it is built with exceptions
// and converts them to messages; nothing else in fusec needs exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_PASSES_PIPELINECONFIG_H
#define FUSEC_PASSES_PIPELINECONFIG_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace fusec {

struct ProgramChoice {
  std::string pipeline;
  std::string reason;
};

struct StencilChoice {
  std::optional<int64_t> kblock;
  std::optional<bool> recompute;
  /// Horizontal points per block of the kernels computing the stencil: per
  /// OpenMP work item (C++), threads per block (CUDA). A multiple of 32 from
  /// 32 to 1024.
  std::optional<int64_t> hblock;
  /// C++: the kernels computing the stencil read through neighbour tables in
  /// a scalar loop before their vectorised point loop (stn-split-gather-loops).
  std::optional<bool> splitGathers;
  /// C++ in the columns layout: overrides stn-prefetch-columns' rule for the
  /// kernels computing the stencil (false: no prefetches; true: every column
  /// a point ahead reads at its neighbours).
  std::optional<bool> prefetch;
  std::string reason;
};

/// The emitted code a `targets:` section is for: C++/OpenMP or CUDA.
enum class ConfigTarget { Cpp, Cuda };

/// The section's name in the file: `cpp` or `cuda`.
const char *configTargetName(ConfigTarget target);

/// One `targets:` section: the top level's choices, each optional.
struct TargetChoices {
  std::optional<std::string> defaultPipeline;
  std::map<std::string, ProgramChoice> programs;
  std::map<std::string, StencilChoice> stencils;
};

struct PipelineConfig {
  std::string defaultPipeline = "fuse-all";
  std::map<std::string, ProgramChoice> programs;
  std::map<std::string, StencilChoice> stencils;
  /// Per-target sections. Passes read only the fields above, so callers hand
  /// them `forTarget(...)` or `topLevel()`.
  std::map<ConfigTarget, TargetChoices> targets;

  /// The pipeline for `program` (top level; targets are not consulted).
  const std::string &pipelineFor(const std::string &program) const;
  /// The choices for `target`: the top level overlaid by its section; no targets.
  PipelineConfig forTarget(ConfigTarget target) const;
  /// The top level alone, for code of no target (the interpreter); no targets.
  PipelineConfig topLevel() const;
};

/// Parses `text` (named `path` in messages). On error returns false and sets
/// `error` to `path:line:col: message`.
bool parsePipelineConfig(const std::string &text, const std::string &path,
                         PipelineConfig &config, std::string &error);

/// Reads and parses the file at `path`.
bool loadPipelineConfig(const std::string &path, PipelineConfig &config, std::string &error);

/// The YAML text of `config` (what --autotune writes), deterministic: keys in
/// a fixed order, programs and stencils sorted by name, targets cpp then cuda.
std::string printPipelineConfig(const PipelineConfig &config, const std::string &header);

} // namespace fusec

#endif // FUSEC_PASSES_PIPELINECONFIG_H
