//===- InputSpec.cpp - scalar expressions and field generators ------------===//

#include "InputSpec.h"

#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdlib>

namespace fusec::bench {

namespace {

struct Token {
  enum class Kind { Number, Identifier, Punctuation, End };
  Kind kind = Kind::End;
  std::string text;
  size_t offset = 0;
};

std::optional<std::vector<Token>> tokenize(const std::string &text, std::string &error) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token token;
    token.offset = i;
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      char *end = nullptr;
      std::strtod(text.c_str() + i, &end);
      size_t length = static_cast<size_t>(end - (text.c_str() + i));
      if (length == 0) {
        error = "unexpected '.' at column " + std::to_string(i + 1);
        return std::nullopt;
      }
      token.kind = Token::Kind::Number;
      token.text = text.substr(i, length);
      i += length;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = i;
      while (i < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
        ++i;
      token.kind = Token::Kind::Identifier;
      token.text = text.substr(start, i - start);
    } else if (std::string("+-*/(),").find(c) != std::string::npos) {
      token.kind = Token::Kind::Punctuation;
      token.text = std::string(1, c);
      ++i;
    } else {
      error = std::string("unexpected '") + c + "' at column " + std::to_string(i + 1);
      return std::nullopt;
    }
    tokens.push_back(token);
  }
  Token end;
  end.offset = text.size();
  tokens.push_back(end);
  return tokens;
}

std::optional<Zone> parseZone(const std::string &name) {
  for (int z = 0; z < kNumZones; ++z)
    if (name == zone_name(Zone(z)))
      return Zone(z);
  return std::nullopt;
}

std::optional<Location> parseLocation(const std::string &name) {
  for (Location location : {Location::Cell, Location::Edge, Location::Vertex})
    if (name == location_name(location))
      return location;
  return std::nullopt;
}

std::string validZones() {
  std::string text;
  for (int z = 0; z < kNumZones; ++z)
    text += std::string(z ? ", " : "") + zone_name(Zone(z));
  return text;
}

const char *const kNames[] = {"nlev",        "limited_area", "end_index_of_damping_layer",
                              "dbl_epsilon", "true",         "false"};

} // namespace

/// Recursive descent over the grammar of ScalarExpression, appending nodes.
class ExpressionParser {
public:
  ExpressionParser(std::vector<Token> tokens, ScalarExpression &expression)
      : tokens(std::move(tokens)), expression(expression) {}

  /// expr := term (('+' | '-') term)*; returns the node index, -1 on error.
  int parseExpression() {
    int lhs = parseTerm();
    while (lhs >= 0 && (peek("+") || peek("-"))) {
      auto kind = next().text == "+" ? Node::Kind::Add : Node::Kind::Subtract;
      int rhs = parseTerm();
      if (rhs < 0)
        return -1;
      lhs = add({kind, 0.0, "", Zone::Local, Location::Cell, lhs, rhs});
    }
    return lhs;
  }

  bool atEnd() const { return tokens[position].kind == Token::Kind::End; }
  bool peek(const char *punctuation) const {
    return tokens[position].kind == Token::Kind::Punctuation &&
           tokens[position].text == punctuation;
  }
  const Token &next() { return tokens[position++]; }
  bool expect(const char *punctuation) {
    if (peek(punctuation)) {
      ++position;
      return true;
    }
    fail(std::string("expected '") + punctuation + "'");
    return false;
  }
  void fail(const std::string &message) {
    if (!error.empty())
      return;
    const Token &token = tokens[position];
    error = message + (token.kind == Token::Kind::End ? std::string(" at the end")
                                                      : " at '" + token.text + "' (column " +
                                                            std::to_string(token.offset + 1) + ")");
  }

  std::string error;

private:
  using Node = ScalarExpression::Node;

  int add(Node node) {
    expression.nodes_.push_back(std::move(node));
    return static_cast<int>(expression.nodes_.size()) - 1;
  }

  int parseTerm() {
    int lhs = parseUnary();
    while (lhs >= 0 && (peek("*") || peek("/"))) {
      auto kind = next().text == "*" ? Node::Kind::Multiply : Node::Kind::Divide;
      int rhs = parseUnary();
      if (rhs < 0)
        return -1;
      lhs = add({kind, 0.0, "", Zone::Local, Location::Cell, lhs, rhs});
    }
    return lhs;
  }

