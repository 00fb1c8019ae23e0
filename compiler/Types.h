//===- Types.h - semantic types of the .stn language --------------*- C++ -*-===//

#ifndef FUSEC_COMPILER_TYPES_H
#define FUSEC_COMPILER_TYPES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace fusec::ast {

struct ConnectivityDecl;

enum class ScalarKind { F64, F32, I32, Bool };
enum class Location { Cell, Edge, Vertex };
/// How many levels a value has: none, `nlev` (K) or `nlev+1` (KHalf).
enum class Vertical { None, Full, Half };

llvm::StringRef scalarKindName(ScalarKind kind);
llvm::StringRef locationName(Location location);
std::optional<Location> parseLocation(llvm::StringRef name);
std::optional<ScalarKind> parseScalarKind(llvm::StringRef name);
bool isFloat(ScalarKind kind);

/// The resolved type of a parameter, output, let or var: a scalar, a field,
/// or (program parameters only) a list of points with their levels.
struct SemType {
  enum class Kind { Invalid, Scalar, Field, Points };
  Kind kind = Kind::Invalid;
  ScalarKind element = ScalarKind::F64;
  std::optional<Location> location;
  const ConnectivityDecl *sparse = nullptr;
  Vertical vertical = Vertical::None;

  static SemType scalar(ScalarKind element) {
    SemType type;
    type.kind = Kind::Scalar;
    type.element = element;
    return type;
  }
  static SemType field(std::optional<Location> location, const ConnectivityDecl *sparse,
                       Vertical vertical, ScalarKind element) {
    SemType type;
    type.kind = Kind::Field;
    type.location = location;
    type.sparse = sparse;
    type.vertical = vertical;
    type.element = element;
    return type;
  }

  /// `points<Cell, K>`: cells, each with a full level, given at run time.
  static SemType points(Location location) {
    SemType type;
    type.kind = Kind::Points;
    type.location = location;
    type.vertical = Vertical::Full;
    return type;
  }

  bool isValid() const { return kind != Kind::Invalid; }
  bool isPoints() const { return kind == Kind::Points; }
  bool isScalar() const { return kind == Kind::Scalar; }
  bool isField() const { return kind == Kind::Field; }
  bool hasLevels() const { return vertical != Vertical::None; }

  /// As written in the language: `f64`, `field<Edge, E2C2V, K, f64>`.
  std::string str() const;
};

/// A compile-time scalar (a literal, or a parameter fixed with -D).
struct Constant {
  ScalarKind type = ScalarKind::I32;
  int64_t intValue = 0; // i32 and bool (0 or 1)
  double floatValue = 0.0;

  static Constant ofInt(int64_t value) { return {ScalarKind::I32, value, 0.0}; }
  static Constant ofBool(bool value) { return {ScalarKind::Bool, value ? 1 : 0, 0.0}; }
  static Constant ofFloat(ScalarKind type, double value) { return {type, 0, value}; }
};

/// Where values live: the location (none for vertical-only) and levels.
struct Space {
  std::optional<Location> location;
  Vertical vertical = Vertical::None;

  /// `Edge`, `Edge x K`, `levels only`, for messages.
  std::string str() const;
};

} // namespace fusec::ast

#endif // FUSEC_COMPILER_TYPES_H
