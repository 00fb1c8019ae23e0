// Instances of calculate_nabla2_of_theta (stencils/diffusion.stn, emitted C++) are independent:
// each owns its grid's tables, its level count, its callbacks and its timers.
//
//   instances_driver interleaved DIR   two instances on two grids with different level counts
//                                      (r2b2, 7 levels; lam-r2b3, 11 levels), called in turn;
//                                      writes DIR/first.json and DIR/second.json (timers)
//   instances_driver threads N         N instances on those grids, each created, run and
//                                      destroyed by its own OpenMP thread, all at once
//   instances_driver team N            one instance of team_sum (tests/instances/team.stn)
//                                      whose run is shared by a team of N OpenMP threads,
//                                      with a kernel whose barrier stn-elide-barriers dropped
//   instances_driver wavefront N       the programs of tests/codegen/wavefront.stn (columns
//                                      layout, stn-wavefront with tiles of 16 points) on a
//                                      team of N threads: their plans against the same groups
//                                      run kernel by kernel, as with an exchange callback
//
// Every result is compared with a reference computed here from the mesh's C2E table. Exits
// non-zero when a check fails.
#include "diffusion.h"
#include "team.h"
#include "wavefront.h"

#include "fusec/c_api.h"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Grid {
  const char *name;
  fusec_grid *grid;
  const fusec_mesh *mesh;
  int32_t cells, edges;
};

Grid openGrid(const char *name) {
  fusec_grid *grid = fusec_grid_create(name);
  if (grid == nullptr) {
    std::fprintf(stderr, "instances_driver: grid %s: %s\n", name, fusec_last_error());
    std::exit(2);
  }
  return {name, grid, fusec_grid_mesh(grid), fusec_grid_num_points(grid, FUSEC_CELL),
          fusec_grid_num_points(grid, FUSEC_EDGE)};
}

/// Per level and cell, the sum over the cell's 3 neighbours in `table` (missing ones skipped)
/// of term(cell, slot, neighbour, level), in slot order.
template <class Term>
std::vector<double> sumOverNeighbours(const Grid &grid, int32_t nlev, const char *table,
                                      Term term) {
  const fusec_connectivity *neighbours = fusec_mesh_find(grid.mesh, table);
  std::vector<double> result(static_cast<size_t>(grid.cells) * nlev, 0.0);
  for (int32_t k = 0; k < nlev; ++k)
    for (int32_t c = 0; c < grid.cells; ++c) {
      double sum = 0.0;
      for (int32_t j = 0; j < 3; ++j) {
        int32_t n = neighbours->table[c + static_cast<int64_t>(j) * neighbours->ld];
        if (n >= 0)
          sum += term(c, j, n, k);
      }
      result[c + static_cast<size_t>(k) * grid.cells] = sum;
    }
  return result;
}

/// The fields of one call on one grid, with inputs drawn from `seed`.
struct Fields {
  std::vector<double> z_nabla2_e, geofac_div, z_temp;

  Fields(const Grid &grid, int32_t nlev, uint64_t seed)
      : z_nabla2_e(static_cast<size_t>(grid.edges) * nlev),
        geofac_div(static_cast<size_t>(grid.cells) * 3),
        z_temp(static_cast<size_t>(grid.cells) * nlev, 0.0) {
    fusec_random_field(seed, "z_nabla2_e", -1.0, 1.0, FUSEC_F64, grid.edges, grid.edges, 0, nlev,
                       z_nabla2_e.data());
    fusec_random_field(seed, "geofac_div", -1.0, 1.0, FUSEC_F64, grid.cells, grid.cells, 3, 0,
                       geofac_div.data());
  }

  /// z_temp as the program defines it: the sum over C2E of geofac_div * z_nabla2_e.
  std::vector<double> reference(const Grid &grid, int32_t nlev) const {
    return sumOverNeighbours(grid, nlev, "C2E", [&](int32_t c, int32_t j, int32_t e, int32_t k) {
      return z_nabla2_e[e + static_cast<size_t>(k) * grid.edges] *
             geofac_div[c + static_cast<size_t>(j) * grid.cells];
    });
  }
};

