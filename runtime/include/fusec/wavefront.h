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
 *
 * Storage folding: a temporary that lives only inside the group (a `Fold`, with what each stage
 * does to it) need not take a column per point. The plan gives every point a column ("slot") of
 * a small storage: a point that only one thread's tiles touch gets a slot of that thread's ring,
 * free again once the last tile touching the point has run, so that the ring stays in cache; a
 * point the shared or rest phases touch keeps a slot of its own. Kernels address the temporary
 * through per-point column starts (`fold_at`, `fold_offsets`). A slot holds the point's levels
 * rounded up to a multiple of `kFoldLevelMultiple`, so that with 8-byte elements every column
 * starts on a cache line whatever the number of levels (vector loads of a column then never
 * straddle two lines). Where some point would be read before the group writes it, the fold is
 * not made and the temporary keeps its full array.
 */
#ifndef FUSEC_WAVEFRONT_H
#define FUSEC_WAVEFRONT_H

#include "fusec/kernel_support.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace fusec {
namespace wavefront {

/* A fold's slot holds its levels rounded up to a multiple of this many elements: 64 bytes of
 * doubles. */
constexpr int64_t kFoldLevelMultiple = 8;

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

/* What a stage does to a folded temporary: writes it at its own points, reads it there, or
 * reads it at the points its rows of a table name (table[q + n * ld], -1 where missing). */
struct FoldAccess {
  enum Kind : int32_t { Write, Read, Gather };
  int32_t stage;
  Kind kind;
  const int32_t *table; /* Gather only */
  int64_t ld;
  int32_t neighbors;
};

/* A temporary the group alone uses: `points` columns of `levels` elements of `element_bytes`
 * each in its full array, and every access of the group's stages to it. */
struct Fold {
  int32_t points;
  int64_t levels;
  int64_t element_bytes;
  const FoldAccess *accesses;
  int32_t count;
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
  /* Builds the plan for `threads` threads and tiles of `tile` points of the last stage, and the
   * slots of the `fold_count` folds; FUSEC_ERROR_INVALID_ARGUMENT for a dependence that does
   * not point backwards or lacks its table, no stages, a domain with begin < 0 or end < begin
   * (or past a fold's points where the stage accesses that fold), threads < 1 or tile < 1. */
  int build(const Domain *domains, int32_t stages, const Dependence *dependences,
            int32_t count, int32_t threads, int32_t tile, const Fold *folds = nullptr,
            int32_t fold_count = 0);

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

  /* Whether fold f was made (else its temporary keeps its full array), how many columns its
   * storage has, each point's column (-1 where the group does not touch the point), and how
   * many of those columns the rings of the threads take. */
  bool folded(int32_t f) const { return layout(f).folded; }
  int64_t fold_columns(int32_t f) const { return layout(f).columns; }
  const std::vector<int32_t> &fold_slots(int32_t f) const { return layout(f).slots; }
  int64_t fold_ring_columns(int32_t f) const { return layout(f).ring_columns; }

  /* What kernels inside the plan address fold f through, or `full` where it was not made: its
   * storage; per point, the start of its column (slot * column_stride, -1 where it has none); per
   * entry of a table it is gathered through, the start of the named point's column. */
  void *fold_data(int32_t f, void *full) {
    return folded(f) ? static_cast<void *>(folds_[f].storage->data()) : full;
  }
  const int64_t *fold_at(int32_t f, const int64_t *full) const {
    return folded(f) ? layout(f).at.data() : full;
  }
  const int64_t *fold_offsets(int32_t f, const int32_t *table, const int64_t *full) const {
    if (folded(f))
      for (const auto &[through, offsets] : layout(f).through)
        if (through == table)
          return offsets.data();
    return full;
  }

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
  /* Where a fold's points lie; folds with the same points, levels and accesses share one. */
  struct FoldLayout {
    bool folded = false;
    int64_t columns = 0, ring_columns = 0;
    std::vector<int32_t> slots;
    std::vector<int64_t> at;
    std::vector<std::pair<const int32_t *, std::vector<int64_t>>> through;
  };
  struct FoldPlan {
    int32_t layout = 0; /* in layouts_ */
    /* Allocated as fields are (cache-line aligned, huge pages when large). */
    std::unique_ptr<HostArray<uint64_t>> storage;
  };
  const FoldLayout &layout(int32_t f) const { return layouts_[folds_[f].layout]; }
  FoldLayout fold(const Fold &fold) const;

