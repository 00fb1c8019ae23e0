// Decomposition into domains: ownership, ordering, halo completeness, local tables, exchange
// plans and a halo-exchange-then-stencil check against the global grid.
#include "fusec/coefficients.h"
#include "fusec/decomposition.h"
#include "fusec/grid_generator.h"
#include "grid_named.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>

using namespace fusec;
using fusec::testing::grid_named;

namespace {

const char *const kGrids[] = {"r2b2", "lam-r2b3"};
const int32_t kRankCounts[] = {1, 2, 3, 4, 7};
const Location kLocations[] = {Location::Cell, Location::Edge, Location::Vertex};
const Connectivity kStoredTables[] = {Connectivity::C2V, Connectivity::C2E,  Connectivity::C2E2C,
                                      Connectivity::E2C, Connectivity::E2V,  Connectivity::V2C,
                                      Connectivity::V2E, Connectivity::V2E2V};

const Decomposition &decomposition_of(const std::string &name, int32_t num_ranks) {
  static std::map<std::pair<std::string, int32_t>, Decomposition> cache;
  auto key = std::make_pair(name, num_ranks);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, std::move(decompose(grid_named(name), num_ranks)).value()).first;
  return it->second;
}

const std::vector<LocalDomain> &domains_of(const std::string &name, int32_t num_ranks) {
  static std::map<std::pair<std::string, int32_t>, std::vector<LocalDomain>> cache;
  auto key = std::make_pair(name, num_ranks);
  auto it = cache.find(key);
  if (it == cache.end()) {
    std::vector<LocalDomain> domains;
    for (int32_t r = 0; r < num_ranks; ++r) {
      Result<LocalDomain> domain =
          make_local_domain(grid_named(name), decomposition_of(name, num_ranks), r);
      REQUIRE(domain);
      domains.push_back(std::move(domain).value());
    }
    it = cache.emplace(key, std::move(domains)).first;
  }
  return it->second;
}

int32_t num_owned(const LocalDomain &domain, Location location) {
  return domain.points.num_owned[int(location)];
}

// A value per global point that no two points share.
double global_value(Location location, int32_t g) { return std::sin(0.37 * g + int(location)); }

// Each domain's field: global_value at owned points, NaN in the halo until exchanged.
std::vector<std::vector<double>> owned_values(const std::vector<LocalDomain> &domains,
                                              Location location) {
  std::vector<std::vector<double>> fields;
  for (const LocalDomain &domain : domains) {
    std::vector<double> field(size_t(domain.grid.num_points(location)),
                              std::numeric_limits<double>::quiet_NaN());
    for (int32_t i = 0; i < num_owned(domain, location); ++i)
      field[i] = global_value(location, domain.global_index(location, i));
    fields.push_back(std::move(field));
  }
  return fields;
}

// What an MPI exchange would do: each rank's send list, read on the sender, lands in the
// matching receive list of the receiver.
void exchange_halos(const std::vector<LocalDomain> &domains, Location location, int32_t lines,
                    std::vector<std::vector<double>> &fields) {
  for (const LocalDomain &receiver : domains)
    for (const HaloExchange &incoming : receiver.exchange(location, lines))
      for (const HaloExchange &outgoing : domains[incoming.peer].exchange(location, lines))
        if (outgoing.peer == receiver.rank) {
          REQUIRE(outgoing.send.size() == incoming.receive.size());
          for (size_t k = 0; k < outgoing.send.size(); ++k)
            fields[receiver.rank][incoming.receive[k]] = fields[incoming.peer][outgoing.send[k]];
        }
}

} // namespace

TEST_CASE("decompose: balanced to one cell, every point owned once", "[decomposition]") {
  for (const char *name : kGrids)
    for (int32_t num_ranks : kRankCounts) {
      CAPTURE(name, num_ranks);
      const Grid &global = grid_named(name);
      const Decomposition &decomposition = decomposition_of(name, num_ranks);
      int32_t smallest = global.num_cells(), largest = 0;
      for (int32_t r = 0; r < num_ranks; ++r) {
        int32_t size = decomposition.cell_offsets[r + 1] - decomposition.cell_offsets[r];
        smallest = std::min(smallest, size);
        largest = std::max(largest, size);
      }
      CHECK(largest - smallest <= 1);
      for (Location location : kLocations) {
        std::vector<int32_t> times_owned(size_t(global.num_points(location)), 0);
        for (const LocalDomain &domain : domains_of(name, num_ranks))
          for (int32_t i = 0; i < num_owned(domain, location); ++i)
            ++times_owned[domain.global_index(location, i)];
        CHECK(
            std::all_of(times_owned.begin(), times_owned.end(), [](int32_t n) { return n == 1; }));
      }
    }
}

