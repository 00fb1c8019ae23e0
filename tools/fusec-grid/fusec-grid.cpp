// fusec-grid: create, inspect and convert ICON grids. All logic lives in fusec_runtime.
#include "fusec/coefficients.h"
#include "fusec/decomposition.h"
#include "fusec/grid_generator.h"
#include "fusec/grid_info.h"
#include "fusec/grid_netcdf.h"
#include "fusec/npy.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

const char kUsage[] =
    R"(usage: fusec-grid GRID [options]

GRID is one of
  rNbK                       global icosahedral grid, e.g. r2b4, R02B06
  lam-rNbK[:R[@LAT,LON]]     limited-area cap of radius R degrees (default: 30 mean cell
                             spacings, within [20, 60]) around LAT,LON (default 46.5,8),
                             e.g. lam-r2b4, lam-r2b5:25@0,0
  FILE.nc                    an ICON grid file

options:
  --info           print counts, zones, neighbour statistics, geometry and a summary of the
                   diffusion coefficients (the default when no output is requested)
  -o FILE.nc       write the grid as an ICON grid file
  --npy DIR        compute the diffusion coefficients and write each to DIR/<name>.npy
  --nlev N         vertical levels of the coefficients (default 80)
  --no-coefficients  do not compute coefficients for --info
  --decompose N    split the grid over N ranks (recursive coordinate bisection) and print each
                   rank's owned and halo points (halo lines 1 and 2) and exchange peers
  --decompose-report  print halo sizes for 4, 8, ..., 1024 ranks: the points one exchange of
                   one field (both halo lines) moves per step, and the halo/owned ratios
  -h, --help       show this help
)";

struct Options {
  std::string grid;
  bool info = false;
  bool coefficients = true;
  std::string output;
  std::string npy_dir;
  int nlev = 80;
  int num_ranks = 0; // --decompose; 0 = none
  bool decompose_report = false;
};

int fail(const std::string &message) {
  std::cerr << "fusec-grid: error: " << message << "\n";
  return 1;
}

// Parses argv into `options`; returns false with `error` set on bad input.
bool parse_arguments(int argc, char **argv, Options &options, bool &help, std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string &target) {
      if (i + 1 >= argc) {
        error = "option " + arg + " needs a value";
        return false;
      }
      target = argv[++i];
      return true;
    };
    if (arg == "-h" || arg == "--help") {
      help = true;
    } else if (arg == "--info") {
      options.info = true;
    } else if (arg == "--no-coefficients") {
      options.coefficients = false;
    } else if (arg == "-o") {
      if (!value(options.output))
        return false;
    } else if (arg == "--npy") {
      if (!value(options.npy_dir))
        return false;
    } else if (arg == "--nlev") {
      std::string text;
      if (!value(text))
        return false;
      char *end = nullptr;
      long nlev = std::strtol(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || nlev < 2 || nlev > 10000) {
        error = "--nlev needs an integer between 2 and 10000, got '" + text + "'";
        return false;
      }
      options.nlev = int(nlev);
    } else if (arg == "--decompose") {
      std::string text;
      if (!value(text))
        return false;
      char *end = nullptr;
      long ranks = std::strtol(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || ranks < 1 || ranks > 1000000) {
        error = "--decompose needs a rank count between 1 and 1000000, got '" + text + "'";
        return false;
      }
      options.num_ranks = int(ranks);
    } else if (arg == "--decompose-report") {
      options.decompose_report = true;
    } else if (!arg.empty() && arg[0] == '-') {
      error = "unknown option '" + arg + "' (see --help)";
      return false;
    } else if (options.grid.empty()) {
      options.grid = arg;
    } else {
      error = "more than one grid given: '" + options.grid + "' and '" + arg + "'";
      return false;
    }
  }
  if (!help && options.grid.empty()) {
    error = "no grid given (see --help)";
    return false;
  }
  if (options.output.empty() && options.npy_dir.empty() && options.num_ranks == 0 &&
      !options.decompose_report)
    options.info = true;
  return true;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int write_npy_fields(const fusec::DiffusionCoefficients &coefficients, const std::string &dir) {
  if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST)
    return fail("cannot create directory '" + dir + "'");
  for (const fusec::FieldRef &field : coefficients.fields())
    if (fusec::Status status = fusec::save_field_npy(dir + "/" + field.name + ".npy", field);
        !status)
      return fail(status.message());
  std::cout << "wrote " << coefficients.fields().size() << " fields to " << dir << "/\n";
  return 0;
}

const fusec::Location kLocations[] = {fusec::Location::Cell, fusec::Location::Edge,
                                      fusec::Location::Vertex};

