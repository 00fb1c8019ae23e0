// fusec runtime: packing and unpacking the halo points of the fields handed to the generated
// code's exchange callback (fusec_exchange_field), for a rank's exchange plans
// (fusec/decomposition.h). No MPI: the transport is fusec/mpi_exchange.h; this part is what it
// moves, and what unit tests check on one process.
//
// A message to one peer holds every field of one exchange call, in call order. Each field's
// block is the values at the plan's points (HaloExchange::send on the sender,
// HaloExchange::receive on the receiver, the same global points in the same order), with the
// point fastest, then the neighbour slot, then the level:
//
//   block[i + n*P + k*P*N] = field(points[i], n, k)   (P points, N slots or 1)
//
// and starts at a multiple of 8 bytes. field(h, n, k) is element h + n*ld + k*ld*N in the flat
// layout (one block), h % ld + ld*(n + N*(k + L*(h / ld))) in ICON's blocked layout (ld =
// nproma, L levels; the columns layout is nproma 1): fusec_layout in fusec/kernel_support.h. Fields without a horizontal location (vertical-only)
// have no halo and take no block.
#ifndef FUSEC_HALO_EXCHANGE_H
#define FUSEC_HALO_EXCHANGE_H

#include "fusec/decomposition.h"
#include "fusec/kernel_support.h"
#include "fusec/status.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fusec {

// Bytes of one element of `type` (bool fields are C++ bool: 1 byte).
size_t exchange_element_size(fusec_element_type type);

// Whether a field has a halo to exchange (a horizontal location).
inline bool exchange_has_halo(const fusec_exchange_field &field) {
  return field.location != FUSEC_NO_LOCATION;
}

// Checks that `field` fits `domain`'s local grid: a known location and element type, blocks
// of ld points with room for the location's local points, levels and slots not negative, data
// not null.
Status check_exchange_field(const fusec_exchange_field &field, const LocalDomain &domain);

// Bytes of `field`'s block for `num_points` points, rounded up to a multiple of 8.
size_t halo_block_bytes(const fusec_exchange_field &field, size_t num_points);

// Copies `field`'s values at `points` into `block` (halo_block_bytes(field, points.size())).
void pack_halo(const fusec_exchange_field &field, const std::vector<int32_t> &points,
               void *block);

// Stores `block` (as pack_halo writes it) at `points` of `field`.
void unpack_halo(const fusec_exchange_field &field, const std::vector<int32_t> &points,
                 const void *block);

// The bytes of the whole message of one exchange call to or from `peer_index` (an index into
// domain.exchange(location, lines) of each field's location): the sum of the fields' blocks.
// `send` selects the send lists, else the receive lists. Fields of a location this rank does
// not exchange with that peer contribute empty blocks.
struct HaloMessagePlan {
  int32_t peer = 0;
  // Per field (in call order): the plan's points for this peer, or null when none.
  std::vector<const std::vector<int32_t> *> send_points, receive_points;
  size_t send_bytes = 0, receive_bytes = 0;
};

// The peers of one exchange call over `fields` (each checked), ascending, with their points
// and message sizes: a peer appears when any field's location exchanges with it.
Result<std::vector<HaloMessagePlan>> plan_halo_messages(const LocalDomain &domain,
                                                        const fusec_exchange_field *fields,
                                                        int32_t num_fields, int32_t lines);

} // namespace fusec

#endif // FUSEC_HALO_EXCHANGE_H
