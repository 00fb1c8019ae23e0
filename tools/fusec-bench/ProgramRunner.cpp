//===- ProgramRunner.cpp - running one program of one variant -------------===//

#include "ProgramRunner.h"

#include "CallShimNames.h"

#include "fusec/c_api.h"

#include <cstring>

namespace fusec::bench {

void copyOutputs(const std::vector<ArgumentValue> &from, std::vector<ArgumentValue> &to) {
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i].isField() && from[i].isOutput)
      std::memcpy(to[i].field.data(), from[i].field.data(), from[i].field.bytes().size());
}

Result<std::unique_ptr<NativeRunner>> NativeRunner::create(const SharedLibrary &library,
                                                           const std::string &program,
                                                           const fusec_mesh &mesh, int32_t nlev,
                                                           int64_t nproma) {
  std::unique_ptr<NativeRunner> runner(new NativeRunner());
  runner->program = program;
  runner->nproma = nproma;
  // P_create's last parameter is a P_handle **, passed here as void **.
  using CreateFunction = int (*)(const fusec_mesh *, int32_t, void *, void **);
  auto create = reinterpret_cast<CreateFunction>(library.symbol(program + "_create"));
  runner->call = reinterpret_cast<CallFunction>(library.symbol(callShimName(program)));
  runner->errorMessage =
      reinterpret_cast<ErrorFunction>(library.symbol(program + "_error_message"));
  auto destroy = reinterpret_cast<DestroyFunction>(library.symbol(program + "_destroy"));
  if (!create || !runner->call || !runner->errorMessage || !destroy)
    return Status::failure("'" + library.path() + "' lacks the functions of program '" + program +
                           "'");
  if (void *allocate = library.symbol("fusec_bench_device_alloc")) {
    DeviceMemory device;
    device.allocate = reinterpret_cast<int (*)(void **, size_t)>(allocate);
    device.release = reinterpret_cast<void (*)(void *)>(library.symbol("fusec_bench_device_free"));
    device.upload = reinterpret_cast<int (*)(void *, const void *, size_t)>(
        library.symbol("fusec_bench_upload"));
    device.download = reinterpret_cast<int (*)(void *, const void *, size_t)>(
        library.symbol("fusec_bench_download"));
    if (!device.release || !device.upload || !device.download)
      return Status::failure("'" + library.path() + "' lacks fusec-bench's device functions");
    runner->device = device;
  }
  if (nproma > 0) {
    using CreateWithLayoutFunction =
        int (*)(const fusec_mesh *, int32_t, const fusec_layout *, void *, void **);
    auto createWithLayout = reinterpret_cast<CreateWithLayoutFunction>(
        library.symbol(program + "_create_with_layout"));
    if (!createWithLayout)
      return Status::failure("'" + library.path() + "' lacks " + program + "_create_with_layout");
    fusec_layout layout = {{0, 0, 0}, nproma};
    if (int status = createWithLayout(&mesh, nlev, &layout, nullptr, &runner->instance))
      return runner->failure(program + "_create_with_layout (blocked, nproma " +
                                 std::to_string(nproma) + ")",
                             status);
  } else if (int status = create(&mesh, nlev, nullptr, &runner->instance)) {
    return runner->failure(program + "_create", status);
  }
  runner->destroy = destroy;
  return runner;
}

NativeRunner::~NativeRunner() {
  releaseDeviceCopies();
  if (destroy)
    destroy(instance);
}

void NativeRunner::releaseDeviceCopies() {
  for (std::vector<void *> *copies : {&deviceFields, &deviceLists}) {
    for (void *copy : *copies)
      if (copy)
        device->release(copy);
    copies->clear();
  }
}

Result<void *> NativeRunner::upload(const void *host, size_t bytes, const std::string &what) {
  void *copy = nullptr;
  if (int status = device->allocate(&copy, bytes))
    return failure("allocating " + std::to_string(bytes) + " bytes on the device", status);
  if (int status = device->upload(copy, host, bytes)) {
    device->release(copy);
    return failure("copying " + what + " to the device", status);
  }
  return copy;
}

Status NativeRunner::failure(const std::string &what, int status) const {
  return Status::failure(what + " returned " + std::to_string(status) + ": " +
                         errorMessage(status));
}

/// The C API's element type of `dtype`.
static fusec_element_type elementType(DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return FUSEC_F64;
  case DType::Float32:
    return FUSEC_F32;
  case DType::Int32:
    return FUSEC_I32;
  case DType::Bool:
    return FUSEC_BOOL;
  }
  return FUSEC_F64;
}

/// Copies `field` into or out of its blocked copy `blocked` (points only).
static int convertBlocked(const HostField &field, int64_t nproma, const void *source,
                          void *destination, bool toBlocked) {
  const FieldFormat &format = field.format();
  auto convert = toBlocked ? fusec_copy_to_blocked : fusec_copy_from_blocked;
  return convert(elementType(format.dtype), format.points, format.points, format.neighbors,
                 format.levels, nproma, source, destination);
}