  int32_t threads_ = 0;
  std::vector<Domain> domains_;
  std::vector<StageCounts> counts_;
  std::vector<ThreadPlan> threads_plan_;
  std::vector<FoldLayout> layouts_;
  std::vector<FoldPlan> folds_;
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

/* Elements from one slot of a fold to the next: its levels rounded up to a multiple of
 * kFoldLevelMultiple. */
inline int64_t column_stride(const Fold &fold) {
  return (fold.levels + kFoldLevelMultiple - 1) / kFoldLevelMultiple * kFoldLevelMultiple;
}

/* Whether two folds have the same points, levels and accesses: the same layout (their element
 * sizes may differ; a layout counts columns). */
inline bool same_layout(const Fold &a, const Fold &b) {
  if (a.points != b.points || a.levels != b.levels || a.count != b.count)
    return false;
  for (int32_t i = 0; i < a.count; ++i) {
    const FoldAccess &x = a.accesses[i], &y = b.accesses[i];
    if (x.stage != y.stage || x.kind != y.kind || x.table != y.table || x.ld != y.ld ||
        x.neighbors != y.neighbors)
      return false;
  }
  return true;
}

} // namespace detail

inline int Plan::build(const Domain *domains, int32_t stages, const Dependence *dependences,
                       int32_t count, int32_t threads, int32_t tile, const Fold *folds,
                       int32_t fold_count) {
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
  for (int32_t f = 0; f < fold_count; ++f) {
    const Fold &fold = folds[f];
    if (fold.points < 0 || fold.levels < 1 || fold.element_bytes < 1 || fold.count < 0)
      return FUSEC_ERROR_INVALID_ARGUMENT;
    for (int32_t a = 0; a < fold.count; ++a) {
      const FoldAccess &access = fold.accesses[a];
      if (access.stage < 0 || access.stage >= stages ||
          (access.kind == FoldAccess::Gather ? access.table == nullptr || access.neighbors < 0
                                             : domains[access.stage].end > fold.points))
        return FUSEC_ERROR_INVALID_ARGUMENT;
    }
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
  /* Folds with the same points, levels and accesses (u_vert and v_vert) share one layout, so
   * that kernels may address them through the same column starts. */
  layouts_.clear();
  folds_.clear();
  folds_.resize(fold_count);
  for (int32_t f = 0; f < fold_count; ++f) {
    int32_t like = 0;
    while (like < f && !detail::same_layout(folds[like], folds[f]))
      ++like;
    if (like < f) {
      folds_[f].layout = folds_[like].layout;
    } else {
      folds_[f].layout = static_cast<int32_t>(layouts_.size());
      layouts_.push_back(fold(folds[f]));
    }
    const FoldLayout &made = layout(f);
    if (!made.folded)
      continue;
    const int64_t words =
        (made.columns * detail::column_stride(folds[f]) * folds[f].element_bytes + 7) / 8;
    folds_[f].storage = std::make_unique<HostArray<uint64_t>>();
    if (int rc = folds_[f].storage->allocate(static_cast<size_t>(words)))
      return rc;
  }
  return FUSEC_SUCCESS;
}

/* Slots are given in the order the plan runs: the shared phase stage by stage, each thread's
 * tiles, the rest stage by stage. A slot of thread t's ring is taken at the step of t's tiles
 * that first touches its point and is free again after the step that last touches it; free
 * slots are taken in the order they were freed, so a ring is as large as the most points its
 * thread has alive at once. */
inline Plan::FoldLayout Plan::fold(const Fold &fold) const {
  FoldLayout plan;
  constexpr int64_t kUntouched = -1;
  constexpr int32_t kOwnSlot = -2; /* touched outside the tiles, or by several threads */
  const size_t points = static_cast<size_t>(fold.points);
  std::vector<int64_t> first(points, kUntouched), last(points, kUntouched);
  std::vector<int32_t> thread_of(points, -1);
  std::vector<char> written(points, 0);
  bool read_before_written = false;

  /* Calls visit(point, is_write) for every access of a step's points, reads first. */
  auto touch = [&](const Step &step, auto &&visit) {
    for (int pass = 0; pass < 2; ++pass)
      for (int32_t a = 0; a < fold.count; ++a) {
        const FoldAccess &access = fold.accesses[a];
        const bool write = access.kind == FoldAccess::Write;
        if (access.stage != step.stage || write != (pass == 1))
          continue;
        for (int32_t q = step.begin; q < step.end; ++q) {
          if (access.kind != FoldAccess::Gather) {
            visit(q, write);
            continue;
          }
          for (int32_t n = 0; n < access.neighbors; ++n) {
            const int32_t p = access.table[q + n * access.ld];
            if (p >= 0 && p < fold.points)
              visit(p, false);
          }
        }
      }
  };
  auto check = [&](int32_t p, bool write) {
    if (write)
      written[p] = 1;
    else if (!written[p])
      read_before_written = true;
  };
  /* A phase run stage by stage between barriers: its points keep columns of their own. */
  auto own_slots = [&](std::vector<Step> ThreadPlan::*phase) {
    for (int32_t s = 0; s < stages(); ++s)
      for (const ThreadPlan &mine : threads_plan_)
        for (const Step &step : mine.*phase)
          if (step.stage == s)
            touch(step, [&](int32_t p, bool write) {
              check(p, write);
              thread_of[p] = kOwnSlot;
            });
  };
  own_slots(&ThreadPlan::shared);
  int64_t time = 0; /* the tile steps of all threads, numbered in turn */
  std::vector<int64_t> thread_start(threads_ + 1, 0);
  for (int32_t t = 0; t < threads_; ++t) {
    thread_start[t] = time;
    for (const Step &step : threads_plan_[t].tiles) {
      touch(step, [&](int32_t p, bool write) {
        check(p, write);
        if (thread_of[p] == kOwnSlot)
          return;
        if (thread_of[p] >= 0 && thread_of[p] != t) {
          thread_of[p] = kOwnSlot;
          return;
        }
        thread_of[p] = t;
        if (first[p] == kUntouched)
          first[p] = time;
        last[p] = time;
      });
      ++time;
    }
  }
  thread_start[threads_] = time;
  own_slots(&ThreadPlan::rest);
  plan.folded = !read_before_written;
  if (!plan.folded)
    return plan;

  /* Points with a slot of their own first, in point order; then each thread's ring. */
  plan.slots.assign(points, -1);
  int32_t next = 0;
  for (size_t p = 0; p < points; ++p)
    if (thread_of[p] == kOwnSlot)
      plan.slots[p] = next++;
  /* The ring points whose last touch is each step, as lists in CSR form. */
  std::vector<int64_t> ending(time + 1, 0);
  for (size_t p = 0; p < points; ++p)
    if (thread_of[p] >= 0)
      ++ending[last[p] + 1];
  for (int64_t i = 0; i < time; ++i)
    ending[i + 1] += ending[i];
  std::vector<int32_t> ended(ending[time]);
  {
    std::vector<int64_t> fill(ending.begin(), ending.end() - 1);
    for (size_t p = 0; p < points; ++p)
      if (thread_of[p] >= 0)
        ended[fill[last[p]]++] = static_cast<int32_t>(p);
  }
  const int32_t own = next;
  for (int32_t t = 0; t < threads_; ++t) {
    std::vector<int32_t> free_slots;
    size_t free_head = 0;
    int32_t ring = 0;
    int64_t step_time = thread_start[t];
    for (const Step &step : threads_plan_[t].tiles) {
      touch(step, [&](int32_t p, bool) {
        if (thread_of[p] != t || first[p] != step_time || plan.slots[p] >= 0)
          return;
        if (free_head == free_slots.size()) {
          plan.slots[p] = next + ring++;
        } else {
          plan.slots[p] = free_slots[free_head++];
        }
      });
      for (int64_t i = ending[step_time]; i < ending[step_time + 1]; ++i)
        free_slots.push_back(plan.slots[ended[i]]);
      ++step_time;
    }
    next += ring;
  }
  plan.columns = next;
  plan.ring_columns = next - own;
  plan.at.assign(points, -1);
  const int64_t stride = detail::column_stride(fold);
  for (size_t p = 0; p < points; ++p)
    if (plan.slots[p] >= 0)
      plan.at[p] = plan.slots[p] * stride;
  for (int32_t a = 0; a < fold.count; ++a) {
    const FoldAccess &access = fold.accesses[a];
    if (access.kind != FoldAccess::Gather)
      continue;
    bool known = false;
    for (const auto &through : plan.through)
      known = known || through.first == access.table;
    if (known)
      continue;
    /* Every row of the table (ld of them), as its full block offsets have. */
    std::vector<int64_t> offsets(static_cast<size_t>(access.ld) * access.neighbors, -1);
    for (int32_t n = 0; n < access.neighbors; ++n)
      for (int64_t h = 0; h < access.ld; ++h) {
        const int32_t p = access.table[h + n * access.ld];
        if (p >= 0 && p < fold.points)
          offsets[h + n * access.ld] = plan.at[p];
      }
    plan.through.emplace_back(access.table, std::move(offsets));
  }
  return plan;
}

/* Where each of `points` columns of `levels` elements starts in a full buffer of the columns
 * layout (p * levels): what kernels of a group with folds address that buffer through when
 * the group runs as written. */
inline int column_starts(HostArray<int64_t> &starts, int32_t points, int64_t levels) {
  if (points < 0 || levels < 1)
    return FUSEC_ERROR_INVALID_ARGUMENT;
  if (int status = starts.allocate(static_cast<size_t>(points)))
    return status;
  for (int32_t p = 0; p < points; ++p)
    starts.data()[p] = p * levels;
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
        int32_t count, int32_t tile, const Fold *folds, int32_t fold_count, Run &&run_stage) {
  const int32_t threads = team_size();
  if (int rc = on_one_thread([&] {
        return plan.built_for(domains, stages, threads)
                   ? int(FUSEC_SUCCESS)
                   : plan.build(domains, stages, dependences, count, threads, tile, folds,
                                fold_count);
      }))
    return rc;
  plan.execute(team_thread(), run_stage);
  return FUSEC_SUCCESS;
}

} // namespace wavefront
} // namespace fusec

#endif /* FUSEC_WAVEFRONT_H */
