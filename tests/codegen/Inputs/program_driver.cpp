// Runs program `pipeline` of cpp-run-program.mlir (its emitted C++ and header are compiled with
// this file) three times on the mesh of tiny_mesh.h and prints the outputs. The exchange
// callback prints the fields it receives and copies the program's buffer, which the caller
// cannot see otherwise. Built with the emitted CUDA on the host (FUSEC_CUDA_HOST), it passes a
// non-blocking stream, as ICON does, and waits for it after each run.
#include "tiny_mesh.h"

#ifdef FUSEC_CUDA_HOST
#include <cuda_runtime.h>
#endif

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr int32_t kLevels = 3;
constexpr int32_t kCells = TinyMesh::kCells;

struct Exchanges {
  const float *callerOut = nullptr;
  std::vector<float> buffer = std::vector<float>(kCells * kLevels);
  int status = 0; // what the callback returns
};

int onExchange(const char *program, const fusec_exchange_field *fields, int32_t count,
               void * /*stream*/, void *userData) {
  Exchanges &exchanges = *static_cast<Exchanges *>(userData);
  std::printf("exchange in %s: %d fields\n", program, count);
  for (int32_t i = 0; i < count; ++i) {
    const fusec_exchange_field &field = fields[i];
    bool callers = field.data == exchanges.callerOut;
    std::printf("%s: %s, location %d, %d levels, %d neighbours, ld %lld, %s\n", field.name,
                field.type == FUSEC_F32 ? "f32" : "other", field.location, field.num_levels,
                field.num_neighbors, static_cast<long long>(field.ld),
                callers ? "the caller's array" : "a buffer");
    if (!callers)
      std::memcpy(exchanges.buffer.data(), field.data, exchanges.buffer.size() * sizeof(float));
  }
  return exchanges.status;
}

template <typename T> void print(const char *name, const T *field, int32_t levels) {
  std::printf("%-6s", name);
  for (int32_t c = 0; c < kCells; ++c) {
    std::printf("%s c%d:", c ? " |" : "", c);
    for (int32_t k = 0; k < levels; ++k)
      std::printf(" %.9g", static_cast<double>(field[c + k * kCells]));
  }
  std::printf("\n");
}

} // namespace

int main() {
  std::vector<float> a(kCells * kLevels), out(kCells * kLevels, 0.0f);
  for (int32_t c = 0; c < kCells; ++c)
    for (int32_t k = 0; k < kLevels; ++k)
      a[c + k * kCells] = static_cast<float>(c + 10 * k + 1);
  std::vector<double> w(kCells * (kLevels + 1)), prof(kLevels);
  TinyMesh mesh;
  void *stream = nullptr;
#ifdef FUSEC_CUDA_HOST
  cudaStream_t queue = nullptr;
  if (cudaStreamCreateWithFlags(&queue, cudaStreamNonBlocking) != cudaSuccess)
    return 1;
  stream = queue;
#endif
  pipeline_handle *pipeline = nullptr;
  if (pipeline_create(&mesh.mesh, kLevels, stream, &pipeline) != FUSEC_SUCCESS)
    return 1;
  Exchanges exchanges;
  exchanges.callerOut = out.data();
  pipeline_set_exchange_callback(pipeline, onExchange, &exchanges);
  auto run = [&](int number, bool up, int32_t lo, int32_t hi) {
    int status = pipeline_run(pipeline, a.data(), out.data(), w.data(), prof.data(), up, 2.0f, lo,
                              hi, kCells);
#ifdef FUSEC_CUDA_HOST
    cudaStreamSynchronize(queue);
#endif
    std::printf("run %d: %d\n", number, status);
  };

  run(1, true, 2, 3);
  print("scaled", exchanges.buffer.data(), kLevels);
  print("out", out.data(), kLevels);
  print("w", w.data(), kLevels + 1);
  std::printf("prof  ");
  for (double p : prof)
    std::printf(" %.9g", p);
  std::printf("\n");

  run(2, false, 1, 2);
  print("scaled", exchanges.buffer.data(), kLevels);
  print("out", out.data(), kLevels);

  exchanges.status = 1;
  run(3, true, 2, 3);
  pipeline_destroy(pipeline);
  return 0;
}
