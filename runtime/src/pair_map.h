// A map from unordered pairs of non-negative int32 (e.g. the two vertices of an edge) to int32
// (internal to the runtime). Open addressing with linear probing; lookups only, no iteration,
// so the results never depend on the hash order.
#ifndef FUSEC_RUNTIME_PAIR_MAP_H
#define FUSEC_RUNTIME_PAIR_MAP_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace fusec {

class PairMap {
public:
  explicit PairMap(size_t expected_size) {
    size_t capacity = 16;
    while (capacity < 2 * expected_size)
      capacity *= 2;
    keys_.assign(capacity, kEmpty);
    values_.resize(capacity);
    mask_ = capacity - 1;
  }

  // The value stored for {a, b}, inserting `value` first if the pair is new. `inserted` tells
  // which happened.
  int32_t find_or_insert(int32_t a, int32_t b, int32_t value, bool &inserted) {
    uint64_t key = make_key(a, b);
    for (size_t slot = hash(key) & mask_;; slot = (slot + 1) & mask_) {
      if (keys_[slot] == key) {
        inserted = false;
        return values_[slot];
      }
      if (keys_[slot] == kEmpty) {
        keys_[slot] = key;
        values_[slot] = value;
        inserted = true;
        return value;
      }
    }
  }

private:
  static constexpr uint64_t kEmpty = ~uint64_t(0);

  static uint64_t make_key(int32_t a, int32_t b) {
    return (uint64_t(uint32_t(std::min(a, b))) << 32) | uint32_t(std::max(a, b));
  }
  // splitmix64 finaliser: spreads consecutive vertex indices over the table.
  static uint64_t hash(uint64_t key) {
    key ^= key >> 30;
    key *= 0xbf58476d1ce4e5b9ULL;
    key ^= key >> 27;
    key *= 0x94d049bb133111ebULL;
    return key ^ (key >> 31);
  }

  std::vector<uint64_t> keys_;
  std::vector<int32_t> values_;
  size_t mask_ = 0;
};

} // namespace fusec

#endif // FUSEC_RUNTIME_PAIR_MAP_H
