//===- Progress.cpp - a progress bar on the terminal ----------------------===//

#include "Progress.h"

#include "llvm/Support/Process.h"

#include <algorithm>

namespace fusec::bench {

void Progress::advance(const std::string &what) {
  done = std::min(done + 1, std::max(total, 1u));
  current = what;
  draw();
}

void Progress::note(const std::string &line) {
  clear();
  errs << line << "\n";
  draw();
}

void Progress::clear() {
  if (!shown)
    return;
  errs << "\r\033[K";
  errs.flush();
  shown = false;
}

void Progress::draw() {
  if (!enabled || total == 0)
    return;
  constexpr unsigned width = 24;
  unsigned filled = width * done / total;
  std::string line = "[" + std::string(filled, '#') + std::string(width - filled, '.') + "] " +
                     std::to_string(done) + "/" + std::to_string(total) + " " + current;
  unsigned columns = llvm::sys::Process::StandardErrColumns();
  if (columns > 1 && line.size() >= columns)
    line.resize(columns - 1);
  errs << "\r\033[K" << line;
  errs.flush();
  shown = true;
}

} // namespace fusec::bench
