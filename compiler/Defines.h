//===- Defines.h - `-D name=value` compile-time settings ----------*- C++ -*-===//

#ifndef FUSEC_COMPILER_DEFINES_H
#define FUSEC_COMPILER_DEFINES_H

#include "compiler/Types.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace fusec {

/// One `-D name=value`: fixes a program's scalar parameter or `nlev`, or
/// overrides a precision alias (`-D vp=f32`).
struct Define {
  std::string name;
  std::string value;
};

/// Splits `name=value`; on a malformed definition returns none and sets
/// `error`.
std::optional<Define> parseDefine(llvm::StringRef text, std::string &error);

/// Reads `text` as a constant of `type` (`true`/`false`/`1`/`0` for bool).
std::optional<ast::Constant> parseConstant(llvm::StringRef text, ast::ScalarKind type);

} // namespace fusec

#endif // FUSEC_COMPILER_DEFINES_H
