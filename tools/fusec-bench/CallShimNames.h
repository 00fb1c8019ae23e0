//===- CallShimNames.h - the names of fusec-bench's call shims ----*- C++ -*-===//
//
// What CallShim.h appends to the emitted code, by name, for the code that
// loads it (no MLIR, so that GPU bundles use it too).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_CALLSHIMNAMES_H
#define FUSEC_TOOLS_BENCH_CALLSHIMNAMES_H

#include <cstdint>
#include <string>

/// What the argument slot of a point-list parameter points to; the shim passes
/// its members as P_run's three arguments NAME_count, NAME_cell, NAME_level.
/// One spelling for the tool (below) and the shim's text (pointListDefinition).
#define FUSEC_BENCH_POINT_LIST                                                                     \
  struct fusec_bench_point_list {                                                                  \
    int32_t count;                                                                                 \
    const int32_t *cell;                                                                           \
    const int32_t *level;                                                                          \
  }
#define FUSEC_BENCH_TEXT(...) FUSEC_BENCH_TEXT_(__VA_ARGS__)
#define FUSEC_BENCH_TEXT_(...) #__VA_ARGS__

namespace fusec::bench {

FUSEC_BENCH_POINT_LIST;

/// The definition of fusec_bench_point_list, as the shims' source text.
inline std::string pointListDefinition() { return FUSEC_BENCH_TEXT(FUSEC_BENCH_POINT_LIST) ";"; }

/// The shim's symbol for `program`: int (void *const *arguments, double *seconds).
inline std::string callShimName(const std::string &program) {
  return "fusec_bench_call_" + program;
}

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_CALLSHIMNAMES_H