  int parseUnary() {
    if (peek("-")) {
      ++position;
      int operand = parseUnary();
      if (operand < 0)
        return -1;
      return add({Node::Kind::Negate, 0.0, "", Zone::Local, Location::Cell, operand, -1});
    }
    return parsePrimary();
  }

  int parseZoneBound(Node::Kind kind) {
    if (!expect("("))
      return -1;
    const Token &zoneToken = next();
    std::optional<Zone> zone = parseZone(zoneToken.text);
    if (!zone) {
      --position;
      fail("expected a zone (" + validZones() + ")");
      return -1;
    }
    if (!expect(","))
      return -1;
    const Token &locationToken = next();
    std::optional<Location> location = parseLocation(locationToken.text);
    if (!location) {
      --position;
      fail("expected a location (Cell, Edge or Vertex)");
      return -1;
    }
    if (!expect(")"))
      return -1;
    return add({kind, 0.0, "", *zone, *location, -1, -1});
  }

  int parsePrimary() {
    const Token &token = tokens[position];
    if (token.kind == Token::Kind::Number) {
      ++position;
      return add({Node::Kind::Number, std::strtod(token.text.c_str(), nullptr), "", Zone::Local,
                  Location::Cell, -1, -1});
    }
    if (peek("(")) {
      ++position;
      int inner = parseExpression();
      if (inner < 0 || !expect(")"))
        return -1;
      return inner;
    }
    if (token.kind != Token::Kind::Identifier) {
      fail("expected a number, a name or '('");
      return -1;
    }
    ++position;
    if (token.text == "start" || token.text == "end")
      return parseZoneBound(token.text == "start" ? Node::Kind::ZoneStart : Node::Kind::ZoneEnd);
    if (token.text == "sqrt") {
      if (!expect("("))
        return -1;
      int operand = parseExpression();
      if (operand < 0 || !expect(")"))
        return -1;
      return add({Node::Kind::Sqrt, 0.0, "", Zone::Local, Location::Cell, operand, -1});
    }
    if (token.text == "true" || token.text == "false")
      return add({Node::Kind::Boolean, token.text == "true" ? 1.0 : 0.0, "", Zone::Local,
                  Location::Cell, -1, -1});
    // Evaluation says which names it knows, so the message can list them.
    return add({Node::Kind::Name, 0.0, token.text, Zone::Local, Location::Cell, -1, -1});
  }

  std::vector<Token> tokens;
  size_t position = 0;
  ScalarExpression &expression;
};

std::optional<ScalarExpression> ScalarExpression::parse(const std::string &text,
                                                        std::string &error) {
  std::optional<std::vector<Token>> tokens = tokenize(text, error);
  if (!tokens)
    return std::nullopt;
  ScalarExpression expression;
  expression.text_ = text;
  ExpressionParser parser(std::move(*tokens), expression);
  expression.root_ = parser.parseExpression();
  if (expression.root_ >= 0 && !parser.atEnd())
    parser.fail("expected an operator");
  if (!parser.error.empty()) {
    error = "invalid expression '" + text + "': " + parser.error;
    return std::nullopt;
  }
  return expression;
}

Result<ScalarValue> ScalarExpression::evaluate(const ScalarEnvironment &environment) const {
  Result<ScalarValue> value = evaluateNode(root_, environment);
  if (!value)
    return Status::failure("'" + text_ + "': " + value.error());
  return value;
}

