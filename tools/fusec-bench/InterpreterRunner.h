//===- InterpreterRunner.h - running one program on the interpreter -*- C++ -*-===//

#ifndef FUSEC_TOOLS_BENCH_INTERPRETERRUNNER_H
#define FUSEC_TOOLS_BENCH_INTERPRETERRUNNER_H

#include "ProgramRunner.h"

#include "codegen/interpreter/Interpreter.h"

namespace fusec::bench {

/// Runs `program` with the reference interpreter.
class InterpreterRunner : public ProgramRunner {
public:
  InterpreterRunner(Interpreter &interpreter, std::string program)
      : interpreter(interpreter), program(std::move(program)) {}
  Status bind(std::vector<ArgumentValue> &arguments) override;
  Status run() override;
  Status restoreOutputs(const std::vector<ArgumentValue> &initial) override;

private:
  Interpreter &interpreter;
  std::string program;
  std::vector<ArgumentValue> *arguments = nullptr;
  std::vector<Argument> bound;
};

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_INTERPRETERRUNNER_H
