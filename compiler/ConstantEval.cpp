//===- ConstantEval.cpp - compile-time values of program expressions -------===//

#include "compiler/ConstantEval.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace fusec;
using namespace fusec::ast;

namespace {
/// Evaluates scalar expressions whose names are all fixed.
class Evaluator {
public:
  explicit Evaluator(const TranslationUnit &unit) : unit(unit) {}

  std::optional<Constant> evaluate(const Expr &expr) {
    return llvm::TypeSwitch<const Expr *, std::optional<Constant>>(&expr)
        .Case([&](const IntLiteralExpr *e) { return literal(*e, static_cast<double>(e->value)); })
        .Case([&](const FloatLiteralExpr *e) { return literal(*e, e->value); })
        .Case([&](const BoolLiteralExpr *e) { return Constant::ofBool(e->value); })
        .Case([&](const NameExpr *e) { return name(*e); })
        .Case([&](const UnaryExpr *e) { return unary(*e); })
        .Case([&](const BinaryExpr *e) { return binary(*e); })
        .Case([&](const CallExpr *e) { return call(*e); })
        .Default([](const Expr *) { return std::nullopt; });
  }

private:
  /// Rounds to the precision of `type`; none when an integer leaves i32.
  static std::optional<Constant> make(ScalarKind type, double floatValue, int64_t intValue) {
    switch (type) {
    case ScalarKind::Bool: return Constant::ofBool(intValue != 0);
    case ScalarKind::I32:
      if (intValue < std::numeric_limits<int32_t>::min() ||
          intValue > std::numeric_limits<int32_t>::max())
        return std::nullopt;
      return Constant::ofInt(intValue);
    case ScalarKind::F32: return Constant::ofFloat(type, static_cast<float>(floatValue));
    case ScalarKind::F64: return Constant::ofFloat(type, floatValue);
    }
    return std::nullopt;
  }

  std::optional<Constant> literal(const Expr &e, double value) {
    return make(e.type, value, static_cast<int64_t>(value));
  }

  std::optional<Constant> name(const NameExpr &e) {
    if (!e.decl || !e.subscripts.empty())
      return std::nullopt;
    if (e.decl->getKind() == ValueDecl::Kind::Nlev) {
      if (!unit.fixedNlev)
        return std::nullopt;
      return Constant::ofInt(*unit.fixedNlev);
    }
    if (auto *param = llvm::dyn_cast<ParamDecl>(e.decl))
      return param->fixedValue;
    return std::nullopt;
  }

  std::optional<Constant> unary(const UnaryExpr &e) {
    std::optional<Constant> operand = evaluate(*e.operand);
    if (!operand)
      return std::nullopt;
    if (e.op == UnaryExpr::Op::Not)
      return Constant::ofBool(operand->intValue == 0);
    return make(e.type, -operand->floatValue, -operand->intValue);
  }

  std::optional<Constant> binary(const BinaryExpr &e) {
    std::optional<Constant> lhs = evaluate(*e.lhs), rhs = evaluate(*e.rhs);
    if (!lhs || !rhs)
      return std::nullopt;
    using Op = BinaryExpr::Op;
    bool isFloatOp = isFloat(e.lhs->type);
    double a = lhs->floatValue, b = rhs->floatValue;
    int64_t i = lhs->intValue, j = rhs->intValue;
    auto compare = [&](auto cmp) {
      return Constant::ofBool(isFloatOp ? cmp(a, b) : cmp(i, j));
    };
    switch (e.op) {
    case Op::Add: return make(e.type, a + b, i + j);
    case Op::Sub: return make(e.type, a - b, i - j);
    case Op::Mul: return make(e.type, a * b, i * j);
    case Op::Div:
      if (!isFloatOp && j == 0)
        return std::nullopt;
      return make(e.type, isFloatOp ? a / b : 0.0, isFloatOp ? 0 : i / j);
    case Op::Pow: {
      if (!isFloatOp) {
        int64_t result = 1;
        for (int64_t n = 0; n < j && n < 64; ++n)
          if ((result *= i) > std::numeric_limits<int32_t>::max() ||
              result < std::numeric_limits<int32_t>::min())
            return std::nullopt;
        return make(e.type, 0.0, result);
      }
      double exponent = isFloat(e.rhs->type) ? b : static_cast<double>(j);
      return make(e.type, std::pow(a, exponent), 0);
    }
    case Op::Eq: return compare([](auto x, auto y) { return x == y; });
    case Op::Ne: return compare([](auto x, auto y) { return x != y; });
    case Op::Lt: return compare([](auto x, auto y) { return x < y; });
    case Op::Le: return compare([](auto x, auto y) { return x <= y; });
    case Op::Gt: return compare([](auto x, auto y) { return x > y; });
    case Op::Ge: return compare([](auto x, auto y) { return x >= y; });
    case Op::And: return Constant::ofBool(i && j);
    case Op::Or: return Constant::ofBool(i || j);
    }
    return std::nullopt;
  }

