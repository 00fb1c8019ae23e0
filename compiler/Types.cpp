//===- Types.cpp - semantic types of the .stn language --------------------===//

#include "compiler/Types.h"
#include "compiler/AST.h"

#include "llvm/ADT/StringSwitch.h"

using namespace fusec::ast;

llvm::StringRef fusec::ast::scalarKindName(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F64: return "f64";
  case ScalarKind::F32: return "f32";
  case ScalarKind::I32: return "i32";
  case ScalarKind::Bool: return "bool";
  }
  return "?";
}

llvm::StringRef fusec::ast::locationName(Location location) {
  switch (location) {
  case Location::Cell: return "Cell";
  case Location::Edge: return "Edge";
  case Location::Vertex: return "Vertex";
  }
  return "?";
}

std::optional<Location> fusec::ast::parseLocation(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Location>>(name)
      .Case("Cell", Location::Cell)
      .Case("Edge", Location::Edge)
      .Case("Vertex", Location::Vertex)
      .Default(std::nullopt);
}

std::optional<ScalarKind> fusec::ast::parseScalarKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ScalarKind>>(name)
      .Case("f64", ScalarKind::F64)
      .Case("f32", ScalarKind::F32)
      .Case("i32", ScalarKind::I32)
      .Case("bool", ScalarKind::Bool)
      .Default(std::nullopt);
}

bool fusec::ast::isFloat(ScalarKind kind) {
  return kind == ScalarKind::F64 || kind == ScalarKind::F32;
}

std::string SemType::str() const {
  if (kind == Kind::Invalid)
    return "<invalid>";
  if (kind == Kind::Scalar)
    return scalarKindName(element).str();
  if (kind == Kind::Points)
    return "points<" + locationName(*location).str() + ", K>";
  std::string text = "field<";
  if (location)
    text += locationName(*location).str() + ", ";
  if (sparse)
    text += sparse->name.name + ", ";
  if (vertical == Vertical::Full)
    text += "K, ";
  else if (vertical == Vertical::Half)
    text += "KHalf, ";
  text += scalarKindName(element).str() + ">";
  return text;
}

std::string Space::str() const {
  std::string text = location ? locationName(*location).str() : "levels only";
  if (location && vertical == Vertical::Full)
    text += " x K";
  else if (location && vertical == Vertical::Half)
    text += " x KHalf";
  return text;
}
