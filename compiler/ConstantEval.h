//===- ConstantEval.h - compile-time values of program expressions -*- C++ -*-===//

#ifndef FUSEC_COMPILER_CONSTANTEVAL_H
#define FUSEC_COMPILER_CONSTANTEVAL_H

#include "compiler/AST.h"

#include <optional>
#include <string>

namespace fusec {

/// The value of a checked program-level scalar expression when it only uses
/// literals, parameters fixed with -D and a fixed `nlev`.
std::optional<ast::Constant> evaluateConstant(const ast::Expr &expr,
                                              const ast::TranslationUnit &unit);

/// A level number `nlevFactor * nlev + constant`.
struct LevelNumber {
  int64_t nlevFactor = 0;
  int64_t constant = 0;

  /// `0`, `nlev`, `nlev-2`, `2*nlev+1`.
  std::string str() const;
};

/// The value of a checked i32 program expression as a level number, when it
/// is a constant or `nlev` plus or minus a constant.
std::optional<LevelNumber> evaluateLevelNumber(const ast::Expr &expr,
                                               const ast::TranslationUnit &unit);

} // namespace fusec

#endif // FUSEC_COMPILER_CONSTANTEVAL_H
