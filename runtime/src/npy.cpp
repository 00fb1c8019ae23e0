// NumPy .npy reading and writing (format: numpy.lib.format, versions 1.0, 2.0, 3.0).
#include "fusec/npy.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fusec's .npy support assumes a little-endian host"
#endif

namespace fusec {
namespace {

const char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
constexpr size_t kMaxDimensions = 8;

struct DTypeName {
  DType dtype;
  const char *descr;
};
const DTypeName kDTypes[] = {
    {DType::Float64, "<f8"}, {DType::Float32, "<f4"}, {DType::Int32, "<i4"}, {DType::Bool, "|b1"}};

// The Python dict literal of a .npy header, e.g.
// {'descr': '<f8', 'fortran_order': False, 'shape': (80, 20480), }
class HeaderParser {
public:
  HeaderParser(const std::string &text, const std::string &source) : text_(text), source_(source) {}

  Status parse(NpyArray &array) {
    bool has_descr = false, has_order = false, has_shape = false;
    skip_space();
    if (!consume('{'))
      return error("header is not a dict");
    while (skip_space(), !consume('}')) {
      std::string key;
      if (!parse_string(key) || (skip_space(), !consume(':')))
        return error("malformed header entry");
      skip_space();
      if (key == "descr") {
        std::string descr;
        if (!parse_string(descr))
          return error("'descr' is not a string");
        if (Status status = set_dtype(descr, array.dtype); !status)
          return status;
        has_descr = true;
      } else if (key == "fortran_order") {
        if (!parse_bool(array.fortran_order))
          return error("'fortran_order' is not True or False");
        has_order = true;
      } else if (key == "shape") {
        if (!parse_shape(array.shape))
          return error("'shape' is not a tuple of non-negative integers");
        has_shape = true;
      } else {
        return error("unexpected header key '" + key + "'");
      }
      skip_space();
      if (!consume(',') && !(skip_space(), peek('}')))
        return error("malformed header: expected ',' or '}'");
    }
    if (!has_descr || !has_order || !has_shape)
      return error("header lacks 'descr', 'fortran_order' or 'shape'");
    return Status::success();
  }

private:
  Status error(const std::string &message) const {
    return Status::failure(source_ + ": " + message);
  }
  Status set_dtype(const std::string &descr, DType &dtype) const {
    for (const DTypeName &entry : kDTypes)
      if (descr == entry.descr) {
        dtype = entry.dtype;
        return Status::success();
      }
    return error("unsupported dtype '" + descr + "' (supported: <f8 <f4 <i4 |b1)");
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool peek(char ch) const { return pos_ < text_.size() && text_[pos_] == ch; }
  bool consume(char ch) {
    if (!peek(ch))
      return false;
    ++pos_;
    return true;
  }
  bool consume(const char *word) {
    size_t length = std::strlen(word);
    if (text_.compare(pos_, length, word) != 0)
      return false;
    pos_ += length;
    return true;
  }
  bool parse_string(std::string &value) {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
      return false;
    char quote = text_[pos_++];
    size_t end = text_.find(quote, pos_);
    if (end == std::string::npos)
      return false;
    value = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return true;
  }
  bool parse_bool(bool &value) {
    if (consume("True"))
      value = true;
    else if (consume("False"))
      value = false;
    else
      return false;
    return true;
  }
  bool parse_shape(std::vector<int64_t> &shape) {
    shape.clear();
    if (!consume('('))
      return false;
    while (skip_space(), !consume(')')) {
      if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
        return false;
      int64_t extent = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        if (extent > (int64_t(1) << 40))
          return false;
        extent = extent * 10 + (text_[pos_++] - '0');
      }
      shape.push_back(extent);
      if (shape.size() > kMaxDimensions)
        return false;
      skip_space();
      if (!consume(',') && !peek(')'))
        return false;
    }
    return true;
  }

