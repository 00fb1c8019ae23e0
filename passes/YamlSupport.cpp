//===- YamlSupport.cpp - what fusec's strict YAML readers share -----------===//

#include "passes/YamlSupport.h"

#include <fstream>
#include <sstream>

namespace fusec {

std::string yamlLocation(const std::string &path, const YAML::Mark &mark) {
  if (mark.is_null())
    return path;
  return path + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

bool readTextFile(const std::string &path, std::string &text) {
  std::ifstream file(path);
  if (!file)
    return false;
  std::stringstream contents;
  contents << file.rdbuf();
  text = contents.str();
  return true;
}

} // namespace fusec
