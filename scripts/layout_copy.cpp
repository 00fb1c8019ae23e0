// The blocked layout's own cost, without fusec: ICON-order hand-written copies
// b = 2 * a of a cell field over a range of levels, flat `f[h + k*n]` (levels,
// then points) against blocked `f(nproma, nlev, nblks)` (DO jb / DO jk / DO jc),
// OpenMP over the outer loops, caches evicted before every run. scripts/bench_blocked_layout.py
// compiles and runs it (--copy-baseline); docs/bench.md shows the figures.
//
//   layout_copy POINTS NLEV K_BEGIN K_END NPROMA RUNS EVICT_MIB
//
// Prints one line: "flat_us blocked_us" (medians).

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

template <class Copy>
double time_runs(Copy copy, int runs, std::vector<uint8_t> &eviction) {
  std::vector<double> seconds;
  for (int run = 0; run < runs; ++run) {
    volatile uint8_t *bytes = eviction.data();
    for (size_t i = 0; i < eviction.size(); i += 64)
      bytes[i] = bytes[i] + 1;
    auto start = std::chrono::steady_clock::now();
    copy();
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return median(seconds) * 1e6;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: layout_copy POINTS NLEV K_BEGIN K_END NPROMA RUNS EVICT_MIB\n");
    return 1;
  }
  const int64_t points = std::atoll(argv[1]), nlev = std::atoll(argv[2]);
  const int64_t k_begin = std::atoll(argv[3]), k_end = std::atoll(argv[4]);
  const int64_t nproma = std::atoll(argv[5]);
  const int runs = std::atoi(argv[6]);
  std::vector<uint8_t> eviction(size_t(std::atoll(argv[7])) << 20);
  const int64_t blocks = (points + nproma - 1) / nproma;
  const size_t elements = size_t(std::max(points, blocks * nproma) * nlev);
  std::vector<double> a(elements), b(elements);
  for (size_t i = 0; i < elements; ++i)
    a[i] = double(i % 1000);

  // Flat: fusec's flat work items, (level, 128 points) pairs shared by the threads.
  const int64_t h_blocks = (points + 127) / 128;
  double flat = time_runs(
      [&] {
#pragma omp parallel for collapse(2) schedule(static)
        for (int64_t k = k_begin; k < k_end; ++k)
          for (int64_t h_block = 0; h_block < h_blocks; ++h_block)
            for (int64_t h = h_block * 128; h < std::min(points, h_block * 128 + 128); ++h)
              b[h + k * points] = 2.0 * a[h + k * points];
      },
      runs, eviction);
  double blocked = time_runs(
      [&] {
#pragma omp parallel for schedule(static)
        for (int64_t jb = 0; jb < blocks; ++jb)
          for (int64_t k = k_begin; k < k_end; ++k)
            for (int64_t jc = 0; jc < std::min(nproma, points - jb * nproma); ++jc)
              b[jc + nproma * (k + nlev * jb)] = 2.0 * a[jc + nproma * (k + nlev * jb)];
      },
      runs, eviction);
  std::printf("%.3f %.3f\n", flat, blocked);
  return b[elements / 2] == -1.0; // keeps the copies
}