  const std::string &text_;
  const std::string &source_;
  size_t pos_ = 0;
};

uint32_t little_endian(const uint8_t *bytes, int count) {
  uint32_t value = 0;
  for (int i = count - 1; i >= 0; --i)
    value = (value << 8) | bytes[i];
  return value;
}

// Which logical dimension (0 points, 1 neighbours, 2 levels) each array axis holds, and the
// element strides of the logical dimensions.
struct AxisMapping {
  size_t stride[3] = {0, 0, 0};
};

bool map_axes(const NpyArray &array, const FieldLayout &layout, AxisMapping &mapping) {
  std::vector<int> logical; // the logical dimension of each axis, in our (reversed) order
  if (layout.num_levels > 0)
    logical.push_back(2);
  if (layout.num_neighbors > 0)
    logical.push_back(1);
  logical.push_back(0);
  const int64_t extent[3] = {layout.num_points, layout.num_neighbors, layout.num_levels};
  std::vector<int64_t> reversed_shape, logical_shape;
  for (int dim : logical)
    reversed_shape.push_back(extent[dim]);
  logical_shape.assign(reversed_shape.rbegin(), reversed_shape.rend());

  std::vector<int> axes; // logical dimension of each array axis
  if (array.shape == reversed_shape)
    axes = logical;
  else if (array.shape == logical_shape)
    axes.assign(logical.rbegin(), logical.rend());
  else
    return false;
  // Element strides of the array axes: the last axis is contiguous in C order, the first in
  // Fortran order.
  size_t rank = axes.size(), stride = 1;
  for (size_t i = 0; i < rank; ++i) {
    size_t axis = array.fortran_order ? i : rank - 1 - i;
    mapping.stride[axes[axis]] = stride;
    stride *= size_t(array.shape[axis]);
  }
  return true;
}

Result<std::vector<uint8_t>> read_file(const std::string &path) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (file == nullptr)
    return Status::failure(path + ": cannot open: " + std::strerror(errno));
  std::vector<uint8_t> bytes;
  uint8_t buffer[1 << 16];
  size_t count = 0;
  while ((count = std::fread(buffer, 1, sizeof buffer, file)) > 0)
    bytes.insert(bytes.end(), buffer, buffer + count);
  bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed)
    return Status::failure(path + ": read error");
  return bytes;
}

} // namespace

size_t NpyArray::num_elements() const {
  size_t count = 1;
  for (int64_t extent : shape)
    count *= size_t(extent);
  return count;
}

const char *npy_descr(DType dtype) {
  for (const DTypeName &entry : kDTypes)
    if (entry.dtype == dtype)
      return entry.descr;
  return "?";
}

