// Runs program `steep_update` of point-lists.stn (its emitted code and header are compiled with
// this file) on the mesh of tiny_mesh.h with nlev = 3, theta[c, k] = c + 10 k + 1,
// weight[c, j] = j + 1 and coef[c] = c + 1: `base` over all cells, then `corr` at the entries
// (2, 0), (0, 2), (1, 1), (2, 2) of the point list, which lie in both blocks of the blocked
// layout. Cell fields are padded (ld 5, NaN padding), or with `blocked NPROMA` in ICON's blocked
// layout. Prints z and whether the padding stayed NaN, verifies the run with P_run_and_verify,
// and runs with an empty list and with invalid ones.
// Built with the emitted CUDA on the host (FUSEC_CUDA_HOST), the lists and fields are in device
// memory, which ends at a guard page: a read past a list's count faults.
//
//   point_list_driver [blocked NPROMA]
#include "tiny_mesh.h"

#ifdef FUSEC_CUDA_HOST
#include <cuda_runtime.h>
#endif

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int32_t kLevels = 3;
constexpr int32_t kCells = TinyMesh::kCells;
constexpr int32_t kNeighbors = 3;

/// Where element (c, n, k) of a cell field with `slots` neighbour slots and `levels` levels lies:
/// flat with ld 5, or blocked with nproma points per block.
struct CellLayout {
  int64_t nproma = 0;

  int64_t ld() const { return nproma > 0 ? nproma : 5; }
  int64_t blocks() const { return nproma > 0 ? (kCells + nproma - 1) / nproma : 1; }
  size_t size(int32_t slots, int32_t levels) const {
    return static_cast<size_t>(ld() * blocks() * slots * levels);
  }
  size_t at(int64_t c, int64_t n, int64_t k, int32_t slots, int32_t levels) const {
    return static_cast<size_t>(c % ld() + ld() * (n + slots * (k + levels * (c / ld()))));
  }
};

/// The caller's copy of an array where the program reads it: the host array for the C++
/// backend, a copy in device memory for the CUDA one.
template <typename T> class Argument {
public:
  explicit Argument(const std::vector<T> &host) : host(host) {
#ifdef FUSEC_CUDA_HOST
    if (cudaMalloc(&device, bytes()) != cudaSuccess)
      std::abort();
    upload();
#endif
  }
  ~Argument() {
#ifdef FUSEC_CUDA_HOST
    cudaFree(device);
#endif
  }
  Argument(const Argument &) = delete;
  Argument &operator=(const Argument &) = delete;

  T *data() {
#ifdef FUSEC_CUDA_HOST
    return device;
#else
    return host.data();
#endif
  }
  /// The program's results, after the run.
  const std::vector<T> &read() {
#ifdef FUSEC_CUDA_HOST
    cudaDeviceSynchronize();
    cudaMemcpy(host.data(), device, bytes(), cudaMemcpyDeviceToHost);
#endif
    return host;
  }
  void assign(const std::vector<T> &values) {
    host = values;
#ifdef FUSEC_CUDA_HOST
    upload();
#endif
  }

private:
  size_t bytes() const { return host.size() * sizeof(T); }
#ifdef FUSEC_CUDA_HOST
  void upload() { cudaMemcpy(device, host.data(), bytes(), cudaMemcpyHostToDevice); }
  T *device = nullptr;
#endif
  std::vector<T> host;
};

void print(const char *what, const std::vector<double> &z, const CellLayout &cells) {
  std::printf("%-8s", what);
  for (int32_t c = 0; c < kCells; ++c) {
    std::printf("%s c%d:", c ? " |" : "", c);
    for (int32_t k = 0; k < kLevels; ++k)
      std::printf(" %g", z[cells.at(c, 0, k, 1, kLevels)]);
  }
  size_t written = 0;
  for (double value : z)
    written += !std::isnan(value);
  std::printf(" | padding %s\n", written == kCells * kLevels ? "NaN" : "WRITTEN");
}

} // namespace

int main(int argc, char **argv) {
  CellLayout cells;
  if (argc == 3 && std::string(argv[1]) == "blocked")
    cells.nproma = std::atoi(argv[2]);
  else if (argc != 1)
    return 2;
  std::vector<double> theta(cells.size(1, kLevels), NAN), weight(cells.size(kNeighbors, 1), NAN),
      coef(cells.size(1, 1), NAN), zStart(cells.size(1, kLevels), NAN);
  for (int32_t c = 0; c < kCells; ++c) {
    for (int32_t k = 0; k < kLevels; ++k) {
      theta[cells.at(c, 0, k, 1, kLevels)] = c + 10 * k + 1;
      zStart[cells.at(c, 0, k, 1, kLevels)] = 0.0;
    }
    for (int32_t j = 0; j < kNeighbors; ++j)
      weight[cells.at(c, j, 0, kNeighbors, 1)] = j + 1;
    coef[cells.at(c, 0, 0, 1, 1)] = c + 1;
  }
  Argument<double> thetaArg(theta), weightArg(weight), coefArg(coef), z(zStart), zBefore(zStart);
  Argument<int32_t> steepCell({2, 0, 1, 2}), steepLevel({0, 2, 1, 2});
  const int32_t count = 4;

  TinyMesh mesh;
  fusec_layout layout = {{cells.nproma > 0 ? 0 : cells.ld(), 0, 0}, cells.nproma};
  steep_update_handle *handle = nullptr;
  std::printf("create: %d\n",
              steep_update_create_with_layout(&mesh.mesh, kLevels, &layout, nullptr, &handle));
  auto run = [&](const char *what, int32_t entries, const int32_t *cell, const int32_t *level,
                 int32_t hi) {
    z.assign(zStart);
    int status = steep_update_run(handle, entries, cell, level, thetaArg.data(), weightArg.data(),
                                  coefArg.data(), z.data(), 0, hi);
    std::printf("%s: %d\n", what, status);
    print("z", z.read(), cells);
  };
  run("run", count, steepCell.data(), steepLevel.data(), kCells);
  std::printf("verify: %d\n",
              steep_update_run_and_verify(handle, count, steepCell.data(), steepLevel.data(),
                                          thetaArg.data(), weightArg.data(), coefArg.data(),
                                          z.data(), 0, kCells, zBefore.data(), nullptr));
  run("empty list", 0, nullptr, nullptr, kCells);
  run("empty list and range", 0, nullptr, nullptr, 0);
  run("negative count", -1, steepCell.data(), steepLevel.data(), kCells);
  run("no cells", count, nullptr, steepLevel.data(), kCells);
  run("no levels", count, steepCell.data(), nullptr, kCells);
  steep_update_destroy(handle);
  return 0;
}
