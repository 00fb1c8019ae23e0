//===- GeneratedTimers.h - the timers of the emitted code ---------*- C++ -*-===//
//
// Emitted code times every P_run and every kernel launch inside it when the
// instance's timers are on (docs/integration.md): a steady clock on CPUs, CUDA
// events on GPUs. fusec-bench switches them on around the timed runs only and
// reads them back through `P_write_metrics`, GT4Py's metrics layout with one
// entry for the program and one per kernel (`<program>/<kernel>`). Samples
// accumulate in the instance, so a reading is a snapshot and the runs of one
// measurement are the difference of two snapshots.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_GENERATEDTIMERS_H
#define FUSEC_TOOLS_BENCH_GENERATEDTIMERS_H

#include "NativeLibrary.h"

#include "fusec/status.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fusec::bench {

/// Samples in seconds per metrics key: "<program>" or "<program>/<kernel>".
using TimerSamples = std::map<std::string, std::vector<double>>;

class GeneratedTimers {
public:
  /// The timers of the instance `handle` of `program` in `library`, if it
  /// has them.
  static std::optional<GeneratedTimers> find(const SharedLibrary &library,
                                             const std::string &program, void *handle);

  void enable(bool on) const { enableTimers(handle, on ? 1 : 0); }
  /// Every sample taken so far.
  Result<TimerSamples> read() const;

private:
  void *handle = nullptr;
  void (*enableTimers)(void *, int) = nullptr;
  int (*writeMetrics)(const void *, const char *) = nullptr;
};

/// The samples of `after` that `before` does not have, for the keys of
/// `program` ("<program>" and "<program>/..."), with the program prefix
/// removed from kernel keys.
struct ProgramTimes {
  std::vector<double> run;
  std::map<std::string, std::vector<double>> kernels;
};
ProgramTimes newSamples(const TimerSamples &before, const TimerSamples &after,
                        const std::string &program);

/// Parses GT4Py metrics JSON: {"<key>": {"metrics": {"compute": [s, ...]}}, ...}.
Result<TimerSamples> parseMetrics(llvm::StringRef text);
/// The same, already parsed (a GPU bundle's results hold it as `kernel_metrics`).
Result<TimerSamples> parseMetrics(const llvm::json::Object &entries);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_GENERATEDTIMERS_H
