//===- RankJob.h - what fusec-bench-ranks runs --------------------*- C++ -*-===//
//
// `fusec-bench run --ranks N` compiles each variant as usual, then writes one
// job file per variant and starts `mpirun -np N fusec-bench-ranks JOB`
// (ranks/RankDriver.cpp). The job names the compiled library, the grid, the
// inputs and the selected programs' signatures, so the driver needs neither
// MLIR nor the .stn file. Rank 0 writes its findings to a result file that
// fusec-bench reads back. Both files are line-based text:
//
//   job:     library PATH | variant NAME | grid SPEC | nlev N | inputs MODE |
//            seed S | inputs-file PATH | steps S | repeat R | warmup W |
//            program NAME [OUTPUT-LOCATION] |
//            param NAME field INTENT LOCATION NEIGHBORS VERTICAL DTYPE |
//            param NAME scalar TYPE | param NAME points LOCATION
//            (params belong to the program line before them)
//   result:  program NAME MATCH MISMATCHED-VALUES COMPARED-VALUES |
//            time NAME TOTAL EXCHANGE COMPUTE   (seconds per repeat, max over ranks) |
//            exchange NAME CALLS-PER-RUN MESSAGES-PER-RUN BYTES-PER-RUN (all ranks) |
//            error NAME MESSAGE
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_RANKJOB_H
#define FUSEC_TOOLS_BENCH_RANKJOB_H

#include "ProgramSignature.h"

#include "fusec/status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fusec::bench {

struct RankJob {
  std::string library;
  std::string variant;
  std::string grid = "r2b4";
  int32_t nlev = 80;
  /// 0: the flat layout; else ICON's blocked layout with nproma points per block (1: columns).
  int32_t nproma = 0;
  std::string inputs = "random"; // random or realistic
  uint64_t seed = 0;
  std::optional<std::string> inputsFile;
  int32_t steps = 1;
  int32_t repeat = 0;
  int32_t warmup = 0;
  std::vector<ProgramSignature> programs;
};

/// One program's findings on rank 0.
struct RankProgramResult {
  std::string program;
  std::string error; // empty when it ran
  bool match = false;
  uint64_t mismatched = 0, compared = 0;
  /// One entry per timed repeat: the slowest rank's time of one step, and of
  /// its time inside the exchange callback, and the slowest compute part.
  std::vector<double> total, exchange, compute;
  double exchangeCalls = 0, messages = 0, bytes = 0; // per step, summed over ranks
};

std::string writeRankJob(const RankJob &job);
Result<RankJob> parseRankJob(const std::string &text);

std::string writeRankResults(const std::vector<RankProgramResult> &results);
Result<std::vector<RankProgramResult>> parseRankResults(const std::string &text);

/// The whole file, or a failure naming it.
Result<std::string> readTextFile(const std::string &path);
Status writeTextFile(const std::string &path, const std::string &text);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_RANKJOB_H