Result<ScalarValue> ScalarExpression::evaluateNode(int index,
                                                   const ScalarEnvironment &environment) const {
  const Node &node = nodes_[index];
  switch (node.kind) {
  case Node::Kind::Number:
    return ScalarValue::ofNumber(node.number);
  case Node::Kind::Boolean:
    return ScalarValue::ofBoolean(node.number != 0.0);
  case Node::Kind::Name:
    if (node.name == "nlev")
      return ScalarValue::ofNumber(environment.nlev);
    if (node.name == "limited_area")
      return ScalarValue::ofBoolean(environment.grid->limited_area());
    if (node.name == "dbl_epsilon")
      return ScalarValue::ofNumber(DBL_EPSILON);
    if (node.name == "end_index_of_damping_layer") {
      Result<int32_t> damping = environment.endIndexOfDampingLayer();
      if (!damping)
        return damping.status();
      return ScalarValue::ofNumber(*damping);
    }
    {
      std::string known;
      for (const char *name : kNames)
        known += std::string(known.empty() ? "" : ", ") + name;
      return Status::failure("unknown name '" + node.name + "' (known: " + known +
                             ", start(ZONE, Location), end(ZONE, Location), sqrt(x))");
    }
  case Node::Kind::ZoneStart:
    return ScalarValue::ofNumber(environment.grid->start(node.location, node.zone));
  case Node::Kind::ZoneEnd:
    return ScalarValue::ofNumber(environment.grid->end(node.location, node.zone));
  default:
    break;
  }
  Result<ScalarValue> lhs = evaluateNode(node.lhs, environment);
  if (!lhs)
    return lhs;
  if (lhs->isBoolean)
    return Status::failure("arithmetic on a boolean");
  double a = lhs->number;
  if (node.kind == Node::Kind::Sqrt)
    return ScalarValue::ofNumber(std::sqrt(a));
  if (node.kind == Node::Kind::Negate)
    return ScalarValue::ofNumber(-a);
  Result<ScalarValue> rhs = evaluateNode(node.rhs, environment);
  if (!rhs)
    return rhs;
  if (rhs->isBoolean)
    return Status::failure("arithmetic on a boolean");
  double b = rhs->number;
  switch (node.kind) {
  case Node::Kind::Add:
    return ScalarValue::ofNumber(a + b);
  case Node::Kind::Subtract:
    return ScalarValue::ofNumber(a - b);
  case Node::Kind::Multiply:
    return ScalarValue::ofNumber(a * b);
  default:
    return ScalarValue::ofNumber(a / b);
  }
}

