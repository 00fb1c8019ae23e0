//===- ProgramRunner.h - running one program of one variant -------*- C++ -*-===//
//
// The same calls on the reference interpreter (InterpreterRunner.h) and on
// compiled code (NativeRunner, no MLIR: GPU bundles use it too): bind the
// argument buffers once, then run as often as needed (the timed loop only
// calls `run`). Compiled CUDA works on device copies of the bound buffers:
// `fetchOutputs` brings the results back, `restoreOutputs` resets them.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_PROGRAMRUNNER_H
#define FUSEC_TOOLS_BENCH_PROGRAMRUNNER_H

#include "CallShimNames.h"
#include "HostField.h"
#include "SharedLibrary.h"

#include "fusec/mesh.h"
#include "fusec/status.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fusec::bench {

class ProgramRunner {
public:
  virtual ~ProgramRunner() = default;
  /// Uses `arguments` (in parameter order) for every later run; their buffers
  /// must stay where they are.
  virtual Status bind(std::vector<ArgumentValue> &arguments) = 0;
  virtual Status run() = 0;
  /// After a run: the output fields of the bound arguments hold its results.
  virtual Status fetchOutputs() { return Status::success(); }
  /// Resets the output fields to their values in `initial` (same formats).
  virtual Status restoreOutputs(const std::vector<ArgumentValue> &initial) = 0;

  /// Binds `arguments`, runs `steps` times (each run starting from the
  /// outputs of the one before: inout fields carry over, as time steps do) and
  /// leaves the results in their outputs.
  Status runOnce(std::vector<ArgumentValue> &arguments, unsigned steps = 1) {
    Status status = bind(arguments);
    for (unsigned step = 0; status && step < steps; ++step)
      status = run();
    if (status)
      status = fetchOutputs();
    return status;
  }
};

/// Copies the output fields of `from` into those of `to` (same formats).
void copyOutputs(const std::vector<ArgumentValue> &from, std::vector<ArgumentValue> &to);

/// Runs `program` of a library compiled from emitted code (with call shims):
/// an instance of it (P_create) made on creation, destroyed on destruction.
/// When the library has device memory functions (CUDA), fields and point
/// lists live on the device while bound (lists are only read: uploaded once). With `nproma` > 0 the
/// instance uses ICON's blocked layout (P_create_with_layout) and runs on blocked copies of the
/// bound fields (padding filled with NaN bytes), converted back by fetchOutputs.
class NativeRunner : public ProgramRunner {
public:
  static Result<std::unique_ptr<NativeRunner>> create(const SharedLibrary &library,
                                                      const std::string &program,
                                                      const fusec_mesh &mesh, int32_t nlev,
                                                      int64_t nproma = 0);
  ~NativeRunner() override;
  Status bind(std::vector<ArgumentValue> &arguments) override;
  Status run() override;
  /// The last run's device time between CUDA events around the program's
  /// launches (the CUDA shim measures it); none on CPUs.
  std::optional<double> lastDeviceSeconds() const { return deviceSeconds; }
  /// The program's instance (a P_handle *), for its other functions.
  void *handle() const { return instance; }
  Status fetchOutputs() override;
  Status restoreOutputs(const std::vector<ArgumentValue> &initial) override;

private:
  using CallFunction = int (*)(void *, void *const *, double *);
  using DestroyFunction = void (*)(void *);
  using ErrorFunction = const char *(*)(int);
  /// The CUDA shim's device memory functions.
  struct DeviceMemory {
    int (*allocate)(void **, size_t) = nullptr;
    void (*release)(void *) = nullptr;
    int (*upload)(void *, const void *, size_t) = nullptr;
    int (*download)(void *, const void *, size_t) = nullptr;
  };

  NativeRunner() = default;
  Status failure(const std::string &what, int status) const;
  void releaseDeviceCopies();
  /// A device copy of `bytes` at `host`, freed by releaseDeviceCopies.
  Result<void *> upload(const void *host, size_t bytes, const std::string &what);

  std::string program;
  CallFunction call = nullptr;
  DestroyFunction destroy = nullptr;
  void *instance = nullptr;
  ErrorFunction errorMessage = nullptr;
  std::optional<DeviceMemory> device;
  std::vector<ArgumentValue> *arguments = nullptr;
  /// Scalars converted to their C types, one slot per parameter.
  union ScalarSlot {
    double f64;
    float f32;
    int32_t i32;
    int64_t i64;
    bool boolean;
  };
  std::vector<ScalarSlot> scalars;
  /// Point lists, one slot per parameter (on CUDA with device arrays).
  std::vector<fusec_bench_point_list> pointLists;
  std::vector<void *> pointers;
  std::vector<void *> deviceFields; // per parameter: its device copy, or null
  std::vector<void *> deviceLists;  // the device copies of point lists' arrays
  int64_t nproma = 0;
  /// Per parameter: its copy in the blocked layout (empty when not blocked).
  std::vector<std::vector<uint8_t, HugePageAllocator<uint8_t>>> blockedFields;
  /// Per output parameter: its initial value in the blocked layout, which restoreOutputs
  /// copies as the flat layout copies its initial value, so that both layouts start a timed
  /// run from the same cache state (a conversion leaves the whole field dirty in the cache).
  std::vector<std::vector<uint8_t, HugePageAllocator<uint8_t>>> initialBlockedOutputs;
  std::optional<double> deviceSeconds;
};

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_PROGRAMRUNNER_H
