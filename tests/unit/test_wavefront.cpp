// fusec::wavefront::Plan: every point of every stage runs exactly once and after all it waits
// for (checked by replaying the plan's phases and barriers against each dependence's
// definition), on ICON grids with diffusion's RBF -> nabla2 -> diagnostics -> RBF -> vn group and
// on random groups; the executor on an OpenMP team gives the results of program order. Storage
// folding: a fold is made exactly where no point is read before it is written in the plan's
// order, and then no column is handed on while its point's value is still to be read (checked
// by replaying the plan over the columns).
#include "fusec/wavefront.h"
#include "grid_named.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace fusec;
using fusec::testing::grid_named;
using wavefront::Dependence;
using wavefront::Domain;
using wavefront::Fold;
using wavefront::FoldAccess;
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

// A random group of up to 5 stages over 60 points, with up to 6 dependences whose tables (in
// `tables`) have all 60 rows and entries anywhere in [-1, 60): also outside the waited domain.
Group randomGroup(std::mt19937 &rng, std::vector<std::vector<int32_t>> &tables) {
  std::uniform_int_distribution<int32_t> stageCount(1, 5), pointCount(0, 60), order(0, 2),
      neighbors(1, 4);
  const int32_t stages = stageCount(rng), points = 60;
  Group group;
  for (int32_t s = 0; s < stages; ++s) {
    int32_t a = pointCount(rng), b = pointCount(rng);
    group.domains.push_back(Domain{std::min(a, b), std::max(a, b)});
  }
  std::uniform_int_distribution<int32_t> entry(-1, points - 1), depCount(0, 6);
  const int32_t count = stages > 1 ? depCount(rng) : 0;
  tables.clear();
  tables.reserve(count); // the dependences point into them
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
  return group;
}

// Storage folding. A fold's accesses with the storage the test keeps for them.
struct FoldSpec {
  int32_t points = 0;
  int64_t levels = 1, element_bytes = 8;
  std::vector<FoldAccess> accesses;
  Fold fold() const {
    return Fold{points, levels, element_bytes, accesses.data(),
                static_cast<int32_t>(accesses.size())};
  }
};

FoldAccess writes(int32_t stage) { return FoldAccess{stage, FoldAccess::Write, nullptr, 0, 0}; }
FoldAccess reads(int32_t stage) { return FoldAccess{stage, FoldAccess::Read, nullptr, 0, 0}; }
FoldAccess gathers(int32_t stage, const Table &table) {
  return FoldAccess{stage, FoldAccess::Gather, table.data.data(), table.rows, table.cols};
}

// A step as a thread of the team runs it: the epoch between two barriers (as checkPlan counts
// them) and whether it is one of the thread's tiles.
struct Run {
  int32_t thread, epoch;
  bool tiled;
  wavefront::Step step;
};

// The plan's steps epoch by epoch, each epoch's thread by thread, each thread's in its order:
// one order the team may run them in. As far as a fold's columns go it stands for every order
// when no column holds points of two threads, which checkFold makes sure of.
std::vector<Run> executionOrder(const wavefront::Plan &plan) {
  std::vector<Run> runs;
  for (int32_t t = 0; t < plan.threads(); ++t) {
    int32_t epoch = 0;
    size_t next = 0;
    const std::vector<wavefront::Step> &shared = plan.shared(t), &rest = plan.rest(t);
    for (int32_t s = 0; s < plan.stages(); ++s) {
      for (; next < shared.size() && shared[next].stage == s; ++next)
        runs.push_back(Run{t, epoch, false, shared[next]});
      if (plan.counts()[s].shared > 0)
        ++epoch;
    }
    for (const wavefront::Step &step : plan.tiles(t))
      runs.push_back(Run{t, epoch, true, step});
    next = 0;
    for (int32_t s = 0; s < plan.stages(); ++s) {
      if (plan.counts()[s].rest == 0)
        continue;
      ++epoch;
      for (; next < rest.size() && rest[next].stage == s; ++next)
        runs.push_back(Run{t, epoch, false, rest[next]});
    }
  }
  std::stable_sort(runs.begin(), runs.end(),
                   [](const Run &a, const Run &b) { return a.epoch < b.epoch; });
  return runs;
}

