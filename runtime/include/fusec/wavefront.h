/* fusec runtime: wavefront schedules (C++17, header-only, like kernel_support.h).
 *
 * A wavefront schedule runs a group of kernels ("stages", in program order) over a team of
 * threads tile by tile, so that what one stage writes and a later stage reads, also through a
 * neighbour table, is still in cache when it is read; nothing is computed twice. Each stage is
 * a kernel over the points [begin, end) of one location. A dependence says which points of an
 * earlier stage a point q of a later stage waits for:
 *   Same:    the earlier stage's point q (q reads or overwrites what the earlier stage wrote or
 *            read at q);
 *   Gather:  the points q's row of a neighbour table names, table[q + n * ld] (q reads them);
 *   Scatter: every earlier point p whose row table[p + n * ld] names q (q overwrites what p
 *            read through the table).
 * Entries outside the earlier stage's domain (and -1) name nothing: that stage never writes
 * them, so q reads there what it would read in program order.
 *
 * The plan: the last stage (the anchor) is cut into one contiguous part per thread and each part
 * into tiles of `tile` points; a tile runs, stage by stage, every point its anchor points need,
 * directly or through other stages, that no earlier tile of the same thread ran. A point needed
 * by the parts of several threads is "shared": it runs before the tiles, together with all it
 * needs, stage by stage with a barrier after each stage. A point no anchor point needs runs
 * after the tiles ("rest"), stage by stage between barriers. So every point of every stage runs
 * exactly once and after everything it waits for, and each kernel computes what it computes in
 * program order, bit for bit. See docs/architecture.md ("Wavefront schedules").
 */
#ifndef FUSEC_WAVEFRONT_H
#define FUSEC_WAVEFRONT_H

#include "fusec/kernel_support.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace fusec {
namespace wavefront {

struct Domain {
  int32_t begin, end;
};

enum class Order { Same, Gather, Scatter };

struct Dependence {
  int32_t stage; /* the stage that waits */
  int32_t on;    /* the earlier stage it waits for */
  Order order;
  /* Gather: a row per point of `stage`'s domain; Scatter: of `on`'s; null for Same. Entry n
   * of row h is table[h + n * ld], -1 where missing. */
  const int32_t *table;
  int64_t ld;
  int32_t neighbors;
};

/* A piece of work: stage `stage` over the points [begin, end). */
struct Step {
  int32_t stage, begin, end;
};

/* How many points of a stage each phase runs. */
struct StageCounts {
  int64_t shared = 0, tiled = 0, rest = 0;
};

class Plan {
public:
  /* Builds the plan for `threads` threads and tiles of `tile` points of the last stage;
   * FUSEC_ERROR_INVALID_ARGUMENT for a dependence that does not point backwards or lacks its
   * table, no stages, a domain with begin < 0 or end < begin, threads < 1 or tile < 1. */
  int build(const Domain *domains, int32_t stages, const Dependence *dependences,
            int32_t count, int32_t threads, int32_t tile);

  /* Whether the plan was built for these domains and this many threads. */
  bool built_for(const Domain *domains, int32_t stages, int32_t threads) const {
    if (threads != threads_ || stages != static_cast<int32_t>(domains_.size()))
      return false;
    for (int32_t s = 0; s < stages; ++s)
      if (domains[s].begin != domains_[s].begin || domains[s].end != domains_[s].end)
        return false;
    return true;
  }

  int32_t threads() const { return threads_; }
  int32_t stages() const { return static_cast<int32_t>(domains_.size()); }
  const std::vector<StageCounts> &counts() const { return counts_; }
  /* Thread t's steps in each phase; shared and rest are ordered by stage. */
  const std::vector<Step> &shared(int32_t t) const { return threads_plan_[t].shared; }
  const std::vector<Step> &tiles(int32_t t) const { return threads_plan_[t].tiles; }
  const std::vector<Step> &rest(int32_t t) const { return threads_plan_[t].rest; }

