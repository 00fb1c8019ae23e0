//===- CallShimNames.h - the names of fusec-bench's call shims ----*- C++ -*-===//
//
// What CallShim.h appends to the emitted code, by name, for the code that
// loads it (no MLIR, so that GPU bundles use it too).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_CALLSHIMNAMES_H
#define FUSEC_TOOLS_BENCH_CALLSHIMNAMES_H

#include <string>

namespace fusec::bench {

/// The shim's symbol for `program`: int (void *const *arguments, double *seconds).
inline std::string callShimName(const std::string &program) {
  return "fusec_bench_call_" + program;
}

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_CALLSHIMNAMES_H
