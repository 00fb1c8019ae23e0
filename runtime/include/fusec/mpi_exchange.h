// fusec runtime: the halo exchange of generated programs over MPI (library fusec_runtime_mpi,
// built when CMake finds MPI; docs/runtime.md).
//
// An MpiExchange belongs to one rank's LocalDomain (fusec/decomposition.h) and provides the
// exchange callback the generated code calls at every `exchange` (fusec_exchange_callback):
//
//   fusec::MpiExchange exchange(domain, MPI_COMM_WORLD);   // collective (duplicates the comm)
//   P_set_exchange_callback(handle, fusec::MpiExchange::callback, &exchange);
//   P_run(handle, ...);   // every rank, same program, same arguments but its local zones
//
// One callback call (the fields of one `exchange` statement) fills halo lines 1 and 2 of every
// field with a location, all levels and neighbour slots, from the owners:
//   * one MPI_Irecv per peer this rank receives from, posted first;
//   * per peer this rank sends to, the owned points that peer's halo holds, of all fields of
//     the call, packed into one buffer (fusec/halo_exchange.h) and sent with one MPI_Isend;
//   * MPI_Waitall, then every received buffer is unpacked into the halo points.
// Peers go in ascending rank order, with one tag on a private duplicate of the communicator
// (MPI keeps messages between two ranks with one tag in order), so exchanges match by their
// position in the call sequence. Every message starts with a 16-byte header (the exchange's
// sequence number and a checksum of its fields' names and shapes), so ranks that call
// different exchanges fail with a message instead of mixing up data.
//
// Fields in device memory (CUDA backend): without DeviceStaging the data pointers must be
// host-accessible (C++ backend, or a CUDA-aware MPI with unified memory). With it, each field
// is copied to a host mirror through the given functions (which must order the copy after the
// kernels on `stream`), exchanged there, and the whole field copied back: the host-staged
// fallback. fusec/mpi_exchange_cuda.h provides the functions for code compiled with nvcc.
//
// Errors (a field that does not fit the domain, an MPI error, a mismatched exchange) make the
// callback return non-zero, so P_run fails with FUSEC_ERROR_EXCHANGE; last_error() says why.
// Peers may then wait for messages that never come: callers should MPI_Abort on such an error,
// as fusec-bench-ranks does.
#ifndef FUSEC_MPI_EXCHANGE_H
#define FUSEC_MPI_EXCHANGE_H

#include "fusec/decomposition.h"
#include "fusec/halo_exchange.h"
#include "fusec/kernel_support.h"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fusec {

// Copies between device and host memory for the host-staged path. Each returns 0 on success.
struct DeviceStaging {
  int (*to_host)(void *host, const void *device, size_t bytes, void *stream, void *context) =
      nullptr;
  int (*to_device)(void *device, const void *host, size_t bytes, void *stream, void *context) =
      nullptr;
  void *context = nullptr;
};

class MpiExchange {
public:
  // Collective over `comm`: duplicates it. `lines` (1 or 2) is the halo depth filled.
  MpiExchange(const LocalDomain &domain, MPI_Comm comm, int32_t lines = kHaloLines);
  ~MpiExchange();
  MpiExchange(const MpiExchange &) = delete;
  MpiExchange &operator=(const MpiExchange &) = delete;

  // Stage device fields through host buffers (see above).
  void set_device_staging(const DeviceStaging &staging) { staging_ = staging; }

  // The fusec_exchange_callback; user_data is the MpiExchange.
  static int callback(const char *program, const fusec_exchange_field *fields,
                      int32_t num_fields, void *stream, void *user_data);

  // One exchange call; 0 on success.
  int exchange(const char *program, const fusec_exchange_field *fields, int32_t num_fields,
               void *stream);

  const std::string &last_error() const { return error_; }

  // Statistics since construction or reset_statistics().
  double seconds() const { return seconds_; }   // wall time inside exchange()
  int64_t calls() const { return calls_; }      // exchange calls
  int64_t messages() const { return messages_; } // messages sent
  int64_t bytes_sent() const { return bytes_sent_; }
  void reset_statistics();

private:
  int fail(const std::string &message);
  int exchange_host(const char *program, const fusec_exchange_field *fields, int32_t num_fields);

  const LocalDomain &domain_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int32_t lines_;
  DeviceStaging staging_;
  uint64_t sequence_ = 0;
  std::string error_;
  std::vector<std::vector<uint8_t>> send_buffers_, receive_buffers_, mirrors_;
  std::vector<MPI_Request> requests_;
  double seconds_ = 0.0;
  int64_t calls_ = 0, messages_ = 0, bytes_sent_ = 0;
};

} // namespace fusec

#endif // FUSEC_MPI_EXCHANGE_H
