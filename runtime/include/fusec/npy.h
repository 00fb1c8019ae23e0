// fusec runtime: NumPy .npy files (format versions 1.0, 2.0 and 3.0; little-endian <f8, <f4,
// <i4 and |b1), and the mapping between fusec fields and NumPy arrays.
//
// Field mapping: a field with layout f[h + n*ld + k*ld*N] is written as a C-order array of
// shape (nlev, N, num_points), dimensions absent from the field left out:
//   (Edge)            -> (num_edges,)
//   (Edge, K)         -> (nlev, num_edges)
//   (Cell, C2E)       -> (3, num_cells)          (as ICON grid files store tables)
//   (Cell, C2E2C, K)  -> (nlev, 3, num_cells)
// so the bytes are the field's own bytes and `np.load(f).T` has icon4py's logical shape
// (num_points, N, nlev). Reading accepts that shape in C order, or the logical shape
// (num_points, N, nlev) in C order (what np.save of an icon4py array writes) or Fortran order.
#ifndef FUSEC_NPY_H
#define FUSEC_NPY_H

#include "fusec/field.h"
#include "fusec/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fusec {

struct NpyArray {
  DType dtype = DType::Float64;
  std::vector<int64_t> shape;
  bool fortran_order = false;
  std::vector<uint8_t> bytes; // the elements in file order, little-endian

  size_t num_elements() const;
};

// "<f8", "<f4", "<i4" or "|b1".
const char *npy_descr(DType dtype);
// "(80, 3, 20480)".
std::string shape_string(const std::vector<int64_t> &shape);

// Parses a whole .npy file held in memory; `source` names it in error messages.
Result<NpyArray> parse_npy(const std::vector<uint8_t> &file, const std::string &source);
Result<NpyArray> read_npy(const std::string &path);
std::vector<uint8_t> serialize_npy(const NpyArray &array);
Status write_npy(const std::string &path, const NpyArray &array);

// The NumPy shape of a field in the mapping above.
std::vector<int64_t> npy_shape(const FieldLayout &layout);
// The field's values (padding dropped) as an array of npy_shape(layout).
NpyArray field_to_npy(const FieldRef &field);
// Copies `array` into `data` (layout `layout`, element type `dtype`); `source` names the
// array in error messages.
Status field_from_npy(const NpyArray &array, const FieldLayout &layout, DType dtype, void *data,
                      const std::string &source);

Status save_field_npy(const std::string &path, const FieldRef &field);
Status load_field_npy(const std::string &path, const FieldLayout &layout, DType dtype, void *data);

} // namespace fusec

#endif // FUSEC_NPY_H
