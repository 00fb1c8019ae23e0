// Grid names: "r2b4", "lam-r2b4:30@46.5,8", "grid.nc".
#include "fusec/grid_generator.h"
#include "fusec/grid_netcdf.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace fusec {
namespace {

const char *const kSyntax = "expected rNbK (e.g. r2b4), lam-rNbK[:<radius_deg>[@<lat_deg>,"
                            "<lon_deg>]] (e.g. lam-r2b4:30@46.5,8) or a .nc grid file";

std::string lowercase(std::string text) {
  for (char &ch : text)
    ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return text;
}

bool ends_with(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A non-negative decimal integer that is all of `text`.
bool parse_int(const std::string &text, int32_t &value) {
  if (text.empty() || text.size() > 6)
    return false;
  for (char ch : text)
    if (!std::isdigit(static_cast<unsigned char>(ch)))
      return false;
  value = int32_t(std::strtol(text.c_str(), nullptr, 10));
  return true;
}

// A finite floating-point number that is all of `text`.
bool parse_double(const std::string &text, double &value) {
  if (text.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  value = std::strtod(text.c_str(), &end);
  return errno == 0 && end == text.c_str() + text.size() && std::isfinite(value);
}

// "r<root>b<level>" (lowercase).
bool parse_global(const std::string &text, int32_t &root, int32_t &level) {
  size_t b = text.find('b');
  return text.size() >= 4 && text[0] == 'r' && b != std::string::npos &&
         parse_int(text.substr(1, b - 1), root) && parse_int(text.substr(b + 1), level);
}

// "<radius>[@<lat>,<lon>]".
bool parse_cap(const std::string &text, LimitedAreaConfig &lam) {
  size_t at = text.find('@');
  if (!parse_double(text.substr(0, at), lam.radius_deg))
    return false;
  if (at == std::string::npos)
    return true;
  std::string centre = text.substr(at + 1);
  size_t comma = centre.find(',');
  return comma != std::string::npos && parse_double(centre.substr(0, comma), lam.center_lat_deg) &&
         parse_double(centre.substr(comma + 1), lam.center_lon_deg);
}

} // namespace

Result<GridSpec> parse_grid_spec(const std::string &text) {
  GridSpec spec;
  std::string name = lowercase(text);
  if (ends_with(name, ".nc")) {
    spec.kind = GridSpec::Kind::File;
    spec.path = text;
    return spec;
  }
  const std::string lam_prefix = "lam-";
  bool is_lam = name.compare(0, lam_prefix.size(), lam_prefix) == 0;
  if (is_lam)
    name = name.substr(lam_prefix.size());
  size_t colon = name.find(':');
  bool ok = parse_global(name.substr(0, colon), spec.root, spec.level);
  if (ok && colon != std::string::npos)
    ok = is_lam && parse_cap(name.substr(colon + 1), spec.lam);
  if (!ok)
    return Status::failure("unknown grid '" + text + "': " + kSyntax);
  if (spec.root < 1)
    return Status::failure("grid '" + text + "': the root division must be at least 1");
  if (colon != std::string::npos && spec.lam.radius_deg <= 0)
    return Status::failure("grid '" + text + "': the LAM radius must be positive");
  spec.kind = is_lam ? GridSpec::Kind::LimitedArea : GridSpec::Kind::Global;
  return spec;
}

Result<Grid> make_grid(const GridSpec &spec) {
  switch (spec.kind) {
  case GridSpec::Kind::File:
    return read_grid_netcdf(spec.path);
  case GridSpec::Kind::Global:
    return make_icosahedral_grid(spec.root, spec.level);
  case GridSpec::Kind::LimitedArea: {
    Result<Grid> global = make_icosahedral_grid(spec.root, spec.level);
    if (!global)
      return global;
    return make_limited_area_grid(*global, spec.lam);
  }
  }
  return Status::failure("unknown grid kind");
}

Result<Grid> make_grid(const std::string &text) {
  Result<GridSpec> spec = parse_grid_spec(text);
  if (!spec)
    return spec.status();
  return make_grid(*spec);
}

} // namespace fusec
