// fusec-bench: the emitted code's metrics, ICON's OpenACC timers, compulsory bytes, and the
// figures of the comparison and of the whole step.
#include "GeneratedTimers.h"
#include "MemoryLimit.h"
#include "OpenAccTimers.h"
#include "Report.h"
#include "ReportTables.h"
#include "bench_parameters.h"

#include "fusec/grid_generator.h"

#include <catch2/catch.hpp>

#include <unistd.h>

using namespace fusec;
using namespace fusec::bench;

TEST_CASE("metrics of the emitted timers are read and differenced per program",
          "[bench][outputs]") {
  Result<TimerSamples> before = parseMetrics(R"({
  "p": {"metadata": {"name": "p", "kind": "program"}, "metrics": {"compute": [1.0]}},
  "p/k1": {"metadata": {"name": "k1", "kind": "kernel"}, "metrics": {"compute": [0.5]}}
})");
  REQUIRE(before);
  Result<TimerSamples> after = parseMetrics(R"({
  "p": {"metadata": {}, "metrics": {"compute": [1.0, 2.0, 3.0]}},
  "p/k1": {"metadata": {}, "metrics": {"compute": [0.5, 0.25, 0.75]}},
  "p/k2": {"metadata": {}, "metrics": {"compute": [0.125, 0.375]}},
  "pq": {"metadata": {}, "metrics": {"compute": [9.0]}},
  "q/k1": {"metadata": {}, "metrics": {"compute": [9.0]}}
})");
  REQUIRE(after);
  ProgramTimes times = newSamples(*before, *after, "p");
  CHECK(times.run == std::vector<double>{2.0, 3.0});
  REQUIRE(times.kernels.size() == 2);
  CHECK(times.kernels.at("k1") == std::vector<double>{0.25, 0.75});
  CHECK(times.kernels.at("k2") == std::vector<double>{0.125, 0.375});
  CHECK_FALSE(parseMetrics(R"({"p": {"metrics": {}}})"));
  CHECK_FALSE(parseMetrics("[1, 2]"));
}

TEST_CASE("ICON's OpenACC timers map to programs like ICON4Py's script", "[bench][outputs]") {
  CHECK(programOfOpenAccTimer("rbf_vector_interpolation_of_u_v_vert_before_nabla2") ==
        "mo_intp_rbf_rbf_vec_interpol_vertex");
  CHECK(programOfOpenAccTimer("rbf_vector_interpolation_of_u_v_vert_before_nabla4") ==
        "mo_intp_rbf_rbf_vec_interpol_vertex");
  CHECK(programOfOpenAccTimer("nh_hdiff") == "diffusion_step");
  CHECK(programOfOpenAccTimer("apply_diffusion_to_vn") == "apply_diffusion_to_vn");

  const char *text = R"({
  "nh_hdiff": {"latency": {"value": 1.2}, "latency_total": {"value": 436.0}, "num_calls": {"value": 360}},
  "nh_solve": {"latency_total": {"value": 8190.0}, "num_calls": {"value": 1800}},
  "apply_diffusion_to_vn": {"latency_total": {"value": 64.0}, "num_calls": {"value": 361}},
  "rbf_vector_interpolation_of_u_v_vert_before_nabla4": {"latency_total": {"value": 24.0}, "num_calls": {"value": 361}}
})";
  Result<OpenAccTimers> timers = parseOpenAccTimers(
      text, "acc.json",
      {"mo_intp_rbf_rbf_vec_interpol_vertex", "apply_diffusion_to_vn", "diffusion_step"});
  REQUIRE(timers);
  CHECK(timers->skipped == 1);
  REQUIRE(timers->matched.size() == 3);
  CHECK(timers->matched[0].timer == "rbf_vector_interpolation_of_u_v_vert_before_nabla4");
  CHECK(timers->matched[1].program == "apply_diffusion_to_vn");
  CHECK(timers->matched[1].millisecondsPerCall == Approx(64.0 / 361));
  CHECK(timers->matched[2].program == "diffusion_step");
  CHECK(timers->matched[2].calls == 360);

  Result<OpenAccTimers> broken =
      parseOpenAccTimers(R"({"nh_hdiff": {"latency_total": {"value": 4.0}}})", "acc.json",
                         {"diffusion_step"});
  REQUIRE_FALSE(broken);
  CHECK(broken.error() ==
        "acc.json: timer 'nh_hdiff' needs latency_total.value and num_calls.value >= 1");
}

TEST_CASE("compulsory bytes read each input once and write each output once",
          "[bench][outputs]") {
  Result<Grid> grid = make_grid("r2b1");
  REQUIRE(grid);
  auto field = [](Parameter::Intent intent, Location location, Parameter::Vertical vertical,
                  DType dtype, int32_t neighbors = 0) {
    return testing::field("", location, neighbors, vertical, dtype, intent);
  };
  ProgramSignature program;
  program.parameters = {
      field(Parameter::Intent::In, Location::Edge, Parameter::Vertical::Full, DType::Float64),
      field(Parameter::Intent::Out, Location::Cell, Parameter::Vertical::Full, DType::Float64),
      field(Parameter::Intent::InOut, Location::Vertex, Parameter::Vertical::Half, DType::Float32),
      field(Parameter::Intent::In, Location::Cell, Parameter::Vertical::None, DType::Float64, 3),
      Parameter{}, // a scalar
  };
  int32_t nlev = 5;
  uint64_t expected = uint64_t(grid->num_edges()) * nlev * 8 + uint64_t(grid->num_cells()) * nlev * 8 +
                      2 * uint64_t(grid->num_vertices()) * (nlev + 1) * 4 +
                      uint64_t(grid->num_cells()) * 3 * 8;
  CHECK(compulsoryBytes(program, *grid, nlev) == expected);
}