TEST_CASE("decompose: deterministic and rejects bad rank counts", "[decomposition]") {
  const Grid &global = grid_named("r2b2");
  CHECK(decompose(global, 7)->owner == decompose(global, 7)->owner);
  CHECK_FALSE(decompose(global, 0));
  CHECK_FALSE(decompose(global, global.num_cells() + 1));
  CHECK_FALSE(make_local_domain(global, decomposition_of("r2b2", 2), 2));
}

TEST_CASE("local grid: owned first, then halo lines 1 and 2, with matching zones",
          "[decomposition]") {
  for (const char *name : kGrids)
    for (int32_t num_ranks : kRankCounts)
      for (const LocalDomain &domain : domains_of(name, num_ranks))
        for (Location location : kLocations) {
          CAPTURE(name, num_ranks, domain.rank, location_name(location));
          const Grid &grid = domain.grid;
          const std::vector<int32_t> &owner =
              decomposition_of(name, num_ranks).owner[int(location)];
          int32_t owned = num_owned(domain, location);
          int32_t line1 = domain.points.num_halo[int(location)][0];
          int32_t n = grid.num_points(location);
          CHECK(grid.zone(location, Zone::Local) == IndexRange{0, owned});
          CHECK(grid.zone(location, Zone::Halo) == IndexRange{owned, owned + line1});
          CHECK(grid.zone(location, Zone::HaloLevel2) == IndexRange{owned + line1, n});
          CHECK(grid.zone(location, Zone::End) == IndexRange{n, n});
          CHECK(grid.end(location, Zone::Interior) == owned);
          if (num_ranks == 1)
            CHECK(n == owned);
          const std::pair<int32_t, int32_t> segments[] = {
              {0, owned}, {owned, owned + line1}, {owned + line1, n}};
          for (auto [begin, end] : segments)
            for (int32_t i = begin + 1; i < end; ++i)
              REQUIRE(domain.global_index(location, i - 1) < domain.global_index(location, i));
          for (int32_t i = 0; i < n; ++i) {
            int32_t g = domain.global_index(location, i);
            REQUIRE((owner[g] == domain.rank) == (i < owned));
            REQUIRE(domain.local_index(location, g) == i);
          }
        }
}

TEST_CASE("local grid: LAM boundary zones are the owned points of each refin_ctrl row",
          "[decomposition]") {
  const Grid &global = grid_named("lam-r2b3");
  for (int32_t num_ranks : kRankCounts)
    for (const LocalDomain &domain : domains_of("lam-r2b3", num_ranks))
      for (Location location : kLocations) {
        CAPTURE(num_ranks, domain.rank, location_name(location));
        const Grid &grid = domain.grid;
        IndexRange interior = grid.zone(location, Zone::Interior);
        for (int32_t i = 0; i < interior.start; ++i)
          REQUIRE(grid.refin_ctrl(location)[i] > 0);
        for (int32_t i = 0; i < grid.num_points(location); ++i)
          REQUIRE(grid.refin_ctrl(location)[i] ==
                  global.refin_ctrl(location)[domain.global_index(location, i)]);
      }
}

TEST_CASE("local grid: tables map to the global neighbours, complete at owned points",
          "[decomposition]") {
  for (const char *name : kGrids)
    for (int32_t num_ranks : kRankCounts)
      for (const LocalDomain &domain : domains_of(name, num_ranks))
        for (int c = 0; c < kNumConnectivities; ++c) {
          const ConnectivityInfo &info = connectivity_info(Connectivity(c));
          CAPTURE(name, num_ranks, domain.rank, info.name);
          const Table &local = domain.grid.table(Connectivity(c));
          const Table &global = grid_named(name).table(Connectivity(c));
          bool stored = std::find(std::begin(kStoredTables), std::end(kStoredTables),
                                  Connectivity(c)) != std::end(kStoredTables);
          for (int32_t i = 0; i < local.rows; ++i) {
            bool owned = i < num_owned(domain, info.source);
            int32_t gi = domain.global_index(info.source, i);
            for (int32_t n = 0; n < local.cols; ++n) {
              int32_t expected = global(gi, n);
              int32_t mapped = local(i, n) == kMissing
                                   ? kMissing
                                   : domain.global_index(info.target, local(i, n));
              if (mapped != kMissing)
                REQUIRE(mapped == expected);
              // Halo completeness: every neighbour of an owned point is local.
              if (owned)
                REQUIRE(mapped == expected);
              // Stored tables lose exactly the neighbours that are not local.
              if (stored && mapped == kMissing && expected != kMissing)
                REQUIRE(domain.local_index(info.target, expected) == kMissing);
            }
          }
        }
}

