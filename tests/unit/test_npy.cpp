// NumPy .npy files: round trips, the field mapping and malformed files.
#include "fusec/npy.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

using namespace fusec;

namespace {

struct TempFile {
  std::string path;
  explicit TempFile(const std::string &name)
      : path("/tmp/fusec-runtime-tests-" + std::to_string(getpid()) + "-" + name) {}
  ~TempFile() { std::remove(path.c_str()); }
};

template <typename T>
NpyArray make_array(std::vector<int64_t> shape, const std::vector<T> &values) {
  NpyArray array;
  array.dtype = dtype_of<T>();
  array.shape = std::move(shape);
  array.bytes.resize(values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(array.bytes.data(), values.data(), array.bytes.size());
  return array;
}

// A .npy file with the given version and header text (padding added) and data bytes.
std::vector<uint8_t> npy_file(int major, std::string header, size_t data_bytes) {
  std::vector<uint8_t> file = {0x93, 'N', 'U', 'M', 'P', 'Y', uint8_t(major), 0};
  header += '\n';
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
    file.push_back(uint8_t(header.size() >> (8 * i)));
  file.insert(file.end(), header.begin(), header.end());
  file.resize(file.size() + data_bytes, 0);
  return file;
}

std::string parse_error(const std::vector<uint8_t> &file) {
  Result<NpyArray> array = parse_npy(file, "x.npy");
  return array ? std::string() : array.error();
}

} // namespace

TEST_CASE("npy arrays of every dtype and rank round-trip through files", "[npy]") {
  std::vector<NpyArray> arrays = {
      make_array<double>({5}, {1.5, -2.0, 0.0, 1e300, -1e-300}),
      make_array<float>({2, 3}, {1, 2, 3, 4, 5, 6}),
      make_array<int32_t>({2, 2, 2}, {-1, 0, 1, 2, 3, 4, 5, 2147483647}),
      make_array<uint8_t>({4}, {1, 0, 0, 1}),
      make_array<double>({0}, {}),
  };
  for (const NpyArray &array : arrays) {
    INFO(npy_descr(array.dtype) << " " << shape_string(array.shape));
    TempFile file("array.npy");
    REQUIRE(write_npy(file.path, array));
    Result<NpyArray> read = read_npy(file.path);
    INFO(read.error());
    REQUIRE(read);
    CHECK(read->dtype == array.dtype);
    CHECK(read->shape == array.shape);
    CHECK_FALSE(read->fortran_order);
    CHECK(read->bytes == array.bytes);
    // The data start at a multiple of 64 bytes, as NumPy writes them.
    CHECK(serialize_npy(array).size() % 64 == array.bytes.size() % 64);
  }
}

TEST_CASE("npy headers as NumPy writes them are understood", "[npy]") {
  // Version 2.0, double quotes, no trailing comma, extra spaces.
  std::vector<uint8_t> file =
      npy_file(2, "{\"descr\": \"<i4\", \"shape\": ( 2 , 3 ) , \"fortran_order\": True}", 24);
  Result<NpyArray> array = parse_npy(file, "v2.npy");
  INFO(array.error());
  REQUIRE(array);
  CHECK(array->dtype == DType::Int32);
  CHECK(array->fortran_order);
  CHECK(array->shape == std::vector<int64_t>{2, 3});
  // A 0-d array holds one element.
  Result<NpyArray> scalar =
      parse_npy(npy_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", 8), "s");
  REQUIRE(scalar);
  CHECK(scalar->num_elements() == 1);
}

TEST_CASE("malformed npy files give clear errors", "[npy]") {
  const std::string good = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }";
  CHECK(parse_error(npy_file(1, good, 16)).empty());

  std::vector<uint8_t> bad_magic = npy_file(1, good, 16);
  bad_magic[1] = 'X';
  CHECK(parse_error(bad_magic).find("not a .npy file") != std::string::npos);
  CHECK(parse_error({0x93, 'N'}).find("not a .npy file") != std::string::npos);
  CHECK(parse_error(npy_file(4, good, 16)).find("unsupported .npy format version 4.0") !=
        std::string::npos);

  std::vector<uint8_t> truncated = npy_file(1, good, 0);
  truncated.resize(20);
  CHECK(parse_error(truncated).find("truncated header") != std::string::npos);

  CHECK(parse_error(npy_file(1, good, 15)).find("needs 16 data bytes, the file has 15") !=
        std::string::npos);
  CHECK(parse_error(npy_file(1, "{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }", 16))
            .find("unsupported dtype '>f8'") != std::string::npos);
  CHECK(parse_error(npy_file(1, "{'descr': '<c16', 'fortran_order': False, 'shape': (2,), }", 32))
            .find("unsupported dtype") != std::string::npos);
  CHECK(parse_error(npy_file(1, "{'descr': '<f8', 'shape': (2,), }", 16)).find("lacks") !=
        std::string::npos);
  CHECK(parse_error(npy_file(1, "{'descr': '<f8', 'fortran_order': Maybe, 'shape': (2,), }", 16))
            .find("'fortran_order'") != std::string::npos);
  CHECK(parse_error(npy_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (-2,), }", 16))
            .find("'shape'") != std::string::npos);
  CHECK(parse_error(
            npy_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'x': 1}", 16))
            .find("unexpected header key 'x'") != std::string::npos);
  CHECK(parse_error(npy_file(1, "['descr', '<f8']", 16)).find("not a dict") != std::string::npos);

  Result<NpyArray> missing = read_npy("/nonexistent/field.npy");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().find("/nonexistent/field.npy: cannot open") != std::string::npos);
}

