// fusec runtime: the host-staged path of fusec/mpi_exchange.h for fields in CUDA device memory.
//
// Header-only, because fusec_runtime_mpi links no CUDA runtime: include it in a file compiled
// with nvcc (or any C++ file that links cudart), next to the generated .cu code:
//
//   fusec::MpiExchange exchange(domain, comm);
//   exchange.set_device_staging(fusec::cuda_device_staging());
//   P_set_exchange_callback(handle, fusec::MpiExchange::callback, &exchange);
//
// Each exchanged field is copied to a host mirror with cudaMemcpyAsync on the program's stream
// followed by cudaStreamSynchronize (so the copy follows the kernels before the exchange),
// exchanged on the host, and copied back the same way before the callback returns.
// Compiled as host C++ against fusec/cuda_host/cuda_runtime.h (the cuda-host backend), the
// same code runs without a GPU.
#ifndef FUSEC_MPI_EXCHANGE_CUDA_H
#define FUSEC_MPI_EXCHANGE_CUDA_H

#include "fusec/mpi_exchange.h"

#include <cuda_runtime.h>

namespace fusec {

namespace cuda_staging_detail {

inline int copy(void *to, const void *from, size_t bytes, cudaMemcpyKind kind, void *stream) {
  cudaStream_t cuda_stream = static_cast<cudaStream_t>(stream);
  if (cudaMemcpyAsync(to, from, bytes, kind, cuda_stream) != cudaSuccess)
    return 1;
  return cudaStreamSynchronize(cuda_stream) == cudaSuccess ? 0 : 1;
}

inline int to_host(void *host, const void *device, size_t bytes, void *stream, void *) {
  return copy(host, device, bytes, cudaMemcpyDeviceToHost, stream);
}

inline int to_device(void *device, const void *host, size_t bytes, void *stream, void *) {
  return copy(device, host, bytes, cudaMemcpyHostToDevice, stream);
}

} // namespace cuda_staging_detail

inline DeviceStaging cuda_device_staging() {
  DeviceStaging staging;
  staging.to_host = cuda_staging_detail::to_host;
  staging.to_device = cuda_staging_detail::to_device;
  return staging;
}

} // namespace fusec

#endif // FUSEC_MPI_EXCHANGE_CUDA_H