  /* Runs the plan: every thread of the team (or a lone caller, when the plan has one thread)
   * calls this with its number; run(stage, begin, end) runs a stage over a range of points. */
  template <class Run> void execute(int32_t thread, Run &&run) const {
    const ThreadPlan &mine = threads_plan_[thread];
    size_t next = 0;
    for (int32_t s = 0; s < stages(); ++s) {
      for (; next < mine.shared.size() && mine.shared[next].stage == s; ++next)
        run(s, mine.shared[next].begin, mine.shared[next].end);
      if (counts_[s].shared > 0)
        team_barrier();
    }
    for (const Step &step : mine.tiles)
      run(step.stage, step.begin, step.end);
    next = 0;
    for (int32_t s = 0; s < stages(); ++s) {
      if (counts_[s].rest == 0)
        continue;
      team_barrier();
      for (; next < mine.rest.size() && mine.rest[next].stage == s; ++next)
        run(s, mine.rest[next].begin, mine.rest[next].end);
    }
    team_barrier();
  }

private:
  struct ThreadPlan {
    std::vector<Step> shared, tiles, rest;
  };
  int32_t threads_ = 0;
  std::vector<Domain> domains_;
  std::vector<StageCounts> counts_;
  std::vector<ThreadPlan> threads_plan_;
};

namespace detail {

/* Appends stage s's points, sorted, as steps over runs of consecutive points. */
inline void append_runs(int32_t s, std::vector<int32_t> &points, std::vector<Step> &steps) {
  std::sort(points.begin(), points.end());
  for (size_t i = 0; i < points.size();) {
    size_t j = i + 1;
    while (j < points.size() && points[j] == points[j - 1] + 1)
      ++j;
    steps.push_back(Step{s, points[i], points[j - 1] + 1});
    i = j;
  }
}

/* The points each point waits for, per stage, as (stage, point) pairs in CSR form. */
struct Waits {
  std::vector<std::vector<int64_t>> offsets;                   /* [stage][q - begin] */
  std::vector<std::vector<std::pair<int32_t, int32_t>>> edges; /* [stage][...] */
};

inline Waits collect_waits(const Domain *domains, int32_t stages, const Dependence *dependences,
                           int32_t count) {
  auto inside = [&](int32_t s, int32_t p) {
    return p >= domains[s].begin && p < domains[s].end;
  };
  /* Pass 0 counts the waits of every point, pass 1 fills them in. */
  Waits waits;
  waits.offsets.resize(stages);
  waits.edges.resize(stages);
  std::vector<std::vector<int64_t>> fill(stages);
  for (int32_t s = 0; s < stages; ++s)
    waits.offsets[s].assign(domains[s].end - domains[s].begin + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    auto add = [&](int32_t s, int32_t q, int32_t on, int32_t p) {
      if (!inside(s, q) || !inside(on, p))
        return;
      const int32_t local = q - domains[s].begin;
      if (pass == 0)
        ++waits.offsets[s][local + 1];
      else
        waits.edges[s][fill[s][local]++] = {on, p};
    };
    for (int32_t d = 0; d < count; ++d) {
      const Dependence &dep = dependences[d];
      const Domain &waiting = domains[dep.stage], &waited = domains[dep.on];
      if (dep.order == Order::Same) {
        for (int32_t q = waiting.begin; q < waiting.end; ++q)
          add(dep.stage, q, dep.on, q);
      } else if (dep.order == Order::Gather) {
        for (int32_t q = waiting.begin; q < waiting.end; ++q)
          for (int32_t n = 0; n < dep.neighbors; ++n)
            add(dep.stage, q, dep.on, dep.table[q + n * dep.ld]);
      } else {
        for (int32_t p = waited.begin; p < waited.end; ++p)
          for (int32_t n = 0; n < dep.neighbors; ++n)
            add(dep.stage, dep.table[p + n * dep.ld], dep.on, p);
      }
    }
    if (pass == 0)
      for (int32_t s = 0; s < stages; ++s) {
        std::vector<int64_t> &offsets = waits.offsets[s];
        for (size_t i = 1; i < offsets.size(); ++i)
          offsets[i] += offsets[i - 1];
        waits.edges[s].resize(offsets.back());
        fill[s].assign(offsets.begin(), offsets.end() - 1);
      }
  }
  return waits;
}

} // namespace detail

inline int Plan::build(const Domain *domains, int32_t stages, const Dependence *dependences,
                       int32_t count, int32_t threads, int32_t tile) {
  if (stages < 1 || threads < 1 || tile < 1)
    return FUSEC_ERROR_INVALID_ARGUMENT;
  for (int32_t s = 0; s < stages; ++s)
    if (domains[s].begin < 0 || domains[s].end < domains[s].begin)
      return FUSEC_ERROR_INVALID_ARGUMENT;
  for (int32_t d = 0; d < count; ++d) {
    const Dependence &dep = dependences[d];
    if (dep.stage < 0 || dep.stage >= stages || dep.on < 0 || dep.on >= dep.stage ||
        (dep.order != Order::Same && (dep.table == nullptr || dep.neighbors < 0)))
      return FUSEC_ERROR_INVALID_ARGUMENT;
  }
  const detail::Waits waits = detail::collect_waits(domains, stages, dependences, count);
  const int32_t anchor = stages - 1;
  auto local = [&](int32_t s, int32_t p) { return p - domains[s].begin; };
  auto split = [&](int32_t s, int32_t t) {
    return domains[s].begin +
           static_cast<int32_t>(int64_t(domains[s].end - domains[s].begin) * t / threads);
  };
  auto thread_of = [&](int32_t s, int32_t p) {
    return static_cast<int32_t>(int64_t(local(s, p)) * threads /
                                (domains[s].end - domains[s].begin));
  };

  /* owner: the one thread whose anchor part needs a point, kNobody or kSeveral (a shared
   * point; what it waits for is shared too). Waits point backwards, so one sweep from the
   * anchor down sees every point's owner complete. */
  constexpr int32_t kNobody = -1, kSeveral = -2;
  std::vector<std::vector<int32_t>> owner(stages);
  std::vector<std::vector<char>> taken(stages);
  for (int32_t s = 0; s < stages; ++s) {
    owner[s].assign(domains[s].end - domains[s].begin, kNobody);
    taken[s].assign(owner[s].size(), 0);
  }
  for (int32_t t = 0; t < threads; ++t)
    for (int32_t q = split(anchor, t); q < split(anchor, t + 1); ++q)
      owner[anchor][local(anchor, q)] = t;
  for (int32_t s = anchor; s >= 0; --s)
    for (int32_t i = 0; i < static_cast<int32_t>(owner[s].size()); ++i) {
      const int32_t who = owner[s][i];
      if (who == kNobody)
        continue;
      for (int64_t w = waits.offsets[s][i]; w < waits.offsets[s][i + 1]; ++w) {
        const auto [on, p] = waits.edges[s][w];
        int32_t &theirs = owner[on][local(on, p)];
        theirs = theirs == kNobody || theirs == who ? who : kSeveral;
      }
    }

  threads_ = threads;
  domains_.assign(domains, domains + stages);
  counts_.assign(stages, StageCounts{});
  threads_plan_.assign(threads, ThreadPlan{});
  for (int32_t s = 0; s < stages; ++s) {
    std::vector<std::vector<int32_t>> shared_points(threads), rest_points(threads);
    for (int32_t p = domains[s].begin; p < domains[s].end; ++p) {
      const int32_t i = local(s, p);
      if (owner[s][i] == kSeveral) {
        shared_points[thread_of(s, p)].push_back(p);
        ++counts_[s].shared;
      } else if (owner[s][i] == kNobody) {
        rest_points[thread_of(s, p)].push_back(p);
        ++counts_[s].rest;
      }
    }
    for (int32_t t = 0; t < threads; ++t) {
      detail::append_runs(s, shared_points[t], threads_plan_[t].shared);
      detail::append_runs(s, rest_points[t], threads_plan_[t].rest);
    }
  }
  std::vector<std::vector<int32_t>> tile_points(stages);
  for (int32_t t = 0; t < threads; ++t)
    for (int64_t first = split(anchor, t); first < split(anchor, t + 1); first += tile) {
      const int32_t last =
          static_cast<int32_t>(std::min<int64_t>(split(anchor, t + 1), first + tile));
      for (int32_t q = static_cast<int32_t>(first); q < last; ++q)
        tile_points[anchor].push_back(q);
      for (int32_t s = anchor; s > 0; --s)
        for (const int32_t q : tile_points[s]) {
          const int32_t i = local(s, q);
          for (int64_t w = waits.offsets[s][i]; w < waits.offsets[s][i + 1]; ++w) {
            const auto [on, p] = waits.edges[s][w];
            const int32_t j = local(on, p);
            if (owner[on][j] == kSeveral || taken[on][j])
              continue;
            taken[on][j] = 1;
            tile_points[on].push_back(p);
          }
        }
      for (int32_t s = 0; s < stages; ++s) {
        counts_[s].tiled += static_cast<int64_t>(tile_points[s].size());
        detail::append_runs(s, tile_points[s], threads_plan_[t].tiles);
        tile_points[s].clear();
      }
    }
  return FUSEC_SUCCESS;
}

/* The calling thread's number and its team's size (0 and 1 outside a team). */
inline int32_t team_thread() {
#ifdef FUSEC_OPENMP_TEAM
  return omp_get_thread_num();
#else
  return 0;
#endif
}

inline int32_t team_size() {
#ifdef FUSEC_OPENMP_TEAM
  return omp_get_num_threads();
#else
  return 1;
#endif
}

/* The calling thread's part of [begin, end) when a stage runs on its own (an emitted group run
 * kernel by kernel): contiguous parts, one per thread of the team. */
inline Domain static_share(int32_t begin, int32_t end) {
  const int64_t size = int64_t(end) - begin, t = team_thread(), n = team_size();
  return {static_cast<int32_t>(begin + size * t / n),
          static_cast<int32_t>(begin + size * (t + 1) / n)};
}

/* Runs a group on the calling team, every thread of which calls this: `plan` (an instance's) is
 * built first, on one thread, when it was built for other domains or another team size. */
template <class Run>
int run(Plan &plan, const Domain *domains, int32_t stages, const Dependence *dependences,
        int32_t count, int32_t tile, Run &&run_stage) {
  const int32_t threads = team_size();
  if (int rc = on_one_thread([&] {
        return plan.built_for(domains, stages, threads)
                   ? int(FUSEC_SUCCESS)
                   : plan.build(domains, stages, dependences, count, threads, tile);
      }))
    return rc;
  plan.execute(team_thread(), run_stage);
  return FUSEC_SUCCESS;
}

} // namespace wavefront
} // namespace fusec

#endif /* FUSEC_WAVEFRONT_H */
