//===- Arithmetic.h - semantics of the arith and math ops ---------*- C++ -*-===//
//
// Float ops compute in their element type (`float` for f32, so results are
// rounded as generated f32 code rounds them). Integers are held sign-extended
// in an int64_t and wrap at their bit width.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_INTERPRETER_ARITHMETIC_H
#define FUSEC_CODEGEN_INTERPRETER_ARITHMETIC_H

#include "codegen/interpreter/Bytecode.h"
#include "fusec/arith.h"

#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace fusec::interp {

inline int64_t signExtend(uint64_t bits, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(bits);
  unsigned shift = 64 - width;
  return static_cast<int64_t>(bits << shift) >> shift;
}

inline uint64_t zeroExtend(int64_t value, unsigned width) {
  uint64_t bits = static_cast<uint64_t>(value);
  return width >= 64 ? bits : bits & ((uint64_t{1} << width) - 1);
}

inline int64_t maxSigned(unsigned width) {
  return width >= 64 ? std::numeric_limits<int64_t>::max()
                     : static_cast<int64_t>((uint64_t{1} << (width - 1)) - 1);
}

inline int64_t minSigned(unsigned width) { return -maxSigned(width) - 1; }

/// An i1 as held in a word.
inline int64_t fromBool(bool value) { return value ? -1 : 0; }

template <typename T> T floatUnary(FloatUnaryOp op, T x) {
  switch (op) {
  case FloatUnaryOp::Neg:
    return -x;
  case FloatUnaryOp::Sqrt:
    return std::sqrt(x);
  case FloatUnaryOp::Exp:
    return std::exp(x);
  case FloatUnaryOp::Log:
    return std::log(x);
  case FloatUnaryOp::Abs:
    return std::fabs(x);
  case FloatUnaryOp::Floor:
    return std::floor(x);
  case FloatUnaryOp::Ceil:
    return std::ceil(x);
  }
  llvm_unreachable("unknown float op");
}

template <typename T> T floatBinary(FloatBinaryOp op, T a, T b) {
  switch (op) {
  case FloatBinaryOp::Add:
    return a + b;
  case FloatBinaryOp::Sub:
    return a - b;
  case FloatBinaryOp::Mul:
    return a * b;
  case FloatBinaryOp::Div:
    return a / b;
  case FloatBinaryOp::Rem:
    return std::fmod(a, b);
  case FloatBinaryOp::MinNum:
    return fusec::minnum(a, b);
  case FloatBinaryOp::MaxNum:
    return fusec::maxnum(a, b);
  case FloatBinaryOp::Minimum:
    return fusec::minimum(a, b);
  case FloatBinaryOp::Maximum:
    return fusec::maximum(a, b);
  case FloatBinaryOp::Pow:
    return std::pow(a, b);
  }
  llvm_unreachable("unknown float op");
}

/// Both operands are exact in double, so one comparison serves f32 and f64.
inline bool compareFloats(mlir::arith::CmpFPredicate predicate, double a, double b) {
  using P = mlir::arith::CmpFPredicate;
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (predicate) {
  case P::AlwaysFalse:
    return false;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  case P::AlwaysTrue:
    return true;
  }
  llvm_unreachable("unknown cmpf predicate");
}

inline bool compareInts(mlir::arith::CmpIPredicate predicate, int64_t a, int64_t b,
                        unsigned width) {
  using P = mlir::arith::CmpIPredicate;
  uint64_t ua = zeroExtend(a, width), ub = zeroExtend(b, width);
  switch (predicate) {
  case P::eq:
    return a == b;
  case P::ne:
    return a != b;
  case P::slt:
    return a < b;
  case P::sle:
    return a <= b;
  case P::sgt:
    return a > b;
  case P::sge:
    return a >= b;
  case P::ult:
    return ua < ub;
  case P::ule:
    return ua <= ub;
  case P::ugt:
    return ua > ub;
  case P::uge:
    return ua >= ub;
  }
  llvm_unreachable("unknown cmpi predicate");
}

/// For DivS and RemS, `b` must not be 0 (the executor reports that as an
/// error). The one signed overflow, minSigned / -1, wraps as hardware does.
inline int64_t intBinary(IntBinaryOp op, int64_t a, int64_t b, unsigned width) {
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (op) {
  case IntBinaryOp::Add:
    return signExtend(ua + ub, width);
  case IntBinaryOp::Sub:
    return signExtend(ua - ub, width);
  case IntBinaryOp::Mul:
    return signExtend(ua * ub, width);
  case IntBinaryOp::DivS:
    return b == -1 ? signExtend(0 - ua, width) : a / b;
  case IntBinaryOp::RemS:
    return b == -1 ? 0 : a % b;
  case IntBinaryOp::And:
    return a & b;
  case IntBinaryOp::Or:
    return a | b;
  case IntBinaryOp::Xor:
    return a ^ b;
  case IntBinaryOp::MinS:
    return a < b ? a : b;
  case IntBinaryOp::MaxS:
    return a > b ? a : b;
  }
  llvm_unreachable("unknown integer op");
}

/// The start value of a fold over neighbours.
inline Word reduceIdentity(fusec::stn::ReduceKind kind, ScalarType type) {
  using K = fusec::stn::ReduceKind;
  double inf = std::numeric_limits<double>::infinity();
  double floatIdentity = kind == K::Sum ? 0.0 : kind == K::Prod ? 1.0 : kind == K::Min ? inf : -inf;
  switch (type.kind) {
  case ScalarType::Kind::F64:
    return Word::ofF64(floatIdentity);
  case ScalarType::Kind::F32:
    return Word::ofF32(static_cast<float>(floatIdentity));
  case ScalarType::Kind::Int:
    break;
  }
  int64_t intIdentity = kind == K::Sum    ? 0
                        : kind == K::Prod ? 1
                        : kind == K::Min  ? maxSigned(type.width)
                                          : minSigned(type.width);
  return Word::ofInt(intIdentity);
}

template <typename T> T foldFloat(fusec::stn::ReduceKind kind, T acc, T value) {
  using K = fusec::stn::ReduceKind;
  switch (kind) {
  case K::Sum:
    return acc + value;
  case K::Prod:
    return acc * value;
  case K::Min:
    return fusec::minnum(acc, value);
  case K::Max:
    return fusec::maxnum(acc, value);
  }
  llvm_unreachable("unknown reduction");
}

inline Word fold(fusec::stn::ReduceKind kind, ScalarType type, Word acc, Word value) {
  using K = fusec::stn::ReduceKind;
  switch (type.kind) {
  case ScalarType::Kind::F64:
    return Word::ofF64(foldFloat(kind, acc.f64, value.f64));
  case ScalarType::Kind::F32:
    return Word::ofF32(foldFloat(kind, acc.f32, value.f32));
  case ScalarType::Kind::Int:
    break;
  }
  IntBinaryOp op = kind == K::Sum    ? IntBinaryOp::Add
                   : kind == K::Prod ? IntBinaryOp::Mul
                   : kind == K::Min  ? IntBinaryOp::MinS
                                     : IntBinaryOp::MaxS;
  return Word::ofInt(intBinary(op, acc.i, value.i, type.width));
}

} // namespace fusec::interp

#endif // FUSEC_CODEGEN_INTERPRETER_ARITHMETIC_H
