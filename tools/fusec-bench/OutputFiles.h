//===- OutputFiles.h - what --save-outputs writes -----------------*- C++ -*-===//
//
// One .npy file per parameter, named after it (docs/runtime.md's field mapping;
// scalars are 0-d arrays, point lists int32 arrays of shape (N, 2) whose rows
// are (point, level)), so Python tools can check or reuse a run:
//
//   DIR/grid/<TABLE>.npy                 every neighbour table, (neighbours, points) int32
//   DIR/<program>/inputs/<name>.npy      every argument before the run
//   DIR/<program>/reference/<name>.npy   the oracle's outputs (out and inout fields)
//   DIR/<program>/<variant>/<name>.npy   each variant's outputs (variant names with
//                                        characters other than [A-Za-z0-9._-] replaced by _)
//   DIR/sources/<variant>.cpp (.cu)      the C++ (CUDA) each variant was compiled from, as
//                                        timed (e.g. for scripts/shared_kernels.py)
//   DIR/manifest.json                    the grid, nlev, inputs, and per program its
//                                        parameters and variant directories
//
// `--inputs DIR` reads DIR/<program>/inputs/ back.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_OUTPUTFILES_H
#define FUSEC_TOOLS_BENCH_OUTPUTFILES_H

#include "HostField.h"
#include "ProgramSignature.h"
#include "Report.h"

#include "fusec/grid.h"
#include "fusec/status.h"

#include <string>
#include <vector>

namespace fusec::bench {

/// Writes `text` to `file`, creating its directory; a failure names the file.
Status writeTextFile(const std::string &file, llvm::StringRef text);

/// The directory name of a variant.
std::string variantDirectoryName(const std::string &variant);

class OutputDirectory {
public:
  explicit OutputDirectory(std::string root) : root(std::move(root)) {}

  Status saveGrid(const Grid &grid);
  /// Saves `values` under DIR/<program>/<subdirectory>/: every parameter, or
  /// only the output fields.
  Status saveArguments(const ProgramSignature &program, const std::string &subdirectory,
                       const std::vector<ArgumentValue> &values, bool outputsOnly);
  /// Saves a variant's emitted code as DIR/sources/<variant>.<extension>.
  Status saveSource(const std::string &variant, const std::string &source,
                    const std::string &extension);
  Status writeManifest(const BenchReport &report, const std::vector<ProgramSignature> &programs);

private:
  std::string root;
};

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_OUTPUTFILES_H
