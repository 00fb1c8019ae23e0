//===- CallShim.h - what fusec-bench appends to the emitted code --*- C++ -*-===//
//
// Every program's P_run has its own signature (fields as pointers, scalars by
// value), which a tool cannot call through dlsym without knowing it at compile
// time. fusec-bench therefore appends to the emitted code, for each program,
//
//   extern "C" int fusec_bench_call_P(void *handle, void *const *arguments,
//                                     double *seconds);
//
// which calls P_run on the instance `handle` (a P_handle * from P_create) with
// arguments[i] as the i-th parameter (a field's data pointer, a pointer to a
// scalar of the parameter's C type, or a pointer to a point list's
// fusec_bench_point_list (CallShimNames.h), whose members are P_run's
// NAME_count, NAME_cell and NAME_level) and, on CUDA,
// waits for the device; there, when `seconds` is not null, it also stores the
// time between CUDA events recorded on the default stream just before and
// just after P_run's launches. Once per library it appends
//
//   extern "C" int fusec_bench_measure_copy(int64_t elements, int32_t repeat,
//                                           double *seconds);
//
// a STREAM-like copy b[i] = a[i] of two arrays of `elements` doubles, timed
// `repeat` times (OpenMP threads with the variants' static schedule on CPUs, a
// device kernel timed with CUDA events on GPUs), compiled with the variants'
// own flags; on x86-64 C++ the same copy with non-temporal stores,
//
//   extern "C" int fusec_bench_measure_stream_copy(int64_t elements,
//                                                  int32_t repeat, double *seconds);
//
// and, for CUDA only, the device memory the tool needs:
//
//   int  fusec_bench_device_alloc(void **pointer, size_t bytes);
//   void fusec_bench_device_free(void *pointer);
//   int  fusec_bench_upload(void *device, const void *host, size_t bytes);
//   int  fusec_bench_download(void *host, const void *device, size_t bytes);
//   int  fusec_bench_device_name(char *name, size_t size);   // the GPU's name
//
// All return 0 on success.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_CALLSHIM_H
#define FUSEC_TOOLS_BENCH_CALLSHIM_H

#include "CallShimNames.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

#include <string>

namespace fusec::bench {

enum class ShimTarget { Cpp, Cuda };

/// The shims of every program of `module` (kernel form), the copy kernel and,
/// for CUDA, the device memory functions, as source text for `target`.
mlir::FailureOr<std::string> emitBenchSupport(mlir::ModuleOp module, ShimTarget target);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_CALLSHIM_H
