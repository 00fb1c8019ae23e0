// fusec::wavefront::Plan: every point of every stage runs exactly once and after all it waits
// for (checked by replaying the plan's phases and barriers against each dependence's
// definition), on ICON grids with diffusion's RBF -> nabla2 -> diagnostics -> RBF -> vn group and
// on random groups; the executor on an OpenMP team gives the results of program order.
#include "fusec/wavefront.h"
#include "grid_named.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

using namespace fusec;
using fusec::testing::grid_named;
using wavefront::Dependence;
using wavefront::Domain;
using wavefront::Order;

namespace {

struct Group {
  std::vector<Domain> domains;
  std::vector<Dependence> dependences;
};

// When each point runs: its thread, the epoch between two barriers, and its place in the
// thread's order. Replays Plan::execute's barriers.
struct Slot {
  int32_t thread = -1, epoch = -1;
  int64_t order = -1;
};

void checkPlan(const wavefront::Plan &plan, const Group &group) {
  const int32_t stages = static_cast<int32_t>(group.domains.size());
  std::vector<std::vector<Slot>> slots(stages);
  for (int32_t s = 0; s < stages; ++s)
    slots[s].resize(group.domains[s].end - group.domains[s].begin);
  for (int32_t t = 0; t < plan.threads(); ++t) {
    int64_t order = 0;
    int32_t epoch = 0;
    auto place = [&](const wavefront::Step &step) {
      REQUIRE(step.begin >= group.domains[step.stage].begin);
      REQUIRE(step.end <= group.domains[step.stage].end);
      REQUIRE(step.begin < step.end);
      for (int32_t p = step.begin; p < step.end; ++p) {
        Slot &slot = slots[step.stage][p - group.domains[step.stage].begin];
        REQUIRE(slot.thread == -1); // runs once
        slot = Slot{t, epoch, order++};
      }
    };
    size_t next = 0;
    const std::vector<wavefront::Step> &shared = plan.shared(t), &rest = plan.rest(t);
    for (int32_t s = 0; s < stages; ++s) {
      for (; next < shared.size() && shared[next].stage == s; ++next)
        place(shared[next]);
      if (plan.counts()[s].shared > 0)
        ++epoch;
    }
    for (const wavefront::Step &step : plan.tiles(t))
      place(step);
    next = 0;
    for (int32_t s = 0; s < stages; ++s) {
      if (plan.counts()[s].rest == 0)
        continue;
      ++epoch;
      for (; next < rest.size() && rest[next].stage == s; ++next)
        place(rest[next]);
    }
    REQUIRE(next == rest.size());
  }
  auto inside = [&](int32_t stage, int32_t p) {
    return p >= group.domains[stage].begin && p < group.domains[stage].end;
  };
  auto slot = [&](int32_t stage, int32_t p) -> const Slot & {
    return slots[stage][p - group.domains[stage].begin];
  };
  for (int32_t s = 0; s < stages; ++s)
    for (int32_t q = group.domains[s].begin; q < group.domains[s].end; ++q)
      REQUIRE(slot(s, q).thread >= 0); // runs at all
  // Point q of stage `dep.stage` waits for point p of stage `dep.on`, straight from the
  // definitions of the orders.
  auto check = [&](const Dependence &dep, int32_t q, int32_t p) {
    if (!inside(dep.stage, q) || !inside(dep.on, p))
      return;
    const Slot &mine = slot(dep.stage, q), &theirs = slot(dep.on, p);
    const bool before = theirs.epoch < mine.epoch ||
                        (theirs.thread == mine.thread && theirs.order < mine.order);
    INFO("stage " << dep.stage << " point " << q << " waits for stage " << dep.on << " point "
                  << p);
    REQUIRE(before);
  };
  for (const Dependence &dep : group.dependences) {
    if (dep.order == Order::Same)
      for (int32_t q = group.domains[dep.stage].begin; q < group.domains[dep.stage].end; ++q)
        check(dep, q, q);
    if (dep.order == Order::Gather)
      for (int32_t q = group.domains[dep.stage].begin; q < group.domains[dep.stage].end; ++q)
        for (int32_t n = 0; n < dep.neighbors; ++n)
          check(dep, q, dep.table[q + n * dep.ld]);
    if (dep.order == Order::Scatter)
      for (int32_t p = group.domains[dep.on].begin; p < group.domains[dep.on].end; ++p)
        for (int32_t n = 0; n < dep.neighbors; ++n)
          check(dep, dep.table[p + n * dep.ld], p);
  }
}

// diffusion_step's RBF#1 (vertices) -> nabla2/Smagorinsky (edges, E2C2V) -> diagnostics (cells,
// C2E) -> RBF#2 (vertices, V2E) -> vn's update (edges, E2C2V and the same edge), which
// overwrites the vn that RBF#1 read through V2E and the diagnostics through C2E.
Group diffusionGroup(const Grid &grid) {
  const Table &e2c2v = grid.table(Connectivity::E2C2V), &c2e = grid.table(Connectivity::C2E),
              &v2e = grid.table(Connectivity::V2E);
  const Domain vertices{0, grid.num_vertices()}, edges{0, grid.num_edges()},
      cells{0, grid.num_cells()};
  return Group{{vertices, edges, cells, vertices, edges},
               {{1, 0, Order::Gather, e2c2v.data.data(), e2c2v.rows, e2c2v.cols},
                {2, 1, Order::Gather, c2e.data.data(), c2e.rows, c2e.cols},
                {3, 1, Order::Gather, v2e.data.data(), v2e.rows, v2e.cols},
                {4, 3, Order::Gather, e2c2v.data.data(), e2c2v.rows, e2c2v.cols},
                {4, 1, Order::Same, nullptr, 0, 0},
                {4, 0, Order::Scatter, v2e.data.data(), v2e.rows, v2e.cols},
                {4, 2, Order::Scatter, c2e.data.data(), c2e.rows, c2e.cols}}};
}

} // namespace

