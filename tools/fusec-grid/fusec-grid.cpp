// fusec-grid: create, inspect and convert ICON grids. All logic lives in fusec_runtime.
#include "fusec/coefficients.h"
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
  -h, --help       show this help
)";

struct Options {
  std::string grid;
  bool info = false;
  bool coefficients = true;
  std::string output;
  std::string npy_dir;
  int nlev = 80;
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
  if (options.output.empty() && options.npy_dir.empty())
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
