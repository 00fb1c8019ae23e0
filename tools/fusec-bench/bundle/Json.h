//===- Json.h - the JSON a bundle's runner writes ------------------*- C++ -*-===//
//
// Just enough JSON to write results on a machine without libraries: objects
// keep their keys in insertion order, numbers print with 17 significant digits
// (non-finite ones as null).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_BUNDLE_JSON_H
#define FUSEC_TOOLS_BENCH_BUNDLE_JSON_H

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace fusec::bench {

class Json {
public:
  static Json object() { return Json(Kind::Object); }
  static Json array() { return Json(Kind::Array); }
  static Json string(std::string value) {
    Json json(Kind::String);
    json.scalar = std::move(value);
    return json;
  }
  static Json number(double value) {
    Json json(Kind::Number);
    char text[32] = "null";
    if (std::isfinite(value))
      std::snprintf(text, sizeof text, "%.17g", value);
    json.scalar = text;
    return json;
  }
  /// JSON text written as it is (the emitted code's own metrics file).
  static Json raw(std::string text) {
    Json json(Kind::Number);
    json.scalar = std::move(text);
    while (!json.scalar.empty() && (json.scalar.back() == '\n' || json.scalar.back() == ' '))
      json.scalar.pop_back();
    return json;
  }
  static Json boolean(bool value) {
    Json json(Kind::Number);
    json.scalar = value ? "true" : "false";
    return json;
  }

  /// Objects: adds (or replaces) `key`.
  Json &set(const std::string &key, Json value) {
    for (auto &[name, member] : members)
      if (name == key) {
        member = std::move(value);
        return *this;
      }
    members.emplace_back(key, std::move(value));
    return *this;
  }
  /// Arrays: appends `value`.
  Json &push(Json value) {
    members.emplace_back("", std::move(value));
    return *this;
  }

  std::string text(int indent = 0) const {
    switch (kind) {
    case Kind::String:
      return quote(scalar);
    case Kind::Number:
      return scalar;
    case Kind::Object:
    case Kind::Array: {
      bool isObject = kind == Kind::Object;
      if (members.empty())
        return isObject ? "{}" : "[]";
      std::string inner(indent + 2, ' ');
      std::string out = isObject ? "{\n" : "[\n";
      for (size_t i = 0; i < members.size(); ++i) {
        out += inner;
        if (isObject)
          out += quote(members[i].first) + ": ";
        out += members[i].second.text(indent + 2);
        out += i + 1 < members.size() ? ",\n" : "\n";
      }
      return out + std::string(indent, ' ') + (isObject ? "}" : "]");
    }
    }
    return "null";
  }

private:
  enum class Kind { Object, Array, String, Number };
  explicit Json(Kind kind) : kind(kind) {}

  static std::string quote(const std::string &text) {
    std::string out = "\"";
    for (char c : text) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
        out += escaped;
      } else {
        out += c;
      }
    }
    return out + "\"";
  }

  Kind kind;
  std::string scalar;
  std::vector<std::pair<std::string, Json>> members;
};

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_BUNDLE_JSON_H
