//===- CEmitterCommon.h - C types, literals and expressions -------*- C++ -*-===//
//
// The pieces of C-family output that the CUDA and C++ emitters (and the
// header) spell the same way: scalar types, literals, and the expression of
// each arith/math op. Generated code is C++ (host and device), so casts are
// static_casts and math calls are the C functions of the right precision
// (sqrt for f64, sqrtf for f32), which exist in both host and CUDA code.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_CEMITTERCOMMON_H
#define FUSEC_CODEGEN_CEMITTERCOMMON_H

#include "ir/StnOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace fusec::codegen {

/// The C type of a scalar: f64 double, f32 float, i1 bool, i32 int32_t,
/// i64 int64_t, index int32_t (neighbour slots); nothing for other types.
std::optional<std::string> cScalarType(mlir::Type type);

/// True for the element types a field may hold: f64, f32, i32, i1.
bool isFieldElementType(mlir::Type type);

/// FUSEC_F64, FUSEC_F32, FUSEC_I32 or FUSEC_BOOL.
std::string elementTypeEnumerator(mlir::Type elementType);

/// FUSEC_CELL, FUSEC_EDGE, FUSEC_VERTEX.
std::string locationEnumerator(stn::GridLocation location);

/// "cell", "edge", "vertex": hints for per-location identifiers.
std::string locationWord(stn::GridLocation location);

/// The literal of an integer, float or bool constant; nothing for others.
std::optional<std::string> cLiteral(mlir::TypedAttr value);

/// 0 of a scalar type (what a load at a missing point gives).
std::string zeroLiteral(mlir::Type type);

/// The start value of a fold: 0, 1, +inf, -inf (INT32_MAX, INT32_MIN).
std::string reductionIdentity(stn::ReduceKind kind, mlir::Type type);

/// The statement folding `value` into `accumulator`, without the semicolon.
std::string reductionStep(stn::ReduceKind kind, mlir::Type type, llvm::StringRef accumulator,
                          llvm::StringRef value);

/// `text` as a C string literal.
std::string cStringLiteral(llvm::StringRef text);

/// The C expression of an arith or math op with one result, given the C
/// expressions of its operands. Emits an error at the op when the op has no
/// C equivalent.
mlir::FailureOr<std::string> arithExpression(mlir::Operation *op,
                                             llvm::ArrayRef<std::string> operands);

/// True for casts between types with the same C type (index and i32): their
/// result is their operand.
bool isNoOpCast(mlir::Operation *op);

/// True for ops `arithExpression` handles (arith and math dialects).
bool isArithOrMath(mlir::Operation *op);

/// Emits `ifOp` as an if statement, for host and kernel code alike. Each used
/// result is declared before it by `declareResult` (which writes the
/// declaration and returns the variable) and assigned at the end of both
/// branches; an else branch with nothing in it is left out.
mlir::LogicalResult emitIfStatement(
    mlir::scf::IfOp ifOp, llvm::raw_ostream &os,
    llvm::function_ref<std::string(mlir::OpResult, llvm::raw_ostream &)> declareResult,
    llvm::function_ref<mlir::LogicalResult(mlir::Block &, llvm::raw_ostream &)> emitBlock,
    llvm::function_ref<std::string(mlir::Value)> expr);

/// Calls `callback` with the name of every C math function generated code may
/// call, so emitted identifiers never hide one.
void forEachMathFunction(llvm::function_ref<void(llvm::StringRef)> callback);

} // namespace fusec::codegen

#endif // FUSEC_CODEGEN_CEMITTERCOMMON_H
