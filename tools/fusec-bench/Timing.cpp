//===- Timing.cpp - summaries of repeated timings -------------------------===//

#include "Timing.h"

#include <algorithm>

namespace fusec::bench {

/// The q-quantile of sorted samples, linearly interpolated.
static double quantile(const std::vector<double> &sorted, double q) {
  double position = q * static_cast<double>(sorted.size() - 1);
  size_t below = static_cast<size_t>(position);
  size_t above = std::min(below + 1, sorted.size() - 1);
  double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

TimeSummary summarizeTimes(std::vector<double> seconds) {
  TimeSummary summary;
  summary.samples = seconds.size();
  if (seconds.empty())
    return summary;
  std::sort(seconds.begin(), seconds.end());
  summary.min = seconds.front();
  summary.median = quantile(seconds, 0.5);
  summary.firstQuartile = quantile(seconds, 0.25);
  summary.thirdQuartile = quantile(seconds, 0.75);
  return summary;
}

} // namespace fusec::bench