// Calls visit(p, write) for what stage s does to the fold at its point q: first the reads (of q,
// and of the points q's rows of the gathered tables name; -1 and entries past the fold's points
// name none), then the writes, as a kernel's iteration does.
template <class Visit> void accessesAt(const Fold &fold, int32_t s, int32_t q, Visit &&visit) {
  for (int32_t a = 0; a < fold.count; ++a) {
    const FoldAccess &access = fold.accesses[a];
    if (access.stage != s)
      continue;
    if (access.kind == FoldAccess::Read)
      visit(q, false);
    if (access.kind == FoldAccess::Gather)
      for (int32_t n = 0; n < access.neighbors; ++n) {
        const int32_t p = access.table[q + n * access.ld];
        if (p >= 0 && p < fold.points)
          visit(p, false);
      }
  }
  for (int32_t a = 0; a < fold.count; ++a)
    if (fold.accesses[a].stage == s && fold.accesses[a].kind == FoldAccess::Write)
      visit(q, true);
}

// Whether, in the order the plan runs, some point of the fold is read before anything wrote it.
bool readBeforeWritten(const Fold &fold, const std::vector<Run> &runs) {
  std::vector<char> written(fold.points, 0);
  bool early = false;
  for (const Run &run : runs)
    for (int32_t q = run.step.begin; q < run.step.end; ++q)
      accessesAt(fold, run.step.stage, q, [&](int32_t p, bool write) {
        early = early || (!write && !written[p]);
        written[p] = written[p] || write;
      });
  return early;
}

