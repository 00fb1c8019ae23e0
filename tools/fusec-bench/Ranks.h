//===- Ranks.h - fusec-bench run --ranks N ------------------------*- C++ -*-===//
//
// Runs the selected programs of each variant decomposed over N MPI ranks
// (mpirun + fusec-bench-ranks, RankJob.h) and compares the owned points with
// the one-rank run bit for bit; reports the compute/exchange split.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_RANKS_H
#define FUSEC_TOOLS_BENCH_RANKS_H

#include "Bench.h"

namespace fusec::bench {

/// The exit status: 0 when every program of every variant matched.
int runRanks(const BenchOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_RANKS_H
