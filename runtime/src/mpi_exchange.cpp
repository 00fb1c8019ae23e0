// fusec runtime: the halo exchange over MPI (fusec/mpi_exchange.h).

#include "fusec/mpi_exchange.h"

#include <chrono>
#include <cstring>

namespace fusec {

namespace {

// The one tag of every halo message (on the exchange's own communicator).
constexpr int kHaloTag = 0x4653;

struct MessageHeader {
  uint64_t sequence;
  uint64_t checksum;
};
constexpr size_t kHeaderBytes = sizeof(MessageHeader);

void hash_bytes(uint64_t &hash, const void *data, size_t bytes) {
  const auto *p = static_cast<const uint8_t *>(data);
  for (size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= 1099511628211ull; // FNV-1a
  }
}

// What both sides of an exchange must agree on: the program and each field's name and shape
// (not ld, which is local).
uint64_t exchange_checksum(const char *program, const fusec_exchange_field *fields,
                           int32_t num_fields) {
  uint64_t hash = 14695981039346656037ull;
  std::string name = program ? program : "";
  hash_bytes(hash, name.c_str(), name.size() + 1);
  for (int32_t f = 0; f < num_fields; ++f) {
    std::string field = fields[f].name ? fields[f].name : "";
    hash_bytes(hash, field.c_str(), field.size() + 1);
    int32_t shape[4] = {int32_t(fields[f].type), fields[f].location, fields[f].num_levels,
                        fields[f].num_neighbors};
    hash_bytes(hash, shape, sizeof shape);
  }
  return hash;
}

std::string mpi_error(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    return "MPI error " + std::to_string(code);
  return std::string(text, size_t(length));
}

size_t field_bytes(const fusec_exchange_field &field) {
  size_t slots = field.num_neighbors > 0 ? size_t(field.num_neighbors) : 1;
  size_t levels = field.num_levels > 0 ? size_t(field.num_levels) : 1;
  return size_t(field.ld) * slots * levels * exchange_element_size(field.type);
}

} // namespace

MpiExchange::MpiExchange(const LocalDomain &domain, MPI_Comm comm, int32_t lines)
    : domain_(domain), lines_(lines) {
  if (MPI_Comm_dup(comm, &comm_) != MPI_SUCCESS)
    comm_ = MPI_COMM_NULL;
  else
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
}

MpiExchange::~MpiExchange() {
  if (comm_ != MPI_COMM_NULL)
    MPI_Comm_free(&comm_);
}

void MpiExchange::reset_statistics() {
  seconds_ = 0.0;
  calls_ = messages_ = bytes_sent_ = 0;
}

int MpiExchange::fail(const std::string &message) {
  error_ = "rank " + std::to_string(domain_.rank) + ": exchange " + std::to_string(sequence_) +
           ": " + message;
  return 1;
}

int MpiExchange::callback(const char *program, const fusec_exchange_field *fields,
                          int32_t num_fields, void *stream, void *user_data) {
  return static_cast<MpiExchange *>(user_data)->exchange(program, fields, num_fields, stream);
}

int MpiExchange::exchange(const char *program, const fusec_exchange_field *fields,
                          int32_t num_fields, void *stream) {
  auto start = std::chrono::steady_clock::now();
  int status = 0;
  if (comm_ == MPI_COMM_NULL) {
    status = fail("the communicator could not be duplicated");
  } else if (!staging_.to_host) {
    status = exchange_host(program, fields, num_fields);
  } else {
    // Host-staged: mirror every field with a halo, exchange the mirrors, copy them back.
    std::vector<fusec_exchange_field> staged(fields, fields + (num_fields > 0 ? num_fields : 0));
    mirrors_.resize(staged.size());
    for (size_t f = 0; f < staged.size() && status == 0; ++f) {
      if (!exchange_has_halo(staged[f]))
        continue;
      if (Status checked = check_exchange_field(staged[f], domain_); !checked) {
        status = fail(checked.message());
        break;
      }
      size_t bytes = field_bytes(staged[f]);
      mirrors_[f].resize(bytes);
      if (staging_.to_host(mirrors_[f].data(), staged[f].data, bytes, stream, staging_.context))
        status = fail(std::string("copying '") + staged[f].name + "' to the host failed");
      staged[f].data = mirrors_[f].data();
    }
    if (status == 0)
      status = exchange_host(program, staged.data(), num_fields);
    for (size_t f = 0; f < staged.size() && status == 0; ++f)
      if (exchange_has_halo(staged[f]) &&
          staging_.to_device(fields[f].data, mirrors_[f].data(), mirrors_[f].size(), stream,
                             staging_.context))
        status = fail(std::string("copying '") + fields[f].name + "' back to the device failed");
  }
  ++sequence_;
  ++calls_;
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return status;
}

int MpiExchange::exchange_host(const char *program, const fusec_exchange_field *fields,
                               int32_t num_fields) {
  Result<std::vector<HaloMessagePlan>> plans =
      plan_halo_messages(domain_, fields, num_fields, lines_);
  if (!plans)
    return fail(plans.error());
  MessageHeader header{sequence_, exchange_checksum(program, fields, num_fields)};

  size_t count = plans->size();
  send_buffers_.resize(count);
  receive_buffers_.resize(count);
  requests_.assign(2 * count, MPI_REQUEST_NULL);

  // Receives first, so that no send waits for its matching receive to be posted.
  for (size_t p = 0; p < count; ++p) {
    const HaloMessagePlan &plan = (*plans)[p];
    if (plan.receive_bytes == 0)
      continue;
    receive_buffers_[p].resize(kHeaderBytes + plan.receive_bytes);
    int code = MPI_Irecv(receive_buffers_[p].data(), int(receive_buffers_[p].size()), MPI_BYTE,
                         plan.peer, kHaloTag, comm_, &requests_[p]);
    if (code != MPI_SUCCESS)
      return fail("MPI_Irecv from rank " + std::to_string(plan.peer) + ": " + mpi_error(code));
  }
  for (size_t p = 0; p < count; ++p) {
    const HaloMessagePlan &plan = (*plans)[p];
    if (plan.send_bytes == 0)
      continue;
    std::vector<uint8_t> &buffer = send_buffers_[p];
    buffer.resize(kHeaderBytes + plan.send_bytes);
    std::memcpy(buffer.data(), &header, kHeaderBytes);
    size_t offset = kHeaderBytes;
    for (int32_t f = 0; f < num_fields; ++f)
      if (const std::vector<int32_t> *points = plan.send_points[size_t(f)]) {
        pack_halo(fields[f], *points, buffer.data() + offset);
        offset += halo_block_bytes(fields[f], points->size());
      }
    int code = MPI_Isend(buffer.data(), int(buffer.size()), MPI_BYTE, plan.peer, kHaloTag, comm_,
                         &requests_[count + p]);
    if (code != MPI_SUCCESS)
      return fail("MPI_Isend to rank " + std::to_string(plan.peer) + ": " + mpi_error(code));
    ++messages_;
    bytes_sent_ += int64_t(buffer.size());
  }
  std::vector<MPI_Status> statuses(requests_.size());
  int code = MPI_Waitall(int(requests_.size()), requests_.data(), statuses.data());
  if (code != MPI_SUCCESS)
    return fail("MPI_Waitall: " + mpi_error(code));

  for (size_t p = 0; p < count; ++p) {
    const HaloMessagePlan &plan = (*plans)[p];
    if (plan.receive_bytes == 0)
      continue;
    int received = 0;
    MPI_Get_count(&statuses[p], MPI_BYTE, &received);
    const std::vector<uint8_t> &buffer = receive_buffers_[p];
    MessageHeader got;
    std::memcpy(&got, buffer.data(), kHeaderBytes);
    if (size_t(received) != buffer.size() || got.sequence != header.sequence ||
        got.checksum != header.checksum)
      return fail("the message from rank " + std::to_string(plan.peer) +
                  " does not match this exchange (" + std::to_string(received) + " bytes, " +
                  std::to_string(buffer.size()) + " expected; its exchange " +
                  std::to_string(got.sequence) +
                  (got.checksum != header.checksum ? ", other fields" : "") +
                  "): the ranks call different exchanges");
    size_t offset = kHeaderBytes;
    for (int32_t f = 0; f < num_fields; ++f)
      if (const std::vector<int32_t> *points = plan.receive_points[size_t(f)]) {
        unpack_halo(fields[f], *points, buffer.data() + offset);
        offset += halo_block_bytes(fields[f], points->size());
      }
  }
  return 0;
}

} // namespace fusec