TEST_CASE("local grid: geometry is the global geometry", "[decomposition]") {
  for (const char *name : kGrids) {
    const GridGeometry &global = grid_named(name).geometry();
    const LocalDomain &domain = domains_of(name, 3)[1];
    const GridGeometry &local = domain.grid.geometry();
    for (int32_t i = 0; i < domain.grid.num_cells(); ++i) {
      int32_t g = domain.global_index(Location::Cell, i);
      REQUIRE(local.cell_area[i] == global.cell_area[g]);
      REQUIRE(local.cells.lon[i] == global.cells.lon[g]);
    }
    for (int32_t i = 0; i < domain.grid.num_edges(); ++i) {
      int32_t g = domain.global_index(Location::Edge, i);
      REQUIRE(local.primal_normal_u[i] == global.primal_normal_u[g]);
      REQUIRE(local.edge_cell_distance(i, 1) == global.edge_cell_distance(g, 1));
    }
    for (int32_t i = 0; i < domain.grid.num_vertices(); ++i) {
      int32_t g = domain.global_index(Location::Vertex, i);
      REQUIRE(local.dual_area[i] == global.dual_area[g]);
      REQUIRE(local.edge_orientation(i, 5) == global.edge_orientation(g, 5));
    }
  }
}

TEST_CASE("one domain is the global grid", "[decomposition]") {
  for (const char *name : kGrids) {
    CAPTURE(name);
    const Grid &global = grid_named(name);
    const Grid &local = domains_of(name, 1)[0].grid;
    CHECK(local.geometry() == global.geometry());
    for (int c = 0; c < kNumConnectivities; ++c)
      CHECK(local.table(Connectivity(c)) == global.table(Connectivity(c)));
    for (Location location : kLocations)
      for (int z = 0; z < kNumZones; ++z)
        CHECK(local.zone(location, Zone(z)) == global.zone(location, Zone(z)));
  }
}

TEST_CASE("exchange plans: what r sends to s is what s receives from r", "[decomposition]") {
  for (const char *name : kGrids)
    for (int32_t num_ranks : kRankCounts) {
      const std::vector<LocalDomain> &domains = domains_of(name, num_ranks);
      const Decomposition &decomposition = decomposition_of(name, num_ranks);
      for (const LocalDomain &domain : domains)
        for (Location location : kLocations)
          for (int32_t lines = 1; lines <= kHaloLines; ++lines) {
            CAPTURE(name, num_ranks, domain.rank, location_name(location), lines);
            const auto &owner = decomposition.owner[int(location)];
            // Every halo point of lines 1..lines arrives exactly once, from its owner.
            int32_t owned = num_owned(domain, location);
            int32_t halo_end = owned;
            for (int32_t line = 0; line < lines; ++line)
              halo_end += domain.points.num_halo[int(location)][line];
            std::vector<int32_t> arrivals(size_t(domain.grid.num_points(location)), 0);
            for (const HaloExchange &exchange : domain.exchange(location, lines)) {
              CHECK(exchange.peer != domain.rank);
              for (int32_t i : exchange.receive) {
                ++arrivals[i];
                REQUIRE(owner[domain.global_index(location, i)] == exchange.peer);
              }
              for (int32_t i : exchange.send)
                REQUIRE((i >= 0 && i < owned));
              const std::vector<HaloExchange> &peer_plan =
                  domains[exchange.peer].exchange(location, lines);
              auto match =
                  std::find_if(peer_plan.begin(), peer_plan.end(),
                               [&](const HaloExchange &e) { return e.peer == domain.rank; });
              REQUIRE(match != peer_plan.end());
              auto globals = [&](const LocalDomain &d, const std::vector<int32_t> &locals) {
                std::vector<int32_t> result;
                for (int32_t i : locals)
                  result.push_back(d.global_index(location, i));
                return result;
              };
              CHECK(globals(domain, exchange.send) ==
                    globals(domains[exchange.peer], match->receive));
              CHECK(globals(domain, exchange.receive) ==
                    globals(domains[exchange.peer], match->send));
            }
            for (int32_t i = 0; i < domain.grid.num_points(location); ++i)
              REQUIRE(arrivals[i] == (i >= owned && i < halo_end ? 1 : 0));
          }
    }
}

