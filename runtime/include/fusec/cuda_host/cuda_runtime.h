/*===- cuda_host/cuda_runtime.h - CUDA emitted code, run on the host -------===*
 *
 * fusec's `cuda-host` backend compiles the emitted `.cu` as host C++ with
 * this directory first on the include path, so `#include <cuda_runtime.h>`
 * finds this file instead of NVIDIA's. It provides the part of CUDA the
 * emitted code and the runtime's kernel_support.h use:
 *
 *  - `__global__` and friends as nothing, `dim3`, and the built-in indices
 *    `blockIdx`, `threadIdx`, `blockDim`, `gridDim` (one set per host thread);
 *  - kernel launches (`FUSEC_LAUNCH(k, grid, block, shmem, stream)(args...)`
 *    in emitted code, kernel_support.h's macro for `k<<<...>>>(args...)`,
 *    which a host compiler cannot parse, becomes `fusec::cuda_host::launch(
 *    "k", k, grid, block, shmem, stream)(args...)`) that run every (block, thread) pair one after the
 *    other in the order `FUSEC_CUDA_HOST_ORDER` names: `forward`, `reverse`
 *    or `shuffled` (seed `FUSEC_CUDA_HOST_SEED`). A result that depends on
 *    the order is a race between threads. Launch configurations beyond the
 *    limits of a real GPU fail with `cudaErrorInvalidConfiguration`;
 *  - device memory with guard pages: `cudaMalloc` places each allocation so
 *    it ends at an inaccessible page (and starts after one), so a kernel
 *    reading or writing past the end faults at once; the fault is reported
 *    with the kernel's name and the run stops;
 *  - streams, events (host clock), copies and memsets. Work runs at once,
 *    but the order a GPU would guarantee is checked: asynchronous work
 *    (launches, memsets, async copies) on one stream followed by work on
 *    another stream, where one of the two is non-blocking
 *    (`cudaStreamNonBlocking`, as ICON's OpenACC queues are) and no
 *    synchronisation lies between, stops the run with a message: on a GPU
 *    the second would not wait for the first.
 *
 * Nothing here needs the CUDA toolkit; it is header-only.
 *
 *===----------------------------------------------------------------------===*/

#ifndef FUSEC_CUDA_HOST_CUDA_RUNTIME_H
#define FUSEC_CUDA_HOST_CUDA_RUNTIME_H

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)

/* CUDA's integer and floating-point min/max at global scope. */
using std::max;
using std::min;

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};

/* The built-in indices of the thread that runs now. */
inline thread_local dim3 blockIdx, threadIdx, blockDim, gridDim;

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
};

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

struct CUstream_st {
  bool nonBlocking = false;
};
using cudaStream_t = CUstream_st *; /* nullptr: the legacy default stream */
constexpr unsigned cudaStreamNonBlocking = 1;

struct CUevent_st {
  std::chrono::steady_clock::time_point time;
};
using cudaEvent_t = CUevent_st *;

namespace fusec::cuda_host {

inline thread_local cudaError_t lastError = cudaSuccess;

inline cudaError_t fail(cudaError_t error) {
  lastError = error;
  return error;
}

/* Device allocations: the mapping around each, for cudaFree. */
struct Mapping {
  char *base;
  size_t bytes;
};

inline std::map<const void *, Mapping> &allocations() {
  static std::map<const void *, Mapping> live;
  return live;
}

/* Asynchronous work not yet known to be complete: its stream and what it was. */
struct PendingWork {
  bool pending = false;
  cudaStream_t stream = nullptr;
  std::string what;
};

inline PendingWork &pendingWork() {
  static PendingWork work;
  return work;
}

inline bool nonBlocking(cudaStream_t stream) { return stream && stream->nonBlocking; }

inline std::string streamName(cudaStream_t stream) {
  if (!stream)
    return "the default stream";
  char text[64];
  std::snprintf(text, sizeof text, "%s stream %p", stream->nonBlocking ? "non-blocking" : "blocking",
                static_cast<const void *>(stream));
  return text;
}

/* Checks that `what` on `stream` is ordered after the pending work, then
 * records it as pending (when asynchronous) or complete. */
inline void issue(cudaStream_t stream, const std::string &what, bool asynchronous) {
  PendingWork &work = pendingWork();
  if (work.pending && work.stream != stream && (nonBlocking(stream) || nonBlocking(work.stream))) {
    std::fprintf(stderr,
                 "cuda-host: %s on %s is not ordered after %s on %s: with no synchronisation "
                 "between them a GPU may run them in either order\n",
                 what.c_str(), streamName(stream).c_str(), work.what.c_str(),
                 streamName(work.stream).c_str());
    std::exit(87);
  }
  work.pending = asynchronous;
  work.stream = stream;
  work.what = what;
}

inline void synchronize(cudaStream_t stream) {
  PendingWork &work = pendingWork();
  if (work.stream == stream)
    work.pending = false;
}

inline void synchronizeAll() { pendingWork().pending = false; }

/* The kernel running now, for the fault report. */
inline thread_local const char *runningKernel = nullptr;

inline void reportFault(int, siginfo_t *info, void *) {
  char message[512];
  const char *kernel = runningKernel ? runningKernel : "(none: not in a kernel)";
  int length = std::snprintf(message, sizeof message,
                             "cuda-host: out-of-range access at %p in kernel %s (block %u,%u,%u "
                             "thread %u,%u,%u): it reached a guard page of device memory\n",
                             info->si_addr, kernel, blockIdx.x, blockIdx.y, blockIdx.z,
                             threadIdx.x, threadIdx.y, threadIdx.z);
  if (length > 0)
    (void)!write(2, message, static_cast<size_t>(std::min<int>(length, sizeof message - 1)));
  _exit(86);
}

inline void installFaultReport() {
  static bool installed = [] {
    struct sigaction action {};
    action.sa_sigaction = reportFault;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, nullptr);
    sigaction(SIGBUS, &action, nullptr);
    return true;
  }();
  (void)installed;
}