namespace {

struct GeneratorInfo {
  const char *name;
  FieldGenerator::Kind kind;
  bool takesCoefficient;           // first argument is a coefficient's name
  unsigned minNumbers, maxNumbers; // numeric arguments
};

const GeneratorInfo kGenerators[] = {
    {"uniform", FieldGenerator::Kind::Uniform, false, 0, 2},
    {"sign", FieldGenerator::Kind::Sign, false, 0, 0},
    {"mask", FieldGenerator::Kind::Mask, false, 0, 0},
    {"vertoffset", FieldGenerator::Kind::VertOffset, false, 0, 0},
    {"constant", FieldGenerator::Kind::Constant, false, 1, 1},
    {"coefficient", FieldGenerator::Kind::Coefficient, true, 0, 0},
    {"smooth", FieldGenerator::Kind::Smooth, false, 2, 2},
    {"perturbed", FieldGenerator::Kind::Perturbed, true, 1, 1},
    {"normal_wind", FieldGenerator::Kind::NormalWind, false, 1, 1},
    {"zonal_wind", FieldGenerator::Kind::ZonalWind, false, 1, 1},
    {"meridional_wind", FieldGenerator::Kind::MeridionalWind, false, 1, 1},
};

std::string generatorUsage() {
  return "uniform, uniform(lo, hi), sign, mask, vertoffset, constant(x), coefficient(name), "
         "smooth(mean, amplitude), perturbed(name, amplitude), normal_wind(speed), "
         "zonal_wind(speed), meridional_wind(speed)";
}

/// Splits "name(a, b(c, d))" into "name" and its top-level arguments.
bool splitCall(const std::string &text, std::string &name, std::vector<std::string> &arguments,
               std::string &error) {
  size_t open = text.find('(');
  auto trim = [](std::string s) {
    size_t first = s.find_first_not_of(" \t");
    size_t last = s.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
  };
  name = trim(text.substr(0, open));
  if (open == std::string::npos)
    return true;
  std::string rest = trim(text.substr(open));
  if (rest.back() != ')') {
    error = "missing ')' at the end";
    return false;
  }
  std::string inner = rest.substr(1, rest.size() - 2);
  int depth = 0;
  std::string current;
  for (char c : inner) {
    if (c == '(')
      ++depth;
    if (c == ')' && --depth < 0) {
      error = "unbalanced ')'";
      return false;
    }
    if (c == ',' && depth == 0) {
      arguments.push_back(trim(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (depth != 0) {
    error = "unbalanced '('";
    return false;
  }
  if (!trim(current).empty() || !arguments.empty())
    arguments.push_back(trim(current));
  return true;
}

/// Parses arguments[first..] of the generator `text` as scalar expressions.
bool parseNumbers(const std::string &text, const std::vector<std::string> &arguments, size_t first,
                  std::vector<ScalarExpression> &numbers, std::string &error) {
  for (size_t i = first; i < arguments.size(); ++i) {
    std::string argumentError;
    std::optional<ScalarExpression> argument = ScalarExpression::parse(arguments[i], argumentError);
    if (!argument) {
      error = "'" + text + "': " + argumentError;
      return false;
    }
    numbers.push_back(std::move(*argument));
  }
  return true;
}

struct PointsGeneratorInfo {
  const char *name;
  PointsGenerator::Kind kind;
  bool takesField;  // first argument is a field's name
  unsigned numbers; // numeric arguments before the optional level range
};

const PointsGeneratorInfo kPointsGenerators[] = {
    {"nonzero", PointsGenerator::Kind::Nonzero, true, 2},
    {"fraction", PointsGenerator::Kind::Fraction, false, 3},
    {"all", PointsGenerator::Kind::All, false, 2},
};

std::string pointsGeneratorUsage() {
  return "nonzero(FIELD, lo, hi), fraction(F, lo, hi), all(lo, hi), each optionally followed by "
         "a level range klo, khi";
}

} // namespace

std::optional<FieldGenerator> FieldGenerator::parse(const std::string &text, std::string &error) {
  std::string name;
  std::vector<std::string> arguments;
  std::string splitError;
  if (!splitCall(text, name, arguments, splitError)) {
    error = "invalid field generator '" + text + "': " + splitError;
    return std::nullopt;
  }
  const GeneratorInfo *info = nullptr;
  for (const GeneratorInfo &candidate : kGenerators)
    if (name == candidate.name)
      info = &candidate;
  if (!info) {
    error = "unknown field generator '" + text + "' (known: " + generatorUsage() + ")";
    return std::nullopt;
  }
  FieldGenerator generator;
  generator.kind = info->kind;
  generator.text = text;
  size_t first = 0;
  if (info->takesCoefficient) {
    if (arguments.empty() || arguments[0].empty()) {
      error = "'" + text + "': " + name + " needs a coefficient name";
      return std::nullopt;
    }
    generator.coefficient = arguments[0];
    first = 1;
  }
  size_t numbers = arguments.size() - first;
  if (numbers < info->minNumbers || numbers > info->maxNumbers) {
    error = "'" + text + "': wrong number of arguments (usage: " + generatorUsage() + ")";
    return std::nullopt;
  }
  if (info->kind == Kind::Uniform && numbers == 1) {
    error = "'" + text + "': uniform takes no bounds or both (uniform(lo, hi))";
    return std::nullopt;
  }
  if (!parseNumbers(text, arguments, first, generator.arguments, error))
    return std::nullopt;
  return generator;
}

std::optional<PointsGenerator> PointsGenerator::parse(const std::string &text, std::string &error) {
  std::string name;
  std::vector<std::string> arguments;
  std::string splitError;
  if (!splitCall(text, name, arguments, splitError)) {
    error = "invalid point-list generator '" + text + "': " + splitError;
    return std::nullopt;
  }
  const PointsGeneratorInfo *info = nullptr;
  for (const PointsGeneratorInfo &candidate : kPointsGenerators)
    if (name == candidate.name)
      info = &candidate;
  if (!info) {
    error = "unknown point-list generator '" + text + "' (known: " + pointsGeneratorUsage() + ")";
    return std::nullopt;
  }
  PointsGenerator generator;
  generator.kind = info->kind;
  generator.text = text;
  size_t first = 0;
  if (info->takesField) {
    if (arguments.empty() || arguments[0].empty()) {
      error = "'" + text + "': " + name + " needs a field's name";
      return std::nullopt;
    }
    generator.field = arguments[0];
    first = 1;
  }
  size_t numbers = arguments.size() - first;
  if (numbers != info->numbers && numbers != info->numbers + 2) {
    error = "'" + text + "': wrong number of arguments (usage: " + pointsGeneratorUsage() + ")";
    return std::nullopt;
  }
  if (!parseNumbers(text, arguments, first, generator.arguments, error))
    return std::nullopt;
  return generator;
}

} // namespace fusec::bench
