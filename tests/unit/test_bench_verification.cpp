// fusec-bench: comparing outputs, timing summaries, list splitting.
#include "Bench.h"
#include "Timing.h"
#include "Verification.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace fusec;
using namespace fusec::bench;

namespace {

HostField edgeField(std::vector<double> values, int32_t levels) {
  FieldFormat format;
  format.location = Location::Edge;
  format.points = static_cast<int32_t>(values.size()) / levels;
  format.levels = levels;
  HostField field(format);
  for (size_t i = 0; i < values.size(); ++i)
    field.set(i, values[i]);
  return field;
}

} // namespace

TEST_CASE("identical fields pass with zero error", "[bench][verification]") {
  HostField a = edgeField({1.0, -2.0, 0.0, 4.0}, 2);
  FieldComparison c = compareFields(a, a, Tolerances::defaultFor(DType::Float64));
  CHECK(c.passed());
  CHECK(c.points == 4);
  CHECK(c.maxRelativeError == 0.0);
  CHECK(c.maxAbsoluteError == 0.0);
}

TEST_CASE("|x - ref| <= atol + rtol |ref| decides each point", "[bench][verification]") {
  HostField reference = edgeField({1.0, 100.0, 0.0, 4.0}, 2);
  // 1e-13 relative at point 1 passes rtol 1e-12; 1e-16 absolute at a zero passes atol 1e-15.
  HostField close = edgeField({1.0, 100.0 * (1 + 1e-13), 1e-16, 4.0}, 2);
  CHECK(compareFields(close, reference, {1e-12, 1e-15}).passed());
  HostField far = edgeField({1.0, 100.0, 1e-14, 4.0 * (1 + 1e-9)}, 2);
  FieldComparison c = compareFields(far, reference, {1e-12, 1e-15});
  CHECK(c.failures == 2);
  // The worst point exceeds its tolerance most: 4e-9 against 4e-12 allowed (1000x) beats
  // 1e-14 against 1e-15 at the zero (10x). Zero references do not count as relative errors.
  CHECK(c.worstIndex == 3);
  CHECK(c.worstReference == 4.0);
  CHECK(c.maxRelativeError == Approx(1e-9).epsilon(1e-6));
  CHECK(describePosition(far.format(), c.worstIndex) == "edge 1, level 1");
}

TEST_CASE("NaN equals NaN, but not a number", "[bench][verification]") {
  double nan = std::nan("");
  HostField reference = edgeField({nan, 1.0}, 1);
  CHECK(compareFields(edgeField({nan, 1.0}, 1), reference, {1e-12, 1e-15}).passed());
  FieldComparison c = compareFields(edgeField({nan, nan}, 1), reference, {1e-12, 1e-15});
  CHECK(c.failures == 1);
  CHECK(c.worstIndex == 1);
  CHECK(std::isnan(c.maxRelativeError));
}

TEST_CASE("an infinity equals the same infinity, and nothing else", "[bench][verification]") {
  double inf = HUGE_VAL;
  HostField reference = edgeField({inf, -inf, 1.0}, 1);
  CHECK(compareFields(edgeField({inf, -inf, 1.0}, 1), reference, {1e-5, 1e-6}).passed());
  FieldComparison c = compareFields(edgeField({1e300, inf, 1.0}, 1), reference, {1e-5, 1e-6});
  CHECK(c.failures == 2);
  CHECK(c.worstIndex == 0);
  CHECK(!compareFields(edgeField({std::nan(""), -inf, 1.0}, 1), reference, {1e-5, 1e-6}).passed());
}

TEST_CASE("integer fields compare exactly by default", "[bench][verification]") {
  FieldFormat format;
  format.location = Location::Cell;
  format.points = 2;
  format.neighbors = 3;
  format.levels = 2;
  format.dtype = DType::Int32;
  HostField a(format), b(format);
  b.set(7, 1.0);
  FieldComparison c = compareFields(a, b, Tolerances::defaultFor(DType::Int32));
  CHECK(c.failures == 1);
  CHECK(describePosition(format, c.worstIndex) == "cell 1, neighbour 0, level 1");
}

TEST_CASE("time summaries interpolate quantiles like numpy", "[bench][timing]") {
  TimeSummary s = summarizeTimes({4.0, 1.0, 3.0, 2.0, 5.0});
  CHECK(s.samples == 5);
  CHECK(s.min == 1.0);
  CHECK(s.median == 3.0);
  CHECK(s.firstQuartile == 2.0);
  CHECK(s.thirdQuartile == 4.0);
  TimeSummary even = summarizeTimes({1.0, 2.0, 3.0, 4.0});
  CHECK(even.median == 2.5);
  CHECK(even.interquartileRange() == Approx(1.5));
  CHECK(summarizeTimes({}).samples == 0);
}

TEST_CASE("lists split at commas outside braces", "[bench][options]") {
  CHECK(splitList("none,fuse-all") == std::vector<std::string>{"none", "fuse-all"});
  CHECK(splitList("stn-k-blocking{block=4},stn-map-fusion{recompute=true bytes-weight=8}") ==
        std::vector<std::string>{"stn-k-blocking{block=4}",
                                 "stn-map-fusion{recompute=true bytes-weight=8}"});
  CHECK(splitList(" all ") == std::vector<std::string>{"all"});
  CHECK(splitList("a,") == std::vector<std::string>{"a", ""});
}
