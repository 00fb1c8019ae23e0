//===- CEmitterCommon.cpp - C types, literals and expressions -------------===//

#include "codegen/CEmitterCommon.h"

#include "codegen/KernelForm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mlir;

namespace fusec::codegen {

std::optional<std::string> cScalarType(Type type) {
  if (type.isF64())
    return "double";
  if (type.isF32())
    return "float";
  if (type.isSignlessInteger(1))
    return "bool";
  if (type.isSignlessInteger(32) || type.isIndex())
    return "int32_t";
  if (type.isSignlessInteger(64))
    return "int64_t";
  return std::nullopt;
}

bool isFieldElementType(Type type) {
  return type.isF64() || type.isF32() || type.isSignlessInteger(32) || type.isSignlessInteger(1);
}

std::string elementTypeEnumerator(Type elementType) {
  if (elementType.isF64())
    return "FUSEC_F64";
  if (elementType.isF32())
    return "FUSEC_F32";
  if (elementType.isSignlessInteger(32))
    return "FUSEC_I32";
  return "FUSEC_BOOL";
}

std::string locationEnumerator(stn::GridLocation location) {
  return "FUSEC_" + stn::locationName(location).upper();
}

std::string locationWord(stn::GridLocation location) { return stn::locationName(location).lower(); }

/// The shortest decimal text that reads back as exactly `value`.
static std::string shortestFloat(double value, bool single) {
  char text[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof(text), "%.*g", precision, value);
    bool exact = single ? std::strtof(text, nullptr) == static_cast<float>(value)
                        : std::strtod(text, nullptr) == value;
    if (exact)
      break;
  }
  std::string literal = text;
  if (literal.find_first_of(".e") == std::string::npos)
    literal += ".0";
  return single ? literal + "f" : literal;
}

static std::string floatLiteral(const APFloat &value, bool single) {
  // NAN and INFINITY are floats: as an argument next to a double, `fmax(-INFINITY, x)` would
  // pick a mixed-type overload (a host-only one under nvcc), so doubles get double constants.
  if (value.isNaN())
    return single ? "NAN" : "static_cast<double>(NAN)";
  if (value.isInfinity())
    return std::string(value.isNegative() ? "-" : "") + (single ? "INFINITY" : "HUGE_VAL");
  return shortestFloat(single ? value.convertToFloat() : value.convertToDouble(), single);
}

static std::string intLiteral(int64_t value, unsigned width) {
  if (width == 32 && value == INT32_MIN)
    return "INT32_MIN";
  if (width == 64 && value == INT64_MIN)
    return "INT64_MIN";
  if (width == 64)
    return "INT64_C(" + std::to_string(value) + ")";
  return std::to_string(value);
}

std::optional<std::string> cLiteral(TypedAttr value) {
  if (auto floatAttr = dyn_cast<FloatAttr>(value)) {
    Type type = floatAttr.getType();
    if (!type.isF32() && !type.isF64())
      return std::nullopt;
    return floatLiteral(floatAttr.getValue(), type.isF32());
  }
  if (auto intAttr = dyn_cast<IntegerAttr>(value)) {
    Type type = intAttr.getType();
    if (type.isSignlessInteger(1))
      return intAttr.getValue().isZero() ? "false" : "true";
    if (type.isIndex() || type.isSignlessInteger(32))
      return intLiteral(intAttr.getValue().getSExtValue(), 32);
    if (type.isSignlessInteger(64))
      return intLiteral(intAttr.getValue().getSExtValue(), 64);
  }
  return std::nullopt;
}

std::string zeroLiteral(Type type) {
  if (type.isF64())
    return "0.0";
  if (type.isF32())
    return "0.0f";
  if (type.isSignlessInteger(1))
    return "false";
  return "0";
}

/// -1 of a signed scalar type.
static std::string minusOneLiteral(Type type) {
  if (type.isF64())
    return "-1.0";
  if (type.isF32())
    return "-1.0f";
  return "-1";
}

