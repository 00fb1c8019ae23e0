// Runs program `missing` of cpp-run-missing-neighbours.mlir (its emitted C++ and header are
// compiled with this file) on the mesh of tiny_mesh.h and prints its status codes and outputs.
#include "tiny_mesh.h"

#include <cstdio>
#include <vector>

namespace {

constexpr int32_t kLevels = 2;

void printLevels(const char *name, const std::vector<double> &field, int32_t points, char prefix) {
  std::printf("%-6s", name);
  for (int32_t h = 0; h < points; ++h) {
    std::printf("%s %c%d:", h ? " |" : "", prefix, h);
    for (int32_t k = 0; k < kLevels; ++k)
      std::printf(" %.17g", field[h + k * points]);
  }
  std::printf("\n");
}

template <typename T> void printFlat(const char *name, const std::vector<T> &field) {
  std::printf("%-6s", name);
  for (int32_t c = 0; c < TinyMesh::kCells; ++c)
    std::printf("%s c%d: %d", c ? " |" : "", c, static_cast<int>(field[c]));
  std::printf("\n");
}

} // namespace

int main() {
  const int32_t cells = TinyMesh::kCells, edges = TinyMesh::kEdges;
  std::vector<double> vn(edges * kLevels), geofac(cells * 3);
  for (int32_t e = 0; e < edges; ++e)
    for (int32_t k = 0; k < kLevels; ++k)
      vn[e + k * edges] = 10.0 * (e + 1) + k;
  for (int32_t c = 0; c < cells; ++c)
    for (int32_t j = 0; j < 3; ++j)
      geofac[c + j * cells] = (j + 1.0) * (c + 1.0);
  std::vector<double> div(cells * kLevels), vmax(cells * kLevels), far(cells * kLevels),
      around(cells * kLevels), avg(edges * kLevels, -1.0);
  std::vector<int32_t> count(cells), idx(cells);
  std::vector<unsigned char> okBytes(cells);
  bool *ok = reinterpret_cast<bool *>(okBytes.data());
  missing_handle *instance = nullptr;
  auto run = [&](int32_t numCells) {
    return missing_run(instance, vn.data(), geofac.data(), div.data(), vmax.data(), far.data(),
                       around.data(), avg.data(), count.data(), idx.data(), ok, numCells, edges);
  };

  std::printf("run without an instance: %d\n", run(cells));
  TinyMesh incomplete("C2E2C");
  int status = missing_create(&incomplete.mesh, kLevels, nullptr, &instance);
  std::printf("create without C2E2C: %d (%s), instance %s\n", status,
              missing_error_message(status), instance == nullptr ? "null" : "set");
  TinyMesh mesh;
  std::printf("create: %d\n", missing_create(&mesh.mesh, kLevels, nullptr, &instance));
  std::printf("run on 4 of 3 cells: %d\n", run(cells + 1));
  std::printf("run: %d\n", run(cells));

  printLevels("div", div, cells, 'c');
  printLevels("vmax", vmax, cells, 'c');
  printFlat("count", count);
  printFlat("idx", idx);
  printFlat("ok", std::vector<int>(ok, ok + cells));
  printLevels("far", far, cells, 'c');
  printLevels("around", around, cells, 'c');
  printLevels("avg", avg, edges, 'e');
  missing_destroy(instance);
  return 0;
}
