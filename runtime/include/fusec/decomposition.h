// fusec runtime: decomposing a global ICON grid over N domains (MPI ranks) and building each
// domain's local grid, its global<->local maps and its halo-exchange plans. No MPI: every rank
// can compute its own domain from the global grid, deterministically, as ICON does at start-up.
//
// Partitioning: recursive coordinate bisection (RCB) of the cell centres, in Cartesian
// coordinates on the unit sphere. It is ICON's own approach (its default geometric division
// also bisects cell centres recursively), needs no extra library (METIS would), is bit-for-bit
// deterministic (ties are broken by global index), gives compact domains, and splits the rank
// count unevenly when it is odd, so any N >= 1 works and every domain gets floor(C/N) or
// ceil(C/N) cells. Cartesian rather than lon/lat coordinates avoid a seam at the date line and
// the poles. At each step the cells are split across the axis of largest extent.
//
// Ownership of edges and vertices: the owner of the adjacent cell (E2C, V2C) with the lowest
// global index.
//
// Local ordering of rank r, per location (ICON's: owned points first, halos last):
//   owned points, in global order (so a LAM's refin_ctrl blocks stay contiguous and ordered);
//   halo line 1, in global order;
//   halo line 2, in global order.
// Halo lines (ICON's two cell halo lines, max_hw = 2; icon4py's HALO and HALO_LEVEL_2):
//   cells   line 1: not owned, sharing a vertex with an owned cell;
//           line 2: not owned or in line 1, sharing an edge with a line-1 cell;
//   edges   line 1: edges of owned cells owned by another rank (the cut);
//           line 2: the other edges of line-1 and line-2 cells;
//   vertices line 1: vertices of owned cells owned by another rank (the cut);
//           line 2: the other vertices of line-1 and line-2 cells.
// So every neighbour (in all 14 tables) of an owned point is local, and so is every C2E, C2V,
// C2E2C and E2C, E2V neighbour of a line-1 point. Neighbours outside the local grid are -1, in
// the column the global table has them (halo rows of V2C/V2E/V2E2V may have -1 before valid
// entries).
//
// Zones of the local grid (Grid::zone): the lateral boundary and nudging zones come from the
// owned points' refin_ctrl; LOCAL = [0, owned), HALO = line 1, HALO_LEVEL_2 = line 2,
// INTERIOR ends at the owned end, END = [n, n). So [start(X), end(LOCAL)) is "owned" and
// [start(X), end(HALO_LEVEL_2)) is "with both halo lines", both contiguous.
//
// Example:
//   Result<Grid> global = make_grid("r2b4");
//   Decomposition decomposition = decompose(*global, 4);
//   Result<LocalDomain> rank1 = make_local_domain(*global, decomposition, 1);
//   rank1->grid.end(Location::Cell, Zone::Local);             // owned cells
//   rank1->global_index(Location::Edge, 17);                  // global index of local edge 17
//   for (const HaloExchange &peer : rank1->exchange(Location::Edge, 2)) ...
#ifndef FUSEC_DECOMPOSITION_H
#define FUSEC_DECOMPOSITION_H

#include "fusec/grid.h"
#include "fusec/status.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace fusec {

// ICON's halo width: two cell lines.
constexpr int32_t kHaloLines = 2;

// The owner rank of every global point.
struct Decomposition {
  int32_t num_ranks = 0;
  std::array<std::vector<int32_t>, kNumLocations> owner; // indexed by Location, then global index
  // Global cell indices of rank r: owned_cells[cell_offsets[r] .. cell_offsets[r+1]), ascending.
  std::vector<int32_t> cell_offsets;
  std::vector<int32_t> owned_cells;
};

// Recursive coordinate bisection of `global`'s cell centres into num_ranks >= 1 domains.
Result<Decomposition> decompose(const Grid &global, int32_t num_ranks);

// The global indices of one rank's points in local order, per location, and how many are owned
// and in each halo line.
struct DomainPoints {
  std::array<std::vector<int32_t>, kNumLocations> global_index;
  std::array<int32_t, kNumLocations> num_owned{};
  std::array<std::array<int32_t, kHaloLines>, kNumLocations> num_halo{}; // [location][line - 1]
};

// The point sets of `rank` (cheap: no tables or geometry; what the halo counts need).
DomainPoints domain_points(const Grid &global, const Decomposition &decomposition, int32_t rank);

// One peer in an exchange: the local indices this rank receives from `peer` (halo points the
// peer owns) and sends to it (owned points in the peer's halo). Both lists are in the order of
// the receiver's local indices, so rank r's `send` to s lists the same global points, in the
// same order, as rank s's `receive` from r.
struct HaloExchange {
  int32_t peer = 0;
  std::vector<int32_t> receive;
  std::vector<int32_t> send;
};

// A rank's local grid and its maps to the global grid.
struct LocalDomain {
  int32_t rank = 0;
  Grid grid;
  DomainPoints points;
  // exchanges[location][lines - 1]: the peers (ascending) of an exchange that fills halo lines
  // 1..lines of that location.
  std::array<std::array<std::vector<HaloExchange>, kHaloLines>, kNumLocations> exchanges;
  // Sorted (global, local) pairs per location, for local_index.
  std::array<std::vector<std::pair<int32_t, int32_t>>, kNumLocations> global_to_local;

  int32_t global_index(Location location, int32_t local) const {
    return points.global_index[int(location)][local];
  }
  // The local index of a global point, or -1 if it is not on this rank.
  int32_t local_index(Location location, int32_t global) const;
  const std::vector<HaloExchange> &exchange(Location location, int32_t lines) const {
    return exchanges[int(location)][lines - 1];
  }
};

// Rank `rank`'s local grid: tables, refin_ctrl, zones as described above, geometry copied from
// `global` (so coefficients computed locally equal the global ones at owned points), maps and
// exchange plans.
Result<LocalDomain> make_local_domain(const Grid &global, const Decomposition &decomposition,
                                      int32_t rank);

// Halo sizes of a whole decomposition, for capacity planning (computed without local grids).
struct HaloCounts {
  int32_t num_ranks = 0;
  // Per location: halo points of all ranks (lines 1 and 2), i.e. the points one full-depth
  // exchange of one field moves per step, and the largest halo/owned ratio of any rank.
  std::array<int64_t, kNumLocations> halo_points{};
  std::array<int64_t, kNumLocations> halo_line1_points{};
  std::array<double, kNumLocations> max_rank_ratio{};
  // The number of peers of the busiest rank (cells, both lines).
  int32_t max_peers = 0;
};
HaloCounts count_halos(const Grid &global, const Decomposition &decomposition);

} // namespace fusec

#endif // FUSEC_DECOMPOSITION_H