std::string reductionIdentity(stn::ReduceKind kind, Type type) {
  using K = stn::ReduceKind;
  if (isa<FloatType>(type)) {
    switch (kind) {
    case K::Sum:
      return type.isF32() ? "0.0f" : "0.0";
    case K::Prod:
      return type.isF32() ? "1.0f" : "1.0";
    case K::Min:
      return type.isF32() ? "INFINITY" : "HUGE_VAL";
    case K::Max:
      return type.isF32() ? "-INFINITY" : "-HUGE_VAL";
    }
  }
  bool wide = type.isSignlessInteger(64);
  switch (kind) {
  case K::Sum:
    return "0";
  case K::Prod:
    return "1";
  case K::Min:
    return wide ? "INT64_MAX" : "INT32_MAX";
  case K::Max:
    return wide ? "INT64_MIN" : "INT32_MIN";
  }
  llvm_unreachable("unknown reduction");
}

std::string reductionStep(stn::ReduceKind kind, Type type, StringRef accumulator, StringRef value) {
  using K = stn::ReduceKind;
  std::string acc = accumulator.str(), v = value.str();
  switch (kind) {
  case K::Sum:
    return acc + " += " + v;
  case K::Prod:
    return acc + " *= " + v;
  case K::Min:
  case K::Max: {
    bool isMin = kind == K::Min;
    if (isa<FloatType>(type)) {
      // NaN-ignoring, as the reference interpreter folds (fusec/arith.h).
      return acc + " = fusec::" + (isMin ? "minnum(" : "maxnum(") + acc + ", " + v + ")";
    }
    return acc + " = " + v + (isMin ? " < " : " > ") + acc + " ? " + v + " : " + acc;
  }
  }
  llvm_unreachable("unknown reduction");
}

std::string cStringLiteral(StringRef text) {
  std::string literal = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      literal += '\\';
      literal += c;
    } else if (llvm::isPrint(c)) {
      literal += c;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\%03o", c);
      literal += escaped;
    }
  }
  return literal + "\"";
}

