// fusec runtime: packing and unpacking halo points (fusec/halo_exchange.h).

#include "fusec/halo_exchange.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

namespace fusec {

size_t exchange_element_size(fusec_element_type type) {
  switch (type) {
  case FUSEC_F64:
    return sizeof(double);
  case FUSEC_F32:
    return sizeof(float);
  case FUSEC_I32:
    return sizeof(int32_t);
  case FUSEC_BOOL:
    return sizeof(bool);
  }
  return 0;
}

Status check_exchange_field(const fusec_exchange_field &field, const LocalDomain &domain) {
  std::string name = field.name ? field.name : "(unnamed)";
  if (exchange_element_size(field.type) == 0)
    return Status::failure("exchanged field '" + name + "' has an unknown element type " +
                           std::to_string(int(field.type)));
  if (field.num_levels < 0 || field.num_neighbors < 0)
    return Status::failure("exchanged field '" + name + "' has a negative level or slot count");
  if (!exchange_has_halo(field))
    return Status::success();
  if (field.location < 0 || field.location >= kNumLocations)
    return Status::failure("exchanged field '" + name + "' has an unknown location " +
                           std::to_string(field.location));
  int64_t points = domain.grid.num_points(Location(field.location));
  // num_blocks 0 is the flat layout too (callers that fill the struct by hand leave it out).
  if (field.ld < 1 || field.ld * std::max<int64_t>(field.num_blocks, 1) < points)
    return Status::failure("exchanged field '" + name + "' has " +
                           std::to_string(field.num_blocks) + " block(s) of ld " +
                           std::to_string(field.ld) + ", room for fewer than the " +
                           std::to_string(points) + " points of its location on rank " +
                           std::to_string(domain.rank));
  if (!field.data)
    return Status::failure("exchanged field '" + name + "' has no data");
  return Status::success();
}

namespace {

size_t slots(const fusec_exchange_field &field) {
  return field.num_neighbors > 0 ? size_t(field.num_neighbors) : 1;
}

size_t levels(const fusec_exchange_field &field) {
  return field.num_levels > 0 ? size_t(field.num_levels) : 1;
}

/// Calls copy(field_offset, block_offset) in bytes for every element of `field` at `points`.
/// Element (h, n, k) of a field of N slots and L levels lies at h % ld + ld*(n + N*(k + L*(h /
/// ld))): the flat layout's h + n*ld + k*ld*N (one block, h < ld) and ICON's blocked layout
/// (ld = nproma) alike.
template <typename Copy>
void for_each_element(const fusec_exchange_field &field, const std::vector<int32_t> &points,
                      Copy copy) {
  size_t element = exchange_element_size(field.type);
  size_t n_slots = slots(field), n_levels = levels(field), count = points.size();
  size_t ld = size_t(field.ld);
  for (size_t k = 0; k < n_levels; ++k)
    for (size_t n = 0; n < n_slots; ++n) {
      size_t block_offset = (n * count + k * count * n_slots) * element;
      if (field.num_blocks <= 1) {
        size_t row = (n * ld + k * ld * n_slots) * element;
        for (size_t i = 0; i < count; ++i)
          copy(row + size_t(points[i]) * element, block_offset + i * element);
        continue;
      }
      for (size_t i = 0; i < count; ++i) {
        size_t h = size_t(points[i]);
        size_t index = h % ld + ld * (n + n_slots * (k + n_levels * (h / ld)));
        copy(index * element, block_offset + i * element);
      }
    }
}

/// Calls copy(field_offset, block_offset, bytes) for every element of `field` at `points`;
/// doubles get their size as a constant, so that the compiler copies each with one move.
template <typename Copy>
void copy_elements(const fusec_exchange_field &field, const std::vector<int32_t> &points,
                   Copy copy) {
  size_t element = exchange_element_size(field.type);
  if (element == 8)
    for_each_element(field, points, [&](size_t field_offset, size_t block_offset) {
      copy(field_offset, block_offset, std::integral_constant<size_t, 8>());
    });
  else
    for_each_element(field, points, [&](size_t field_offset, size_t block_offset) {
      copy(field_offset, block_offset, element);
    });
}

} // namespace

size_t halo_block_bytes(const fusec_exchange_field &field, size_t num_points) {
  if (!exchange_has_halo(field))
    return 0;
  size_t bytes = num_points * slots(field) * levels(field) * exchange_element_size(field.type);
  return (bytes + 7) / 8 * 8;
}

void pack_halo(const fusec_exchange_field &field, const std::vector<int32_t> &points,
               void *block) {
  const auto *data = static_cast<const uint8_t *>(field.data);
  auto *out = static_cast<uint8_t *>(block);
  copy_elements(field, points, [&](size_t field_offset, size_t block_offset, auto bytes) {
    std::memcpy(out + block_offset, data + field_offset, bytes);
  });
}

void unpack_halo(const fusec_exchange_field &field, const std::vector<int32_t> &points,
                 const void *block) {
  auto *data = static_cast<uint8_t *>(field.data);
  const auto *in = static_cast<const uint8_t *>(block);
  copy_elements(field, points, [&](size_t field_offset, size_t block_offset, auto bytes) {
    std::memcpy(data + field_offset, in + block_offset, bytes);
  });
}

Result<std::vector<HaloMessagePlan>> plan_halo_messages(const LocalDomain &domain,
                                                        const fusec_exchange_field *fields,
                                                        int32_t num_fields, int32_t lines) {
  if (lines < 1 || lines > kHaloLines)
    return Status::failure("an exchange fills 1 to " + std::to_string(kHaloLines) +
                           " halo lines, not " + std::to_string(lines));
  if (num_fields < 0 || (num_fields > 0 && !fields))
    return Status::failure("an exchange call without its fields");
  std::vector<HaloMessagePlan> plans;
  auto plan_for = [&](int32_t peer) -> HaloMessagePlan & {
    for (HaloMessagePlan &plan : plans)
      if (plan.peer == peer)
        return plan;
    HaloMessagePlan plan;
    plan.peer = peer;
    plan.send_points.assign(size_t(num_fields), nullptr);
    plan.receive_points.assign(size_t(num_fields), nullptr);
    // Keep the peers ascending (deterministic message order).
    auto at = plans.begin();
    while (at != plans.end() && at->peer < peer)
      ++at;
    return *plans.insert(at, std::move(plan));
  };
  for (int32_t f = 0; f < num_fields; ++f) {
    if (Status status = check_exchange_field(fields[f], domain); !status)
      return status;
    if (!exchange_has_halo(fields[f]))
      continue;
    for (const HaloExchange &peer : domain.exchange(Location(fields[f].location), lines)) {
      HaloMessagePlan &plan = plan_for(peer.peer);
      plan.send_points[size_t(f)] = &peer.send;
      plan.receive_points[size_t(f)] = &peer.receive;
    }
  }
  for (HaloMessagePlan &plan : plans)
    for (int32_t f = 0; f < num_fields; ++f) {
      if (const std::vector<int32_t> *points = plan.send_points[size_t(f)])
        plan.send_bytes += halo_block_bytes(fields[f], points->size());
      if (const std::vector<int32_t> *points = plan.receive_points[size_t(f)])
        plan.receive_bytes += halo_block_bytes(fields[f], points->size());
    }
  return plans;
}

} // namespace fusec
