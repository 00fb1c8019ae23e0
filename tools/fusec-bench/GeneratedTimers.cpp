//===- GeneratedTimers.cpp - the timers of the emitted code ---------------===//

#include "GeneratedTimers.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace fusec::bench {

std::optional<GeneratedTimers> GeneratedTimers::find(const SharedLibrary &library,
                                                     const std::string &program, void *handle) {
  GeneratedTimers timers;
  timers.handle = handle;
  timers.enableTimers =
      reinterpret_cast<void (*)(void *, int)>(library.symbol(program + "_enable_timers"));
  timers.writeMetrics = reinterpret_cast<int (*)(const void *, const char *)>(
      library.symbol(program + "_write_metrics"));
  if (!timers.enableTimers || !timers.writeMetrics)
    return std::nullopt;
  return timers;
}

Result<TimerSamples> GeneratedTimers::read() const {
  llvm::SmallString<128> path;
  if (std::error_code error = llvm::sys::fs::createTemporaryFile("fusec-bench-metrics", "json", path))
    return Status::failure("cannot create a temporary file: " + error.message());
  int status = writeMetrics(handle, path.c_str());
  auto buffer = llvm::MemoryBuffer::getFile(path);
  llvm::sys::fs::remove(path);
  if (status != 0 || !buffer)
    return Status::failure("the emitted code could not write its timers to '" + path.str().str() +
                           "'");
  return parseMetrics((*buffer)->getBuffer());
}

Result<TimerSamples> parseMetrics(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return Status::failure("the timers' metrics are not JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *entries = parsed->getAsObject();
  if (!entries)
    return Status::failure("the timers' metrics are not a JSON object");
  return parseMetrics(*entries);
}

Result<TimerSamples> parseMetrics(const llvm::json::Object &entries) {
  TimerSamples samples;
  for (const auto &[key, entry] : entries) {
    const llvm::json::Object *object = entry.getAsObject();
    const llvm::json::Object *metrics = object ? object->getObject("metrics") : nullptr;
    const llvm::json::Array *compute = metrics ? metrics->getArray("compute") : nullptr;
    if (!compute)
      return Status::failure("the timers' entry '" + key.str() + "' has no metrics.compute");
    std::vector<double> &values = samples[key.str()];
    for (const llvm::json::Value &value : *compute)
      if (std::optional<double> seconds = value.getAsNumber())
        values.push_back(*seconds);
  }
  return samples;
}

ProgramTimes newSamples(const TimerSamples &before, const TimerSamples &after,
                        const std::string &program) {
  ProgramTimes times;
  std::string prefix = program + "/";
  for (const auto &[key, samples] : after) {
    bool isRun = key == program;
    if (!isRun && !llvm::StringRef(key).starts_with(prefix))
      continue;
    auto old = before.find(key);
    size_t known = old == before.end() ? 0 : old->second.size();
    std::vector<double> added(samples.begin() + std::min(known, samples.size()), samples.end());
    if (added.empty())
      continue;
    if (isRun)
      times.run = std::move(added);
    else
      times.kernels[key.substr(prefix.size())] = std::move(added);
  }
  return times;
}

} // namespace fusec::bench
