//===- CallShim.cpp - what fusec-bench appends to the emitted code --------===//

#include "CallShim.h"

#include "codegen/CEmitterCommon.h"
#include "codegen/CInterface.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace fusec::bench {

/// The copy kernels for CPUs: b[i] = a[i] with ordinary stores (STREAM's copy as GCC builds it),
/// and with non-temporal stores (fusec::stream_copy, what stn-stream-stores' writes use), which
/// skip the read of each destination line that an ordinary store makes first. Each thread first
/// touches and copies the same contiguous share, as the variants' static schedules do.
static const char *const kCpuCopy = R"(
#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace {
template <typename Copy>
int fusec_bench_time_copy(int64_t elements, int32_t repeat, double *seconds, Copy copy) {
  double *a = static_cast<double *>(std::malloc(sizeof(double) * elements));
  double *b = static_cast<double *>(std::malloc(sizeof(double) * elements));
  if (a == nullptr || b == nullptr) {
    std::free(a);
    std::free(b);
    return FUSEC_ERROR_OUT_OF_MEMORY;
  }
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < elements; ++i) {
    a[i] = 1.0;
    b[i] = 0.0;
  }
  for (int32_t r = 0; r < repeat; ++r) {
    auto start = std::chrono::steady_clock::now();
    copy(a, b, elements);
    seconds[r] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  std::free(a);
  std::free(b);
  return FUSEC_SUCCESS;
}
} // namespace

extern "C" int fusec_bench_measure_copy(int64_t elements, int32_t repeat, double *seconds) {
  return fusec_bench_time_copy(elements, repeat, seconds,
                               [](const double *a, double *b, int64_t n) {
#pragma omp parallel for schedule(static)
                                 for (int64_t i = 0; i < n; ++i)
                                   b[i] = a[i];
                               });
}

#if FUSEC_STREAM_STORES
extern "C" int fusec_bench_measure_stream_copy(int64_t elements, int32_t repeat,
                                               double *seconds) {
  return fusec_bench_time_copy(elements, repeat, seconds,
                               [](const double *a, double *b, int64_t n) {
#pragma omp parallel
                                 {
                                   // 32 KiB chunks (whole pages) under the first touch's schedule.
                                   constexpr int64_t chunk = 4096;
#pragma omp for schedule(static)
                                   for (int64_t i = 0; i < n; i += chunk)
                                     fusec::stream_copy(b + i, a + i, std::min(chunk, n - i));
                                   fusec::stream_fence();
                                 }
                               });
}
#endif
)";

/// What the CUDA shims time with: events on the default stream.
static const char *const kCudaEvents = R"(
namespace {
/// Records a start event on construction when asked to; `finish` records the
/// stop event, waits for the device and stores the time between the two.
struct FusecBenchEvents {
  cudaEvent_t start = nullptr, stop = nullptr;
  explicit FusecBenchEvents(bool wanted) {
    if (wanted && (cudaEventCreate(&start) != cudaSuccess ||
                   cudaEventCreate(&stop) != cudaSuccess || cudaEventRecord(start) != cudaSuccess))
      start = nullptr;
  }
  ~FusecBenchEvents() {
    if (start)
      cudaEventDestroy(start);
    if (stop)
      cudaEventDestroy(stop);
  }
  int finish(double *seconds) {
    float milliseconds = 0.0f;
    if (start && (cudaEventRecord(stop) != cudaSuccess || cudaEventSynchronize(stop) != cudaSuccess ||
                  cudaEventElapsedTime(&milliseconds, start, stop) != cudaSuccess))
      return FUSEC_ERROR_CUDA;
    if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess)
      return FUSEC_ERROR_CUDA;
    if (start)
      *seconds = 1e-3 * milliseconds;
    return FUSEC_SUCCESS;
  }
};
} // namespace
)";

/// The copy kernel and device memory for GPUs.
static const char *const kCudaSupport = R"(
static __global__ void fusec_bench_copy_kernel(const double *__restrict__ a,
                                               double *__restrict__ b, int64_t elements) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < elements;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    b[i] = a[i];
}