// Fold f of `plan` against its definition: made exactly where nothing is read before it is
// written; then every point the group touches has a column, no two points whose lifetimes (in
// their thread's tiles) overlap share one, points touched outside the tiles or by several
// threads share none, and running the plan over the columns, every read finds there the point
// the last write there was of. With `group` (whose waits order every access of the fold), that
// write is also the one program order has the read see. Returns whether the fold was made.
bool checkFold(wavefront::Plan &plan, int32_t f, const Fold &fold, const std::vector<Run> &runs,
               const Group *group = nullptr) {
  INFO("fold " << f);
  REQUIRE(plan.folded(f) == !readBeforeWritten(fold, runs));
  int64_t sentinel[1] = {0};
  int32_t otherTable[1] = {0};
  if (!plan.folded(f)) {
    // The kernels keep the full array.
    CHECK(plan.fold_data(f, sentinel) == sentinel);
    CHECK(plan.fold_at(f, sentinel) == sentinel);
    for (int32_t a = 0; a < fold.count; ++a)
      CHECK(plan.fold_offsets(f, fold.accesses[a].table, sentinel) == sentinel);
    return false;
  }
  const std::vector<int32_t> &slots = plan.fold_slots(f);
  const int64_t columns = plan.fold_columns(f);
  REQUIRE(slots.size() == static_cast<size_t>(fold.points));

  // Who touches each point: its thread (kOwn: outside the tiles, or several threads) and the
  // first and last of that thread's tile steps that do.
  constexpr int32_t kNone = -1, kOwn = -2;
  std::vector<int32_t> who(fold.points, kNone);
  std::vector<int64_t> first(fold.points, -1), last(fold.points, -1);
  std::vector<int64_t> tileSteps(plan.threads(), 0);
  for (const Run &run : runs) {
    const int64_t step = run.tiled ? tileSteps[run.thread]++ : -1;
    for (int32_t q = run.step.begin; q < run.step.end; ++q)
      accessesAt(fold, run.step.stage, q, [&](int32_t p, bool) {
        if (!run.tiled || (who[p] >= 0 && who[p] != run.thread)) {
          who[p] = kOwn;
        } else if (who[p] != kOwn) {
          if (who[p] == kNone)
            first[p] = step;
          who[p] = run.thread;
          last[p] = step;
        }
      });
  }
  std::vector<std::vector<int32_t>> users(columns);
  int64_t own = 0;
  for (int32_t p = 0; p < fold.points; ++p) {
    INFO("point " << p << ", slot " << slots[p]);
    REQUIRE((slots[p] >= 0) == (who[p] != kNone)); // a column exactly where touched
    if (slots[p] < 0)
      continue;
    REQUIRE(slots[p] < columns);
    users[slots[p]].push_back(p);
    own += who[p] == kOwn;
  }
  for (int64_t c = 0; c < columns; ++c) {
    std::vector<int32_t> &points = users[c];
    if (points.size() < 2)
      continue;
    // A shared column belongs to one thread's ring; its points live one after another.
    std::sort(points.begin(), points.end(),
              [&](int32_t a, int32_t b) { return first[a] < first[b]; });
    for (size_t i = 0; i < points.size(); ++i) {
      INFO("column " << c << " holds point " << points[i] << " and " << points.size() - 1
                     << " others");
      REQUIRE(who[points[i]] >= 0);
      REQUIRE(who[points[i]] == who[points[0]]);
      if (i > 0)
        REQUIRE(last[points[i - 1]] < first[points[i]]);
    }
  }
  // The rings are as small as the lifetimes allow: each as many columns as its thread has
  // points alive at once at most (columns free again after a point's last step).
  int64_t rings = 0;
  for (int32_t t = 0; t < plan.threads(); ++t) {
    std::vector<int64_t> alive(tileSteps[t] + 1, 0);
    for (int32_t p = 0; p < fold.points; ++p)
      if (who[p] == t) {
        ++alive[first[p]];
        --alive[last[p] + 1];
      }
    int64_t now = 0, most = 0;
    for (int64_t i = 0; i < tileSteps[t]; ++i)
      most = std::max(most, now += alive[i]);
    rings += most;
  }
  CHECK(plan.fold_ring_columns(f) == rings);
  CHECK(columns - plan.fold_ring_columns(f) == own);

  // The storage as the plan runs: owner[c] is the point whose value column c holds, and the
  // stage that wrote it.
  auto lastWriter = [&](int32_t s, int32_t p) { // in program order, before stage s
    int32_t writer = -1;
    for (int32_t a = 0; a < fold.count; ++a) {
      const FoldAccess &access = fold.accesses[a];
      const Domain &domain = group->domains[access.stage];
      if (access.kind == FoldAccess::Write && access.stage < s && p >= domain.begin &&
          p < domain.end)
        writer = std::max(writer, access.stage);
    }
    return writer;
  };
  std::vector<std::pair<int32_t, int32_t>> owner(columns, {-1, -1});
  bool lost = false;
  for (const Run &run : runs)
    for (int32_t q = run.step.begin; q < run.step.end && !lost; ++q)
      accessesAt(fold, run.step.stage, q, [&](int32_t p, bool write) {
        const std::pair<int32_t, int32_t> &holds = owner[slots[p]];
        if (write) {
          owner[slots[p]] = {p, run.step.stage};
        } else if (!lost && (holds.first != p ||
                             (group != nullptr && holds.second != lastWriter(run.step.stage, p)))) {
          lost = true;
          FAIL_CHECK("thread " << run.thread << ", stage " << run.step.stage << " point " << q
                               << " reads point " << p << " in column " << slots[p]
                               << ", which holds point " << holds.first << " as stage "
                               << holds.second << " wrote it");
        }
      });
  REQUIRE(!lost);

  // What kernels address the storage through: a slot holds the levels rounded up to a multiple
  // of 8, so that 8-byte columns start on a cache line whatever the levels.
  const int64_t stride = (fold.levels + 7) / 8 * 8;
  const int64_t *at = plan.fold_at(f, nullptr);
  REQUIRE(at != nullptr);
  for (int32_t p = 0; p < fold.points; ++p)
    REQUIRE(at[p] == (slots[p] >= 0 ? slots[p] * stride : -1));
  for (int32_t a = 0; a < fold.count; ++a) {
    const FoldAccess &access = fold.accesses[a];
    if (access.kind != FoldAccess::Gather)
      continue;
    const int64_t *offsets = plan.fold_offsets(f, access.table, nullptr);
    REQUIRE(offsets != nullptr);
    for (int32_t n = 0; n < access.neighbors; ++n)
      for (int64_t h = 0; h < access.ld; ++h) {
        const int32_t p = access.table[h + n * access.ld];
        REQUIRE(offsets[h + n * access.ld] == (p >= 0 && p < fold.points ? at[p] : -1));
      }
  }
  CHECK(plan.fold_offsets(f, otherTable, sentinel) == sentinel); // a table no access gathers by
  // The storage holds every column (a sanitizer sees a short one); none where the group touches
  // no point.
  void *data = plan.fold_data(f, nullptr);
  if (columns > 0) {
    REQUIRE(data != nullptr);
    if (fold.element_bytes == 8)
      CHECK(reinterpret_cast<uintptr_t>(data) % 64 == 0);
    std::memset(data, 0xff, static_cast<size_t>(columns * stride * fold.element_bytes));
  }
  return true;
}

