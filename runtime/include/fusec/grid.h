// fusec runtime: an ICON horizontal grid (topology, geometry, index zones).
//
// Conventions (see docs/runtime.md and ../shared/docs/icon-grid.md):
//  * indices are 0-based int32, a missing neighbour is -1 (kMissing);
//  * neighbour tables are NeighborArray<int32_t>: table(h, n) = data[h + n*rows];
//  * C2V is counter-clockwise seen from outside the sphere, edge j of a cell joins its vertices
//    j and j+1, and C2E2C[c][j] is the cell across C2E[c][j];
//  * E2C[e] = (c0, c1): the primal normal points from c0 to c1;
//  * E2C2V[e] = (E2V[e][0], E2V[e][1], far vertex of c0, far vertex of c1);
//  * V2C, V2E and V2E2V are counter-clockwise around the vertex, valid entries first;
//    V2E[v][k] is the edge between V2C[v][k-1] and V2C[v][k] and V2E2V[v][k] its far end.
#ifndef FUSEC_GRID_H
#define FUSEC_GRID_H

#include "fusec/field.h"
#include "fusec/mesh.h"
#include "fusec/status.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusec {

// ICON's sphere radius (m).
constexpr double kEarthRadius = 6.371229e6;

enum class Connectivity {
  E2C,
  E2V,
  E2C2V,
  E2C2E,
  E2C2EO,
  C2E,
  C2V,
  C2E2C,
  C2E2CO,
  C2E2C2E,
  C2E2C2E2C,
  V2E,
  V2C,
  V2E2V,
};
constexpr int kNumConnectivities = 14;

struct ConnectivityInfo {
  const char *name; // ICON/icon4py offset name, e.g. "E2C2V"
  Location source;
  Location target;
  int32_t max_neighbors;
};
const ConnectivityInfo &connectivity_info(Connectivity connectivity);

// icon4py's horizontal zones (diffusion-spec.md §1.3). Cells and vertices use lateral boundary
// levels 1..4 and Nudging; edges use levels 1..8, Nudging and NudgingLevel2.
enum class Zone {
  LateralBoundary1,
  LateralBoundary2,
  LateralBoundary3,
  LateralBoundary4,
  LateralBoundary5,
  LateralBoundary6,
  LateralBoundary7,
  LateralBoundary8,
  Nudging,
  NudgingLevel2,
  Interior,
  Local,
  Halo,
  HaloLevel2,
  End,
};
constexpr int kNumZones = 15;

// icon4py spelling: "LATERAL_BOUNDARY_LEVEL_1", ..., "NUDGING", "INTERIOR", "LOCAL", "END".
const char *zone_name(Zone zone);

// A half-open index range [start, end).
struct IndexRange {
  int32_t start = 0;
  int32_t end = 0;
  int32_t size() const { return end - start; }
  bool operator==(const IndexRange &o) const { return start == o.start && end == o.end; }
};

// Points on the unit sphere: longitude/latitude in radians and Cartesian coordinates.
struct Points {
  std::vector<double> lon, lat;
  std::vector<double> x, y, z;
  bool operator==(const Points &o) const {
    return lon == o.lon && lat == o.lat && x == o.x && y == o.y && z == o.z;
  }
};

// Geometry on the sphere of radius sphere_radius (lengths in m, areas in m²).
struct GridGeometry {
  double sphere_radius = kEarthRadius;
  Points cells;    // circumcentres
  Points edges;    // edge midpoints
  Points vertices; // triangle corners
  std::vector<double> cell_area;
  std::vector<double> dual_area;
  std::vector<double> edge_length;          // primal edge, vertex to vertex
  std::vector<double> dual_edge_length;     // circumcentre to circumcentre (edge midpoint for a
                                            // missing cell on a LAM boundary)
  std::vector<double> vert_vert_length;     // between the far vertices E2C2V[e][2], [3]; 0 if one
                                            // is missing
  NeighborArray<double> edge_cell_distance; // (E, 2): edge midpoint to E2C cells, 0 if missing
  NeighborArray<double> edge_vert_distance; // (E, 2): edge midpoint to E2V vertices
  // Unit vectors at the edge midpoint: the primal normal n (from E2C[0] to E2C[1]) and the
  // tangent t ("dual normal"), with n = r x t. Cartesian and zonal/meridional components.
  std::vector<double> primal_normal_x, primal_normal_y, primal_normal_z;
  std::vector<double> dual_normal_x, dual_normal_y, dual_normal_z;
  std::vector<double> primal_normal_u, primal_normal_v;
  std::vector<double> dual_normal_u, dual_normal_v;
  // ±1: sign(((v1 - v0) x (c1 - c0)) . r); t = orientation * normalize(v1 - v0).
  std::vector<int32_t> edge_system_orientation;
  // (C, 3): +1 if the normal of C2E[c][j] points out of c.
  NeighborArray<int32_t> orientation_of_normal;
  // (V, 6): +1 if the normal of V2E[v][k] circulates counter-clockwise around v; 0 if missing.
  NeighborArray<int32_t> edge_orientation;