enum class Order { Forward, Reverse, Shuffled };

inline Order order() {
  const char *name = std::getenv("FUSEC_CUDA_HOST_ORDER");
  if (name && std::strcmp(name, "reverse") == 0)
    return Order::Reverse;
  if (name && std::strcmp(name, "shuffled") == 0)
    return Order::Shuffled;
  return Order::Forward;
}

inline uint64_t seed() {
  const char *text = std::getenv("FUSEC_CUDA_HOST_SEED");
  return text ? std::strtoull(text, nullptr, 10) : 0;
}

/* A launch: `launch("k", k, grid, block)(args...)` runs k(args...) once per thread. */
template <typename... Parameters> class Launch {
public:
  Launch(const char *name, void (*kernel)(Parameters...), dim3 grid, dim3 block,
         cudaStream_t stream)
      : name(name), kernel(kernel), grid(grid), block(block), stream(stream) {}

  template <typename... Arguments> void operator()(Arguments &&...arguments) const {
    uint64_t threads = uint64_t(block.x) * block.y * block.z;
    // The limits of every GPU fusec targets (compute capability >= 8.0).
    if (threads == 0 || threads > 1024 || block.z > 64 || grid.x == 0 || grid.y == 0 ||
        grid.z == 0 || grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535) {
      fail(cudaErrorInvalidConfiguration);
      return;
    }
    issue(stream, std::string("kernel ") + name, /*asynchronous=*/true);
    uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z;
    uint64_t count = blocks * threads;
    std::vector<uint64_t> sequence;
    Order how = order();
    if (how == Order::Shuffled) {
      sequence.resize(count);
      std::iota(sequence.begin(), sequence.end(), uint64_t(0));
      std::mt19937_64 random(seed());
      std::shuffle(sequence.begin(), sequence.end(), random);
    }
    gridDim = grid;
    blockDim = block;
    runningKernel = name;
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t index = how == Order::Forward    ? i
                       : how == Order::Reverse ? count - 1 - i
                                               : sequence[i];
      uint64_t b = index / threads, t = index % threads;
      blockIdx = dim3(unsigned(b % grid.x), unsigned(b / grid.x % grid.y),
                      unsigned(b / grid.x / grid.y));
      threadIdx = dim3(unsigned(t % block.x), unsigned(t / block.x % block.y),
                       unsigned(t / block.x / block.y));
      kernel(static_cast<Parameters>(arguments)...);
    }
    runningKernel = nullptr;
  }

private:
  const char *name;
  void (*kernel)(Parameters...);
  dim3 grid, block;
  cudaStream_t stream;
};

template <typename... Parameters>
Launch<Parameters...> launch(const char *name, void (*kernel)(Parameters...), dim3 grid,
                             dim3 block, size_t sharedBytes = 0, cudaStream_t stream = nullptr) {
  (void)sharedBytes; // the emitted kernels use no shared memory
  return Launch<Parameters...>(name, kernel, grid, block, stream);
}

} // namespace fusec::cuda_host

inline cudaError_t cudaGetLastError() {
  cudaError_t error = fusec::cuda_host::lastError;
  fusec::cuda_host::lastError = cudaSuccess;
  return error;
}

inline cudaError_t cudaPeekAtLastError() { return fusec::cuda_host::lastError; }

inline const char *cudaGetErrorString(cudaError_t error) {
  switch (error) {
  case cudaSuccess:
    return "no error";
  case cudaErrorInvalidValue:
    return "invalid argument";
  case cudaErrorMemoryAllocation:
    return "out of memory";
  case cudaErrorInvalidConfiguration:
    return "invalid configuration argument";
  }
  return "unknown error";
}

