//===- NativeLibrary.cpp - emitted code compiled and loaded ---------------===//

#include "NativeLibrary.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

namespace fusec::bench {

/// The program named by environment variable `variable`, else `fallback`, on the PATH.
static Result<std::string> findProgram(const char *variable, const std::string &fallback,
                                       const std::string &hint) {
  std::string name = llvm::sys::Process::GetEnv(variable).value_or(fallback);
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName(name);
  if (!program)
    return Status::failure("cannot find the compiler '" + name + "' (" + hint + ")");
  return *program;
}

/// Flags of the user's own for the host compiler, such as the sanitizers that check the
/// loaded kernels along with fusec-bench (scripts/sanitize-env.sh).
static void addUserFlags(std::vector<std::string> &flags) {
  if (std::optional<std::string> extra = llvm::sys::Process::GetEnv("FUSEC_BENCH_CXXFLAGS")) {
    llvm::SmallVector<llvm::StringRef> words;
    llvm::SplitString(*extra, words);
    for (llvm::StringRef word : words)
      flags.push_back(word.str());
  }
}

Result<Compiler> Compiler::findCpp(const std::string &runtimeInclude, bool fma) {
  Result<std::string> program = findProgram("CXX", "c++", "set CXX, or use --backend interp");
  if (!program)
    return program.status();
  // -O3 -march=native: the emitted loops are instruction-bound on CPUs, and
  // the timed code is run where it was compiled. -fno-math-errno, as Fortran
  // compilers do: with errno, GCC guards every sqrt with a branch and the
  // loop no longer vectorises (the results are the same). With -march=native GCC
  // contracts a*b+c into FMAs, so contraction is explicit, as on CUDA.
  // $FUSEC_BENCH_CXXFLAGS come later on the command line, so `-O2
  // -march=x86-64` there overrides the defaults.
  std::vector<std::string> flags{"-std=c++17",
                                 "-O3",
                                 "-march=native",
                                 "-fno-math-errno",
                                 fma ? "-ffp-contract=fast" : "-ffp-contract=off",
                                 "-fopenmp",
                                 "-fPIC",
                                 "-shared",
                                 "-I",
                                 runtimeInclude};
  addUserFlags(flags);
  return Compiler{*program, std::move(flags), runtimeInclude, ".cpp"};
}

Result<Compiler> Compiler::findCudaHost(const std::string &runtimeInclude, bool fma) {
  Result<std::string> program = findProgram("CXX", "c++", "set CXX, or use --backend interp");
  if (!program)
    return program.status();
  Compiler compiler{*program,
                    {"-std=c++17", "-O2", "-fPIC", "-shared",
                     fma ? "-ffp-contract=fast" : "-ffp-contract=off", "-DFUSEC_CUDA_HOST", "-I",
                     runtimeInclude + "/fusec/cuda_host", "-I", runtimeInclude},
                    runtimeInclude,
                    ".cu"};
#if defined(__x86_64__)
  if (fma)
    compiler.flags.push_back("-mfma"); // contraction needs the instruction
#endif
  addUserFlags(compiler.flags);
  // Last: it applies to the source file that follows.
  compiler.flags.insert(compiler.flags.end(), {"-x", "c++"});
  return compiler;
}

Result<Compiler> Compiler::findCuda(const std::string &runtimeInclude, const std::string &arch,
                                    bool fma) {
  Result<std::string> program = findProgram("NVCC", "nvcc", "set NVCC or put nvcc on the PATH");
  if (!program)
    return program.status();
  return Compiler{*program,
                  {"-std=c++17", "-O2", "-arch=" + arch, fma ? "-fmad=true" : "-fmad=false",
                   "-Xcompiler", "-fPIC", "-shared", "-I", runtimeInclude},
                  runtimeInclude,
                  ".cu"};
}

/// The cache key: the source, the command, and every runtime header the source may include.
static std::string cacheKey(const std::string &source, const Compiler &compiler) {
  llvm::SHA256 hash;
  auto add = [&](llvm::StringRef text) {
    hash.update(std::to_string(text.size()));
    hash.update(":");
    hash.update(text);
  };
  add(source);
  add(compiler.program);
  for (const std::string &flag : compiler.flags)
    add(flag);
  std::vector<std::string> headers;
  std::error_code error;
  std::string headerDirectory = compiler.runtimeInclude + "/fusec";
  for (llvm::sys::fs::recursive_directory_iterator it(headerDirectory, error), end;
       it != end && !error; it.increment(error))
    headers.push_back(it->path());
  std::sort(headers.begin(), headers.end());
  for (const std::string &header : headers)
    if (auto buffer = llvm::MemoryBuffer::getFile(header)) {
      add(llvm::StringRef(header).drop_front(headerDirectory.size()));
      add((*buffer)->getBuffer());
    }
  return llvm::toHex(hash.final(), /*LowerCase=*/true).substr(0, 24);
}

/// Writes `text` to `path` through a temporary file renamed into place.
static Status writeAtomically(const std::string &path, llvm::StringRef text) {
  auto temp = llvm::sys::fs::TempFile::create(path + "-%%%%%%.tmp");
  if (!temp)
    return Status::failure("cannot write '" + path + "': " + llvm::toString(temp.takeError()));
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    os << text;
  }
  if (llvm::Error error = temp->keep(path))
    return Status::failure("cannot write '" + path + "': " + llvm::toString(std::move(error)));
  return Status::success();
}

