//===- InputsFileReader.h - reading inputs files (YAML) ------------*- C++ -*-===//
//
// yaml-cpp reports errors by throwing, so this reader lives in its own small
// library built with exceptions (like passes/PipelineConfig) and turns them
// into messages; nothing else in fusec-bench needs exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_INPUTSFILEREADER_H
#define FUSEC_TOOLS_BENCH_INPUTSFILEREADER_H

#include "InputSpec.h"

#include <string>

namespace fusec::bench {

/// Parses `text` (named `path` in messages). On error returns false and sets
/// `error` to `path:line:col: error: message`. Reading is strict: unknown keys,
/// malformed expressions and generators are errors.
bool parseInputsFile(const std::string &text, const std::string &path, InputsFile &file,
                     std::string &error);

/// Reads and parses the file at `path`.
bool loadInputsFile(const std::string &path, InputsFile &file, std::string &error);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_INPUTSFILEREADER_H
