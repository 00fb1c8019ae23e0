// Vector algebra on the unit sphere (internal to the runtime).
#ifndef FUSEC_RUNTIME_SPHERE_H
#define FUSEC_RUNTIME_SPHERE_H

#include "fusec/grid.h"

#include <cmath>

namespace fusec {

struct Vec3 {
  double x = 0, y = 0, z = 0;
};

inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double norm(Vec3 a) { return std::sqrt(dot(a, a)); }
inline Vec3 normalized(Vec3 a) { return (1.0 / norm(a)) * a; }

// Great-circle angle between two unit vectors; atan2 keeps small angles accurate.
inline double arc(Vec3 a, Vec3 b) { return std::atan2(norm(cross(a, b)), dot(a, b)); }

// Area of the spherical triangle abc on the unit sphere (unit vectors), unsigned.
inline double spherical_triangle_area(Vec3 a, Vec3 b, Vec3 c) {
  double triple = dot(a, cross(b, c));
  return 2.0 * std::atan2(std::fabs(triple), 1.0 + dot(a, b) + dot(b, c) + dot(c, a));
}

// Spherical linear interpolation between unit vectors a and b at arc fraction t.
inline Vec3 slerp(Vec3 a, Vec3 b, double t) {
  double theta = arc(a, b);
  double s = std::sin(theta);
  return (std::sin((1.0 - t) * theta) / s) * a + (std::sin(t * theta) / s) * b;
}

inline Vec3 from_lonlat(double lon, double lat) {
  return {std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)};
}
inline double longitude(Vec3 p) { return std::atan2(p.y, p.x); }
inline double latitude(Vec3 p) { return std::atan2(p.z, std::hypot(p.x, p.y)); }

// The local east and north unit vectors at longitude lon, latitude lat.
inline Vec3 east_unit(double lon) { return {-std::sin(lon), std::cos(lon), 0.0}; }
inline Vec3 north_unit(double lon, double lat) {
  return {-std::sin(lat) * std::cos(lon), -std::sin(lat) * std::sin(lon), std::cos(lat)};
}

inline Vec3 point(const Points &points, int32_t i) {
  return {points.x[i], points.y[i], points.z[i]};
}

} // namespace fusec

#endif // FUSEC_RUNTIME_SPHERE_H
