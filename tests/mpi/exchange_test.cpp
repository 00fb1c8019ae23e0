// fusec::MpiExchange on its own (tests/mpi.cmake): run with `mpirun -np N`. Every rank fills
// the owned points of four fields (cells x levels f64; edges x E2C slots x levels i32; vertices
// f32; a vertical-only column) with values of their global index, exchanges them, and checks
// that every local point, halos included, then holds the global values:
//   * host memory, three exchanges in a row (one message per peer each);
//   * "device" memory through the host-staged path of fusec/mpi_exchange_cuda.h, compiled
//     against fusec/cuda_host/cuda_runtime.h (guard-paged device allocations, no GPU needed);
//   * ranks that call different exchanges (other field names): every rank's callback fails
//     with a message instead of mixing up the data.
// Prints "ok" per check on rank 0; exits 1 on any failure.
#include "fusec/decomposition.h"
#include "fusec/grid_generator.h"
#include "fusec/mpi_exchange.h"
#include "fusec/mpi_exchange_cuda.h"

#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

using namespace fusec;

namespace {

constexpr int32_t kLevels = 3, kEdgeLevels = 2, kSlots = 2, kPad = 3;

double cell_value(int32_t g, int32_t k) { return g + 1e-3 * k + 0.5; }
int32_t edge_value(int32_t g, int32_t n, int32_t k) { return 10 * g + 3 * k + n; }
float vertex_value(int32_t g) { return float(g) + 0.25f; }

struct Fields {
  std::vector<double> cell;
  std::vector<int32_t> edge;
  std::vector<float> vertex;
  std::vector<double> column;
  int64_t cell_ld = 0, edge_ld = 0, vertex_ld = 0;
};

Fields make_fields(const LocalDomain &d) {
  Fields f;
  f.cell_ld = d.grid.num_cells() + kPad;
  f.edge_ld = d.grid.num_edges();
  f.vertex_ld = d.grid.num_vertices();
  f.cell.assign(size_t(f.cell_ld * kLevels), std::numeric_limits<double>::quiet_NaN());
  f.edge.assign(size_t(f.edge_ld * kSlots * kEdgeLevels), -1);
  f.vertex.assign(size_t(f.vertex_ld), std::numeric_limits<float>::quiet_NaN());
  f.column.assign(5, 7.0);
  for (int32_t h = 0; h < d.points.num_owned[int(Location::Cell)]; ++h)
    for (int32_t k = 0; k < kLevels; ++k)
      f.cell[size_t(h + k * f.cell_ld)] = cell_value(d.global_index(Location::Cell, h), k);
  for (int32_t h = 0; h < d.points.num_owned[int(Location::Edge)]; ++h)
    for (int32_t k = 0; k < kEdgeLevels; ++k)
      for (int32_t n = 0; n < kSlots; ++n)
        f.edge[size_t(h + n * f.edge_ld + k * f.edge_ld * kSlots)] =
            edge_value(d.global_index(Location::Edge, h), n, k);
  for (int32_t h = 0; h < d.points.num_owned[int(Location::Vertex)]; ++h)
    f.vertex[size_t(h)] = vertex_value(d.global_index(Location::Vertex, h));
  return f;
}

std::array<fusec_exchange_field, 4> describe(Fields &f, void *cell, void *edge, void *vertex,
                                             void *column, const char *cell_name = "cell") {
  return {{{cell_name, cell, FUSEC_F64, FUSEC_CELL, kLevels, 0, f.cell_ld},
           {"edge", edge, FUSEC_I32, FUSEC_EDGE, kEdgeLevels, kSlots, f.edge_ld},
           {"vertex", vertex, FUSEC_F32, FUSEC_VERTEX, 0, 0, f.vertex_ld},
           {"column", column, FUSEC_F64, FUSEC_NO_LOCATION, 5, 0, 1}}};
}

// Whether every local point holds the global values and the padding is untouched.
bool complete(const LocalDomain &d, const Fields &f) {
  bool ok = true;
  for (int32_t h = 0; h < d.grid.num_cells(); ++h)
    for (int32_t k = 0; k < kLevels; ++k)
      ok &= f.cell[size_t(h + k * f.cell_ld)] == cell_value(d.global_index(Location::Cell, h), k);
  for (int32_t h = d.grid.num_cells(); h < f.cell_ld; ++h)
    ok &= std::isnan(f.cell[size_t(h)]);
  for (int32_t h = 0; h < d.grid.num_edges(); ++h)
    for (int32_t k = 0; k < kEdgeLevels; ++k)
      for (int32_t n = 0; n < kSlots; ++n)
        ok &= f.edge[size_t(h + n * f.edge_ld + k * f.edge_ld * kSlots)] ==
              edge_value(d.global_index(Location::Edge, h), n, k);
  for (int32_t h = 0; h < d.grid.num_vertices(); ++h)
    ok &= f.vertex[size_t(h)] == vertex_value(d.global_index(Location::Vertex, h));
  ok &= f.column == std::vector<double>(5, 7.0);
  return ok;
}

int rank_count = 1, my_rank = 0;

// Every rank's verdict; rank 0 prints it.
bool report(const std::string &what, bool mine, const std::string &why = "") {
  if (!mine)
    std::fprintf(stderr, "exchange_test: rank %d: %s failed %s\n", my_rank, what.c_str(),
                 why.c_str());
  int local = mine ? 1 : 0, all = 0;
  MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (my_rank == 0)
    std::printf("exchange_test: %d ranks: %s: %s\n", rank_count, what.c_str(),
                all ? "ok" : "FAILED");
  return all == 1;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &rank_count);
  std::string name = argc > 1 ? argv[1] : "r2b2";
  Grid global = std::move(make_grid(name)).value();
  Decomposition parts = std::move(decompose(global, rank_count)).value();
  LocalDomain domain = std::move(make_local_domain(global, parts, my_rank)).value();
  bool ok = true;

