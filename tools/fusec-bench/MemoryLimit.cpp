//===- MemoryLimit.cpp - the memory-bandwidth limit of a program ----------===//

#include "MemoryLimit.h"

#include <unistd.h>

#include <algorithm>
#include <vector>

namespace fusec::bench {

int64_t hostCopyElements() {
  int64_t cacheBytes = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
  cacheBytes = std::max<int64_t>(cacheBytes, sysconf(_SC_LEVEL3_CACHE_SIZE));
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
  cacheBytes = std::max<int64_t>(cacheBytes, sysconf(_SC_LEVEL2_CACHE_SIZE));
#endif
  return std::clamp<int64_t>(4 * cacheBytes / int64_t(sizeof(double)), kCopyElements,
                             int64_t(1) << 28);
}

static const char *copyKernelName(CopyStores stores) {
  return stores == CopyStores::Ordinary ? "fusec_bench_measure_copy"
                                        : "fusec_bench_measure_stream_copy";
}

bool hasCopyKernel(const SharedLibrary &library, CopyStores stores) {
  return library.symbol(copyKernelName(stores)) != nullptr;
}

Result<CopyBandwidth> measureCopyBandwidth(const SharedLibrary &library, unsigned repeat,
                                           CopyStores stores, int64_t elements) {
  using MeasureFunction = int (*)(int64_t, int32_t, double *);
  auto measure = reinterpret_cast<MeasureFunction>(library.symbol(copyKernelName(stores)));
  if (!measure)
    return Status::failure("'" + library.path() + "' has no " +
                           (stores == CopyStores::Ordinary ? "" : "non-temporal ") +
                           "copy kernel");
  unsigned runs = std::max(repeat, 1u) + 1;
  std::vector<double> seconds(runs);
  if (int status = measure(elements, static_cast<int32_t>(runs), seconds.data()))
    return Status::failure("the copy kernel failed with status " + std::to_string(status));
  CopyBandwidth copy;
  copy.bytesPerCopy = 2 * uint64_t(elements) * sizeof(double);
  copy.time = summarizeTimes(std::vector<double>(seconds.begin() + 1, seconds.end()));
  return copy;
}

} // namespace fusec::bench
