//===- InputSpec.h - how fusec-bench calls each program ------------*- C++ -*-===//
//
// The model of an inputs file (e.g. stencils/diffusion.inputs.yaml, format in
// docs/bench.md): per program, the value of each scalar parameter and how to
// fill each field and point-list parameter, separately for `random` and
// `realistic` inputs.
//
// Scalars are small expressions over numbers and the run's grid:
//
//   start(NUDGING, Edge)   end(LOCAL, Cell)   nlev - 2   limited_area
//   end_index_of_damping_layer + 1   0.25 * (1 / (36 * 8) / 8) * 5   sqrt(5) / 200
//
// Fields name a generator: uniform, uniform(lo, hi), sign, mask, vertoffset,
// constant(x), coefficient(name), smooth(mean, amplitude),
// perturbed(name, amplitude), normal_wind(speed), zonal_wind(speed),
// meridional_wind(speed). Their arguments are scalar expressions.
//
// Point lists name one too: nonzero(FIELD, lo, hi), fraction(F, lo, hi),
// all(lo, hi), each with an optional level range (klo, khi) after them.
//
// This library only parses and evaluates; it knows nothing about MLIR, so the
// YAML reader (built with exceptions) and the tests can use it alone.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_INPUTSPEC_H
#define FUSEC_TOOLS_BENCH_INPUTSPEC_H

#include "fusec/grid.h"
#include "fusec/status.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fusec::bench {

enum class InputMode { Random, Realistic };

/// A scalar value: a number or a boolean.
struct ScalarValue {
  bool isBoolean = false;
  double number = 0.0;
  bool boolean = false;

  static ScalarValue ofNumber(double value) { return {false, value, false}; }
  static ScalarValue ofBoolean(bool value) { return {true, 0.0, value}; }
};

/// What expressions may refer to besides numbers: the grid, the number of
/// levels and the vertical grid (computed only when an expression asks).
struct ScalarEnvironment {
  const Grid *grid = nullptr;
  int32_t nlev = 0;
  std::function<Result<int32_t>()> endIndexOfDampingLayer;
};

/// A parsed scalar expression. Grammar:
///   expr    := term (('+' | '-') term)*
///   term    := unary (('*' | '/') unary)*
///   unary   := '-' unary | primary
///   primary := number | true | false | nlev | limited_area
///            | end_index_of_damping_layer | dbl_epsilon
///            | start '(' ZONE ',' LOCATION ')' | end '(' ZONE ',' LOCATION ')'
///            | sqrt '(' expr ')' | '(' expr ')'
class ScalarExpression {
public:
  /// Parses `text`; on error returns none and sets `error`.
  static std::optional<ScalarExpression> parse(const std::string &text, std::string &error);

  Result<ScalarValue> evaluate(const ScalarEnvironment &environment) const;

  const std::string &text() const { return text_; }

private:
  friend class ExpressionParser;

  struct Node {
    enum class Kind {
      Number,
      Boolean,
      Name,
      ZoneStart,
      ZoneEnd,
      Sqrt,
      Negate,
      Add,
      Subtract,
      Multiply,
      Divide
    };
    Kind kind = Kind::Number;
    double number = 0.0;
    std::string name;
    Zone zone = Zone::Local;
    Location location = Location::Cell;
    int lhs = -1, rhs = -1; // operand node indices
  };

  Result<ScalarValue> evaluateNode(int index, const ScalarEnvironment &environment) const;

  std::string text_;
  std::vector<Node> nodes_;
  int root_ = -1;
};

/// How to fill one field.
struct FieldGenerator {
  enum class Kind {
    Uniform,        // uniform in [lo, hi), default [-1, 1) (ICON4Py random_field)
    Sign,           // ±1 (random_sign)
    Mask,           // exactly half of the entries 1, shuffled (random_mask)
    VertOffset,     // relative level offsets with k + offset in [0, nlev - 2]
    Constant,       // one value everywhere
    Coefficient,    // a field of runtime's DiffusionCoefficients, or vct_a
    Smooth,         // mean + amplitude * a smooth pattern of longitude, latitude and level
    Perturbed,      // a coefficient plus amplitude * the smooth pattern
    NormalWind,     // a smooth wind field projected on the edge normals
    ZonalWind,      // its zonal component
    MeridionalWind, // its meridional component
  };
  Kind kind = Kind::Uniform;
  std::string coefficient;                 // Coefficient, Perturbed
  std::vector<ScalarExpression> arguments; // the numeric arguments, in order
  std::string text;                        // as written

  /// Parses `text`; on error returns none and sets `error`.
  static std::optional<FieldGenerator> parse(const std::string &text, std::string &error);
};

/// How to make one point list: entries (point, level) with the point in
/// [lo, hi) of the list's location and the level in [klo, khi) (default all
/// levels), ordered by level, then point.
struct PointsGenerator {
  enum class Kind {
    Nonzero,  // where the program's field argument `field` is nonzero
    Fraction, // a seeded random subset: that fraction of the entries
    All,      // every entry
  };
  Kind kind = Kind::All;
  std::string field;                       // Nonzero
  std::vector<ScalarExpression> arguments; // [fraction,] lo, hi[, klo, khi]
  std::string text;                        // as written

  /// Parses `text`; on error returns none and sets `error`.
  static std::optional<PointsGenerator> parse(const std::string &text, std::string &error);
};

/// An entry of the file that may differ between the two input modes.
template <typename T> struct PerMode {
  std::optional<T> random;
  std::optional<T> realistic;
  std::string where; // "file:line:col" of the entry, for messages

  const std::optional<T> &get(InputMode mode) const {
    return mode == InputMode::Random ? random : realistic;
  }
};

struct Tolerance {
  std::optional<double> rtol;
  std::optional<double> atol;
  std::string where;
};

/// Scalars, fields, point lists and tolerances of one program (or the
/// file-wide defaults).
struct ParameterInputs {
  std::map<std::string, PerMode<ScalarExpression>> scalars;
  std::map<std::string, PerMode<FieldGenerator>> fields;
  std::map<std::string, PerMode<PointsGenerator>> points;
  std::map<std::string, Tolerance> tolerances;
};

struct ProgramEntry {
  ParameterInputs inputs;
  std::string where;
};

/// A whole inputs file: file-wide defaults (by parameter name, for every
/// program that has such a parameter) and per-program entries, which win.
struct InputsFile {
  std::string path;
  ParameterInputs defaults;
  std::map<std::string, ProgramEntry> programs;
};

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_INPUTSPEC_H
