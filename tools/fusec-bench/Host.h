//===- Host.h - the machine and compiler a run is timed with -------*- C++ -*-===//
//
// Timings hold for one processor and one compiler: on an AVX-512 machine
// fuse-all won everywhere, on an AVX2 one whose GCC emits no gathers it loses
// (docs/bench.md, "On an AVX2 machine fuse-all loses"). Every report names both.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_HOST_H
#define FUSEC_TOOLS_BENCH_HOST_H

#include <string>
#include <vector>

namespace fusec::bench {

/// This machine: the processor's name, LLVM's name for its micro-architecture,
/// the logical CPUs and, on x86, the widest vector extension it offers, e.g.
/// "AMD EPYC (znver4), 2 CPUs, AVX2".
std::string describeHost();

/// What builds the timed code: `program`'s version line (`program --version`;
/// the program's name alone when it prints none) and the flags that decide the
/// code, without include directories.
std::string describeCompiler(const std::string &program, const std::vector<std::string> &flags);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_HOST_H
