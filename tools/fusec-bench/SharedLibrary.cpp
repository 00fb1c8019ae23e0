//===- SharedLibrary.cpp - a compiled variant, loaded ---------------------===//

#include "SharedLibrary.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <unistd.h>

namespace fusec::bench {

/// A private copy of `path` in the temporary directory, or a failure.
static Result<std::string> privateCopy(const std::string &path) {
  std::error_code error;
  std::filesystem::path directory = std::filesystem::temp_directory_path(error);
  if (error)
    return Status::failure("no temporary directory for a copy of '" + path +
                           "': " + error.message());
  std::string name = (directory / "fusec-bench-XXXXXX.so").string();
  int descriptor = mkstemps(name.data(), 3);
  if (descriptor < 0)
    return Status::failure("cannot create a copy of '" + path + "': " + std::strerror(errno));
  close(descriptor);
  std::filesystem::copy_file(path, name, std::filesystem::copy_options::overwrite_existing,
                             error);
  if (error) {
    std::filesystem::remove(name, error);
    return Status::failure("cannot copy '" + path + "': " + error.message());
  }
  return name;
}

Result<std::unique_ptr<SharedLibrary>> SharedLibrary::open(const std::string &path) {
  // Two pipelines that emit the same code share a cached file, and dlopen
  // would hand the second the first one's copy, program state included: load
  // a private copy instead (the mapping outlives the removed file).
  std::string loaded = path;
  if (void *already = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD)) {
    dlclose(already);
    Result<std::string> copy = privateCopy(path);
    if (!copy)
      return copy.status();
    loaded = *copy;
  }
  void *handle = dlopen(loaded.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (loaded != path) {
    std::error_code ignored;
    std::filesystem::remove(loaded, ignored);
  }
  if (!handle)
    return Status::failure("cannot load '" + path + "': " + dlerror());
  return std::unique_ptr<SharedLibrary>(new SharedLibrary(handle, path));
}

SharedLibrary::~SharedLibrary() { dlclose(handle_); }

void *SharedLibrary::symbol(const std::string &name) const { return dlsym(handle_, name.c_str()); }

} // namespace fusec::bench
