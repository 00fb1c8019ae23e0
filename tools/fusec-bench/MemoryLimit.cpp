//===- MemoryLimit.cpp - the memory-bandwidth limit of a program ----------===//

#include "MemoryLimit.h"

#include <algorithm>
#include <vector>

namespace fusec::bench {

Result<CopyBandwidth> measureCopyBandwidth(const SharedLibrary &library, unsigned repeat) {
  using MeasureFunction = int (*)(int64_t, int32_t, double *);
  auto measure = reinterpret_cast<MeasureFunction>(library.symbol("fusec_bench_measure_copy"));
  if (!measure)
    return Status::failure("'" + library.path() + "' has no copy kernel");
  unsigned runs = std::max(repeat, 1u) + 1;
  std::vector<double> seconds(runs);
  if (int status = measure(kCopyElements, static_cast<int32_t>(runs), seconds.data()))
    return Status::failure("the copy kernel failed with status " + std::to_string(status));
  CopyBandwidth copy;
  copy.bytesPerCopy = 2 * uint64_t(kCopyElements) * sizeof(double);
  copy.time = summarizeTimes(std::vector<double>(seconds.begin() + 1, seconds.end()));
  return copy;
}

} // namespace fusec::bench