LogicalResult emitIfStatement(scf::IfOp ifOp, raw_ostream &os,
                              function_ref<std::string(OpResult, raw_ostream &)> declareResult,
                              function_ref<LogicalResult(Block &, raw_ostream &)> emitBlock,
                              function_ref<std::string(Value)> expr) {
  SmallVector<std::string> results;
  for (OpResult result : ifOp.getResults())
    results.push_back(isUsed(result) ? declareResult(result, os) : std::string());
  auto branch = [&](Region &region, std::string &text) -> LogicalResult {
    if (region.empty())
      return success();
    llvm::raw_string_ostream branchOs(text);
    Block &block = region.front();
    if (failed(emitBlock(block, branchOs)))
      return failure();
    for (auto [name, value] : llvm::zip(results, block.getTerminator()->getOperands()))
      if (!name.empty())
        branchOs << name << " = " << expr(value) << ";\n";
    return success();
  };
  std::string thenText, elseText;
  if (failed(branch(ifOp.getThenRegion(), thenText)) ||
      failed(branch(ifOp.getElseRegion(), elseText)))
    return failure();
  os << "if (" << expr(ifOp.getCondition()) << ") {\n" << thenText << "}";
  if (!elseText.empty())
    os << " else {\n" << elseText << "}";
  os << "\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Math functions
//===----------------------------------------------------------------------===//

namespace {
/// A math op computed by one C function (f64 name; the f32 name adds 'f').
struct MathFunction {
  llvm::StringLiteral op;
  llvm::StringLiteral function;
};
} // namespace

static constexpr MathFunction kMathFunctions[] = {
    {"math.absf", "fabs"},   {"math.acos", "acos"},         {"math.acosh", "acosh"},
    {"math.asin", "asin"},   {"math.asinh", "asinh"},       {"math.atan", "atan"},
    {"math.atan2", "atan2"}, {"math.atanh", "atanh"},       {"math.cbrt", "cbrt"},
    {"math.ceil", "ceil"},   {"math.copysign", "copysign"}, {"math.cos", "cos"},
    {"math.cosh", "cosh"},   {"math.erf", "erf"},           {"math.exp", "exp"},
    {"math.exp2", "exp2"},   {"math.expm1", "expm1"},       {"math.floor", "floor"},
    {"math.fma", "fma"},     {"math.log", "log"},           {"math.log10", "log10"},
    {"math.log1p", "log1p"}, {"math.log2", "log2"},         {"math.powf", "pow"},
    {"math.round", "round"}, {"math.roundeven", "rint"},    {"math.sin", "sin"},
    {"math.sinh", "sinh"},   {"math.sqrt", "sqrt"},         {"math.tan", "tan"},
    {"math.tanh", "tanh"},   {"math.trunc", "trunc"},
};

/// Functions called for arith ops and reductions rather than math ops.
static constexpr llvm::StringLiteral kOtherFunctions[] = {"fmin",  "fmax",  "fmod",   "abs",
                                                          "llabs", "isnan", "signbit"};

void forEachMathFunction(function_ref<void(StringRef)> callback) {
  for (const MathFunction &fn : kMathFunctions) {
    callback(fn.function);
    callback((fn.function + "f").str());
  }
  for (StringRef name : kOtherFunctions) {
    callback(name);
    callback((name + "f").str());
  }
}

static std::string call(StringRef function, Type type, ArrayRef<std::string> args) {
  std::string text = function.str() + (type.isF32() ? "f" : "") + "(";
  text += llvm::join(args, ", ");
  return text + ")";
}

//===----------------------------------------------------------------------===//
// arith and math expressions
//===----------------------------------------------------------------------===//

/// Operands are identifiers or literals; a negative literal needs parentheses
/// after an operator.
static std::string wrap(StringRef operand) {
  return operand.starts_with("-") ? "(" + operand.str() + ")" : operand.str();
}

static std::string infix(ArrayRef<std::string> in, StringRef op) {
  return wrap(in[0]) + " " + op.str() + " " + wrap(in[1]);
}

static std::string cast(Type to, StringRef operand) {
  return "static_cast<" + *cScalarType(to) + ">(" + operand.str() + ")";
}

static std::string unsignedOf(Type type, StringRef operand) {
  return "static_cast<" + std::string(type.isSignlessInteger(64) ? "uint64_t" : "uint32_t") + ">(" +
         operand.str() + ")";
}

static std::string compareFloats(arith::CmpFPredicate predicate, ArrayRef<std::string> in) {
  using P = arith::CmpFPredicate;
  std::string a = wrap(in[0]), b = wrap(in[1]);
  switch (predicate) {
  case P::AlwaysFalse:
    return "false";
  case P::AlwaysTrue:
    return "true";
  case P::OEQ:
    return a + " == " + b;
  case P::OGT:
    return a + " > " + b;
  case P::OGE:
    return a + " >= " + b;
  case P::OLT:
    return a + " < " + b;
  case P::OLE:
    return a + " <= " + b;
  case P::ONE:
    return "(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::ORD:
    return "(" + a + " == " + a + " && " + b + " == " + b + ")";
  case P::UEQ:
    return "!(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::UGT:
    return "!(" + a + " <= " + b + ")";
  case P::UGE:
    return "!(" + a + " < " + b + ")";
  case P::ULT:
    return "!(" + a + " >= " + b + ")";
  case P::ULE:
    return "!(" + a + " > " + b + ")";
  case P::UNE:
    return a + " != " + b;
  case P::UNO:
    return "(" + a + " != " + a + " || " + b + " != " + b + ")";
  }
  llvm_unreachable("unknown cmpf predicate");
}

static std::string compareInts(arith::CmpIPredicate predicate, Type type,
                               ArrayRef<std::string> in) {
  using P = arith::CmpIPredicate;
  std::string a = wrap(in[0]), b = wrap(in[1]);
  auto isUnsigned =
      predicate == P::ult || predicate == P::ule || predicate == P::ugt || predicate == P::uge;
  if (isUnsigned && !type.isSignlessInteger(1)) {
    a = unsignedOf(type, in[0]);
    b = unsignedOf(type, in[1]);
  }
  switch (predicate) {
  case P::eq:
    return a + " == " + b;
  case P::ne:
    return a + " != " + b;
  case P::slt:
  case P::ult:
    return a + " < " + b;
  case P::sle:
  case P::ule:
    return a + " <= " + b;
  case P::sgt:
  case P::ugt:
    return a + " > " + b;
  case P::sge:
  case P::uge:
    return a + " >= " + b;
  }
  llvm_unreachable("unknown cmpi predicate");
}

bool isNoOpCast(Operation *op) {
  if (!isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return false;
  return cScalarType(op->getOperand(0).getType()) == cScalarType(op->getResult(0).getType());
}

bool isArithOrMath(Operation *op) {
  Dialect *dialect = op->getDialect();
  return dialect && isa<arith::ArithDialect, math::MathDialect>(dialect);
}

FailureOr<std::string> arithExpression(Operation *op, ArrayRef<std::string> in) {
  if (op->getNumResults() != 1 || !cScalarType(op->getResult(0).getType()))
    return op->emitError() << "cannot emit '" << op->getName()
                           << "': only ops with one f64, f32, i32, i64, i1 or index result "
                              "have a C equivalent";
  Type type = op->getResult(0).getType();
  Type operandType = op->getNumOperands() ? op->getOperand(0).getType() : type;
  bool onBools = operandType.isSignlessInteger(1);
  auto unsupported = [&]() -> FailureOr<std::string> {
    return op->emitError() << "cannot emit '" << op->getName() << "' on " << operandType
                           << ": it has no C equivalent in fusec's emitters";
  };

  std::optional<std::string> text =
      llvm::TypeSwitch<Operation *, std::optional<std::string>>(op)
          .Case([&](arith::AddFOp) { return infix(in, "+"); })
          .Case([&](arith::SubFOp) { return infix(in, "-"); })
          .Case([&](arith::MulFOp) { return infix(in, "*"); })
          .Case([&](arith::DivFOp) { return infix(in, "/"); })
          .Case([&](arith::RemFOp) { return call("fmod", type, in); })
          .Case([&](arith::NegFOp) { return "-" + wrap(in[0]); })
          .Case([&](arith::MinNumFOp) { return "fusec::minnum(" + in[0] + ", " + in[1] + ")"; })
          .Case([&](arith::MaxNumFOp) { return "fusec::maxnum(" + in[0] + ", " + in[1] + ")"; })
          .Case([&](arith::MinimumFOp) { return "fusec::minimum(" + in[0] + ", " + in[1] + ")"; })
          .Case([&](arith::MaximumFOp) { return "fusec::maximum(" + in[0] + ", " + in[1] + ")"; })
          .Case([&](arith::AddIOp) -> std::optional<std::string> {
            return onBools ? std::nullopt : std::optional(infix(in, "+"));
          })
          .Case([&](arith::SubIOp) -> std::optional<std::string> {
            return onBools ? std::nullopt : std::optional(infix(in, "-"));
          })
          .Case([&](arith::MulIOp) -> std::optional<std::string> {
            return onBools ? std::nullopt : std::optional(infix(in, "*"));
          })
          .Case([&](arith::DivSIOp) -> std::optional<std::string> {
            return onBools ? std::nullopt : std::optional(infix(in, "/"));
          })
          .Case([&](arith::RemSIOp) -> std::optional<std::string> {
            return onBools ? std::nullopt : std::optional(infix(in, "%"));
          })
          .Case([&](arith::FloorDivSIOp) -> std::optional<std::string> {
            if (!operandType.isSignlessInteger(32) && !operandType.isIndex())
              return std::nullopt;
            return "fusec::floordiv(" + in[0] + ", " + in[1] + ")";
          })
          .Case([&](arith::CeilDivSIOp) -> std::optional<std::string> {
            if (!operandType.isSignlessInteger(32) && !operandType.isIndex())
              return std::nullopt;
            return "fusec::ceildiv(" + in[0] + ", " + in[1] + ")";
          })
          .Case([&](arith::MinSIOp) {
            return wrap(in[0]) + " < " + wrap(in[1]) + " ? " + in[0] + " : " + in[1];
          })
          .Case([&](arith::MaxSIOp) {
            return wrap(in[0]) + " > " + wrap(in[1]) + " ? " + in[0] + " : " + in[1];
          })
          .Case([&](arith::AndIOp) { return infix(in, onBools ? "&&" : "&"); })
          .Case([&](arith::OrIOp) { return infix(in, onBools ? "||" : "|"); })
          .Case([&](arith::XOrIOp) { return infix(in, onBools ? "!=" : "^"); })
          .Case([&](arith::ShLIOp) -> std::optional<std::string> {
            return onBools ? std::nullopt : std::optional(infix(in, "<<"));
          })
          .Case([&](arith::ShRSIOp) -> std::optional<std::string> {
            return onBools ? std::nullopt : std::optional(infix(in, ">>"));
          })
          .Case([&](arith::CmpFOp cmp) { return compareFloats(cmp.getPredicate(), in); })
          .Case([&](arith::CmpIOp cmp) { return compareInts(cmp.getPredicate(), operandType, in); })
          .Case([&](arith::SelectOp) {
            if (op->hasAttr(stn::StnDialect::kBlendAttr))
              return "fusec::blend<" + *cScalarType(type) + ">(" + in[0] + ", " + in[1] + ", " +
                     in[2] + ")";
            return in[0] + " ? " + in[1] + " : " + in[2];
          })
          .Case<arith::ExtFOp, arith::TruncFOp, arith::FPToSIOp, arith::IndexCastOp>(
              [&](Operation *) { return cast(type, in[0]); })
          .Case<arith::SIToFPOp, arith::ExtSIOp>([&](Operation *) {
            // An i1 `true` is -1 when read as signed.
            if (onBools)
              return in[0] + " ? " + minusOneLiteral(type) + " : " + zeroLiteral(type);
            return cast(type, in[0]);
          })
          .Case<arith::UIToFPOp, arith::ExtUIOp, arith::IndexCastUIOp>([&](Operation *) {
            if (onBools)
              return cast(type, in[0]);
            return cast(type, unsignedOf(operandType, in[0]));
          })
          .Case([&](arith::TruncIOp) {
            if (type.isSignlessInteger(1))
              return "(" + wrap(in[0]) + " & 1) != 0";
            return cast(type, in[0]);
          })
          .Case([&](math::RsqrtOp) {
            return (type.isF32() ? "1.0f / " : "1.0 / ") + call("sqrt", type, in);
          })
          .Case([&](math::AbsIOp) -> std::optional<std::string> {
            if (onBools)
              return std::nullopt;
            return (type.isSignlessInteger(64) ? "llabs(" : "abs(") + in[0] + ")";
          })
          .Case([&](math::FPowIOp) {
            return call("pow", type, {in[0], cast(type, in[1])});
          })
          .Default([&](Operation *other) -> std::optional<std::string> {
            StringRef name = other->getName().getStringRef();
            for (const MathFunction &fn : kMathFunctions)
              if (fn.op == name && isa<FloatType>(type))
                return call(fn.function, type, in);
            return std::nullopt;
          });
  if (!text)
    return unsupported();
  return *text;
}

} // namespace fusec::codegen
