//===- ProgramRunner.h - running one program of one variant -------*- C++ -*-===//
//
// The same calls on the reference interpreter and on compiled C++: bind the
// argument buffers once, then run as often as needed (the timed loop only
// calls `run`).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_PROGRAMRUNNER_H
#define FUSEC_TOOLS_BENCH_PROGRAMRUNNER_H

#include "HostField.h"
#include "NativeLibrary.h"

#include "codegen/interpreter/Interpreter.h"
#include "fusec/mesh.h"
#include "fusec/status.h"

#include <memory>
#include <string>
#include <vector>

namespace fusec::bench {

class ProgramRunner {
public:
  virtual ~ProgramRunner() = default;
  /// Uses `arguments` (in parameter order) for every later run; their buffers
  /// must stay where they are.
  virtual void bind(std::vector<ArgumentValue> &arguments) = 0;
  virtual Status run() = 0;
};

/// Runs `program` with the reference interpreter.
class InterpreterRunner : public ProgramRunner {
public:
  InterpreterRunner(Interpreter &interpreter, std::string program)
      : interpreter(interpreter), program(std::move(program)) {}
  void bind(std::vector<ArgumentValue> &arguments) override;
  Status run() override;

private:
  Interpreter &interpreter;
  std::string program;
  std::vector<Argument> bound;
};

/// Runs `program` of a library compiled from emitted C++ (with call shims):
/// set up on creation, freed on destruction.
class NativeRunner : public ProgramRunner {
public:
  static Result<std::unique_ptr<NativeRunner>> create(const SharedLibrary &library,
                                                      const std::string &program,
                                                      const fusec_mesh &mesh, int32_t nlev);
  ~NativeRunner() override;
  void bind(std::vector<ArgumentValue> &arguments) override;
  Status run() override;

private:
  using CallFunction = int (*)(void *const *);
  using FreeFunction = void (*)();
  using ErrorFunction = const char *(*)(int);

  NativeRunner() = default;
  Status failure(const std::string &what, int status) const;

  std::string program;
  CallFunction call = nullptr;
  FreeFunction release = nullptr;
  ErrorFunction errorMessage = nullptr;
  /// Scalars converted to their C types, one slot per parameter.
  union ScalarSlot {
    double f64;
    float f32;
    int32_t i32;
    int64_t i64;
    bool boolean;
  };
  std::vector<ScalarSlot> scalars;
  std::vector<void *> pointers;
};

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_PROGRAMRUNNER_H