TEST_CASE("halo exchange then neighbour sums at owned points equal the global ones",
          "[decomposition]") {
  for (const char *name : kGrids)
    for (int32_t num_ranks : kRankCounts) {
      CAPTURE(name, num_ranks);
      const Grid &global = grid_named(name);
      const std::vector<LocalDomain> &domains = domains_of(name, num_ranks);
      // A field on the target location, summed over the table at owned source points with a
      // geometry weight of the neighbour, after exchanging the halo lines the table reaches.
      struct Stencil {
        Connectivity connectivity;
        int32_t lines;
      };
      const Stencil stencils[] = {{Connectivity::C2E2C, 1},     {Connectivity::C2E, 1},
                                  {Connectivity::E2C, 1},       {Connectivity::V2C, 1},
                                  {Connectivity::C2E2C2E2C, 2}, {Connectivity::E2C2E, 2},
                                  {Connectivity::V2E2V, 2}};
      for (const Stencil &stencil : stencils) {
        const ConnectivityInfo &info = connectivity_info(stencil.connectivity);
        CAPTURE(info.name);
        auto weight = [&](const Grid &grid, int32_t p) {
          const GridGeometry &g = grid.geometry();
          return info.target == Location::Cell   ? g.cell_area[p]
                 : info.target == Location::Edge ? g.edge_length[p]
                                                 : g.dual_area[p];
        };
        auto neighbour_sum = [&](const Grid &grid, const std::vector<double> &field, int32_t h) {
          const Table &table = grid.table(stencil.connectivity);
          double sum = 0;
          for (int32_t n = 0; n < table.cols; ++n)
            if (int32_t p = table(h, n); p != kMissing)
              sum += weight(grid, p) * field[p];
          return sum;
        };
        std::vector<double> global_field(size_t(global.num_points(info.target)));
        for (size_t g = 0; g < global_field.size(); ++g)
          global_field[g] = global_value(info.target, int32_t(g));
        std::vector<std::vector<double>> fields = owned_values(domains, info.target);
        exchange_halos(domains, info.target, stencil.lines, fields);
        for (const LocalDomain &domain : domains)
          for (int32_t i = 0; i < num_owned(domain, info.source); ++i)
            REQUIRE(neighbour_sum(domain.grid, fields[domain.rank], i) ==
                    neighbour_sum(global, global_field, domain.global_index(info.source, i)));
      }
    }
}

TEST_CASE("count_halos agrees with the local domains", "[decomposition]") {
  for (const char *name : kGrids)
    for (int32_t num_ranks : kRankCounts) {
      CAPTURE(name, num_ranks);
      HaloCounts counts = count_halos(grid_named(name), decomposition_of(name, num_ranks));
      for (Location location : kLocations) {
        int64_t halo = 0;
        for (const LocalDomain &domain : domains_of(name, num_ranks))
          halo += domain.grid.num_points(location) - num_owned(domain, location);
        CHECK(counts.halo_points[int(location)] == halo);
      }
      CHECK((num_ranks == 1) == (counts.max_peers == 0));
    }
}

TEST_CASE("coefficients computed on a local grid equal the global ones at owned points",
          "[decomposition][coefficients]") {
  for (const char *name : kGrids) {
    CoefficientConfig config;
    config.vertical.num_levels = 10;
    // The default mountain width comes from the mean cell area of the grid at hand.
    config.orography.half_width = 2.0e6;
    DiffusionCoefficients global =
        std::move(compute_diffusion_coefficients(grid_named(name), config)).value();
    std::vector<FieldRef> global_fields = global.fields();
    for (const LocalDomain &domain : domains_of(name, 3)) {
      DiffusionCoefficients local =
          std::move(compute_diffusion_coefficients(domain.grid, config)).value();
      std::vector<FieldRef> local_fields = local.fields();
      REQUIRE(local_fields.size() == global_fields.size());
      for (size_t f = 0; f < local_fields.size(); ++f) {
        const FieldRef &l = local_fields[f];
        const FieldRef &g = global_fields[f];
        CAPTURE(name, domain.rank, l.name);
        int32_t neighbors = std::max(l.layout.num_neighbors, 1);
        int32_t levels = std::max(l.layout.num_levels, 1);
        size_t element = dtype_size(l.dtype);
        for (int32_t i = 0; i < num_owned(domain, l.location); ++i) {
          int32_t gi = domain.global_index(l.location, i);
          for (int32_t n = 0; n < neighbors; ++n)
            for (int32_t k = 0; k < levels; ++k) {
              size_t li = i + size_t(n) * l.layout.ld + size_t(k) * l.layout.ld * neighbors;
              size_t gj = gi + size_t(n) * g.layout.ld + size_t(k) * g.layout.ld * neighbors;
              REQUIRE(std::memcmp(static_cast<const char *>(l.data) + li * element,
                                  static_cast<const char *>(g.data) + gj * element, element) == 0);
            }
        }
      }
    }
  }
}
