// Kernels the cuda-host backend must catch: a race (each thread reads the
// element its right neighbour writes) and an out-of-range read. fusec's
// kernel verifier rejects the first, so it is written by hand here.
#include "fusec/kernel_support.h"

#include <cstdio>
#include <cstring>

static __global__ void __launch_bounds__(64) shift_left(double *__restrict__ a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    a[i] = a[i + 1] + 1.0;
}

static __global__ void read_past_end(const double *__restrict__ a, double *__restrict__ b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = a[i + 1];
}

int main(int argc, char **argv) {
  const int n = 1000;
  double *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n * sizeof(double)) != cudaSuccess ||
      cudaMalloc(&b, n * sizeof(double)) != cudaSuccess)
    return 1;
  cudaMemset(a, 0, n * sizeof(double));
  if (argc > 1 && std::strcmp(argv[1], "overrun") == 0) {
    FUSEC_LAUNCH(read_past_end, (n + 63) / 64, 64)(a, b, n);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "unordered") == 0) {
    // A fill on the default stream, then a kernel on a non-blocking stream.
    cudaStream_t stream = nullptr;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaMemset(a, 0, n * sizeof(double));
    FUSEC_LAUNCH(shift_left, (n + 63) / 64, 64, 0, stream)(a, n);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "too-many-threads") == 0) {
    FUSEC_LAUNCH(shift_left, 1, 2048)(a, n);
    std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
  }
  FUSEC_LAUNCH(shift_left, (n + 63) / 64, 64)(a, n);
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += a[i];
  std::printf("sum %g\n", sum);
  cudaFree(a);
  cudaFree(b);
  return 0;
}
