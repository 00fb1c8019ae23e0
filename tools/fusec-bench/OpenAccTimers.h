//===- OpenAccTimers.h - ICON's OpenACC timers, by program --------*- C++ -*-===//
//
// ICON's timer report in bencher's JSON format (what ICON4Py keeps in
// scripts/data/bencher=..._stencils=...=OPENACC.json):
//
//   {"<timer>": {"latency": {"value": ms, ...}, "latency_total": {"value": ms},
//                "num_calls": {"value": n}}, ...}
//
// A timer's time per call is latency_total / num_calls. Timers carry the name
// of the ICON-DSL program they time, except the two RBF passes and the whole
// step, which map as in ICON4Py's compare_icon4py_openacc.py:
//
//   rbf_vector_interpolation_of_u_v_vert_before_nabla2  mo_intp_rbf_rbf_vec_interpol_vertex
//   rbf_vector_interpolation_of_u_v_vert_before_nabla4  mo_intp_rbf_rbf_vec_interpol_vertex
//   nh_hdiff                                            diffusion_step
//
// Timers that name no program of the run are skipped (the file has every timer
// of ICON, physics included).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_OPENACCTIMERS_H
#define FUSEC_TOOLS_BENCH_OPENACCTIMERS_H

#include "fusec/status.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fusec::bench {

struct OpenAccTimer {
  std::string timer;
  std::string program;
  double millisecondsPerCall = 0.0;
  int64_t calls = 0;
};

struct OpenAccTimers {
  std::string path;
  std::vector<OpenAccTimer> matched; // in the order of `programs`, then by timer name
  unsigned skipped = 0;              // timers of no program of the run
};

/// The program that ICON's timer `timer` measures.
std::string programOfOpenAccTimer(llvm::StringRef timer);

/// Reads the timers of `text` (named `path` in messages) that measure one of `programs`.
Result<OpenAccTimers> parseOpenAccTimers(llvm::StringRef text, const std::string &path,
                                         const std::vector<std::string> &programs);
Result<OpenAccTimers> readOpenAccTimers(const std::string &path,
                                        const std::vector<std::string> &programs);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_OPENACCTIMERS_H