std::string shape_string(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

Result<NpyArray> parse_npy(const std::vector<uint8_t> &file, const std::string &source) {
  if (file.size() < kMagicSize + 2 || std::memcmp(file.data(), kMagic, kMagicSize) != 0)
    return Status::failure(source + ": not a .npy file (no \\x93NUMPY magic)");
  int major = file[kMagicSize], minor = file[kMagicSize + 1];
  if (major < 1 || major > 3 || minor != 0)
    return Status::failure(source + ": unsupported .npy format version " + std::to_string(major) +
                           "." + std::to_string(minor));
  int length_bytes = major == 1 ? 2 : 4;
  size_t header_start = kMagicSize + 2 + length_bytes;
  if (file.size() < header_start)
    return Status::failure(source + ": truncated header");
  size_t header_length = little_endian(&file[kMagicSize + 2], length_bytes);
  if (file.size() < header_start + header_length)
    return Status::failure(source + ": truncated header (" + std::to_string(header_length) +
                           " bytes announced, " + std::to_string(file.size() - header_start) +
                           " present)");
  std::string header(file.begin() + header_start, file.begin() + header_start + header_length);
  NpyArray array;
  if (Status status = HeaderParser(header, source).parse(array); !status)
    return status;
  size_t expected = array.num_elements() * dtype_size(array.dtype);
  size_t present = file.size() - header_start - header_length;
  if (present != expected)
    return Status::failure(source + ": shape " + shape_string(array.shape) + " of " +
                           npy_descr(array.dtype) + " needs " + std::to_string(expected) +
                           " data bytes, the file has " + std::to_string(present));
  array.bytes.assign(file.begin() + header_start + header_length, file.end());
  return array;
}

Result<NpyArray> read_npy(const std::string &path) {
  Result<std::vector<uint8_t>> bytes = read_file(path);
  if (!bytes)
    return bytes.status();
  return parse_npy(*bytes, path);
}

std::vector<uint8_t> serialize_npy(const NpyArray &array) {
  std::string header = std::string("{'descr': '") + npy_descr(array.dtype) +
                       "', 'fortran_order': " + (array.fortran_order ? "True" : "False") +
                       ", 'shape': " + shape_string(array.shape) + ", }";
  // Pad with spaces and a final newline so that the data starts at a multiple of 64 bytes.
  bool version1 = header.size() + 1 + 10 <= 65535;
  size_t preamble = kMagicSize + 2 + (version1 ? 2 : 4);
  size_t total = preamble + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::vector<uint8_t> file(kMagic, kMagic + kMagicSize);
  file.push_back(version1 ? 1 : 2);
  file.push_back(0);
  uint32_t length = uint32_t(header.size());
  for (int i = 0; i < (version1 ? 2 : 4); ++i)
    file.push_back(uint8_t(length >> (8 * i)));
  file.insert(file.end(), header.begin(), header.end());
  file.insert(file.end(), array.bytes.begin(), array.bytes.end());
  return file;
}

Status write_npy(const std::string &path, const NpyArray &array) {
  std::vector<uint8_t> bytes = serialize_npy(array);
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (file == nullptr)
    return Status::failure(path + ": cannot create: " + std::strerror(errno));
  bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  bool closed = std::fclose(file) == 0;
  if (!written || !closed)
    return Status::failure(path + ": write error");
  return Status::success();
}

std::vector<int64_t> npy_shape(const FieldLayout &layout) {
  std::vector<int64_t> shape;
  if (layout.num_levels > 0)
    shape.push_back(layout.num_levels);
  if (layout.num_neighbors > 0)
    shape.push_back(layout.num_neighbors);
  shape.push_back(layout.num_points);
  return shape;
}

NpyArray field_to_npy(const FieldRef &field) {
  const FieldLayout &layout = field.layout;
  NpyArray array;
  array.dtype = field.dtype;
  array.shape = npy_shape(layout);
  size_t element = dtype_size(field.dtype);
  size_t row_bytes = size_t(layout.num_points) * element;
  // One row of points per (level, neighbour).
  size_t rows = size_t(std::max(layout.num_neighbors, 1)) * size_t(std::max(layout.num_levels, 1));
  array.bytes.resize(rows * row_bytes);
  const uint8_t *source = static_cast<const uint8_t *>(field.data);
  for (size_t row = 0; row < rows && row_bytes > 0; ++row)
    std::memcpy(array.bytes.data() + row * row_bytes, source + row * size_t(layout.ld) * element,
                row_bytes);
  return array;
}

Status field_from_npy(const NpyArray &array, const FieldLayout &layout, DType dtype, void *data,
                      const std::string &source) {
  if (array.dtype != dtype)
    return Status::failure(source + ": dtype " + npy_descr(array.dtype) + ", expected " +
                           npy_descr(dtype));
  if (array.bytes.size() != array.num_elements() * dtype_size(dtype))
    return Status::failure(source + ": " + std::to_string(array.bytes.size()) +
                           " data bytes do not match shape " + shape_string(array.shape));
  AxisMapping mapping;
  if (!map_axes(array, layout, mapping)) {
    std::vector<int64_t> expected = npy_shape(layout);
    std::vector<int64_t> logical(expected.rbegin(), expected.rend());
    return Status::failure(source + ": shape " + shape_string(array.shape) + ", expected " +
                           shape_string(expected) + " or " + shape_string(logical));
  }
  size_t element = dtype_size(dtype);
  size_t neighbors = size_t(std::max(layout.num_neighbors, 1));
  size_t levels = size_t(std::max(layout.num_levels, 1));
  size_t points = size_t(layout.num_points);
  if (points == 0)
    return Status::success();
  uint8_t *target = static_cast<uint8_t *>(data);
  for (size_t k = 0; k < levels; ++k)
    for (size_t n = 0; n < neighbors; ++n) {
      size_t from = n * mapping.stride[1] + k * mapping.stride[2];
      uint8_t *row = target + (n + k * neighbors) * size_t(layout.ld) * element;
      if (mapping.stride[0] == 1) {
        std::memcpy(row, &array.bytes[from * element], points * element);
        continue;
      }
      for (size_t h = 0; h < points; ++h)
        std::memcpy(row + h * element, &array.bytes[(from + h * mapping.stride[0]) * element],
                    element);
    }
  return Status::success();
}

Status save_field_npy(const std::string &path, const FieldRef &field) {
  return write_npy(path, field_to_npy(field));
}

Status load_field_npy(const std::string &path, const FieldLayout &layout, DType dtype, void *data) {
  Result<NpyArray> array = read_npy(path);
  if (!array)
    return array.status();
  return field_from_npy(*array, layout, dtype, data, path);
}

} // namespace fusec
