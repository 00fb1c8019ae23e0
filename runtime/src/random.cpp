// Seeded random inputs. The generator and the conversions are spelled out (no <random>
// distributions) because those differ between standard libraries.
#include "fusec/random.h"

#include <utility>

namespace fusec {
namespace {

uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

} // namespace

RandomGenerator::RandomGenerator(uint64_t seed) {
  for (uint64_t &word : state_)
    word = splitmix64(seed);
}

RandomGenerator RandomGenerator::for_field(uint64_t seed, const std::string &field_name) {
  uint64_t hash = 1469598103934665603ULL; // FNV-1a
  for (unsigned char ch : field_name)
    hash = (hash ^ ch) * 1099511628211ULL;
  return RandomGenerator(seed ^ hash);
}

uint64_t RandomGenerator::next() {
  uint64_t result = rotl(state_[1] * 5, 7) * 9;
  uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

double RandomGenerator::uniform() { return double(next() >> 11) * 0x1.0p-53; }

double RandomGenerator::uniform(double low, double high) { return low + (high - low) * uniform(); }

uint64_t RandomGenerator::below(uint64_t bound) {
  // Rejection of the incomplete last block keeps every value equally likely.
  uint64_t limit = ~uint64_t(0) - (~uint64_t(0) % bound);
  uint64_t value = next();
  while (value >= limit)
    value = next();
  return value % bound;
}

std::vector<double> random_field(RandomGenerator &rng, size_t count, double low, double high) {
  std::vector<double> values(count);
  for (double &value : values)
    value = rng.uniform(low, high);
  return values;
}

std::vector<double> random_sign(RandomGenerator &rng, size_t count) {
  std::vector<double> values(count);
  for (double &value : values)
    value = (rng.next() >> 63) ? 1.0 : -1.0;
  return values;
}

std::vector<uint8_t> random_mask(RandomGenerator &rng, size_t count) {
  std::vector<uint8_t> mask(count, 0);
  for (size_t i = 0; i < count / 2; ++i)
    mask[i] = 1;
  // Fisher-Yates shuffle.
  for (size_t i = count; i > 1; --i)
    std::swap(mask[i - 1], mask[rng.below(i)]);
  return mask;
}

} // namespace fusec
