//===- Host.cpp - the machine and compiler a run is timed with ------------===//

#include "Host.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"

#include <optional>
#include <thread>

namespace fusec::bench {

/// The first "model name" of /proc/cpuinfo; empty where there is none.
static std::string processorName() {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> cpuinfo =
      llvm::MemoryBuffer::getFileAsStream("/proc/cpuinfo");
  if (!cpuinfo)
    return "";
  llvm::SmallVector<llvm::StringRef> lines;
  (*cpuinfo)->getBuffer().split(lines, '\n');
  for (llvm::StringRef line : lines) {
    auto [key, value] = line.split(':');
    if (key.trim() == "model name")
      return value.trim().str();
  }
  return "";
}

/// The widest x86 vector extension; empty on other processors.
static std::string vectorExtension() {
  const llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  for (auto [feature, name] : {std::pair{"avx512f", "AVX-512"}, std::pair{"avx2", "AVX2"},
                               std::pair{"avx", "AVX"}, std::pair{"sse2", "SSE2"}})
    if (features.lookup(feature))
      return name;
  return "";
}

static std::string probeHost() {
  std::string processor = processorName();
  std::string architecture = llvm::sys::getHostCPUName().str();
  std::string text = processor.empty() ? architecture : processor + " (" + architecture + ")";
  if (unsigned cpus = std::thread::hardware_concurrency())
    text += ", " + std::to_string(cpus) + (cpus == 1 ? " CPU" : " CPUs");
  if (std::string extension = vectorExtension(); !extension.empty())
    text += ", " + extension;
  return text;
}

std::string describeHost() {
  // Every report and autotune reason asks; the machine does not change during a run.
  static const std::string host = probeHost();
  return host;
}

/// `program --version`'s line that names the version: the first that says
/// "version" or "release" (clang's first, nvcc's fourth), else the first
/// (GCC's); empty when it cannot run.
static std::string versionLine(const std::string &program) {
  llvm::SmallString<128> output;
  if (llvm::sys::fs::createTemporaryFile("fusec-bench-version", "txt", output))
    return "";
  llvm::FileRemover removeOutput(output);
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), output.str(),
                                                llvm::StringRef("")};
  llvm::StringRef arguments[] = {program, "--version"};
  if (llvm::sys::ExecuteAndWait(program, arguments, std::nullopt, redirects,
                                /*SecondsToWait=*/30) != 0)
    return "";
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(output);
  if (!text)
    return "";
  llvm::SmallVector<llvm::StringRef> lines;
  (*text)->getBuffer().split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines)
    if (line.contains_insensitive("version") || line.contains_insensitive("release"))
      return line.trim().str();
  return lines.empty() ? "" : lines.front().trim().str();
}

std::string describeCompiler(const std::string &program, const std::vector<std::string> &flags) {
  std::string version = versionLine(program);
  std::string text = version.empty() ? llvm::sys::path::filename(program).str() : version;
  text += ":";
  for (size_t i = 0; i < flags.size(); ++i) {
    if (flags[i] == "-I") {
      ++i; // and its directory
      continue;
    }
    text += " " + flags[i];
  }
  return text;
}

} // namespace fusec::bench
