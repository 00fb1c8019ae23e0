//===- Timing.h - summaries of repeated timings -------------------*- C++ -*-===//

#ifndef FUSEC_TOOLS_BENCH_TIMING_H
#define FUSEC_TOOLS_BENCH_TIMING_H

#include <cstddef>
#include <vector>

namespace fusec::bench {

/// Order statistics of timed runs, in seconds. Quantiles interpolate linearly
/// between samples (numpy's default), so one sample gives a zero spread.
struct TimeSummary {
  size_t samples = 0;
  double median = 0.0;
  double min = 0.0;
  double firstQuartile = 0.0;
  double thirdQuartile = 0.0;

  double interquartileRange() const { return thirdQuartile - firstQuartile; }
};

TimeSummary summarizeTimes(std::vector<double> seconds);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_TIMING_H