/// One instance: its grid, its level count and its handle.
struct Instance {
  const Grid *grid;
  int32_t nlev;
  calculate_nabla2_of_theta_handle *handle = nullptr;

  int run(Fields &fields, int32_t h_end, int32_t v_end) {
    return calculate_nabla2_of_theta_run(handle, fields.z_nabla2_e.data(),
                                         fields.geofac_div.data(), fields.z_temp.data(), 0, h_end,
                                         0, v_end);
  }

  /// Runs on fresh inputs from `seed` over the whole grid and compares with the reference.
  bool runAndCompare(uint64_t seed, std::string &error) {
    Fields fields(*grid, nlev, seed);
    if (int status = run(fields, grid->cells, nlev)) {
      error = std::string("run: ") + calculate_nabla2_of_theta_error_message(status);
      return false;
    }
    std::vector<double> expected = fields.reference(*grid, nlev);
    fusec_field_check check;
    if (fusec_check_field("z_temp", FUSEC_F64, FUSEC_CELL, grid->cells, grid->cells, 0, nlev,
                          fields.z_temp.data(), expected.data(), nullptr, &check)) {
      error = "z_temp: " + std::to_string(check.num_failures) + " values differ";
      return false;
    }
    return true;
  }
};

int failures = 0;

void expect(bool condition, const std::string &what) {
  std::printf("%s: %s\n", condition ? "ok" : "FAILED", what.c_str());
  if (!condition)
    ++failures;
}

void countReport(const fusec_field_check * /*check*/, void *user_data) {
  ++*static_cast<int *>(user_data);
}

std::string readFile(const std::string &path) {
  std::string text;
  if (std::FILE *file = std::fopen(path.c_str(), "r")) {
    char buffer[4096];
    size_t read;
    while ((read = std::fread(buffer, 1, sizeof buffer, file)) > 0)
      text.append(buffer, read);
    std::fclose(file);
  }
  return text;
}