  {
    Fields f = make_fields(domain);
    MpiExchange exchange(domain, MPI_COMM_WORLD);
    auto fields =
        describe(f, f.cell.data(), f.edge.data(), f.vertex.data(), f.column.data());
    int status = 0;
    for (int call = 0; call < 3 && status == 0; ++call)
      status = MpiExchange::callback("test", fields.data(), 4, nullptr, &exchange);
    int64_t peers = int64_t(domain.exchange(Location::Cell, 2).size());
    ok &= report("host memory, 3 exchanges", status == 0 && complete(domain, f),
                 exchange.last_error());
    ok &= report("one message per peer per exchange",
                 rank_count == 1 ? exchange.messages() == 0 : exchange.messages() == 3 * peers,
                 std::to_string(exchange.messages()) + " messages, " + std::to_string(peers) +
                     " peers");
  }
  {
    Fields f = make_fields(domain);
    auto bytes = [](const auto &v) { return v.size() * sizeof(v[0]); };
    void *cell = nullptr, *edge = nullptr, *vertex = nullptr;
    bool copied = cudaMalloc(&cell, bytes(f.cell)) == cudaSuccess &&
                  cudaMalloc(&edge, bytes(f.edge)) == cudaSuccess &&
                  cudaMalloc(&vertex, bytes(f.vertex)) == cudaSuccess &&
                  cudaMemcpy(cell, f.cell.data(), bytes(f.cell), cudaMemcpyHostToDevice) == 0 &&
                  cudaMemcpy(edge, f.edge.data(), bytes(f.edge), cudaMemcpyHostToDevice) == 0 &&
                  cudaMemcpy(vertex, f.vertex.data(), bytes(f.vertex), cudaMemcpyHostToDevice) == 0;
    MpiExchange exchange(domain, MPI_COMM_WORLD);
    exchange.set_device_staging(cuda_device_staging());
    auto fields = describe(f, cell, edge, vertex, f.column.data());
    fields[3].data = f.column.data(); // no location: never touched, may be anywhere
    int status = copied ? MpiExchange::callback("test", fields.data(), 4, nullptr, &exchange) : 1;
    Fields back = f;
    copied &= cudaMemcpy(back.cell.data(), cell, bytes(f.cell), cudaMemcpyDeviceToHost) == 0 &&
              cudaMemcpy(back.edge.data(), edge, bytes(f.edge), cudaMemcpyDeviceToHost) == 0 &&
              cudaMemcpy(back.vertex.data(), vertex, bytes(f.vertex), cudaMemcpyDeviceToHost) == 0;
    cudaFree(cell);
    cudaFree(edge);
    cudaFree(vertex);
    ok &= report("device memory, host-staged", copied && status == 0 && complete(domain, back),
                 exchange.last_error());
  }
  if (rank_count > 1) {
    Fields f = make_fields(domain);
    MpiExchange exchange(domain, MPI_COMM_WORLD);
    // Rank 0 exchanges "cell", the others "other": same sizes, different exchanges.
    auto fields = describe(f, f.cell.data(), f.edge.data(), f.vertex.data(), f.column.data(),
                           my_rank == 0 ? "cell" : "other");
    int status = MpiExchange::callback("test", fields.data(), 1, nullptr, &exchange);
    bool detected =
        status != 0 && exchange.last_error().find("call different exchanges") != std::string::npos;
    ok &= report("mismatched exchanges fail on every rank", detected,
                 "status " + std::to_string(status) + ": " + exchange.last_error());
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