TEST_CASE("speed-up, bandwidth, limit and the step come from the medians", "[bench][outputs]") {
  auto timed = [](const std::string &variant, double median) {
    VariantResult result;
    result.variant = variant;
    result.samples = {median};
    result.time = summarizeTimes(result.samples);
    return result;
  };
  BenchReport report;
  report.variants = {"fuse-all", "none"};
  ProgramResult program{"p", "", "", 2'000'000, {timed("fuse-all", 0.001), timed("none", 0.002)}};
  ProgramResult step{"step", "", "", 0, {timed("fuse-all", 0.0035), timed("none", 0.004)}};
  report.programs = {program, step};
  CopyBandwidth copy;
  copy.bytesPerCopy = 8'000'000;
  copy.time = summarizeTimes({0.002, 0.001});
  report.copy = copy; // 8 GB/s
  CHECK(report.baseline() == "none");

  std::optional<VariantFigures> fused = figuresOf(report, report.programs[0], "fuse-all");
  REQUIRE(fused);
  CHECK(*fused->speedup == Approx(2.0));
  CHECK(*fused->bandwidth == Approx(2e9));
  CHECK(*fused->timeOverLimit == Approx(4.0)); // 1 ms against 2 MB at 8 GB/s = 0.25 ms

  report.step = StepStructure{"step", {{"p", 2}}, {{"copy_op", 1}}};
  std::optional<StepFigures> figures = stepFiguresOf(report, "fuse-all");
  REQUIRE(figures);
  CHECK(figures->fromPrograms == Approx(0.002));
  CHECK(figures->measured == Approx(0.0035));

  report.programs[0].variants[0].verdict = Verdict::Fail;
  CHECK_FALSE(figuresOf(report, report.programs[0], "fuse-all"));
  CHECK_FALSE(stepFiguresOf(report, "fuse-all"));
}

TEST_CASE("the host's copy arrays reach past its last-level cache", "[bench][outputs]") {
  const int64_t elements = hostCopyElements();
  CHECK(elements >= kCopyElements);
  CHECK(elements <= int64_t(1) << 28);
#ifdef _SC_LEVEL3_CACHE_SIZE
  const int64_t cache = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (cache > 0 && 4 * cache < (int64_t(1) << 31))
    CHECK(elements * int64_t(sizeof(double)) >= 4 * cache);
#endif
}

TEST_CASE("the limit is the faster of the copies before and after the programs",
          "[bench][outputs]") {
  auto copyAt = [](double seconds) {
    CopyBandwidth copy;
    copy.bytesPerCopy = 8'000'000;
    copy.time = summarizeTimes({seconds});
    return copy;
  };
  VariantResult fused;
  fused.variant = "fuse-all";
  fused.samples = {0.001};
  fused.time = summarizeTimes(fused.samples);
  BenchReport report;
  report.variants = {"fuse-all"};
  report.programs = {ProgramResult{"p", "", "", 2'000'000, {fused}}};
  CHECK_FALSE(report.limitBandwidth());
  CHECK(copyAfterText(report).empty());

  report.copy = copyAt(0.002); // 4 GB/s
  CHECK(*report.limitBandwidth() == Approx(4e9));
  CHECK_FALSE(report.copyChange());
  CHECK(copyAfterText(report).empty());

  // The machine got faster during the run: time/limit is measured against the faster copy.
  report.copyAfter = copyAt(0.001); // 8 GB/s
  CHECK(*report.limitBandwidth() == Approx(8e9));
  CHECK(*report.copyChange() == Approx(2.0));
  CHECK(*figuresOf(report, report.programs[0], "fuse-all")->timeOverLimit == Approx(4.0));
  CHECK(copyAfterText(report) ==
        "copy kernel after the programs: 8 GB/s, before them 4 GB/s; time/limit uses the "
        "faster. The machine's memory bandwidth changed by 100% during the run: a program's "
        "variants ran interleaved and compare with each other, its time/limit may not hold "
        "for the whole run");

  // Slower afterwards, within the spread of copies: the first copy stays the limit, no warning.
  report.copyAfter = copyAt(0.0021);
  CHECK(*report.limitBandwidth() == Approx(4e9));
  CHECK(copyAfterText(report) == "copy kernel after the programs: 3.81 GB/s, before them 4 GB/s; "
                                 "time/limit uses the faster");
  CHECK_FALSE(figuresOf(report, report.programs[0], "fuse-all")->timeOverStreamLimit);
  CHECK(comparisonRows(report).front().back() == "time/limit");

  // The copy with non-temporal stores: its own limit, the faster of its two runs, in a column of
  // its own beside time/limit.
  report.streamCopy = copyAt(0.001);        // 8 GB/s
  report.streamCopyAfter = copyAt(0.0005);  // 16 GB/s
  CHECK(*report.streamLimitBandwidth() == Approx(16e9));
  CHECK(*report.limitBandwidth() == Approx(4e9));
  std::optional<VariantFigures> figures = figuresOf(report, report.programs[0], "fuse-all");
  CHECK(*figures->timeOverLimit == Approx(2.0));        // 1 ms against 2 MB at 4 GB/s
  CHECK(*figures->timeOverStreamLimit == Approx(8.0));  // against 2 MB at 16 GB/s
  CHECK(copyAfterText(report) ==
        "copy kernel after the programs: 3.81 GB/s (16 with non-temporal stores), before them 4 "
        "GB/s (8 with non-temporal stores); time/limit uses the faster");
  TableRows rows = comparisonRows(report);
  CHECK(rows.front().back() == "time/nt-limit");
  CHECK(rows[1].back() == "8.00");
}
