//===- SharedLibrary.h - a compiled variant, loaded ---------------*- C++ -*-===//
//
// dlopen and dlsym, nothing else: GPU bundles (fusec-bench pack) load their
// variants with it too, so it uses no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_SHAREDLIBRARY_H
#define FUSEC_TOOLS_BENCH_SHAREDLIBRARY_H

#include "fusec/status.h"

#include <memory>
#include <string>

namespace fusec::bench {

/// A loaded shared library; unloaded on destruction.
class SharedLibrary {
public:
  /// Loads `path` with RTLD_LOCAL (every variant defines the same names).
  /// Two variants that emit the same code share one cached file and so one
  /// loaded copy: harmless, since the emitted code keeps all state in the
  /// instances it creates (no mutable globals).
  static Result<std::unique_ptr<SharedLibrary>> open(const std::string &path);
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary &) = delete;
  SharedLibrary &operator=(const SharedLibrary &) = delete;

  /// The address of `name`, or null.
  void *symbol(const std::string &name) const;
  const std::string &path() const { return path_; }

private:
  SharedLibrary(void *handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  void *handle_;
  std::string path_;
};

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_SHAREDLIBRARY_H