// diffusion_step's temporaries inside the vn group: u_vert/v_vert (RBF#1 and RBF#2 write them,
// the nabla2 and the vn update gather them through E2C2V), kh_smag_ec (gathered by the
// diagnostics through C2E) and z_nabla2_e (gathered by RBF#2 through V2E, read by the update).
std::vector<FoldSpec> diffusionFolds(const Grid &grid) {
  const Table &e2c2v = grid.table(Connectivity::E2C2V), &c2e = grid.table(Connectivity::C2E),
              &v2e = grid.table(Connectivity::V2E);
  const int32_t vertices = grid.num_vertices(), edges = grid.num_edges();
  return {FoldSpec{vertices, 65, 8, {writes(0), gathers(1, e2c2v), writes(3), gathers(4, e2c2v)}},
          FoldSpec{edges, 65, 8, {writes(1), gathers(2, c2e)}},
          FoldSpec{edges, 65, 8, {writes(1), gathers(3, v2e), reads(4)}}};
}

std::vector<Fold> foldsOf(const std::vector<FoldSpec> &specs) {
  std::vector<Fold> folds;
  for (const FoldSpec &spec : specs)
    folds.push_back(spec.fold());
  return folds;
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
    std::vector<std::vector<int32_t>> tables;
    const Group group = randomGroup(rng, tables);
    const int32_t stages = static_cast<int32_t>(group.domains.size()),
                  count = static_cast<int32_t>(group.dependences.size());
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

TEST_CASE("folded temporaries of diffusion's vn group hold every value until it is read") {
  for (const char *name : {"r2b2", "lam-r2b3"}) {
    const Grid &grid = grid_named(name);
    const Group group = diffusionGroup(grid);
    // u_vert is one temporary that both RBFs write: RBF#2 overwrites what the nabla2 gathered
    // through E2C2V, a wait the compiler adds (a Scatter) and diffusionGroup leaves out. Only
    // with it does every read also see the write that program order has it see.
    Group ordered = group;
    const Table &e2c2v = grid.table(Connectivity::E2C2V);
    ordered.dependences.push_back(
        Dependence{3, 1, Order::Scatter, e2c2v.data.data(), e2c2v.rows, e2c2v.cols});
    const std::vector<FoldSpec> specs = diffusionFolds(grid);
    const std::vector<Fold> folds = foldsOf(specs);
    for (const Group *g : {&group, static_cast<const Group *>(&ordered)})
      for (int32_t threads : {1, 2, 3})
        for (int32_t tile : {1, 7, 64, 1024}) {
          INFO(name << (g == &ordered ? " (with RBF#2's wait)" : "") << ", " << threads
                    << " threads, tiles of " << tile);
          wavefront::Plan plan;
          REQUIRE(plan.build(g->domains.data(), 5, g->dependences.data(),
                             static_cast<int32_t>(g->dependences.size()), threads, tile,
                             folds.data(), 3) == FUSEC_SUCCESS);
          checkPlan(plan, *g);
          const std::vector<Run> runs = executionOrder(plan);
          for (int32_t f = 0; f < 3; ++f) {
            // Every value is written before the group reads it: each fold is made.
            const bool made = checkFold(plan, f, folds[f], runs, g == &ordered ? g : nullptr);
            CHECK(made);
            if (threads == 1) // nothing shared, nothing left for after the tiles: all in the ring
              CHECK(plan.fold_ring_columns(f) == plan.fold_columns(f));
          }
        }
  }
}

TEST_CASE("one thread's rings of diffusion's temporaries are much smaller than their arrays") {
  // What folding is for: the values alive at once are a few tiles' worth, not the grid's. On
  // r2b2 tiles of 1024 vn edges are half the grid (two tiles), so the rings hold most of it
  // there; on r2b4 (30 tiles) they are small.
  for (const char *name : {"r2b2", "r2b4"}) {
    const Grid &grid = grid_named(name);
    const Group group = diffusionGroup(grid);
    const std::vector<FoldSpec> specs = diffusionFolds(grid);
    const std::vector<Fold> folds = foldsOf(specs);
    wavefront::Plan plan;
    REQUIRE(plan.build(group.domains.data(), 5, group.dependences.data(), 7, 1, 1024, folds.data(),
                       3) == FUSEC_SUCCESS);
    for (int32_t f = 0; f < 3; ++f) {
      REQUIRE(plan.folded(f));
      INFO(name << ", tiles of 1024: fold " << f << " has " << plan.fold_columns(f)
                << " columns for " << folds[f].points << " points");
      CHECK(plan.fold_columns(f) < folds[f].points);
      if (std::string(name) == "r2b4")
        CHECK(plan.fold_columns(f) * 4 < folds[f].points);
    }
  }
}

TEST_CASE("folds with the same accesses share column starts and keep their own storage") {
  // u_vert and v_vert: the compiled kernels address both through the first's column starts.
  const Grid &grid = grid_named("r2b2");
  const Group group = diffusionGroup(grid);
  const std::vector<FoldSpec> specs = diffusionFolds(grid);
  FoldSpec v_vert_f32 = specs[0]; // u_vert's accesses
  v_vert_f32.element_bytes = 4;   // a layout counts columns: the element size does not matter
  const Fold folds[3] = {specs[0].fold(), specs[1].fold(), v_vert_f32.fold()};
  for (int32_t threads : {1, 2}) {
    INFO(threads << " threads");
    wavefront::Plan plan;
    REQUIRE(plan.build(group.domains.data(), 5, group.dependences.data(),
                       static_cast<int32_t>(group.dependences.size()), threads, 64, folds,
                       3) == FUSEC_SUCCESS);
    REQUIRE(plan.folded(0));
    REQUIRE(plan.folded(2));
    CHECK(plan.fold_slots(2) == plan.fold_slots(0));
    CHECK(plan.fold_at(2, nullptr) == plan.fold_at(0, nullptr));
    const Table &e2c2v = grid.table(Connectivity::E2C2V);
    CHECK(plan.fold_offsets(2, e2c2v.data.data(), nullptr) ==
          plan.fold_offsets(0, e2c2v.data.data(), nullptr));
    CHECK(plan.fold_data(2, nullptr) != plan.fold_data(0, nullptr));
    CHECK(plan.fold_data(2, nullptr) != plan.fold_data(1, nullptr));
    // A fold with other accesses has a layout of its own.
    CHECK(plan.fold_at(1, nullptr) != plan.fold_at(0, nullptr));
    const std::vector<Run> runs = executionOrder(plan);
    CHECK(checkFold(plan, 2, folds[2], runs));
  }
}

TEST_CASE("a temporary read before the group writes it keeps its full array") {
  const Grid &grid = grid_named("r2b2");
  const Group group = diffusionGroup(grid);
  const Table &e2c2v = grid.table(Connectivity::E2C2V), &c2e = grid.table(Connectivity::C2E);
  // kh_smag_ec as if the vn update wrote it: the diagnostics gather it before.
  const FoldSpec late{grid.num_edges(), 65, 8, {gathers(2, c2e), writes(4)}};
  // u_vert as if RBF#1 wrote half the vertices: the nabla2 gathers the others unwritten.
  Group half = group;
  half.domains[0].end = grid.num_vertices() / 2;
  const FoldSpec partial{grid.num_vertices(), 65, 8, {writes(0), gathers(1, e2c2v)}};
  // u_vert without the nabla2's wait for RBF#1: in program order it is written first, but the
  // plan runs RBF#1's vertices only where the vn update waits for them.
  Group unordered = group;
  unordered.dependences.erase(unordered.dependences.begin());
  // Made next to those that are not: kh_smag_ec as it is.
  const FoldSpec fine{grid.num_edges(), 65, 8, {writes(1), gathers(2, c2e)}};
  struct Case {
    const char *what;
    const Group &group;
    const FoldSpec &spec;
  };
  for (const Case &c : {Case{"late", group, late}, Case{"partial", half, partial},
                        Case{"unordered", unordered, partial}})
    for (int32_t threads : {1, 2})
      for (int32_t tile : {1, 64}) {
        INFO(c.what << ", " << threads << " threads, tiles of " << tile);
        const Fold folds[2] = {c.spec.fold(), fine.fold()};
        wavefront::Plan plan;
        REQUIRE(plan.build(c.group.domains.data(), 5, c.group.dependences.data(),
                           static_cast<int32_t>(c.group.dependences.size()), threads, tile, folds,
                           2) == FUSEC_SUCCESS);
        const std::vector<Run> runs = executionOrder(plan);
        const bool made = checkFold(plan, 0, folds[0], runs),
                   fineMade = checkFold(plan, 1, folds[1], runs);
        CHECK_FALSE(made);
        CHECK(fineMade);
      }
}

TEST_CASE("a point two threads' tiles touch keeps a column of its own") {
  // Thread 1's tiles gather what thread 0's tiles wrote, which the group does not order (a
  // compiled group would wait for it and run those points shared): were the point in thread
  // 0's ring, thread 1 would read a column thread 0 hands on to later points.
  const Domain domains[2] = {{0, 60}, {0, 60}};
  const Dependence same{1, 0, Order::Same, nullptr, 0, 0};
  std::vector<int32_t> table(60, -1);
  for (int32_t q = 30; q < 60; ++q)
    table[q] = q - 30;
  const FoldAccess accesses[2] = {writes(0),
                                  FoldAccess{1, FoldAccess::Gather, table.data(), 60, 1}};
  const Fold fold{60, 2, 8, accesses, 2};
  for (int32_t tile : {1, 4}) {
    INFO("tiles of " << tile);
    wavefront::Plan plan;
    REQUIRE(plan.build(domains, 2, &same, 1, 2, tile, &fold, 1) == FUSEC_SUCCESS);
    const bool made = checkFold(plan, 0, fold, executionOrder(plan));
    REQUIRE(made);
    CHECK(plan.fold_columns(0) - plan.fold_ring_columns(0) == 30);
  }
}

TEST_CASE("folds of random groups are made exactly where nothing is read before written") {
  // A stage writes the temporary at its points, later stages read it at theirs or gather it
  // through random tables, and sometimes a later stage updates it in place (reads, then writes
  // the same points). Random tables name points anywhere, so both outcomes are frequent.
  std::mt19937 rng(11);
  int64_t made = 0, kept = 0;
  for (int trial = 0; trial < 150; ++trial) {
    std::vector<std::vector<int32_t>> tables, foldTables;
    const Group group = randomGroup(rng, tables);
    const int32_t stages = static_cast<int32_t>(group.domains.size()),
                  count = static_cast<int32_t>(group.dependences.size());
    std::uniform_int_distribution<int32_t> foldCount(1, 3), readerCount(0, 3), kind(0, 2),
        neighbors(1, 4), entry(-1, 59), levels(1, 3), coin(0, 1);
    const int32_t fold_count = foldCount(rng);
    foldTables.reserve(fold_count * 4); // the accesses point into them
    std::vector<FoldSpec> specs(fold_count);
    for (FoldSpec &spec : specs) {
      const int32_t writer = std::uniform_int_distribution<int32_t>(0, stages - 1)(rng);
      spec.levels = levels(rng);
      spec.accesses.push_back(writes(writer));
      std::vector<char> gathering(stages, 0);
      for (int32_t r = writer + 1 < stages ? readerCount(rng) : 0; r > 0; --r) {
        const int32_t s = std::uniform_int_distribution<int32_t>(writer + 1, stages - 1)(rng);
        if (kind(rng) == 0) {
          spec.accesses.push_back(reads(s));
          continue;
        }
        // Gathers through a table of a dependence of s half of the time (the plan orders what
        // those name), else through a fresh one.
        const Dependence *through = nullptr;
        for (const Dependence &dep : group.dependences)
          if (dep.stage == s && dep.order == Order::Gather && coin(rng))
            through = &dep;
        if (through == nullptr) {
          const int32_t n = neighbors(rng);
          foldTables.emplace_back(static_cast<size_t>(60) * n);
          for (int32_t &e : foldTables.back())
            e = entry(rng);
          spec.accesses.push_back(
              FoldAccess{s, FoldAccess::Gather, foldTables.back().data(), 60, n});
        } else {
          spec.accesses.push_back(
              FoldAccess{s, FoldAccess::Gather, through->table, through->ld, through->neighbors});
        }
        gathering[s] = 1;
      }
      // An update in place, at a later stage that does not also gather it (in a kernel that
      // would race with itself).
      const int32_t updater =
          writer + 1 < stages ? std::uniform_int_distribution<int32_t>(writer + 1, stages - 1)(rng)
                              : -1;
      if (updater >= 0 && !gathering[updater] && coin(rng)) {
        spec.accesses.push_back(reads(updater));
        spec.accesses.push_back(writes(updater));
      }
      // The fold's points cover the stages that write or read their own points; gathered
      // entries past them name nothing.
      int32_t needed = 0;
      for (const FoldAccess &access : spec.accesses)
        if (access.kind != FoldAccess::Gather)
          needed = std::max(needed, group.domains[access.stage].end);
      spec.points = std::uniform_int_distribution<int32_t>(needed, 60)(rng);
    }
    const std::vector<Fold> folds = foldsOf(specs);
    for (int32_t threads : {1, 2, 5})
      for (int32_t tile : {1, 7}) {
        INFO("trial " << trial << ", " << threads << " threads, tiles of " << tile);
        wavefront::Plan plan;
        REQUIRE(plan.build(group.domains.data(), stages, group.dependences.data(), count, threads,
                           tile, folds.data(), fold_count) == FUSEC_SUCCESS);
        const std::vector<Run> runs = executionOrder(plan);
        for (int32_t f = 0; f < fold_count; ++f)
          ++(checkFold(plan, f, folds[f], runs) ? made : kept);
      }
  }
  INFO(made << " folds made, " << kept << " kept");
  CHECK(made > 100);
  CHECK(kept > 100);
}

TEST_CASE("wavefront plans reject invalid folds") {
  const Domain domains[2] = {{0, 10}, {0, 10}};
  const Dependence same{1, 0, Order::Same, nullptr, 0, 0};
  const int32_t table[10 * 2] = {};
  auto build = [&](int32_t points, int64_t levels, int64_t element_bytes,
                   const FoldAccess &access) {
    const Fold fold{points, levels, element_bytes, &access, 1};
    wavefront::Plan plan;
    return plan.build(domains, 2, &same, 1, 2, 4, &fold, 1);
  };
  CHECK(build(10, 4, 8, writes(-1)) == FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(build(10, 4, 8, writes(2)) == FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(build(10, 4, 8, FoldAccess{1, FoldAccess::Gather, nullptr, 10, 2}) ==
        FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(build(10, 4, 8, FoldAccess{1, FoldAccess::Gather, table, 10, -1}) ==
        FUSEC_ERROR_INVALID_ARGUMENT);
  // A stage's own points past the fold's: it would write or read outside the temporary.
  CHECK(build(9, 4, 8, writes(0)) == FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(build(9, 4, 8, reads(1)) == FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(build(10, 0, 8, writes(0)) == FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(build(10, 4, 0, writes(0)) == FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(build(-1, 4, 8, FoldAccess{1, FoldAccess::Gather, table, 10, 2}) ==
        FUSEC_ERROR_INVALID_ARGUMENT);
  CHECK(build(10, 4, 8, writes(0)) == FUSEC_SUCCESS);
  // A gather names points through its table: its stage's own points may lie past the fold's.
  CHECK(build(5, 4, 8, FoldAccess{1, FoldAccess::Gather, table, 10, 2}) == FUSEC_SUCCESS);
}