/* Each allocation ends where an inaccessible page begins, and one precedes it. */
template <typename T> cudaError_t cudaMalloc(T **pointer, size_t bytes) {
  using namespace fusec::cuda_host;
  installFaultReport();
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t rounded = (bytes + 15) / 16 * 16; // keep 16-byte alignment
  size_t body = (rounded + page - 1) / page * page;
  size_t total = body + 2 * page;
  void *mapped = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED)
    return fail(cudaErrorMemoryAllocation);
  char *base = static_cast<char *>(mapped);
  if (body && mprotect(base + page, body, PROT_READ | PROT_WRITE) != 0) {
    munmap(base, total);
    return fail(cudaErrorMemoryAllocation);
  }
  char *start = base + page + body - rounded;
  allocations()[start] = {base, total};
  *pointer = reinterpret_cast<T *>(start);
  return cudaSuccess;
}

inline cudaError_t cudaFree(void *pointer) {
  if (!pointer)
    return cudaSuccess;
  auto &live = fusec::cuda_host::allocations();
  auto found = live.find(pointer);
  if (found == live.end())
    return fusec::cuda_host::fail(cudaErrorInvalidValue);
  munmap(found->second.base, found->second.bytes);
  live.erase(found);
  return cudaSuccess;
}

/* Synchronous with the host, on the default stream. */
inline cudaError_t cudaMemcpy(void *to, const void *from, size_t bytes, cudaMemcpyKind) {
  fusec::cuda_host::issue(nullptr, "cudaMemcpy", /*asynchronous=*/false);
  if (bytes)
    std::memmove(to, from, bytes);
  return cudaSuccess;
}

inline cudaError_t cudaMemcpyAsync(void *to, const void *from, size_t bytes, cudaMemcpyKind,
                                   cudaStream_t stream = nullptr) {
  fusec::cuda_host::issue(stream, "cudaMemcpyAsync", /*asynchronous=*/true);
  if (bytes)
    std::memmove(to, from, bytes);
  return cudaSuccess;
}

/* Asynchronous with the host for device memory, on the default stream. */
inline cudaError_t cudaMemset(void *pointer, int value, size_t bytes) {
  fusec::cuda_host::issue(nullptr, "cudaMemset", /*asynchronous=*/true);
  if (bytes)
    std::memset(pointer, value, bytes);
  return cudaSuccess;
}

inline cudaError_t cudaMemsetAsync(void *pointer, int value, size_t bytes,
                                   cudaStream_t stream = nullptr) {
  fusec::cuda_host::issue(stream, "cudaMemsetAsync", /*asynchronous=*/true);
  if (bytes)
    std::memset(pointer, value, bytes);
  return cudaSuccess;
}

inline cudaError_t cudaDeviceSynchronize() {
  fusec::cuda_host::synchronizeAll();
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  fusec::cuda_host::synchronize(stream);
  return cudaSuccess;
}

inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags) {
  *stream = new CUstream_st;
  (*stream)->nonBlocking = (flags & cudaStreamNonBlocking) != 0;
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreate(cudaStream_t *stream) {
  return cudaStreamCreateWithFlags(stream, 0);
}
inline cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  delete stream;
  return cudaSuccess;
}

inline cudaError_t cudaEventCreate(cudaEvent_t *event) {
  *event = new CUevent_st;
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t = nullptr) {
  event->time = std::chrono::steady_clock::now();
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) {
  fusec::cuda_host::synchronizeAll(); // conservative: events are not tied to streams here
  return cudaSuccess;
}
inline cudaError_t cudaEventElapsedTime(float *milliseconds, cudaEvent_t start, cudaEvent_t stop) {
  *milliseconds = std::chrono::duration<float, std::milli>(stop->time - start->time).count();
  return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}

/// The device's description: only its name, which says that no GPU ran the code.
struct cudaDeviceProp {
  char name[256];
};
inline cudaError_t cudaGetDevice(int *device) {
  *device = 0;
  return cudaSuccess;
}
enum cudaDeviceAttr { cudaDevAttrL2CacheSize = 38 };
/// Device attributes: the L2 cache is an H100's (50 MiB), so host runs order
/// their launches as that GPU would (fusec::column_order_pays).
inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attribute, int device) {
  if (device != 0 || attribute != cudaDevAttrL2CacheSize)
    return fusec::cuda_host::fail(cudaErrorInvalidValue);
  *value = 50 * 1024 * 1024;
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *properties, int device) {
  if (device != 0)
    return fusec::cuda_host::fail(cudaErrorInvalidValue);
  std::snprintf(properties->name, sizeof properties->name, "%s",
                "the host CPU (fusec/cuda_host stand-in, no GPU)");
  return cudaSuccess;
}

#endif /* FUSEC_CUDA_HOST_CUDA_RUNTIME_H */
