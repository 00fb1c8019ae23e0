// fusec runtime: ICON4Py-style random inputs from a seeded, platform-independent generator.
//
// icon4py's StencilTests fill inputs with random_field (uniform in [low, high), default
// [-1, 1)), random_sign (±1) and random_mask (exactly half True, shuffled). These are the same
// distributions, reproducible bit for bit from a seed on every platform.
#ifndef FUSEC_RANDOM_H
#define FUSEC_RANDOM_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fusec {

// xoshiro256** seeded through splitmix64.
class RandomGenerator {
public:
  explicit RandomGenerator(uint64_t seed);
  // An independent stream per field name, so a field's values do not depend on which other
  // fields were drawn before it.
  static RandomGenerator for_field(uint64_t seed, const std::string &field_name);

  uint64_t next();
  double uniform(); // [0, 1) with 53 random bits
  double uniform(double low, double high);
  uint64_t below(uint64_t bound); // [0, bound), unbiased; bound > 0

private:
  uint64_t state_[4];
};

std::vector<double> random_field(RandomGenerator &rng, size_t count, double low = -1.0,
                                 double high = 1.0);
std::vector<double> random_sign(RandomGenerator &rng, size_t count);
// count/2 entries are 1, at uniformly shuffled positions.
std::vector<uint8_t> random_mask(RandomGenerator &rng, size_t count);

} // namespace fusec

#endif // FUSEC_RANDOM_H
