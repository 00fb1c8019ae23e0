//===- SharedLibrary.cpp - a compiled variant, loaded ---------------------===//

#include "SharedLibrary.h"

#include <dlfcn.h>

namespace fusec::bench {

Result<std::unique_ptr<SharedLibrary>> SharedLibrary::open(const std::string &path) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return Status::failure("cannot load '" + path + "': " + dlerror());
  return std::unique_ptr<SharedLibrary>(new SharedLibrary(handle, path));
}

SharedLibrary::~SharedLibrary() { dlclose(handle_); }

void *SharedLibrary::symbol(const std::string &name) const { return dlsym(handle_, name.c_str()); }

} // namespace fusec::bench