TEST_CASE("wavefront plans of diffusion's vn group run every point once, after what it waits for") {
  for (const char *name : {"r2b2", "lam-r2b3"}) {
    const Group group = diffusionGroup(grid_named(name));
    for (int32_t threads : {1, 2, 3, 7})
      for (int32_t tile : {1, 16, 1000}) {
        INFO(name << ", " << threads << " threads, tiles of " << tile);
        wavefront::Plan plan;
        REQUIRE(plan.build(group.domains.data(), 5, group.dependences.data(), 7, threads, tile) ==
                FUSEC_SUCCESS);
        REQUIRE(plan.built_for(group.domains.data(), 5, threads));
        checkPlan(plan, group);
        // Every edge and cell is some vn edge's neighbour: nothing is left for after the tiles.
        for (const wavefront::StageCounts &counts : plan.counts())
          CHECK(counts.rest == 0);
        if (threads == 1)
          for (const wavefront::StageCounts &counts : plan.counts())
            CHECK(counts.shared == 0);
      }
  }
}

TEST_CASE("on ICON's ordering few points are shared between two threads' parts") {
  // What makes the schedule pay: the points two threads need run before the tiles, between
  // barriers, out of cache order. ICON orders points so that neighbours are near.
  const Group group = diffusionGroup(grid_named("r2b4"));
  wavefront::Plan plan;
  REQUIRE(plan.build(group.domains.data(), 5, group.dependences.data(), 7, 2, 1024) ==
          FUSEC_SUCCESS);
  checkPlan(plan, group);
  for (int32_t s = 0; s < 5; ++s) {
    const wavefront::StageCounts &counts = plan.counts()[s];
    INFO("stage " << s << ": " << counts.shared << " shared, " << counts.tiled << " tiled");
    CHECK(counts.shared * 5 < counts.tiled);
  }
}

TEST_CASE("wavefront plans of random groups run every point once, after what it waits for") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::uniform_int_distribution<int32_t> stageCount(1, 5), pointCount(0, 60), order(0, 2),
        neighbors(1, 4);
    const int32_t stages = stageCount(rng), points = 60;
    Group group;
    for (int32_t s = 0; s < stages; ++s) {
      int32_t a = pointCount(rng), b = pointCount(rng);
      group.domains.push_back(Domain{std::min(a, b), std::max(a, b)});
    }
    // Tables over all 60 rows, entries anywhere in [-1, 60): also outside the waited domain.
    std::vector<std::vector<int32_t>> tables;
    std::uniform_int_distribution<int32_t> entry(-1, points - 1), depCount(0, 6);
    const int32_t count = stages > 1 ? depCount(rng) : 0;
    tables.reserve(count);
    for (int32_t d = 0; d < count; ++d) {
      std::uniform_int_distribution<int32_t> waiting(1, stages - 1);
      const int32_t s = waiting(rng);
      std::uniform_int_distribution<int32_t> waited(0, s - 1);
      const Order o = static_cast<Order>(order(rng));
      const int32_t n = neighbors(rng);
      tables.emplace_back(static_cast<size_t>(points) * n);
      for (int32_t &e : tables.back())
        e = entry(rng);
      group.dependences.push_back(Dependence{s, waited(rng), o,
                                             o == Order::Same ? nullptr : tables.back().data(),
                                             points, o == Order::Same ? 0 : n});
    }
    for (int32_t threads : {1, 2, 5})
      for (int32_t tile : {1, 7}) {
        INFO("trial " << trial << ", " << threads << " threads, tiles of " << tile);
        wavefront::Plan plan;
        REQUIRE(plan.build(group.domains.data(), stages, group.dependences.data(), count, threads,
                           tile) == FUSEC_SUCCESS);
        checkPlan(plan, group);
      }
  }
}

