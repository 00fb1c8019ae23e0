//===- Pack.h - fusec-bench pack: a GPU bundle without the compiler -*- C++ -*-===//
//
// `fusec-bench pack DIR FILE.stn` writes a self-contained directory that
// verifies and times the CUDA of every variant on a machine that has only
// CMake, nvcc and a C++ compiler (docs/bench.md, "GPU bundles"):
//
//   DIR/run.sh                    builds, verifies, times: results/<grid>.json
//   DIR/CMakeLists.txt            the runner and two builds of each variant
//   DIR/manifest.json             what was packed, by which command, file sizes
//   DIR/model.cpp                 programs, variants, inputs file (BundleModel.h)
//   DIR/variants/<i>-<name>.cu    the emitted CUDA of each variant, with the call shims
//   DIR/small/<program>/{inputs,reference}/<name>.npy
//                                 the small grid's inputs and the interpreter's outputs
//   DIR/src/runtime/, DIR/src/bench/
//                                 the fusec runtime (without NetCDF) and fusec-bench's
//                                 compiler-free core with the runner (bundle/)
//
// Large grids are not packed: the runner generates them and their inputs on
// the GPU machine from the same runtime and inputs file. The directory is
// written under a temporary name and renamed when complete; a bundle over
// the size limit is an error.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_PACK_H
#define FUSEC_TOOLS_BENCH_PACK_H

#include "Bench.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fusec::bench {

struct PackOptions {
  /// The programs, pipelines, small grid and its levels, inputs and tolerances.
  BenchOptions bench;
  std::string directory;
  /// Generated on the GPU machine: rNbK or lam-rNbK[:radius[@lat,lon]].
  std::vector<std::string> largeGrids;
  int32_t largeNlev = 80;
  /// Where the runtime and fusec-bench's sources are (the source tree).
  std::string sourceRoot;
  std::string commandLine;
  uint64_t sizeLimit = uint64_t(64) << 20;
};

/// Writes the bundle; a summary to `out`, errors to `errs`. Returns the exit status.
int runPack(const PackOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_PACK_H
