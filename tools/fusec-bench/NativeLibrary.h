//===- NativeLibrary.h - emitted code compiled and loaded ---------*- C++ -*-===//
//
// Emitted code is compiled into a shared library, C++ with the host compiler,
//
//   $CXX (default c++) -std=c++17 -O3 -march=native -ffp-contract=off|fast -fopenmp \
//       -fPIC -shared -I <runtime/include> $FUSEC_BENCH_CXXFLAGS
//
// CUDA with nvcc,
//
//   $NVCC (default nvcc) -std=c++17 -O2 -arch=<arch> -Xcompiler -fPIC -shared -I <runtime/include>
//
// and kept in a cache directory under the SHA-256 of the source, the command and
// the runtime headers, so repeated runs (and every test that compiles the same
// module with the same pipeline) compile it once. Entries appear atomically
// (written under a temporary name, then renamed), so concurrent runs may share
// the cache.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_NATIVELIBRARY_H
#define FUSEC_TOOLS_BENCH_NATIVELIBRARY_H

#include "SharedLibrary.h"

#include "fusec/status.h"

#include <memory>
#include <string>
#include <vector>

namespace fusec::bench {

/// A compiler that turns one emitted source file into a shared library.
struct Compiler {
  std::string program; // absolute path
  std::vector<std::string> flags;
  std::string runtimeInclude;
  std::string sourceExtension; // ".cpp" or ".cu"

  /// `$CXX`, else `c++`, found on the PATH at run time; `fma` allows
  /// contracting `a*b+c` (-ffp-contract=fast instead of off).
  static Result<Compiler> findCpp(const std::string &runtimeInclude, bool fma);
  /// `$CXX`, else `c++`, compiling emitted CUDA as host C++ against
  /// fusec/cuda_host/cuda_runtime.h (the cuda-host backend).
  /// `fma` allows contracting `a*b+c` (as -march=native with FMA would).
  static Result<Compiler> findCudaHost(const std::string &runtimeInclude, bool fma);
  /// `$NVCC`, else `nvcc`, for GPU architecture `arch` (e.g. sm_90); without
  /// `fma`, `-fmad=false`.
  static Result<Compiler> findCuda(const std::string &runtimeInclude, const std::string &arch,
                                   bool fma);
};

struct BuiltLibrary {
  std::unique_ptr<SharedLibrary> library;
  bool fromCache = false;
  double compileSeconds = 0.0;
};

/// Compiles `source` (or finds it in `cacheDirectory`, created if needed) and
/// loads it. On a compiler error the message names the kept source and log.
Result<BuiltLibrary> buildSharedLibrary(const std::string &source, const Compiler &compiler,
                                        const std::string &cacheDirectory);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_NATIVELIBRARY_H
