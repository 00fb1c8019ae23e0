//===- MemoryLimit.h - the memory-bandwidth limit of a program ----*- C++ -*-===//
//
// Stencil programs are bound by memory bandwidth, so the time no
// implementation can beat is the program's compulsory traffic (each input
// field read once, each output field written once, an inout field both; from
// the field types and the mesh sizes; neighbour tables and scalars not
// counted) moved at the bandwidth of a plain copy measured in the same run:
// b[i] = a[i] on two arrays of kCopyElements doubles (128 MiB each), counted as
// 2 x 128 MiB per copy (STREAM's convention: write-allocate traffic not
// counted), best of the timed copies (STREAM reports the best rate too).
// fusec-bench copies before and after the programs and takes the faster
// (BenchReport::limitBandwidth).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_MEMORYLIMIT_H
#define FUSEC_TOOLS_BENCH_MEMORYLIMIT_H

#include "SharedLibrary.h"
#include "ProgramSignature.h"
#include "Timing.h"

#include "fusec/grid.h"
#include "fusec/status.h"

#include <cstdint>

namespace fusec::bench {

constexpr int64_t kCopyElements = int64_t(1) << 24;

struct CopyBandwidth {
  uint64_t bytesPerCopy = 0; // read + written
  TimeSummary time;
  double bytesPerSecond() const { return time.min > 0 ? double(bytesPerCopy) / time.min : 0.0; }
};

/// Runs the library's copy kernel (`fusec_bench_measure_copy`, CallShim.h)
/// `repeat` times after one untimed copy.
Result<CopyBandwidth> measureCopyBandwidth(const SharedLibrary &library, unsigned repeat);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_MEMORYLIMIT_H
