//===- MemoryLimit.h - the memory-bandwidth limit of a program ----*- C++ -*-===//
//
// Stencil programs are bound by memory bandwidth, so the time no
// implementation can beat is the program's compulsory traffic (each input
// field read once, each output field written once, an inout field both; from
// the field types and the mesh sizes; neighbour tables and scalars not
// counted) moved at the bandwidth of a plain copy measured in the same run:
// b[i] = a[i] on two arrays of kCopyElements doubles (128 MiB each; on the host
// CPU four times its last-level cache, up to 2 GiB: a 260 MB L3 kept half of
// 128 MiB arrays and overstated the memory's rate), counted as
// 2 x 128 MiB per copy (STREAM's convention: write-allocate traffic not
// counted), best of the timed copies (STREAM reports the best rate too).
// fusec-bench copies before and after the programs and takes the faster
// (BenchReport::limitBandwidth).
//
// Where the C++ backend has non-temporal stores (x86-64), a second copy writes
// b with them (fusec::stream_copy): an ordinary store first reads the line it
// writes, which STREAM's convention does not count, so that copy moves a third
// more bytes than it is credited with. Its rate is closer to what the memory
// can do, and fusec-bench reports the time over that limit beside the first
// (BenchReport::streamLimitBandwidth).
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

/// The copy's elements per array for the host CPU: kCopyElements, or four times the
/// last-level cache where that is more, at most 2^28 (2 GiB).
int64_t hostCopyElements();

struct CopyBandwidth {
  uint64_t bytesPerCopy = 0; // read + written
  TimeSummary time;
  double bytesPerSecond() const { return time.min > 0 ? double(bytesPerCopy) / time.min : 0.0; }
};

enum class CopyStores { Ordinary, NonTemporal };

/// Whether the library has the copy kernel with these stores.
bool hasCopyKernel(const SharedLibrary &library, CopyStores stores);

/// Runs the library's copy kernel with these stores (`fusec_bench_measure_copy`,
/// `fusec_bench_measure_stream_copy`, CallShim.h) `repeat` times after one
/// untimed copy.
Result<CopyBandwidth> measureCopyBandwidth(const SharedLibrary &library, unsigned repeat,
                                           CopyStores stores = CopyStores::Ordinary,
                                           int64_t elements = kCopyElements);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_MEMORYLIMIT_H
