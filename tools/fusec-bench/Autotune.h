//===- Autotune.h - search per program for the fastest configuration -*- C++ -*-===//
//
// `fusec-bench run FILE --autotune --write-config FILE.yaml` tunes each
// selected program in turn with a greedy search that keeps a change only when
// it verifies against the interpreter and lowers the median by at least
// --min-gain (default 5%). It starts from fuse-all or, when the --write-config
// file exists, from that file's top level, which the written section is
// overlaid on (PipelineConfig::forTarget), so what it measures is what the
// file gives the backend's target:
//
//   1. pipeline: fuse-all, none, fuse-all with map-fusion's bytes-weight 2 or
//      32 or with gather-weight 2 (gathers priced as loads: recomputation
//      through neighbour tables as on GPUs), fuse-all without vertical
//      merging (each but the start);
//   2. recompute: false, one stencil at a time, for the stencils the program
//      calls inside another (the candidates for recomputation);
//   3. kblock 2, 4, 8 on the program's stencils (levels per thread / work item);
//   4. hblock 64, 256, 512 on the program's stencils (points per work item on
//      CPUs, threads per block on GPUs; 128 is the emitters' default).
//
// Stencil options belong to the first program (in --programs order) that
// applies the stencil; later programs (diffusion_step) inherit them. Each
// candidate compiles the one program alone (a second or two) and times it with
// --warmup/--repeat. A confirmation then compiles all programs under the start
// and under the tuned configuration and times both with twice the repeats; the
// choices of a program whose confirmed gain is below --min-gain are dropped.
// The winners, every entry with its measured gain as the reason, replace the
// `targets:` section of the backend's target (cpp; cuda for cuda and
// cuda-host) in the --write-config file; the rest of the file is kept (not
// its comments).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_AUTOTUNE_H
#define FUSEC_TOOLS_BENCH_AUTOTUNE_H

#include "Bench.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace fusec::bench {

/// Runs the search; the table goes to `out`, notes and errors to `errs`.
/// Returns the exit status (1 on any error).
int runAutotune(const BenchOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs);

/// The pipelines the search tries on a program that starts with `start`: fuse-all, none and
/// fuse-all's variants, each with every other pass of fuse-all; with `wavefronts` (the C++
/// backend in the columns layout) also fuse-all with other wavefront tiles.
std::vector<std::string> pipelineCandidates(const std::string &start, bool wavefronts);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_AUTOTUNE_H