  bool operator==(const GridGeometry &o) const;
};

// The neighbour tables stored in ICON grid files, plus the boundary-distance rows.
struct GridTopology {
  std::array<int32_t, kNumLocations> num_points{}; // indexed by Location
  Table c2v, c2e, c2e2c, e2c, e2v, v2c, v2e, v2e2v;
  // refin_ctrl per location: 0 in the interior and on global grids, n for lateral boundary
  // row n. Empty vectors mean all zero.
  std::array<std::vector<int32_t>, kNumLocations> refin_ctrl;
  // A domain of a distributed grid (decomposition.h) ends with its halo lines 1 and 2:
  // num_halo[location][line - 1] points each. All zero for a single-domain grid.
  std::array<std::array<int32_t, 2>, kNumLocations> num_halo{};
};

struct GridMetadata {
  std::string name;  // e.g. "R02B04", "lam-r2b4:42.5@46.5,8", a file name
  int32_t root = 0;  // n of RnBk, 0 if unknown
  int32_t level = 0; // k of RnBk
};

class Grid {
public:
  // Validates the tables, derives E2C2V, E2C2E(O), C2E2CO, C2E2C2E and C2E2C2E2C, computes the
  // zone bounds from the owned points' refin_ctrl (they must be ordered by it, as ICON orders
  // LAM grids) and topology.num_halo (HALO, HALO_LEVEL_2 at the end), and
  // completes the geometry: every empty array of `geometry` is computed from the coordinates.
  // Vertex coordinates are required (Cartesian or lon/lat); cell centres default to the
  // circumcentres.
  static Result<Grid> create(GridMetadata metadata, GridTopology topology, GridGeometry geometry);

  Grid(const Grid &other);
  Grid &operator=(const Grid &other);
  Grid(Grid &&) = default;
  Grid &operator=(Grid &&) = default;

  const GridMetadata &metadata() const { return metadata_; }
  const std::string &name() const { return metadata_.name; }
  // A LAM (icon4py's criterion): some cell has refin_ctrl > 0.
  bool limited_area() const { return limited_area_; }

  int32_t num_points(Location location) const { return num_points_[int(location)]; }
  int32_t num_cells() const { return num_points(Location::Cell); }
  int32_t num_edges() const { return num_points(Location::Edge); }
  int32_t num_vertices() const { return num_points(Location::Vertex); }

  const Table &table(Connectivity connectivity) const { return tables_[int(connectivity)]; }
  const std::vector<int32_t> &refin_ctrl(Location location) const {
    return refin_ctrl_[int(location)];
  }
  IndexRange zone(Location location, Zone zone) const { return zones_[int(location)][int(zone)]; }
  int32_t start(Location location, Zone z) const { return zone(location, z).start; }
  int32_t end(Location location, Zone z) const { return zone(location, z).end; }

  const GridGeometry &geometry() const { return geometry_; }

  // The C descriptor viewing this grid's tables; valid while the grid is alive and unmoved.
  fusec_mesh mesh() const;

  // Same metadata, tables, refin_ctrl, zones and geometry, bit for bit.
  bool operator==(const Grid &other) const;
  bool operator!=(const Grid &other) const { return !(*this == other); }

private:
  Grid() = default;
  void build_mesh_descriptors();

  GridMetadata metadata_;
  bool limited_area_ = false;
  std::array<int32_t, kNumLocations> num_points_{};
  std::array<Table, kNumConnectivities> tables_;
  std::array<std::vector<int32_t>, kNumLocations> refin_ctrl_;
  std::array<std::array<IndexRange, kNumZones>, kNumLocations> zones_{};
  GridGeometry geometry_;
  std::vector<fusec_connectivity> descriptors_;
};

// The number of entries != -1 in row h of a table.
int32_t count_neighbors(const Table &table, int32_t h);

} // namespace fusec

#endif // FUSEC_GRID_H