int interleaved(const std::string &directory) {
  Grid global = openGrid("r2b2"), regional = openGrid("lam-r2b3");
  Instance first{&global, 7}, second{&regional, 11};
  for (Instance *instance : {&first, &second})
    expect(calculate_nabla2_of_theta_create(instance->grid->mesh, instance->nlev, nullptr,
                                            &instance->handle) == FUSEC_SUCCESS,
           std::string("create on ") + instance->grid->name + " with " +
               std::to_string(instance->nlev) + " levels");
  if (failures)
    return 1;
  std::printf("grids: %s %d cells, %s %d cells\n", global.name, global.cells, regional.name,
              regional.cells);

  // Calls alternate between the instances, each on new inputs.
  for (uint64_t round = 0; round < 3; ++round)
    for (Instance *instance : {&first, &second}) {
      std::string error;
      expect(instance->runAndCompare(round, error),
             "round " + std::to_string(round) + " on " + instance->grid->name +
                 (error.empty() ? "" : ": " + error));
    }

  // Each instance keeps its own extents: the second's levels are beyond the first's.
  Fields onFirst(global, second.nlev, 7);
  expect(first.run(onFirst, global.cells, second.nlev) == FUSEC_ERROR_DOMAIN,
         "the first instance refuses the second's 11 levels");
  Fields onSecond(regional, second.nlev, 7);
  expect(second.run(onSecond, regional.cells, second.nlev) == FUSEC_SUCCESS,
         "the second instance accepts them");

  // Callbacks belong to an instance: each report reaches the counter of its own instance.
  int firstReports = 0, secondReports = 0;
  calculate_nabla2_of_theta_set_verification_callback(first.handle, countReport, &firstReports);
  calculate_nabla2_of_theta_set_verification_callback(second.handle, countReport, &secondReports);
  for (Instance *instance : {&first, &second}) {
    Fields fields(*instance->grid, instance->nlev, 11);
    std::vector<double> before = fields.z_temp;
    fields.z_temp = fields.reference(*instance->grid, instance->nlev);
    expect(calculate_nabla2_of_theta_run_and_verify(
               instance->handle, fields.z_nabla2_e.data(), fields.geofac_div.data(),
               fields.z_temp.data(), 0, instance->grid->cells, 0, instance->nlev, before.data(),
               nullptr) == FUSEC_SUCCESS,
           std::string("run_and_verify on ") + instance->grid->name);
  }
  expect(firstReports == 1 && secondReports == 1, "one verification report per instance");

  // Timers belong to an instance: only the first one's are on.
  calculate_nabla2_of_theta_enable_timers(first.handle, 1);
  for (Instance *instance : {&first, &second}) {
    std::string error;
    instance->runAndCompare(5, error);
  }
  calculate_nabla2_of_theta_enable_timers(first.handle, 0);
  std::string firstPath = directory + "/first.json", secondPath = directory + "/second.json";
  expect(calculate_nabla2_of_theta_write_metrics(first.handle, firstPath.c_str()) ==
                 FUSEC_SUCCESS &&
             calculate_nabla2_of_theta_write_metrics(second.handle, secondPath.c_str()) ==
                 FUSEC_SUCCESS,
         "writing each instance's timers");
  expect(readFile(firstPath).find("\"calculate_nabla2_of_theta\"") != std::string::npos &&
             readFile(secondPath) == "{}\n",
         "the first instance timed its run, the second nothing");

  for (Instance *instance : {&first, &second})
    calculate_nabla2_of_theta_destroy(instance->handle);
  calculate_nabla2_of_theta_destroy(nullptr);
  fusec_grid_destroy(global.grid);
  fusec_grid_destroy(regional.grid);
  return failures ? 1 : 0;
}

int threads(int count) {
  Grid grids[] = {openGrid("r2b2"), openGrid("lam-r2b3")};
  std::vector<std::string> errors(count);
  // Each thread owns one instance from creation to destruction; all run at once.
#pragma omp parallel for num_threads(count) schedule(static, 1)
  for (int i = 0; i < count; ++i) {
    Instance instance{&grids[i % 2], 5 + i};
    if (int status = calculate_nabla2_of_theta_create(instance.grid->mesh, instance.nlev, nullptr,
                                                      &instance.handle)) {
      errors[i] = std::string("create: ") + calculate_nabla2_of_theta_error_message(status);
      continue;
    }
    calculate_nabla2_of_theta_enable_timers(instance.handle, 1);
    for (uint64_t round = 0; round < 3 && errors[i].empty(); ++round)
      instance.runAndCompare(round * count + i, errors[i]);
    calculate_nabla2_of_theta_destroy(instance.handle);
  }
  for (int i = 0; i < count; ++i)
    expect(errors[i].empty(), "thread " + std::to_string(i) + " on " + grids[i % 2].name +
                                  " with " + std::to_string(5 + i) + " levels" +
                                  (errors[i].empty() ? "" : ": " + errors[i]));
  for (Grid &grid : grids)
    fusec_grid_destroy(grid.grid);
  return failures ? 1 : 0;
}

/// result = the sum over C2E2C of 2 theta + theta at the neighbours, as team_sum defines it.
std::vector<double> teamReference(const Grid &grid, int32_t nlev, const std::vector<double> &theta) {
  return sumOverNeighbours(grid, nlev, "C2E2C", [&](int32_t, int32_t, int32_t n, int32_t k) {
    double value = theta[n + static_cast<size_t>(k) * grid.cells];
    return 2.0 * value + value;
  });
}