/// The first lines of a compiler log, for an error message.
static std::string head(const std::string &path, size_t maxLines) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "";
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', maxLines + 1, false);
  lines.resize(std::min(lines.size(), maxLines));
  return llvm::join(lines, "\n");
}

/// Compiles `source` into `libraryPath` (absent so far) through files named after `stem`.
static Status compileInto(const std::string &source, const Compiler &compiler,
                          const std::string &stem, const std::string &libraryPath,
                          double &seconds) {
  std::string sourcePath = stem + compiler.sourceExtension;
  if (Status status = writeAtomically(sourcePath, source); !status)
    return status;
  // Compile under a name of our own, then rename: a run that does not take the cache's lock
  // (an older fusec-bench) never sees a partial library.
  llvm::SmallString<128> partial;
  if (std::error_code error = llvm::sys::fs::createUniqueFile(stem + "-%%%%%%.so.tmp", partial))
    return Status::failure("cannot create a file in '" +
                           std::string(llvm::sys::path::parent_path(stem)) +
                           "': " + error.message());
  std::string logPath = std::string(partial) + ".log";
  std::vector<llvm::StringRef> arguments{compiler.program};
  for (const std::string &flag : compiler.flags)
    arguments.push_back(flag);
  arguments.insert(arguments.end(), {sourcePath, "-o", partial});
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(logPath),
                                                llvm::StringRef(logPath)};
  auto start = std::chrono::steady_clock::now();
  std::string message;
  int exitCode = llvm::sys::ExecuteAndWait(compiler.program, arguments, std::nullopt, redirects,
                                           0, 0, &message);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (exitCode != 0) {
    llvm::sys::fs::remove(partial);
    // The source and the log stay for the user to inspect.
    return Status::failure(
        "compiling the emitted code failed (" +
        (message.empty() ? "exit status " + std::to_string(exitCode) : message) +
        "); source: " + sourcePath + ", log: " + logPath + "\n" + head(logPath, 20));
  }
  llvm::sys::fs::remove(logPath);
  if (std::error_code error = llvm::sys::fs::rename(partial, libraryPath))
    return Status::failure("cannot rename '" + std::string(partial) + "': " + error.message());
  return Status::success();
}

Result<BuiltLibrary> buildSharedLibrary(const std::string &source, const Compiler &compiler,
                                        const std::string &cacheDirectory) {
  if (std::error_code error = llvm::sys::fs::create_directories(cacheDirectory))
    return Status::failure("cannot create the cache directory '" + cacheDirectory +
                           "': " + error.message());
  std::string stem = cacheDirectory + "/" + cacheKey(source, compiler);
  std::string libraryPath = stem + ".so";
  BuiltLibrary built;
  built.fromCache = llvm::sys::fs::exists(libraryPath);
  if (!built.fromCache) {
    // Runs that need the same library at the same time (lit's workers, ctest's jobs) take
    // turns: the first compiles it, the others wait for it and load it from the cache.
    std::error_code error;
    llvm::raw_fd_ostream lockFile(stem + ".lock", error, llvm::sys::fs::OF_Append);
    if (error)
      return Status::failure("cannot create a lock file in '" + cacheDirectory +
                             "': " + error.message());
    llvm::Expected<llvm::sys::fs::FileLocker> lock = lockFile.lock();
    if (!lock)
      return Status::failure("cannot lock '" + stem + ".lock': " +
                             llvm::toString(lock.takeError()));
    built.fromCache = llvm::sys::fs::exists(libraryPath);
    if (!built.fromCache)
      if (Status status = compileInto(source, compiler, stem, libraryPath, built.compileSeconds);
          !status)
        return status;
  }
  Result<std::unique_ptr<SharedLibrary>> library = SharedLibrary::open(libraryPath);
  if (!library)
    return library.status();
  built.library = std::move(*library);
  return built;
}

} // namespace fusec::bench