TEST_CASE("a wavefront plan run by an OpenMP team computes what program order computes") {
  // Each stage writes value[s][q] = q + (sum of what q gathers) and reads, for the vn update's
  // Scatter waits, the old value of what it overwrites; any point run too early or twice changes
  // the sums.
  const Grid &grid = grid_named("r2b3");
  const Group group = diffusionGroup(grid);
  auto runStage = [&](std::vector<std::vector<double>> &value, int32_t s, int32_t begin,
                      int32_t end) {
    for (int32_t q = begin; q < end; ++q) {
      double sum = q;
      for (const Dependence &dep : group.dependences) {
        if (dep.stage != s || dep.order == Order::Scatter)
          continue;
        if (dep.order == Order::Same)
          sum += 0.5 * value[dep.on][q];
        else
          for (int32_t n = 0; n < dep.neighbors; ++n)
            if (dep.table[q + n * dep.ld] >= 0)
              sum += 0.25 * value[dep.on][dep.table[q + n * dep.ld]];
      }
      value[s][q] = sum;
    }
    // RBF#1 reads vn (stage 4's field) through V2E, the diagnostics through C2E: in the test,
    // stage 0 and 2 add the stage-4 values they gather, which must still be the old ones.
    if (s == 0 || s == 2) {
      const Dependence &scatter = group.dependences[s == 0 ? 5 : 6];
      for (int32_t p = begin; p < end; ++p)
        for (int32_t n = 0; n < scatter.neighbors; ++n)
          if (scatter.table[p + n * scatter.ld] >= 0)
            value[s][p] += 0.125 * value[4][scatter.table[p + n * scatter.ld]];
    }
  };
  auto initial = [&] {
    std::vector<std::vector<double>> value(5);
    for (int32_t s = 0; s < 5; ++s)
      value[s].assign(group.domains[s].end, 1.0 + s);
    return value;
  };
  std::vector<std::vector<double>> expected = initial();
  for (int32_t s = 0; s < 5; ++s)
    runStage(expected, s, group.domains[s].begin, group.domains[s].end);

  for (int32_t threads : {1, 2, 4})
    for (int32_t tile : {8, 256}) {
      wavefront::Plan plan;
      REQUIRE(plan.build(group.domains.data(), 5, group.dependences.data(), 7, threads, tile) ==
              FUSEC_SUCCESS);
      std::vector<std::vector<double>> value = initial();
#pragma omp parallel num_threads(threads)
      {
        // The runtime may give fewer threads than asked for: then there is nothing to check.
#pragma omp single
        if (omp_get_num_threads() != threads)
          plan = wavefront::Plan();
        if (plan.threads() == threads)
          plan.execute(omp_get_thread_num(), [&](int32_t s, int32_t begin, int32_t end) {
            runStage(value, s, begin, end);
          });
      }
      if (plan.threads() != threads)
        continue;
      INFO(threads << " threads, tiles of " << tile);
      for (int32_t s = 0; s < 5; ++s)
        REQUIRE(value[s] == expected[s]);
    }
}

TEST_CASE("wavefront plans reject dependences that do not point backwards") {
  const Domain domains[2] = {{0, 10}, {0, 10}};
  wavefront::Plan plan;
  const Dependence forward{0, 1, Order::Same, nullptr, 0, 0};
  CHECK(plan.build(domains, 2, &forward, 1, 2, 4) == FUSEC_ERROR_INVALID_ARGUMENT);
  const Dependence self{1, 1, Order::Same, nullptr, 0, 0};
  CHECK(plan.build(domains, 2, &self, 1, 2, 4) == FUSEC_ERROR_INVALID_ARGUMENT);
  const Dependence noTable{1, 0, Order::Gather, nullptr, 10, 2};
  CHECK(plan.build(domains, 2, &noTable, 1, 2, 4) == FUSEC_ERROR_INVALID_ARGUMENT);
  const Dependence same{1, 0, Order::Same, nullptr, 0, 0};
  CHECK(plan.build(domains, 2, &same, 1, 2, 0) == FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(plan.build(domains, 2, &same, 1, 0, 4) == FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(plan.build(domains, 2, &same, 1, 2, 4) == FUSEC_SUCCESS);
}