extern "C" int fusec_bench_measure_copy(int64_t elements, int32_t repeat, double *seconds) {
  double *a = nullptr, *b = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  int status = FUSEC_SUCCESS;
  if (cudaMalloc(&a, sizeof(double) * elements) != cudaSuccess ||
      cudaMalloc(&b, sizeof(double) * elements) != cudaSuccess ||
      cudaMemset(a, 0, sizeof(double) * elements) != cudaSuccess ||
      cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess)
    status = FUSEC_ERROR_CUDA;
  const unsigned threads = 256;
  const unsigned blocks = static_cast<unsigned>((elements + threads - 1) / threads);
  for (int32_t r = 0; r < repeat && status == FUSEC_SUCCESS; ++r) {
    float milliseconds = 0.0f;
    cudaEventRecord(start);
    FUSEC_LAUNCH(fusec_bench_copy_kernel, blocks, threads)(a, b, elements);
    cudaEventRecord(stop);
    if (cudaEventSynchronize(stop) != cudaSuccess || cudaGetLastError() != cudaSuccess ||
        cudaEventElapsedTime(&milliseconds, start, stop) != cudaSuccess)
      status = FUSEC_ERROR_CUDA;
    seconds[r] = 1e-3 * milliseconds;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(a);
  cudaFree(b);
  return status;
}

extern "C" int fusec_bench_device_name(char *name, size_t size) {
  int device = 0;
  cudaDeviceProp properties;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&properties, device) != cudaSuccess)
    return FUSEC_ERROR_CUDA;
  std::snprintf(name, size, "%s", properties.name);
  return FUSEC_SUCCESS;
}

extern "C" int fusec_bench_device_alloc(void **pointer, size_t bytes) {
  return cudaMalloc(pointer, bytes) == cudaSuccess ? FUSEC_SUCCESS : FUSEC_ERROR_CUDA;
}

extern "C" void fusec_bench_device_free(void *pointer) { cudaFree(pointer); }

extern "C" int fusec_bench_upload(void *device, const void *host, size_t bytes) {
  return cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice) == cudaSuccess
             ? FUSEC_SUCCESS
             : FUSEC_ERROR_CUDA;
}

extern "C" int fusec_bench_download(void *host, const void *device, size_t bytes) {
  return cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost) == cudaSuccess
             ? FUSEC_SUCCESS
             : FUSEC_ERROR_CUDA;
}
)";

mlir::FailureOr<std::string> emitBenchSupport(mlir::ModuleOp module, ShimTarget target) {
  auto interfaces = codegen::describeInterfaces(module);
  if (mlir::failed(interfaces))
    return mlir::failure();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "\n// fusec-bench: one entry point per program taking its arguments as an array of\n"
        "// pointers (fields: the data; scalars: the value; point lists: their count and arrays).\n"
     << pointListDefinition() << "\n";
  if (target == ShimTarget::Cuda)
    os << kCudaEvents;
  for (const codegen::ProgramInterface &interface : *interfaces) {
    os << "extern \"C\" int " << callShimName(interface.name)
       << "(void *handle, void *const *arguments, double *seconds) {\n  ";
    if (target == ShimTarget::Cuda)
      os << "FusecBenchEvents events(seconds != nullptr);\n  if (int status = ";
    else
      os << "(void)seconds;\n  return ";
    os << interface.run << "(";
    std::vector<std::string> arguments{"static_cast<" + interface.handle + " *>(handle)"};
    for (auto [index, parameter] : llvm::enumerate(interface.parameters)) {
      std::string slot = "arguments[" + std::to_string(index) + "]";
      if (mlir::isa<stn::PointsType>(parameter.type)) {
        std::string list = "static_cast<const fusec_bench_point_list *>(" + slot + ")";
        for (const char *member : {"->count", "->cell", "->level"})
          arguments.push_back(list + member);
      } else if (parameter.isField) {
        std::string element = *codegen::cScalarType(stn::getElementType(parameter.type));
        arguments.push_back("static_cast<" + std::string(parameter.isConst ? "const " : "") +
                            element + " *>(" + slot + ")");
      } else {
        arguments.push_back("*static_cast<const " + *codegen::cScalarType(parameter.type) + " *>(" +
                            slot + ")");
      }
    }
    os << llvm::join(arguments, ", ") << ")";
    if (target == ShimTarget::Cuda)
      os << ")\n    return status;\n  return events.finish(seconds);\n";
    else
      os << ";\n";
    os << "}\n";
  }
  os << (target == ShimTarget::Cuda ? kCudaSupport : kCpuCopy);
  return os.str();
}

} // namespace fusec::bench
