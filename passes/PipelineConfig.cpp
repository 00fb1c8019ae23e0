//===- PipelineConfig.cpp - per-program and per-stencil choices -----------===//

#include "passes/PipelineConfig.h"
#include "passes/YamlSupport.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <iterator>
#include <set>

namespace fusec {

namespace {

std::string requireString(const YAML::Node &node, const std::string &what) {
  if (!node.IsScalar() || node.Scalar().empty())
    failAt(node, what + " must be a non-empty string");
  return node.Scalar();
}

std::string requireReason(const YAML::Node &entry, const std::string &what) {
  if (!entry["reason"])
    failAt(entry, what + " needs a 'reason': every exception says why");
  return requireString(entry["reason"], "the reason of " + what);
}

/// The true/false value of `key` in `node`, if it is there.
std::optional<bool> optionalFlag(const YAML::Node &node, const std::string &key,
                                 const std::string &what) {
  const YAML::Node flag = node[key];
  if (!flag)
    return std::nullopt;
  bool value = false;
  if (!YAML::convert<bool>::decode(flag, value))
    failAt(flag, key + " of " + what + " must be true or false");
  return value;
}

ProgramChoice parseProgram(const std::string &name, const YAML::Node &node) {
  std::string what = "program '" + name + "'";
  checkKeys(node, {"pipeline", "reason"}, what);
  if (!node["pipeline"])
    failAt(node, what + " needs a 'pipeline'");
  return {requireString(node["pipeline"], "the pipeline of " + what), requireReason(node, what)};
}

StencilChoice parseStencil(const std::string &name, const YAML::Node &node) {
  std::string what = "stencil '" + name + "'";
  checkKeys(node, {"kblock", "recompute", "hblock", "split_gathers", "prefetch", "reason"}, what);
  StencilChoice choice;
  if (const YAML::Node kblock = node["kblock"]) {
    int64_t value = 0;
    if (!YAML::convert<int64_t>::decode(kblock, value) || value < 1 || value > 1024)
      failAt(kblock, "kblock of " + what + " must be an integer from 1 to 1024");
    choice.kblock = value;
  }
  choice.recompute = optionalFlag(node, "recompute", what);
  if (const YAML::Node hblock = node["hblock"]) {
    int64_t value = 0;
    if (!YAML::convert<int64_t>::decode(hblock, value) || value < 32 || value > 1024 ||
        value % 32 != 0)
      failAt(hblock, "hblock of " + what + " must be a multiple of 32 from 32 to 1024");
    choice.hblock = value;
  }
  choice.splitGathers = optionalFlag(node, "split_gathers", what);
  choice.prefetch = optionalFlag(node, "prefetch", what);
  if (!choice.kblock && !choice.recompute && !choice.hblock && !choice.splitGathers &&
      !choice.prefetch)
    failAt(node,
           what + " chooses nothing: give kblock, recompute, hblock, split_gathers or prefetch");
  choice.reason = requireReason(node, what);
  return choice;
}

void parsePrograms(const YAML::Node &programs, std::map<std::string, ProgramChoice> &into) {
  if (!programs.IsMap())
    failAt(programs, "programs must be a mapping from program names");
  for (const auto &entry : programs)
    into[entry.first.as<std::string>()] = parseProgram(entry.first.as<std::string>(), entry.second);
}

void parseStencils(const YAML::Node &stencils, std::map<std::string, StencilChoice> &into) {
  if (!stencils.IsMap())
    failAt(stencils, "stencils must be a mapping from stencil names");
  for (const auto &entry : stencils)
    into[entry.first.as<std::string>()] = parseStencil(entry.first.as<std::string>(), entry.second);
}

constexpr ConfigTarget kTargets[] = {ConfigTarget::Cpp, ConfigTarget::Cuda};

TargetChoices parseTarget(const std::string &name, const YAML::Node &node) {
  TargetChoices section;
  // `cuda:` with nothing under it (everything commented out) is an empty section, as an
  // empty file is an empty configuration.
  if (node.IsNull())
    return section;
  checkKeys(node, {"default", "programs", "stencils"}, "target '" + name + "'");
  if (const YAML::Node pipeline = node["default"])
    section.defaultPipeline = requireString(pipeline, "the default of target '" + name + "'");
  if (const YAML::Node programs = node["programs"])
    parsePrograms(programs, section.programs);
  if (const YAML::Node stencils = node["stencils"])
    parseStencils(stencils, section.stencils);
  return section;
}

void parseTargets(const YAML::Node &targets, std::map<ConfigTarget, TargetChoices> &into) {
  if (!targets.IsMap())
    failAt(targets, "targets must be a mapping from target names (cpp, cuda)");
  for (const auto &entry : targets) {
    std::string name = entry.first.as<std::string>();
    const ConfigTarget *target =
        std::find_if(std::begin(kTargets), std::end(kTargets),
                     [&](ConfigTarget t) { return name == configTargetName(t); });
    if (target == std::end(kTargets))
      failAt(entry.first, "unknown target '" + name + "' in targets (valid targets: cpp, cuda)");
    into[*target] = parseTarget(name, entry.second);
  }
}

PipelineConfig parseDocument(const YAML::Node &root) {
  PipelineConfig config;
  if (root.IsNull())
    return config;
  checkKeys(root, {"default", "programs", "stencils", "targets"}, "the configuration");
  if (const YAML::Node pipeline = root["default"])
    config.defaultPipeline = requireString(pipeline, "default");
  if (const YAML::Node programs = root["programs"])
    parsePrograms(programs, config.programs);
  if (const YAML::Node stencils = root["stencils"])
    parseStencils(stencils, config.stencils);
  if (const YAML::Node targets = root["targets"])
    parseTargets(targets, config.targets);
  return config;
}

void printPrograms(YAML::Emitter &out, const std::map<std::string, ProgramChoice> &programs) {
  if (programs.empty())
    return;
  out << YAML::Key << "programs" << YAML::Value << YAML::BeginMap;
  for (const auto &[name, choice] : programs)
    out << YAML::Key << name << YAML::Value << YAML::BeginMap << YAML::Key << "pipeline"
        << YAML::Value << choice.pipeline << YAML::Key << "reason" << YAML::Value
        << choice.reason << YAML::EndMap;
  out << YAML::EndMap;
}

void printStencils(YAML::Emitter &out, const std::map<std::string, StencilChoice> &stencils) {
  if (stencils.empty())
    return;
  out << YAML::Key << "stencils" << YAML::Value << YAML::BeginMap;
  for (const auto &[name, choice] : stencils) {
    out << YAML::Key << name << YAML::Value << YAML::BeginMap;
    if (choice.kblock)
      out << YAML::Key << "kblock" << YAML::Value << *choice.kblock;
    if (choice.recompute)
      out << YAML::Key << "recompute" << YAML::Value << *choice.recompute;
    if (choice.hblock)
      out << YAML::Key << "hblock" << YAML::Value << *choice.hblock;
    if (choice.splitGathers)
      out << YAML::Key << "split_gathers" << YAML::Value << *choice.splitGathers;
    if (choice.prefetch)
      out << YAML::Key << "prefetch" << YAML::Value << *choice.prefetch;
    out << YAML::Key << "reason" << YAML::Value << choice.reason << YAML::EndMap;
  }
  out << YAML::EndMap;
}

} // namespace

const char *configTargetName(ConfigTarget target) {
  switch (target) {
  case ConfigTarget::Cpp: return "cpp";
  case ConfigTarget::Cuda: return "cuda";
  }
  return "";
}

const std::string &PipelineConfig::pipelineFor(const std::string &program) const {
  auto found = programs.find(program);
  return found == programs.end() ? defaultPipeline : found->second.pipeline;
}

PipelineConfig PipelineConfig::topLevel() const {
  PipelineConfig flat = *this;
  flat.targets.clear();
  return flat;
}

PipelineConfig PipelineConfig::forTarget(ConfigTarget target) const {
  PipelineConfig flat = topLevel();
  auto section = targets.find(target);
  if (section == targets.end())
    return flat;
  const TargetChoices &choices = section->second;
  if (choices.defaultPipeline)
    flat.defaultPipeline = *choices.defaultPipeline;
  for (const auto &[name, choice] : choices.programs)
    flat.programs[name] = choice; // the pipeline is a program's only choice
  for (const auto &[name, choice] : choices.stencils) {
    StencilChoice &merged = flat.stencils[name];
    if (choice.kblock)
      merged.kblock = choice.kblock;
    if (choice.recompute)
      merged.recompute = choice.recompute;
    if (choice.hblock)
      merged.hblock = choice.hblock;
    if (choice.splitGathers)
      merged.splitGathers = choice.splitGathers;
    if (choice.prefetch)
      merged.prefetch = choice.prefetch;
    merged.reason = choice.reason;
  }
  return flat;
}

bool parsePipelineConfig(const std::string &text, const std::string &path,
                         PipelineConfig &config, std::string &error) {
  return readYamlDocument(
      text, path, [&](const YAML::Node &document) { config = parseDocument(document); }, error);
}

bool loadPipelineConfig(const std::string &path, PipelineConfig &config, std::string &error) {
  std::string text;
  return readTextFile(path, "configuration file", text, error) &&
         parsePipelineConfig(text, path, config, error);
}

std::string printPipelineConfig(const PipelineConfig &config, const std::string &header) {
  YAML::Emitter out;
  out << YAML::Comment(header) << YAML::BeginMap;
  out << YAML::Key << "default" << YAML::Value << config.defaultPipeline;
  printPrograms(out, config.programs);
  printStencils(out, config.stencils);
  if (!config.targets.empty()) {
    out << YAML::Key << "targets" << YAML::Value << YAML::BeginMap;
    for (const auto &[target, section] : config.targets) {
      // An empty section still says that the target was considered (e.g. tuned with no
      // change kept); it reads back as an empty section.
      out << YAML::Key << configTargetName(target) << YAML::Value;
      if (!section.defaultPipeline && section.programs.empty() && section.stencils.empty()) {
        out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        continue;
      }
      out << YAML::BeginMap;
      if (section.defaultPipeline)
        out << YAML::Key << "default" << YAML::Value << *section.defaultPipeline;
      printPrograms(out, section.programs);
      printStencils(out, section.stencils);
      out << YAML::EndMap;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

} // namespace fusec