// One line per rank: owned points and halo lines 1 + 2 per location, and the exchange peers.
int print_decomposition(const fusec::Grid &grid, int num_ranks) {
  fusec::Result<fusec::Decomposition> decomposition = fusec::decompose(grid, num_ranks);
  if (!decomposition)
    return fail(decomposition.error());
  std::printf("%s on %d ranks (owned + halo line 1 + halo line 2)\n", grid.name().c_str(),
              num_ranks);
  std::printf("%6s %24s %24s %24s %6s\n", "rank", "cells", "edges", "vertices", "peers");
  for (int rank = 0; rank < num_ranks; ++rank) {
    fusec::Result<fusec::LocalDomain> domain = fusec::make_local_domain(grid, *decomposition, rank);
    if (!domain)
      return fail(domain.error());
    std::printf("%6d", rank);
    for (fusec::Location location : kLocations) {
      const auto &halo = domain->points.num_halo[int(location)];
      std::string counts = std::to_string(domain->points.num_owned[int(location)]) + " + " +
                           std::to_string(halo[0]) + " + " + std::to_string(halo[1]);
      std::printf(" %24s", counts.c_str());
    }
    std::printf(" %6zu\n", domain->exchange(fusec::Location::Cell, fusec::kHaloLines).size());
  }
  return 0;
}

// The scale table of docs/runtime.md: halo sizes for 4 ... 1024 ranks.
int print_decomposition_report(const fusec::Grid &grid) {
  std::printf("%s: %d cells, %d edges, %d vertices. Halo points: sum over ranks of halo lines 1 "
              "and 2, i.e. points one exchange of one field moves per step.\n",
              grid.name().c_str(), grid.num_cells(), grid.num_edges(), grid.num_vertices());
  std::printf(
      "| ranks | cells/rank | halo cells (line 1) | halo cells | halo edges | halo vertices "
      "| halo/owned, all | max rank halo/owned, cells | max peers | seconds |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  int64_t total_points = int64_t(grid.num_cells()) + grid.num_edges() + grid.num_vertices();
  for (int num_ranks = 4; num_ranks <= 1024; num_ranks *= 2) {
    auto start = std::chrono::steady_clock::now();
    fusec::Result<fusec::Decomposition> decomposition = fusec::decompose(grid, num_ranks);
    if (!decomposition)
      return fail(decomposition.error());
    fusec::HaloCounts counts = fusec::count_halos(grid, *decomposition);
    const auto &halo = counts.halo_points;
    int64_t all_halo = halo[0] + halo[1] + halo[2];
    std::printf(
        "| %d | %d | %lld | %lld | %lld | %lld | %.3f | %.3f | %d | %.2f |\n", num_ranks,
        grid.num_cells() / num_ranks,
        (long long)counts.halo_line1_points[int(fusec::Location::Cell)],
        (long long)halo[int(fusec::Location::Cell)], (long long)halo[int(fusec::Location::Edge)],
        (long long)halo[int(fusec::Location::Vertex)], double(all_halo) / double(total_points),
        counts.max_rank_ratio[int(fusec::Location::Cell)], counts.max_peers, seconds_since(start));
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  bool help = false;
  std::string error;
  if (!parse_arguments(argc, argv, options, help, error))
    return fail(error);
  if (help) {
    std::cout << kUsage;
    return 0;
  }

  auto start = std::chrono::steady_clock::now();
  fusec::Result<fusec::Grid> grid = fusec::make_grid(options.grid);
  if (!grid)
    return fail(grid.error());
  double grid_seconds = seconds_since(start);

  if (options.num_ranks > 0)
    if (int rc = print_decomposition(*grid, options.num_ranks); rc != 0)
      return rc;
  if (options.decompose_report)
    if (int rc = print_decomposition_report(*grid); rc != 0)
      return rc;

  if (!options.output.empty()) {
    if (fusec::Status status = fusec::write_grid_netcdf(*grid, options.output); !status)
      return fail(status.message());
    std::cout << "wrote " << options.output << "\n";
  }

  bool need_coefficients = !options.npy_dir.empty() || (options.info && options.coefficients);
  if (options.info)
    fusec::print_grid_info(std::cout, *grid);
  if (!need_coefficients) {
    if (options.info)
      std::printf("timing: grid %.3f s\n", grid_seconds);
    return 0;
  }

  start = std::chrono::steady_clock::now();
  fusec::CoefficientConfig config;
  config.vertical.num_levels = options.nlev;
  fusec::Result<fusec::DiffusionCoefficients> coefficients =
      fusec::compute_diffusion_coefficients(*grid, config);
  if (!coefficients)
    return fail(coefficients.error());
  double coefficient_seconds = seconds_since(start);
  if (options.info) {
    fusec::print_coefficient_summary(std::cout, *coefficients);
    std::printf("timing: grid %.3f s, coefficients %.3f s\n", grid_seconds, coefficient_seconds);
  }
  if (!options.npy_dir.empty())
    return write_npy_fields(*coefficients, options.npy_dir);
  return 0;
}
