//===- YamlSupport.h - what fusec's strict YAML readers share -----*- C++ -*-===//
//
// The pipeline configuration and fusec-bench's inputs file are both strict
// readers: an unknown key or a wrong node is an error at its `file:line:col`,
// thrown from where it is found and turned into a message at the boundary.
// Built with exceptions, inside FusecPipelineConfig.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_PASSES_YAMLSUPPORT_H
#define FUSEC_PASSES_YAMLSUPPORT_H

#include <yaml-cpp/yaml.h>

#include <functional>
#include <set>
#include <string>

namespace fusec {

/// `path:line:col` of `mark` (1-based), or `path` when the mark is unknown.
std::string yamlLocation(const std::string &path, const YAML::Mark &mark);

/// An error at a node, carried out of a reader by exception.
struct YamlError {
  YAML::Mark mark;
  std::string message;
};

/// Throws a YamlError at `node`.
[[noreturn]] void failAt(const YAML::Node &node, const std::string &message);

/// Fails unless `node` is a mapping.
void requireMap(const YAML::Node &node, const std::string &what);

/// Fails unless `map` is a mapping whose keys are all in `valid` (the message
/// lists them).
void checkKeys(const YAML::Node &map, const std::set<std::string> &valid, const std::string &what);

/// Runs `read` on the YAML document in `text`; a YamlError or a yaml-cpp
/// exception becomes "path:line:col: error: message" in `error`, and false.
bool readYamlDocument(const std::string &text, const std::string &path,
                      const std::function<void(const YAML::Node &)> &read, std::string &error);

/// Reads the file at `path` into `text`; false when it cannot be read, with
/// "path: error: cannot read the <what>" in `error`.
bool readTextFile(const std::string &path, const std::string &what, std::string &text,
                  std::string &error);

} // namespace fusec

#endif // FUSEC_PASSES_YAMLSUPPORT_H