TEST_CASE("fields map to NumPy arrays of reversed shape", "[npy]") {
  // A (Cell, C2E2C, K) field of 4 cells (ld 6: padded), 3 neighbours and 2 levels.
  FieldLayout layout{4, 6, 3, 2};
  std::vector<double> field(layout.size(), -99.0);
  for (int32_t k = 0; k < 2; ++k)
    for (int32_t n = 0; n < 3; ++n)
      for (int32_t h = 0; h < 4; ++h)
        field[h + n * 6 + k * 18] = 100 * k + 10 * n + h;
  FieldRef ref{"zd_intcoef", Location::Cell, layout, DType::Float64, field.data()};
  NpyArray array = field_to_npy(ref);
  CHECK(array.shape == std::vector<int64_t>{2, 3, 4});
  CHECK(npy_shape(layout) == array.shape);
  const double *values = reinterpret_cast<const double *>(array.bytes.data());
  CHECK(values[0] == 0.0);
  CHECK(values[3] == 3.0);
  CHECK(values[4] == 10.0);
  CHECK(values[12] == 100.0);

  TempFile file("zd_intcoef.npy");
  REQUIRE(save_field_npy(file.path, ref));
  std::vector<double> loaded(layout.size(), -1.0);
  REQUIRE(load_field_npy(file.path, layout, DType::Float64, loaded.data()));
  for (int32_t k = 0; k < 2; ++k)
    for (int32_t n = 0; n < 3; ++n)
      for (int32_t h = 0; h < 4; ++h)
        REQUIRE(loaded[h + n * 6 + k * 18] == field[h + n * 6 + k * 18]);

  CHECK(npy_shape(FieldLayout::dense(7)) == std::vector<int64_t>{7});
  CHECK(npy_shape(FieldLayout::dense(7, 5)) == std::vector<int64_t>{5, 7});
  CHECK(npy_shape(FieldLayout::sparse(7, 3)) == std::vector<int64_t>{3, 7});
}

TEST_CASE("icon4py-shaped arrays load in C and Fortran order", "[npy]") {
  // A (Edge, K) field of 3 edges and 2 levels: f(h, k) = 10 h + k.
  FieldLayout layout = FieldLayout::dense(3, 2);
  std::vector<int32_t> c_order = {0, 1, 10, 11, 20, 21}; // np.save of shape (3, 2)
  std::vector<int32_t> f_order = {0, 10, 20, 1, 11, 21}; // the same, order='F'
  NpyArray logical_c = make_array<int32_t>({3, 2}, c_order);
  NpyArray logical_f = make_array<int32_t>({3, 2}, f_order);
  logical_f.fortran_order = true;
  for (const NpyArray *array : {&logical_c, &logical_f}) {
    std::vector<int32_t> field(layout.size(), -1);
    Status status = field_from_npy(*array, layout, DType::Int32, field.data(), "f.npy");
    INFO(status.message());
    REQUIRE(status);
    CHECK(field == std::vector<int32_t>{0, 10, 20, 1, 11, 21});
  }
}

TEST_CASE("field loading rejects wrong shapes and dtypes", "[npy]") {
  FieldLayout layout = FieldLayout::dense(3, 2);
  std::vector<double> field(layout.size());
  NpyArray wrong_shape = make_array<double>({4, 2}, std::vector<double>(8));
  Status shape = field_from_npy(wrong_shape, layout, DType::Float64, field.data(), "vn.npy");
  REQUIRE_FALSE(shape);
  CHECK(shape.message() == "vn.npy: shape (4, 2), expected (2, 3) or (3, 2)");
  NpyArray wrong_dtype = make_array<float>({2, 3}, std::vector<float>(6));
  Status dtype = field_from_npy(wrong_dtype, layout, DType::Float64, field.data(), "vn.npy");
  REQUIRE_FALSE(dtype);
  CHECK(dtype.message() == "vn.npy: dtype <f4, expected <f8");
}