Status NativeRunner::bind(std::vector<ArgumentValue> &arguments) {
  this->arguments = &arguments;
  if (nproma > 0) {
    blockedFields.assign(arguments.size(), {});
    initialBlockedOutputs.assign(arguments.size(), {});
  }
  scalars.assign(arguments.size(), ScalarSlot{});
  pointLists.assign(arguments.size(), fusec_bench_point_list{});
  pointers.assign(arguments.size(), nullptr);
  if (device)
    releaseDeviceCopies();
  for (size_t i = 0; i < arguments.size(); ++i) {
    ArgumentValue &value = arguments[i];
    if (value.isPoints()) {
      fusec_bench_point_list &list = pointLists[i];
      list.count = static_cast<int32_t>(value.points.size());
      list.cell = value.points.points.data();
      list.level = value.points.levels.data();
      if (device && list.count > 0) {
        for (const int32_t **array : {&list.cell, &list.level}) {
          Result<void *> copy = upload(*array, value.points.size() * sizeof(int32_t),
                                       "point list '" + std::to_string(i) + "'");
          if (!copy)
            return copy.status();
          deviceLists.push_back(*copy);
          *array = static_cast<const int32_t *>(*copy);
        }
      }
      pointers[i] = &list;
      continue;
    }
    if (value.isField()) {
      pointers[i] = value.field.data();
      if (nproma > 0 && value.field.format().location) {
        const FieldFormat &format = value.field.format();
        int64_t elements =
            fusec_blocked_size(format.points, nproma, format.neighbors, format.levels);
        // NaN bytes in the padding: a kernel reading it spoils the points it writes.
        blockedFields[i].assign(elements * dtype_size(format.dtype), 0xff);
        if (int status = convertBlocked(value.field, nproma, value.field.data(),
                                        blockedFields[i].data(), /*toBlocked=*/true))
          return failure(std::string("converting to the blocked layout: ") + fusec_last_error(),
                         status);
        if (value.isOutput)
          initialBlockedOutputs[i] = blockedFields[i];
        pointers[i] = blockedFields[i].data();
      } else if (device) {
        Result<void *> copy =
            upload(value.field.data(), value.field.bytes().size(), "'" + std::to_string(i) + "'");
        if (!copy)
          return copy.status();
        deviceFields.resize(arguments.size(), nullptr);
        deviceFields[i] = *copy;
        pointers[i] = *copy;
      }
      continue;
    }
    ScalarSlot &slot = scalars[i];
    switch (value.scalar.type) {
    case ScalarArgument::Type::F64:
      slot.f64 = value.scalar.real;
      break;
    case ScalarArgument::Type::F32:
      slot.f32 = static_cast<float>(value.scalar.real);
      break;
    case ScalarArgument::Type::I32:
      slot.i32 = static_cast<int32_t>(value.scalar.integer);
      break;
    case ScalarArgument::Type::I64:
      slot.i64 = value.scalar.integer;
      break;
    case ScalarArgument::Type::Bool:
      slot.boolean = value.scalar.boolean;
      break;
    }
    pointers[i] = &slot;
  }
  return Status::success();
}

Status NativeRunner::run() {
  double seconds = -1.0;
  if (int status = call(instance, pointers.data(), &seconds))
    return failure(program + "_run", status);
  deviceSeconds = seconds >= 0.0 ? std::optional<double>(seconds) : std::nullopt;
  return Status::success();
}

Status NativeRunner::fetchOutputs() {
  if (nproma > 0) {
    for (size_t i = 0; i < arguments->size(); ++i) {
      ArgumentValue &value = (*arguments)[i];
      if (value.isField() && value.isOutput && !blockedFields[i].empty())
        if (int status = convertBlocked(value.field, nproma, blockedFields[i].data(),
                                        value.field.data(), /*toBlocked=*/false))
          return failure("converting the results from the blocked layout", status);
    }
    return Status::success();
  }
  if (!device)
    return Status::success();
  for (size_t i = 0; i < arguments->size(); ++i) {
    ArgumentValue &value = (*arguments)[i];
    if (value.isField() && value.isOutput)
      if (int status = device->download(value.field.data(), deviceFields[i],
                                        value.field.bytes().size()))
        return failure("copying the results from the device", status);
  }
  return Status::success();
}

Status NativeRunner::restoreOutputs(const std::vector<ArgumentValue> &initial) {
  if (nproma > 0) {
    for (size_t i = 0; i < initial.size(); ++i) {
      if (!initial[i].isField() || !initial[i].isOutput)
        continue;
      if (blockedFields[i].empty())
        std::memcpy((*arguments)[i].field.data(), initial[i].field.data(),
                    initial[i].field.bytes().size());
      else
        std::memcpy(blockedFields[i].data(), initialBlockedOutputs[i].data(),
                    blockedFields[i].size());
    }
    return Status::success();
  }
  if (!device) {
    copyOutputs(initial, *arguments);
    return Status::success();
  }
  for (size_t i = 0; i < initial.size(); ++i)
    if (initial[i].isField() && initial[i].isOutput)
      if (int status = device->upload(deviceFields[i], initial[i].field.data(),
                                      initial[i].field.bytes().size()))
        return failure("resetting the outputs on the device", status);
  return Status::success();
}

} // namespace fusec::bench
