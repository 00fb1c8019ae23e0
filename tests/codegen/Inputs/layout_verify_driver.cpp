// Runs program `pipeline` of cpp-run-program.mlir on the mesh of tiny_mesh.h with nlev = 3 and
// a padded layout (cell fields with ld = 5, the padding NaN), or with `blocked NPROMA` ICON's
// blocked layout (3 cells in blocks of NPROMA, the last one padded with NaN), then verifies its
// results with P_run_and_verify (correct, corrupted, within caller tolerances) and times one
// run. Prints what the exchange and verification callbacks receive, the outputs and the padding.
//
//   layout_verify_driver METRICS.json [blocked NPROMA]
#include "tiny_mesh.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int32_t kLevels = 3;
constexpr int32_t kCells = TinyMesh::kCells;

/// Where cell field elements lie: flat with ld 5, or blocked with nproma points per block.
struct CellLayout {
  int64_t nproma = 0;

  int64_t ld() const { return nproma > 0 ? nproma : 5; }
  int64_t blocks() const { return nproma > 0 ? (kCells + nproma - 1) / nproma : 1; }
  size_t size(int32_t levels) const { return static_cast<size_t>(ld() * blocks() * levels); }
  size_t at(int64_t c, int64_t k, int32_t levels) const {
    return static_cast<size_t>(c % ld() + ld() * (k + levels * (c / ld())));
  }
  /// Whether element `index` is padding (no cell's).
  bool padding(size_t index, int32_t levels) const {
    for (int32_t c = 0; c < kCells; ++c)
      for (int32_t k = 0; k < levels; ++k)
        if (at(c, k, levels) == index)
          return false;
    return true;
  }
};

int onExchange(const char *, const fusec_exchange_field *fields, int32_t count, void *, void *) {
  for (int32_t i = 0; i < count; ++i)
    std::printf("exchange %s: ld %lld, %d levels, %d blocks\n", fields[i].name,
                static_cast<long long>(fields[i].ld), fields[i].num_levels, fields[i].num_blocks);
  return 0;
}

void onCheck(const fusec_field_check *check, void *) {
  std::printf("check %s.%s: %lld of %lld differ (rtol %g, atol %g)", check->program, check->field,
              static_cast<long long>(check->num_failures),
              static_cast<long long>(check->num_values), check->tolerances.rtol,
              check->tolerances.atol);
  if (check->num_failures > 0)
    std::printf(", worst at point %d, level %d: %.9g, reference %.9g", check->worst_point,
                check->worst_level, check->worst_value, check->worst_reference);
  std::printf("\n");
}

template <typename T>
void print(const char *name, const std::vector<T> &field, int32_t levels, const CellLayout &cells) {
  std::printf("%-6s", name);
  for (int32_t c = 0; c < kCells; ++c) {
    std::printf("%s c%d:", c ? " |" : "", c);
    for (int32_t k = 0; k < levels; ++k)
      std::printf(" %.9g", static_cast<double>(field[cells.at(c, k, levels)]));
  }
  bool padding = true;
  for (size_t i = 0; i < field.size(); ++i)
    if (cells.padding(i, levels))
      padding = padding && std::isnan(static_cast<double>(field[i]));
  std::printf(" | padding %s\n", padding ? "NaN" : "WRITTEN");
}

} // namespace

int main(int argc, char **argv) {
  CellLayout cells;
  if (argc == 4 && std::string(argv[2]) == "blocked")
    cells.nproma = std::atoi(argv[3]);
  else if (argc != 2)
    return 2;
  std::vector<float> a(cells.size(kLevels), NAN), out(cells.size(kLevels), NAN);
  std::vector<double> w(cells.size(kLevels + 1), NAN), prof(kLevels, 0.0);
  for (int32_t c = 0; c < kCells; ++c)
    for (int32_t k = 0; k < kLevels; ++k) {
      a[cells.at(c, k, kLevels)] = static_cast<float>(c + 10 * k + 1);
      out[cells.at(c, k, kLevels)] = 0.0f;
    }
  for (int32_t c = 0; c < kCells; ++c)
    for (int32_t k = 0; k <= kLevels; ++k)
      w[cells.at(c, k, kLevels + 1)] = 0.0;
  TinyMesh mesh;
  pipeline_handle *pipeline = nullptr;
  if (cells.nproma > 0) {
    // The blocked layout takes ld 0 or nproma.
    fusec_layout mismatched = {{cells.nproma + 1, 0, 0}, cells.nproma};
    std::printf("create with ld != nproma: %d\n",
                pipeline_create_with_layout(&mesh.mesh, kLevels, &mismatched, nullptr, &pipeline));
  }
  fusec_layout layout = {{cells.nproma > 0 ? 0 : cells.ld(), 0, 0}, cells.nproma};
  int created = pipeline_create_with_layout(&mesh.mesh, kLevels, &layout, nullptr, &pipeline);
  std::printf("create: %d\n", created);
  if (created != 0)
    return 1;
  pipeline_set_exchange_callback(pipeline, onExchange, nullptr);
  std::vector<float> outBefore = out;
  std::vector<double> wBefore = w, profBefore = prof;
  std::printf("run: %d\n", pipeline_run(pipeline, a.data(), out.data(), w.data(), prof.data(), true,
                                        2.0f, 2, 3, kCells));
  print("out", out, kLevels, cells);
  print("w", w, kLevels + 1, cells);

  pipeline_set_verification_callback(pipeline, onCheck, nullptr);
  auto verify = [&](const char *what, const fusec_tolerances *tolerances) {
    int status = pipeline_run_and_verify(pipeline, a.data(), out.data(), w.data(), prof.data(),
                                         true, 2.0f, 2, 3, kCells, outBefore.data(),
                                         wBefore.data(), profBefore.data(), tolerances);
    std::printf("verify %s: %d\n", what, status);
  };
  verify("correct", nullptr);
  out[cells.at(1, 2, kLevels)] *= 1.001f;
  prof[1] += 1e-6;
  verify("corrupted", nullptr);
  const fusec_tolerances loose[] = {{1e-2, -1.0}, {-1.0, -1.0}, {-1.0, 1e-5}};
  verify("loose", loose);

  pipeline_enable_timers(pipeline, 1);
  pipeline_run(pipeline, a.data(), out.data(), w.data(), prof.data(), false, 2.0f, 1, 2, kCells);
  pipeline_enable_timers(pipeline, 0);
  std::printf("metrics: %d\n", pipeline_write_metrics(pipeline, argv[1]));
  pipeline_destroy(pipeline);
  std::printf("null handle: %d\n",
              pipeline_run_and_verify(nullptr, a.data(), out.data(), w.data(), prof.data(), true,
                                      2.0f, 2, 3, kCells, outBefore.data(), wBefore.data(),
                                      profBefore.data(), nullptr));
  return 0;
}