/// Runs team_sum with `extra` computed on all cells or on none (its launch then only waits at
/// its barrier) and checks both outputs.
bool runTeam(team_sum_handle *handle, const Grid &grid, int32_t nlev, uint64_t seed,
             bool extraEverywhere) {
  std::vector<double> theta(static_cast<size_t>(grid.cells) * nlev);
  std::vector<double> result(theta.size(), 0.0), extra(theta.size(), 0.0);
  fusec_random_field(seed, "theta", -1.0, 1.0, FUSEC_F64, grid.cells, grid.cells, 0, nlev,
                     theta.data());
  if (team_sum_run(handle, theta.data(), result.data(), extra.data(), grid.cells,
                   extraEverywhere ? grid.cells : 0) != FUSEC_SUCCESS)
    return false;
  std::vector<double> expected = teamReference(grid, nlev, theta), expectedExtra(theta.size());
  for (size_t i = 0; i < theta.size(); ++i)
    expectedExtra[i] = extraEverywhere ? theta[i] * theta[i] : 0.0;
  fusec_field_check check;
  return fusec_check_field("result", FUSEC_F64, FUSEC_CELL, grid.cells, grid.cells, 0, nlev,
                           result.data(), expected.data(), nullptr, &check) == 0 &&
         fusec_check_field("extra", FUSEC_F64, FUSEC_CELL, grid.cells, grid.cells, 0, nlev,
                           extra.data(), expectedExtra.data(), nullptr, &check) == 0;
}

/// The exchange callback of team_sum: counts its calls and those on the thread in `user_data`.
struct ExchangeCalls {
  std::thread::id caller;
  int calls = 0, onCaller = 0;
};

int countExchange(const char * /*program*/, const fusec_exchange_field * /*fields*/,
                  int32_t /*num_fields*/, void * /*stream*/, void *user_data) {
  auto *calls = static_cast<ExchangeCalls *>(user_data);
  ++calls->calls;
  if (std::this_thread::get_id() == calls->caller)
    ++calls->onCaller;
  return 0;
}

int team(int count) {
  Grid grid = openGrid("r2b3");
  const int32_t nlev = 9;
  team_sum_handle *handle = nullptr;
  expect(team_sum_create(grid.mesh, nlev, nullptr, &handle) == FUSEC_SUCCESS, "create team_sum");
  if (failures)
    return 1;
  ExchangeCalls exchanges{std::this_thread::get_id()};
  team_sum_set_exchange_callback(handle, countExchange, &exchanges);
  // The program's parallel region takes its team size from here.
  omp_set_num_threads(count);
  for (uint64_t round = 0; round < 4; ++round) {
    bool extraEverywhere = round % 2 == 0;
    expect(runTeam(handle, grid, nlev, round, extraEverywhere),
           "round " + std::to_string(round) + " with a team of " + std::to_string(count) +
               " threads, extra " + (extraEverywhere ? "on every cell" : "on no cell"));
  }
  expect(exchanges.calls == 4 && exchanges.onCaller == 4,
         "one exchange per run, on the calling thread (" + std::to_string(exchanges.calls) +
             " calls, " + std::to_string(exchanges.onCaller) + " on it)");
  team_sum_destroy(handle);
  fusec_grid_destroy(grid.grid);
  return failures ? 1 : 0;
}

int noExchange(const char *, const fusec_exchange_field *, int32_t, void *, void *) { return 0; }

/// A field of `points` points, `levels` levels (0: none) and `sparse` neighbours, random.
std::vector<double> randomField(uint64_t seed, const char *name, int32_t points, int32_t sparse,
                                int32_t levels) {
  std::vector<double> field(static_cast<size_t>(points) * std::max(sparse, 1) *
                            std::max(levels, 1));
  fusec_random_field(seed, name, -1.0, 1.0, FUSEC_F64, points, points, sparse, levels,
                     field.data());
  return field;
}

