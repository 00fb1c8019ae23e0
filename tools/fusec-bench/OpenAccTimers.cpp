//===- OpenAccTimers.cpp - ICON's OpenACC timers, by program --------------===//

#include "OpenAccTimers.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

namespace fusec::bench {

std::string programOfOpenAccTimer(llvm::StringRef timer) {
  return llvm::StringSwitch<std::string>(timer)
      .Cases("rbf_vector_interpolation_of_u_v_vert_before_nabla2",
             "rbf_vector_interpolation_of_u_v_vert_before_nabla4",
             "mo_intp_rbf_rbf_vec_interpol_vertex")
      .Case("nh_hdiff", "diffusion_step")
      .Default(timer.str());
}

/// `object[key]["value"]` as a number.
static std::optional<double> valueOf(const llvm::json::Object &object, llvm::StringRef key) {
  const llvm::json::Object *entry = object.getObject(key);
  return entry ? entry->getNumber("value") : std::nullopt;
}

Result<OpenAccTimers> parseOpenAccTimers(llvm::StringRef text, const std::string &path,
                                         const std::vector<std::string> &programs) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return Status::failure(path + ": not JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *timers = parsed->getAsObject();
  if (!timers)
    return Status::failure(path + ": expected an object of timers");
  OpenAccTimers result;
  result.path = path;
  for (const auto &[name, entry] : *timers) {
    std::string program = programOfOpenAccTimer(name);
    if (!llvm::is_contained(programs, program)) {
      ++result.skipped;
      continue;
    }
    const llvm::json::Object *object = entry.getAsObject();
    std::optional<double> total = object ? valueOf(*object, "latency_total") : std::nullopt;
    std::optional<double> calls = object ? valueOf(*object, "num_calls") : std::nullopt;
    if (!total || !calls || *calls < 1)
      return Status::failure(path + ": timer '" + name.str() +
                             "' needs latency_total.value and num_calls.value >= 1");
    result.matched.push_back({name.str(), program, *total / *calls, static_cast<int64_t>(*calls)});
  }
  auto rank = [&](const OpenAccTimer &timer) {
    return std::find(programs.begin(), programs.end(), timer.program) - programs.begin();
  };
  std::sort(result.matched.begin(), result.matched.end(),
            [&](const OpenAccTimer &a, const OpenAccTimer &b) {
              return std::make_pair(rank(a), a.timer) < std::make_pair(rank(b), b.timer);
            });
  return result;
}

Result<OpenAccTimers> readOpenAccTimers(const std::string &path,
                                        const std::vector<std::string> &programs) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return Status::failure("cannot read '" + path + "': " + buffer.getError().message());
  return parseOpenAccTimers((*buffer)->getBuffer(), path, programs);
}

} // namespace fusec::bench
