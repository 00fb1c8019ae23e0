// Runs program `pipeline` of cpp-run-program.mlir on the mesh of tiny_mesh.h with nlev = 3 and
// a padded layout (cell fields with ld = 5, the padding NaN), then verifies its results with
// P_run_and_verify (correct, corrupted, within caller tolerances) and times one run. Prints
// what the exchange and verification callbacks receive, the outputs and the padding.
#include "tiny_mesh.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

constexpr int32_t kLevels = 3;
constexpr int32_t kCells = TinyMesh::kCells;
constexpr int64_t kLd = 5;

int onExchange(const char *, const fusec_exchange_field *fields, int32_t count, void *, void *) {
  for (int32_t i = 0; i < count; ++i)
    std::printf("exchange %s: ld %lld, %d levels\n", fields[i].name,
                static_cast<long long>(fields[i].ld), fields[i].num_levels);
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

template <typename T> void print(const char *name, const std::vector<T> &field, int32_t levels) {
  std::printf("%-6s", name);
  for (int32_t c = 0; c < kCells; ++c) {
    std::printf("%s c%d:", c ? " |" : "", c);
    for (int32_t k = 0; k < levels; ++k)
      std::printf(" %.9g", static_cast<double>(field[c + k * kLd]));
  }
  bool padding = true;
  for (int32_t k = 0; k < levels; ++k)
    for (int64_t h = kCells; h < kLd; ++h)
      padding = padding && std::isnan(static_cast<double>(field[h + k * kLd]));
  std::printf(" | padding %s\n", padding ? "NaN" : "WRITTEN");
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  std::vector<float> a(kLd * kLevels, NAN), out(kLd * kLevels, NAN);
  std::vector<double> w(kLd * (kLevels + 1), NAN), prof(kLevels, 0.0);
  for (int32_t c = 0; c < kCells; ++c)
    for (int32_t k = 0; k < kLevels; ++k) {
      a[c + k * kLd] = static_cast<float>(c + 10 * k + 1);
      out[c + k * kLd] = 0.0f;
    }
  for (int32_t c = 0; c < kCells; ++c)
    for (int32_t k = 0; k <= kLevels; ++k)
      w[c + k * kLd] = 0.0;
  TinyMesh mesh;
  fusec_layout layout = {{kLd, 0, 0}};
  pipeline_handle *pipeline = nullptr;
  std::printf("create: %d\n",
              pipeline_create_with_layout(&mesh.mesh, kLevels, &layout, nullptr, &pipeline));
  pipeline_set_exchange_callback(pipeline, onExchange, nullptr);
  std::vector<float> outBefore = out;
  std::vector<double> wBefore = w, profBefore = prof;
  std::printf("run: %d\n", pipeline_run(pipeline, a.data(), out.data(), w.data(), prof.data(), true,
                                        2.0f, 2, 3, kCells));
  print("out", out, kLevels);
  print("w", w, kLevels + 1);

  pipeline_set_verification_callback(pipeline, onCheck, nullptr);
  auto verify = [&](const char *what, const fusec_tolerances *tolerances) {
    int status = pipeline_run_and_verify(pipeline, a.data(), out.data(), w.data(), prof.data(),
                                         true, 2.0f, 2, 3, kCells, outBefore.data(),
                                         wBefore.data(), profBefore.data(), tolerances);
    std::printf("verify %s: %d\n", what, status);
  };
  verify("correct", nullptr);
  out[1 + 2 * kLd] *= 1.001f;
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
