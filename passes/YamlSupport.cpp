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

void failAt(const YAML::Node &node, const std::string &message) {
  throw YamlError{node.Mark(), message};
}

void requireMap(const YAML::Node &node, const std::string &what) {
  if (!node.IsMap())
    failAt(node, what + " must be a mapping");
}

void checkKeys(const YAML::Node &map, const std::set<std::string> &valid, const std::string &what) {
  requireMap(map, what);
  for (const auto &entry : map) {
    std::string key = entry.first.as<std::string>();
    if (valid.count(key))
      continue;
    std::string list;
    for (const std::string &name : valid)
      list += (list.empty() ? "" : ", ") + name;
    failAt(entry.first, "unknown key '" + key + "' in " + what + " (valid keys: " + list + ")");
  }
}

bool readYamlDocument(const std::string &text, const std::string &path,
                      const std::function<void(const YAML::Node &)> &read, std::string &error) {
  try {
    read(YAML::Load(text));
    return true;
  } catch (const YamlError &e) {
    error = yamlLocation(path, e.mark) + ": error: " + e.message;
  } catch (const YAML::Exception &e) {
    error = yamlLocation(path, e.mark) + ": error: " + e.msg;
  }
  return false;
}

bool readTextFile(const std::string &path, const std::string &what, std::string &text,
                  std::string &error) {
  std::ifstream file(path);
  if (!file) {
    error = path + ": error: cannot read the " + what;
    return false;
  }
  std::stringstream contents;
  contents << file.rdbuf();
  text = contents.str();
  return true;
}

} // namespace fusec
