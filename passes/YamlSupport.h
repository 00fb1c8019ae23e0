//===- YamlSupport.h - what fusec's strict YAML readers share -----*- C++ -*-===//
//
// The pipeline configuration and fusec-bench's inputs file both report
// errors as `file:line:col` and read whole files; this is that common part.
// Built with exceptions, inside FusecPipelineConfig.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_PASSES_YAMLSUPPORT_H
#define FUSEC_PASSES_YAMLSUPPORT_H

#include <yaml-cpp/yaml.h>

#include <string>

namespace fusec {

/// `path:line:col` of `mark` (1-based), or `path` when the mark is unknown.
std::string yamlLocation(const std::string &path, const YAML::Mark &mark);

/// Reads the file at `path` into `text`; false when it cannot be read.
bool readTextFile(const std::string &path, std::string &text);

} // namespace fusec

#endif // FUSEC_PASSES_YAMLSUPPORT_H
