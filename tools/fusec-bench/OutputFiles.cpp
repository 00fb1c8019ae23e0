//===- OutputFiles.cpp - what --save-outputs writes -----------------------===//

#include "OutputFiles.h"

#include "fusec/npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstring>

namespace fusec::bench {

std::string variantDirectoryName(const std::string &variant) {
  std::string name = variant;
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
      c = '_';
  return name;
}

static Status createDirectory(const std::string &path) {
  if (std::error_code error = llvm::sys::fs::create_directories(path))
    return Status::failure("cannot create '" + path + "': " + error.message());
  return Status::success();
}

Status writeTextFile(const std::string &file, llvm::StringRef text) {
  if (std::error_code error = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(file)))
    return Status::failure("cannot create the directory of '" + file + "': " + error.message());
  std::error_code error;
  llvm::raw_fd_ostream os(file, error, llvm::sys::fs::OF_None);
  if (error)
    return Status::failure("cannot write '" + file + "': " + error.message());
  os << text;
  os.close();
  if (os.has_error())
    return Status::failure("cannot write '" + file + "': " + os.error().message());
  return Status::success();
}

Status OutputDirectory::saveGrid(const Grid &grid) {
  std::string directory = root + "/grid";
  if (Status status = createDirectory(directory); !status)
    return status;
  for (int index = 0; index < kNumConnectivities; ++index) {
    const ConnectivityInfo &info = connectivity_info(Connectivity(index));
    const Table &table = grid.table(Connectivity(index));
    FieldRef ref{info.name, info.source, FieldLayout::sparse(table.rows, table.cols), DType::Int32,
                 table.data.data()};
    if (Status status = save_field_npy(directory + "/" + info.name + ".npy", ref); !status)
      return status;
  }
  return Status::success();
}

/// A scalar as a 0-d array of its own type.
static Result<NpyArray> scalarArray(const Parameter &parameter, const ScalarArgument &scalar) {
  NpyArray array;
  auto store = [&](const auto &value) {
    array.bytes.resize(sizeof value);
    std::memcpy(array.bytes.data(), &value, sizeof value);
  };
  switch (scalar.type) {
  case ScalarArgument::Type::F64:
    array.dtype = DType::Float64;
    store(scalar.real);
    break;
  case ScalarArgument::Type::F32:
    array.dtype = DType::Float32;
    store(static_cast<float>(scalar.real));
    break;
  case ScalarArgument::Type::I32:
    array.dtype = DType::Int32;
    store(static_cast<int32_t>(scalar.integer));
    break;
  case ScalarArgument::Type::Bool:
    array.dtype = DType::Bool;
    store(static_cast<uint8_t>(scalar.boolean));
    break;
  case ScalarArgument::Type::I64:
    return Status::failure("scalar '" + parameter.name +
                           "' is an i64, which .npy files of the runtime cannot hold");
  }
  return array;
}

Status OutputDirectory::saveArguments(const ProgramSignature &program,
                                      const std::string &subdirectory,
                                      const std::vector<ArgumentValue> &values, bool outputsOnly) {
  std::string directory = root + "/" + program.name + "/" + subdirectory;
  if (Status status = createDirectory(directory); !status)
    return status;
  for (size_t i = 0; i < program.parameters.size(); ++i) {
    const Parameter &parameter = program.parameters[i];
    if (outputsOnly && !parameter.isOutput())
      continue;
    std::string path = directory + "/" + parameter.name + ".npy";
    if (parameter.isPoints()) {
      if (Status status = write_npy(path, pointListToNpy(values[i].points)); !status)
        return status;
      continue;
    }
    if (parameter.isScalar()) {
      Result<NpyArray> array = scalarArray(parameter, values[i].scalar);
      if (!array)
        return array.status();
      if (Status status = write_npy(path, *array); !status)
        return status;
      continue;
    }
    const HostField &field = values[i].field;
    FieldRef ref{parameter.name, parameter.location.value_or(Location::Cell),
                 field.format().npyLayout(), field.format().dtype, field.data()};
    if (Status status = save_field_npy(path, ref); !status)
      return status;
  }
  return Status::success();
}

Status OutputDirectory::saveSource(const std::string &variant, const std::string &source,
                                   const std::string &extension) {
  return writeTextFile(root + "/sources/" + variantDirectoryName(variant) + "." + extension,
                       source);
}

Status OutputDirectory::writeManifest(const BenchReport &report,
                                      const std::vector<ProgramSignature> &programs) {
  const RunDescription &run = report.run;
  llvm::json::Object programObjects;
  for (const ProgramSignature &program : programs) {
    llvm::json::Array parameters;
    for (const Parameter &parameter : program.parameters)
      parameters.push_back(
          llvm::json::Object{{"name", parameter.name}, {"type", parameter.describe()}});
    llvm::json::Object variants;
    for (const std::string &variant : report.variants)
      variants[variant] = variantDirectoryName(variant);
    programObjects[program.name] = llvm::json::Object{{"parameters", std::move(parameters)},
                                                      {"variants", std::move(variants)}};
  }
  llvm::json::Object manifest{
      {"input", run.input},
      {"grid", run.grid},
      {"limited_area", run.limitedArea},
      {"num_cells", run.cells},
      {"num_edges", run.edges},
      {"num_vertices", run.vertices},
      {"nlev", run.nlev},
      {"inputs", run.inputs},
      {"seed", static_cast<int64_t>(run.seed)},
      {"backend", run.backend},
      {"programs", std::move(programObjects)},
  };
  return writeTextFile(root + "/manifest.json",
                       llvm::formatv("{0:2}\n", llvm::json::Value(std::move(manifest))).str());
}

} // namespace fusec::bench
