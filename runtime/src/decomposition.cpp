// Decomposition of a global grid into domains: RCB partitioning, halo lines, local grids and
// exchange plans (see fusec/decomposition.h for the rules).
#include "fusec/decomposition.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace fusec {
namespace {

// Ascending, without duplicates.
void sort_unique(std::vector<int32_t> &values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

bool contains(const std::vector<int32_t> &sorted, int32_t value) {
  return std::binary_search(sorted.begin(), sorted.end(), value);
}

// The valid entries of `table` in the rows `sources`, sorted and unique.
std::vector<int32_t> neighbors_of(const Table &table, const std::vector<int32_t> &sources) {
  std::vector<int32_t> result;
  result.reserve(sources.size() * size_t(table.cols));
  for (int32_t h : sources)
    for (int32_t n = 0; n < table.cols; ++n)
      if (int32_t neighbor = table(h, n); neighbor != kMissing)
        result.push_back(neighbor);
  sort_unique(result);
  return result;
}

// Recursively splits cells[begin, end) among ranks [first_rank, first_rank + num_ranks): the
// lower half of the ranks gets the cells with the smallest coordinate along the axis of largest
// extent, as many as their floor/ceil targets add up to.
class CoordinateBisection {
public:
  CoordinateBisection(const Points &centres, int32_t num_cells, int32_t num_ranks)
      : centres_(centres), num_cells_(num_cells), num_ranks_(num_ranks) {}

  // Cells grouped by rank: result[offsets[r] .. offsets[r+1]) are rank r's cells.
  std::vector<int32_t> partition(std::vector<int32_t> &offsets) const {
    std::vector<int32_t> cells(static_cast<size_t>(num_cells_));
    std::iota(cells.begin(), cells.end(), 0);
    offsets.assign(size_t(num_ranks_) + 1, 0);
    for (int32_t r = 0; r < num_ranks_; ++r)
      offsets[r + 1] = offsets[r] + target(r);
    split(cells, 0, num_cells_, 0, num_ranks_, offsets);
    return cells;
  }

private:
  // floor(C/N) or ceil(C/N): the first C mod N ranks get one more cell.
  int32_t target(int32_t rank) const {
    return num_cells_ / num_ranks_ + (rank < num_cells_ % num_ranks_ ? 1 : 0);
  }

  const std::vector<double> &axis_values(int axis) const {
    return axis == 0 ? centres_.x : axis == 1 ? centres_.y : centres_.z;
  }

  int widest_axis(const std::vector<int32_t> &cells, int32_t begin, int32_t end) const {
    int best_axis = 0;
    double best_extent = -1;
    for (int axis = 0; axis < 3; ++axis) {
      const std::vector<double> &values = axis_values(axis);
      auto [low, high] =
          std::minmax_element(cells.begin() + begin, cells.begin() + end,
                              [&](int32_t a, int32_t b) { return values[a] < values[b]; });
      double extent = values[*high] - values[*low];
      if (extent > best_extent) {
        best_extent = extent;
        best_axis = axis;
      }
    }
    return best_axis;
  }

  void split(std::vector<int32_t> &cells, int32_t begin, int32_t end, int32_t first_rank,
             int32_t num_ranks, const std::vector<int32_t> &offsets) const {
    if (num_ranks <= 1 || end - begin <= 1)
      return;
    int32_t lower_ranks = num_ranks / 2;
    int32_t middle = offsets[first_rank + lower_ranks];
    const std::vector<double> &values = axis_values(widest_axis(cells, begin, end));
    // A strict total order (ties by index), so the split is the same on every machine.
    std::nth_element(cells.begin() + begin, cells.begin() + middle, cells.begin() + end,
                     [&](int32_t a, int32_t b) {
                       return values[a] != values[b] ? values[a] < values[b] : a < b;
                     });
    split(cells, begin, middle, first_rank, lower_ranks, offsets);
    split(cells, middle, end, first_rank + lower_ranks, num_ranks - lower_ranks, offsets);
  }

  const Points &centres_;
  int32_t num_cells_;
  int32_t num_ranks_;
};

// The owner of each edge or vertex: the owner of its lowest-index adjacent cell.
std::vector<int32_t> owners_through_cells(const Table &to_cells,
                                          const std::vector<int32_t> &cell_owner) {
  std::vector<int32_t> owner(size_t(to_cells.rows), kMissing);
  for (int32_t h = 0; h < to_cells.rows; ++h) {
    int32_t lowest = kMissing;
    for (int32_t n = 0; n < to_cells.cols; ++n)
      if (int32_t c = to_cells(h, n); c != kMissing && (lowest == kMissing || c < lowest))
        lowest = c;
    owner[h] = cell_owner[lowest];
  }
  return owner;
}

// Splits the sorted `points` into those owned by `rank` and the others, both still sorted.
void split_by_owner(const std::vector<int32_t> &points, const std::vector<int32_t> &owner,
                    int32_t rank, std::vector<int32_t> &owned, std::vector<int32_t> &others) {
  for (int32_t p : points)
    (owner[p] == rank ? owned : others).push_back(p);
}

// Appends `line` to the points of `location` and records its size as halo line `line_number`.
void append_line(DomainPoints &points, Location location, int line_number,
                 const std::vector<int32_t> &line) {
  std::vector<int32_t> &global = points.global_index[int(location)];
  global.insert(global.end(), line.begin(), line.end());
  points.num_halo[int(location)][line_number - 1] = int32_t(line.size());
}

// Sorted (global, local) pairs of one location.
std::vector<std::pair<int32_t, int32_t>> inverse_map(const std::vector<int32_t> &global) {
  std::vector<std::pair<int32_t, int32_t>> pairs(global.size());
  for (size_t i = 0; i < global.size(); ++i)
    pairs[i] = {global[i], int32_t(i)};
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

int32_t lookup(const std::vector<std::pair<int32_t, int32_t>> &pairs, int32_t global) {
  auto it = std::lower_bound(pairs.begin(), pairs.end(), std::make_pair(global, INT32_MIN));
  return it != pairs.end() && it->first == global ? it->second : kMissing;
}

// The rows `global_rows` of a global table, with entries mapped to local indices (-1 outside).
Table local_table(const Table &global, const std::vector<int32_t> &global_rows,
                  const std::vector<std::pair<int32_t, int32_t>> &target_map) {
  Table result(int32_t(global_rows.size()), global.cols, kMissing);
  for (int32_t i = 0; i < result.rows; ++i)
    for (int32_t n = 0; n < global.cols; ++n)
      if (int32_t g = global(global_rows[i], n); g != kMissing)
        result(i, n) = lookup(target_map, g);
  return result;
}

template <typename T>
std::vector<T> gather(const std::vector<T> &values, const std::vector<int32_t> &indices) {
  std::vector<T> result;
  if (values.empty())
    return result;
  result.reserve(indices.size());
  for (int32_t i : indices)
    result.push_back(values[i]);
  return result;
}

template <typename T>
NeighborArray<T> gather_rows(const NeighborArray<T> &values, const std::vector<int32_t> &rows) {
  if (values.empty())
    return {};
  NeighborArray<T> result(int32_t(rows.size()), values.cols, T());
  for (int32_t i = 0; i < result.rows; ++i)
    for (int32_t n = 0; n < values.cols; ++n)
      result(i, n) = values(rows[i], n);
  return result;
}

Points gather_points(const Points &points, const std::vector<int32_t> &indices) {
  return {gather(points.lon, indices), gather(points.lat, indices), gather(points.x, indices),
          gather(points.y, indices), gather(points.z, indices)};
}

GridGeometry local_geometry(const GridGeometry &g, const DomainPoints &points) {
  const std::vector<int32_t> &cells = points.global_index[int(Location::Cell)];
  const std::vector<int32_t> &edges = points.global_index[int(Location::Edge)];
  const std::vector<int32_t> &vertices = points.global_index[int(Location::Vertex)];
  GridGeometry local;
  local.sphere_radius = g.sphere_radius;
  local.cells = gather_points(g.cells, cells);
  local.edges = gather_points(g.edges, edges);
  local.vertices = gather_points(g.vertices, vertices);
  local.cell_area = gather(g.cell_area, cells);
  local.dual_area = gather(g.dual_area, vertices);
  local.edge_length = gather(g.edge_length, edges);
  local.dual_edge_length = gather(g.dual_edge_length, edges);
  local.vert_vert_length = gather(g.vert_vert_length, edges);
  local.edge_cell_distance = gather_rows(g.edge_cell_distance, edges);
  local.edge_vert_distance = gather_rows(g.edge_vert_distance, edges);
  local.primal_normal_x = gather(g.primal_normal_x, edges);
  local.primal_normal_y = gather(g.primal_normal_y, edges);
  local.primal_normal_z = gather(g.primal_normal_z, edges);
  local.dual_normal_x = gather(g.dual_normal_x, edges);
  local.dual_normal_y = gather(g.dual_normal_y, edges);
  local.dual_normal_z = gather(g.dual_normal_z, edges);
  local.primal_normal_u = gather(g.primal_normal_u, edges);
  local.primal_normal_v = gather(g.primal_normal_v, edges);
  local.dual_normal_u = gather(g.dual_normal_u, edges);
  local.dual_normal_v = gather(g.dual_normal_v, edges);
  local.edge_system_orientation = gather(g.edge_system_orientation, edges);
  local.orientation_of_normal = gather_rows(g.orientation_of_normal, cells);
  local.edge_orientation = gather_rows(g.edge_orientation, vertices);
  return local;
}

// The halo points of `points` (lines 1..lines) owned by `owner_rank`, as local indices of
// `points`, in local order.
template <typename Emit>
void for_halo_points_owned_by(const DomainPoints &points, Location location, int32_t lines,
                              const std::vector<int32_t> &owner, int32_t owner_rank, Emit emit) {
  int l = int(location);
  int32_t begin = points.num_owned[l];
  int32_t end = begin;
  for (int32_t line = 0; line < lines; ++line)
    end += points.num_halo[l][line];
  for (int32_t i = begin; i < end; ++i)
    if (owner[points.global_index[l][i]] == owner_rank)
      emit(i);
}

// The ranks that may exchange with `rank`: owners of the cells sharing a vertex with any of
// its local cells. A peer s needs a point p owned by rank only if p lies on a cell of s's halo
// line 2, which is an edge neighbour of a line-1 cell, which shares a vertex with a cell s
// owns; seen from rank, that owned cell is at most one vertex step beyond its own halo.
std::vector<int32_t> candidate_peers(const Grid &global, const Decomposition &decomposition,
                                     const DomainPoints &points, int32_t rank) {
  const std::vector<int32_t> &cells = points.global_index[int(Location::Cell)];
  std::vector<int32_t> reach = neighbors_of(global.table(Connectivity::V2C),
                                            neighbors_of(global.table(Connectivity::C2V), cells));
  std::vector<int32_t> peers;
  for (int32_t c : reach)
    if (int32_t owner = decomposition.owner[int(Location::Cell)][c]; owner != rank)
      peers.push_back(owner);
  sort_unique(peers);
  return peers;
}

} // namespace

Result<Decomposition> decompose(const Grid &global, int32_t num_ranks) {
  if (num_ranks < 1 || num_ranks > global.num_cells())
    return Status::failure("cannot decompose " + std::to_string(global.num_cells()) +
                           " cells into " + std::to_string(num_ranks) + " domains");
  const Points &centres = global.geometry().cells;
  Decomposition decomposition;
  decomposition.num_ranks = num_ranks;
  decomposition.owned_cells = CoordinateBisection(centres, global.num_cells(), num_ranks)
                                  .partition(decomposition.cell_offsets);
  std::vector<int32_t> &cell_owner = decomposition.owner[int(Location::Cell)];
  cell_owner.assign(size_t(global.num_cells()), 0);
  for (int32_t r = 0; r < num_ranks; ++r) {
    auto begin = decomposition.owned_cells.begin() + decomposition.cell_offsets[r];
    auto end = decomposition.owned_cells.begin() + decomposition.cell_offsets[r + 1];
    std::sort(begin, end);
    for (auto it = begin; it != end; ++it)
      cell_owner[*it] = r;
  }
  decomposition.owner[int(Location::Edge)] =
      owners_through_cells(global.table(Connectivity::E2C), cell_owner);
  decomposition.owner[int(Location::Vertex)] =
      owners_through_cells(global.table(Connectivity::V2C), cell_owner);
  return decomposition;
}

DomainPoints domain_points(const Grid &global, const Decomposition &decomposition, int32_t rank) {
  const auto &owner = decomposition.owner;
  const std::vector<int32_t> &cell_owner = owner[int(Location::Cell)];
  std::vector<int32_t> owned_cells(
      decomposition.owned_cells.begin() + decomposition.cell_offsets[rank],
      decomposition.owned_cells.begin() + decomposition.cell_offsets[rank + 1]);

  // Cells: line 1 shares a vertex with an owned cell, line 2 an edge with a line-1 cell.
  std::vector<int32_t> unused, cell_line1, cell_line2;
  split_by_owner(neighbors_of(global.table(Connectivity::V2C),
                              neighbors_of(global.table(Connectivity::C2V), owned_cells)),
                 cell_owner, rank, unused, cell_line1);
  for (int32_t c : neighbors_of(global.table(Connectivity::C2E2C), cell_line1))
    if (cell_owner[c] != rank && !contains(cell_line1, c))
      cell_line2.push_back(c);

  DomainPoints points;
  points.global_index[int(Location::Cell)] = owned_cells;
  points.num_owned[int(Location::Cell)] = int32_t(owned_cells.size());
  append_line(points, Location::Cell, 1, cell_line1);
  append_line(points, Location::Cell, 2, cell_line2);

  // Edges and vertices: owned ones and line 1 are on owned cells, line 2 on halo cells.
  std::vector<int32_t> halo_cells = cell_line1;
  halo_cells.insert(halo_cells.end(), cell_line2.begin(), cell_line2.end());
  sort_unique(halo_cells);
  const std::pair<Location, Connectivity> cell_tables[] = {{Location::Edge, Connectivity::C2E},
                                                           {Location::Vertex, Connectivity::C2V}};
  for (auto [location, connectivity] : cell_tables) {
    const Table &table = global.table(connectivity);
    std::vector<int32_t> on_owned = neighbors_of(table, owned_cells);
    std::vector<int32_t> owned, line1, line2;
    split_by_owner(on_owned, owner[int(location)], rank, owned, line1);
    for (int32_t p : neighbors_of(table, halo_cells))
      if (!contains(on_owned, p))
        line2.push_back(p);
    points.global_index[int(location)] = owned;
    points.num_owned[int(location)] = int32_t(owned.size());
    append_line(points, location, 1, line1);
    append_line(points, location, 2, line2);
  }
  return points;
}

int32_t LocalDomain::local_index(Location location, int32_t global) const {
  return lookup(global_to_local[int(location)], global);
}

Result<LocalDomain> make_local_domain(const Grid &global, const Decomposition &decomposition,
                                      int32_t rank) {
  if (rank < 0 || rank >= decomposition.num_ranks)
    return Status::failure("rank " + std::to_string(rank) + " is not in [0, " +
                           std::to_string(decomposition.num_ranks) + ")");
  DomainPoints points = domain_points(global, decomposition, rank);
  std::array<std::vector<std::pair<int32_t, int32_t>>, kNumLocations> maps;
  for (int l = 0; l < kNumLocations; ++l)
    maps[l] = inverse_map(points.global_index[l]);
  const auto &cells = points.global_index[int(Location::Cell)];
  const auto &edges = points.global_index[int(Location::Edge)];
  const auto &vertices = points.global_index[int(Location::Vertex)];
  const auto &cell_map = maps[int(Location::Cell)];
  const auto &edge_map = maps[int(Location::Edge)];
  const auto &vertex_map = maps[int(Location::Vertex)];

  GridTopology topology;
  for (int l = 0; l < kNumLocations; ++l) {
    topology.num_points[l] = int32_t(points.global_index[l].size());
    topology.refin_ctrl[l] = gather(global.refin_ctrl(Location(l)), points.global_index[l]);
    topology.num_halo[l] = points.num_halo[l];
  }
  topology.c2v = local_table(global.table(Connectivity::C2V), cells, vertex_map);
  topology.c2e = local_table(global.table(Connectivity::C2E), cells, edge_map);
  topology.c2e2c = local_table(global.table(Connectivity::C2E2C), cells, cell_map);
  topology.e2c = local_table(global.table(Connectivity::E2C), edges, cell_map);
  topology.e2v = local_table(global.table(Connectivity::E2V), edges, vertex_map);
  topology.v2c = local_table(global.table(Connectivity::V2C), vertices, cell_map);
  topology.v2e = local_table(global.table(Connectivity::V2E), vertices, edge_map);
  topology.v2e2v = local_table(global.table(Connectivity::V2E2V), vertices, vertex_map);

  GridMetadata metadata = global.metadata();
  metadata.name += " rank " + std::to_string(rank) + "/" + std::to_string(decomposition.num_ranks);
  Result<Grid> grid = Grid::create(std::move(metadata), std::move(topology),
                                   local_geometry(global.geometry(), points));
  if (!grid)
    return grid.status();

  LocalDomain domain{rank, std::move(grid).value(), std::move(points), {}, std::move(maps)};
  for (int32_t peer : candidate_peers(global, decomposition, domain.points, rank)) {
    DomainPoints peer_points = domain_points(global, decomposition, peer);
    for (int l = 0; l < kNumLocations; ++l) {
      const std::vector<int32_t> &owner = decomposition.owner[l];
      for (int32_t lines = 1; lines <= kHaloLines; ++lines) {
        HaloExchange exchange;
        exchange.peer = peer;
        for_halo_points_owned_by(domain.points, Location(l), lines, owner, peer,
                                 [&](int32_t local) { exchange.receive.push_back(local); });
        for_halo_points_owned_by(
            peer_points, Location(l), lines, owner, rank, [&](int32_t peer_local) {
              exchange.send.push_back(
                  domain.local_index(Location(l), peer_points.global_index[l][peer_local]));
            });
        if (!exchange.receive.empty() || !exchange.send.empty())
          domain.exchanges[l][lines - 1].push_back(std::move(exchange));
      }
    }
  }
  return domain;
}

HaloCounts count_halos(const Grid &global, const Decomposition &decomposition) {
  HaloCounts counts;
  counts.num_ranks = decomposition.num_ranks;
  const std::vector<int32_t> &cell_owner = decomposition.owner[int(Location::Cell)];
  for (int32_t rank = 0; rank < decomposition.num_ranks; ++rank) {
    DomainPoints points = domain_points(global, decomposition, rank);
    for (int l = 0; l < kNumLocations; ++l) {
      int32_t line1 = points.num_halo[l][0];
      int32_t halo = line1 + points.num_halo[l][1];
      counts.halo_points[l] += halo;
      counts.halo_line1_points[l] += line1;
      if (points.num_owned[l] > 0)
        counts.max_rank_ratio[l] =
            std::max(counts.max_rank_ratio[l], double(halo) / double(points.num_owned[l]));
    }
    const std::vector<int32_t> &cells = points.global_index[int(Location::Cell)];
    std::vector<int32_t> peers;
    for (size_t i = size_t(points.num_owned[int(Location::Cell)]); i < cells.size(); ++i)
      peers.push_back(cell_owner[cells[i]]);
    sort_unique(peers);
    counts.max_peers = std::max(counts.max_peers, int32_t(peers.size()));
  }
  return counts;
}

} // namespace fusec
