//===- CallShim.h - one uniform entry point per program -----------*- C++ -*-===//
//
// Every program's P_run has its own signature (fields as pointers, scalars by
// value), which a tool cannot call through dlsym without knowing it at compile
// time. fusec-bench therefore appends to the emitted C++, for each program,
//
//   extern "C" int fusec_bench_call_P(void *const *arguments);
//
// which calls P_run with arguments[i] as the i-th argument: a field's data
// pointer, or a pointer to a scalar of the parameter's C type.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_CALLSHIM_H
#define FUSEC_TOOLS_BENCH_CALLSHIM_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

#include <string>

namespace fusec::bench {

/// The shim's symbol for `program`.
std::string callShimName(const std::string &program);

/// The shims of every program of `module` (kernel form), as C++ source.
mlir::FailureOr<std::string> emitCallShims(mlir::ModuleOp module);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_CALLSHIM_H