  std::optional<Constant> call(const CallExpr &e) {
    llvm::SmallVector<Constant, 3> args;
    for (const ExprPtr &arg : e.args) {
      std::optional<Constant> value = evaluate(*arg);
      if (!value)
        return std::nullopt;
      args.push_back(*value);
    }
    bool isFloatArg = !e.args.empty() && isFloat(e.args.back()->type);
    switch (e.calleeKind) {
    case CallExpr::Callee::Cast: {
      const Constant &x = args[0];
      double asFloat = isFloatArg ? x.floatValue : static_cast<double>(x.intValue);
      if (!isFloat(e.castTarget) && isFloatArg &&
          !(std::abs(x.floatValue) < 2147483648.0))
        return std::nullopt;
      return make(e.castTarget, asFloat, isFloatArg ? static_cast<int64_t>(x.floatValue) : x.intValue);
    }
    case CallExpr::Callee::Min:
    case CallExpr::Callee::Max: {
      bool takeFirst = isFloatArg ? (args[0].floatValue < args[1].floatValue)
                                  : (args[0].intValue < args[1].intValue);
      if (e.calleeKind == CallExpr::Callee::Max)
        takeFirst = !takeFirst;
      return takeFirst ? args[0] : args[1];
    }
    case CallExpr::Callee::Where: return args[0].intValue ? args[1] : args[2];
    case CallExpr::Callee::Abs:
      return make(e.type, std::abs(args[0].floatValue), std::abs(args[0].intValue));
    default: return std::nullopt;
    }
  }

  const TranslationUnit &unit;
};

/// Evaluates i32 expressions of the form `a*nlev + b` with `nlev` symbolic.
class LevelEvaluator {
public:
  explicit LevelEvaluator(const TranslationUnit &unit) : unit(unit), constants(unit) {}

  std::optional<LevelNumber> evaluate(const Expr &expr) {
    if (std::optional<Constant> value = constants.evaluate(expr))
      return LevelNumber{0, value->intValue};
    if (const auto *name = llvm::dyn_cast<NameExpr>(&expr))
      if (name->decl == &unit.nlev)
        return LevelNumber{1, 0};
    if (const auto *unary = llvm::dyn_cast<UnaryExpr>(&expr)) {
      std::optional<LevelNumber> operand = evaluate(*unary->operand);
      if (!operand || unary->op != UnaryExpr::Op::Neg)
        return std::nullopt;
      return LevelNumber{-operand->nlevFactor, -operand->constant};
    }
    const auto *binary = llvm::dyn_cast<BinaryExpr>(&expr);
    if (!binary)
      return std::nullopt;
    std::optional<LevelNumber> lhs = evaluate(*binary->lhs), rhs = evaluate(*binary->rhs);
    if (!lhs || !rhs)
      return std::nullopt;
    switch (binary->op) {
    case BinaryExpr::Op::Add:
      return LevelNumber{lhs->nlevFactor + rhs->nlevFactor, lhs->constant + rhs->constant};
    case BinaryExpr::Op::Sub:
      return LevelNumber{lhs->nlevFactor - rhs->nlevFactor, lhs->constant - rhs->constant};
    case BinaryExpr::Op::Mul:
      if (lhs->nlevFactor == 0)
        return LevelNumber{lhs->constant * rhs->nlevFactor, lhs->constant * rhs->constant};
      if (rhs->nlevFactor == 0)
        return LevelNumber{rhs->constant * lhs->nlevFactor, rhs->constant * lhs->constant};
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }

private:
  const TranslationUnit &unit;
  Evaluator constants;
};
} // namespace

std::optional<Constant> fusec::evaluateConstant(const Expr &expr, const TranslationUnit &unit) {
  return Evaluator(unit).evaluate(expr);
}

std::optional<LevelNumber> fusec::evaluateLevelNumber(const Expr &expr,
                                                      const TranslationUnit &unit) {
  return LevelEvaluator(unit).evaluate(expr);
}

std::string LevelNumber::str() const {
  std::string text;
  if (nlevFactor == 1)
    text = "nlev";
  else if (nlevFactor == -1)
    text = "-nlev";
  else if (nlevFactor != 0)
    text = std::to_string(nlevFactor) + "*nlev";
  if (nlevFactor == 0)
    return std::to_string(constant);
  if (constant > 0)
    text += "+" + std::to_string(constant);
  else if (constant < 0)
    text += std::to_string(constant);
  return text;
}