/// Runs `run(exchange)` twice from the same inputs, through the plan (no exchange callback) and
/// kernel by kernel (a callback that does nothing), and compares `outputs` bit for bit.
template <class Run>
bool planMatchesKernels(const std::vector<std::vector<double> *> &outputs, Run run) {
  std::vector<std::vector<double>> inputs;
  for (std::vector<double> *output : outputs)
    inputs.push_back(*output);
  if (run(false) != FUSEC_SUCCESS)
    return false;
  std::vector<std::vector<double>> planned;
  for (size_t i = 0; i < outputs.size(); ++i) {
    planned.push_back(*outputs[i]);
    *outputs[i] = inputs[i];
  }
  if (run(true) != FUSEC_SUCCESS)
    return false;
  for (size_t i = 0; i < outputs.size(); ++i)
    if (std::memcmp(planned[i].data(), outputs[i]->data(), planned[i].size() * sizeof(double)))
      return false;
  return true;
}

int wavefronts(int count) {
  Grid grid = openGrid("lam-r2b3");
  const int32_t nlev = 5;
  const fusec_layout columns = {{0, 0, 0}, 1};
  diffuse_handle *diffuse = nullptr;
  overwrite_handle *overwrite = nullptr;
  expect(diffuse_create_with_layout(grid.mesh, nlev, &columns, nullptr, &diffuse) ==
                 FUSEC_SUCCESS &&
             overwrite_create_with_layout(grid.mesh, nlev, &columns, nullptr, &overwrite) ==
                 FUSEC_SUCCESS,
         "create diffuse and overwrite in the columns layout");
  if (failures)
    return 1;
  omp_set_num_threads(count);
  for (uint64_t round = 0; round < 3; ++round) {
    std::vector<double> theta = randomField(round, "theta", grid.cells, 0, nlev);
    std::vector<double> source = randomField(round, "source", grid.cells, 0, nlev);
    std::vector<double> length = randomField(round, "inv_length", grid.edges, 0, 0);
    std::vector<double> geofac = randomField(round, "geofac", grid.cells, 3, 0);
    std::vector<double> result(static_cast<size_t>(grid.edges) * nlev, 0.0);
    // The second round leaves the first cells and edges out.
    int32_t e0 = round == 1 ? grid.edges / 3 : 0, c0 = round == 1 ? grid.cells / 3 : 0;
    expect(planMatchesKernels({&theta},
                              [&](bool exchange) {
                                diffuse_set_exchange_callback(
                                    diffuse, exchange ? noExchange : nullptr, nullptr);
                                return diffuse_run(diffuse, theta.data(), length.data(),
                                                   geofac.data(), round != 2, e0, grid.edges,
                                                   c0, grid.cells);
                              }),
           "diffuse, round " + std::to_string(round) + ", team of " + std::to_string(count) +
               ": the plan gives what the kernels give one after the other");
    expect(planMatchesKernels({&theta, &result},
                              [&](bool exchange) {
                                overwrite_set_exchange_callback(
                                    overwrite, exchange ? noExchange : nullptr, nullptr);
                                return overwrite_run(overwrite, theta.data(), source.data(),
                                                     length.data(), result.data(), e0,
                                                     grid.edges, c0, grid.cells);
                              }),
           "overwrite, round " + std::to_string(round) + ", team of " + std::to_string(count) +
               ": the plan gives what the kernels give one after the other");
  }
  diffuse_destroy(diffuse);
  overwrite_destroy(overwrite);
  fusec_grid_destroy(grid.grid);
  return failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[1], "interleaved") == 0)
    return interleaved(argv[2]);
  if (argc == 3 && std::strcmp(argv[1], "threads") == 0)
    return threads(std::atoi(argv[2]));
  if (argc == 3 && std::strcmp(argv[1], "team") == 0)
    return team(std::atoi(argv[2]));
  if (argc == 3 && std::strcmp(argv[1], "wavefront") == 0)
    return wavefronts(std::atoi(argv[2]));
  std::fprintf(stderr,
               "usage: instances_driver interleaved DIR | threads N | team N | wavefront N\n");
  return 2;
}
