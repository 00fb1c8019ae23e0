//===- InputsFileReader.cpp - reading inputs files (YAML) -----------------===//

#include "InputsFileReader.h"

#include "passes/YamlSupport.h"

#include <yaml-cpp/yaml.h>

#include <set>

namespace fusec::bench {

namespace {

std::string requireScalar(const YAML::Node &node, const std::string &what) {
  if (!node.IsScalar() || node.Scalar().empty())
    failAt(node, what + " must be a non-empty value");
  return node.Scalar();
}

class Reader {
public:
  explicit Reader(std::string path) : path(std::move(path)) {}

  InputsFile read(const YAML::Node &root) {
    InputsFile file;
    file.path = path;
    if (root.IsNull())
      return file;
    checkKeys(root, {"fields", "points", "programs", "scalars", "tolerances"}, "the inputs file");
    readParameters(root, "the file-wide defaults", file.defaults);
    if (const YAML::Node programs = root["programs"]) {
      requireMap(programs, "programs");
      for (const auto &entry : programs) {
        std::string name = entry.first.as<std::string>();
        std::string what = "program '" + name + "'";
        ProgramEntry program;
        program.where = where(entry.first);
        if (!entry.second.IsNull()) {
          checkKeys(entry.second, {"fields", "points", "scalars", "tolerances"}, what);
          readParameters(entry.second, what, program.inputs);
        }
        file.programs[name] = std::move(program);
      }
    }
    return file;
  }

private:
  std::string where(const YAML::Node &node) const { return yamlLocation(path, node.Mark()); }

  void readParameters(const YAML::Node &node, const std::string &what, ParameterInputs &inputs) {
    if (const YAML::Node scalars = node["scalars"]) {
      requireMap(scalars, "the scalars of " + what);
      for (const auto &entry : scalars)
        inputs.scalars[entry.first.as<std::string>()] = readPerMode<ScalarExpression>(
            entry.first, entry.second, [](const std::string &text, std::string &error) {
              return ScalarExpression::parse(text, error);
            });
    }
    if (const YAML::Node fields = node["fields"]) {
      requireMap(fields, "the fields of " + what);
      for (const auto &entry : fields)
        inputs.fields[entry.first.as<std::string>()] = readPerMode<FieldGenerator>(
            entry.first, entry.second, [](const std::string &text, std::string &error) {
              return FieldGenerator::parse(text, error);
            });
    }
    if (const YAML::Node points = node["points"]) {
      requireMap(points, "the point lists of " + what);
      for (const auto &entry : points)
        inputs.points[entry.first.as<std::string>()] = readPerMode<PointsGenerator>(
            entry.first, entry.second, [](const std::string &text, std::string &error) {
              return PointsGenerator::parse(text, error);
            });
    }
    if (const YAML::Node tolerances = node["tolerances"]) {
      requireMap(tolerances, "the tolerances of " + what);
      for (const auto &entry : tolerances)
        inputs.tolerances[entry.first.as<std::string>()] = readTolerance(entry.first, entry.second);
    }
  }

  /// `value` for both modes, or `{random: value, realistic: value}`.
  template <typename T, typename Parse>
  PerMode<T> readPerMode(const YAML::Node &key, const YAML::Node &value, Parse parse) {
    std::string name = key.as<std::string>();
    PerMode<T> entry;
    entry.where = where(key);
    auto parseValue = [&](const YAML::Node &node) {
      std::string error;
      std::optional<T> parsed = parse(requireScalar(node, "the value of '" + name + "'"), error);
      if (!parsed)
        failAt(node, "'" + name + "': " + error);
      return parsed;
    };
    if (value.IsMap()) {
      checkKeys(value, {"random", "realistic"}, "'" + name + "'");
      if (const YAML::Node random = value["random"])
        entry.random = parseValue(random);
      if (const YAML::Node realistic = value["realistic"])
        entry.realistic = parseValue(realistic);
      return entry;
    }
    entry.random = parseValue(value);
    entry.realistic = entry.random;
    return entry;
  }

  Tolerance readTolerance(const YAML::Node &key, const YAML::Node &value) {
    std::string what = "the tolerance of '" + key.as<std::string>() + "'";
    checkKeys(value, {"atol", "rtol"}, what);
    Tolerance tolerance;
    tolerance.where = where(key);
    auto number = [&](const char *name) -> std::optional<double> {
      const YAML::Node node = value[name];
      if (!node)
        return std::nullopt;
      double result = 0.0;
      if (!YAML::convert<double>::decode(node, result) || !(result >= 0.0))
        failAt(node, std::string(name) + " of " + what + " must be a number >= 0");
      return result;
    };
    tolerance.rtol = number("rtol");
    tolerance.atol = number("atol");
    return tolerance;
  }

  std::string path;
};

} // namespace

bool parseInputsFile(const std::string &text, const std::string &path, InputsFile &file,
                     std::string &error) {
  return readYamlDocument(
      text, path, [&](const YAML::Node &document) { file = Reader(path).read(document); },
      error);
}

bool loadInputsFile(const std::string &path, InputsFile &file, std::string &error) {
  std::string text;
  return readTextFile(path, "inputs file", text, error) && parseInputsFile(text, path, file, error);
}

} // namespace fusec::bench
