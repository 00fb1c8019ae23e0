//===- Progress.h - a progress bar on the terminal ----------------*- C++ -*-===//
//
// While fusec-bench compiles and runs, one line of standard error shows
//
//   [##########..........] 12/40 apply_diffusion_to_vn: fuse-all
//
// redrawn in place, only when standard error is a terminal (never in logs or
// tests). Notes and reports printed meanwhile erase it first.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_PROGRESS_H
#define FUSEC_TOOLS_BENCH_PROGRESS_H

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace fusec::bench {

class Progress {
public:
  /// Draws on `errs` only when `enabled` (standard error is a terminal).
  Progress(llvm::raw_ostream &errs, bool enabled) : errs(errs), enabled(enabled) {}
  ~Progress() { clear(); }

  /// Adds `steps` to the total.
  void expect(unsigned steps) { total += steps; }
  /// Starts the next step, described by `what`.
  void advance(const std::string &what);
  /// Prints `line` (a note) to standard error, above the bar.
  void note(const std::string &line);
  /// Erases the bar (before printing to a stream that may share the terminal).
  void clear();

private:
  void draw();

  llvm::raw_ostream &errs;
  bool enabled;
  bool shown = false;
  unsigned done = 0, total = 0;
  std::string current;
};

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_PROGRESS_H
