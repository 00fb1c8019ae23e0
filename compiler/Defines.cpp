//===- Defines.cpp - `-D name=value` compile-time settings ----------------===//

#include "compiler/Defines.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Error.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>

using namespace fusec;
using namespace fusec::ast;

std::optional<Define> fusec::parseDefine(llvm::StringRef text, std::string &error) {
  auto [name, value] = text.split('=');
  name = name.trim();
  value = value.trim();
  bool validName = !name.empty() && (llvm::isAlpha(name.front()) || name.front() == '_') &&
                   llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
  if (!validName || !text.contains('=') || value.empty()) {
    error = ("-D expects name=value, got '" + text + "'").str();
    return std::nullopt;
  }
  return Define{name.str(), value.str()};
}

std::optional<Constant> fusec::parseConstant(llvm::StringRef text, ScalarKind type) {
  switch (type) {
  case ScalarKind::Bool:
    if (text == "true" || text == "1")
      return Constant::ofBool(true);
    if (text == "false" || text == "0")
      return Constant::ofBool(false);
    return std::nullopt;
  case ScalarKind::I32: {
    int64_t value;
    if (text.getAsInteger(10, value) || value < std::numeric_limits<int32_t>::min() ||
        value > std::numeric_limits<int32_t>::max())
      return std::nullopt;
    return Constant::ofInt(value);
  }
  case ScalarKind::F64:
  case ScalarKind::F32: {
    llvm::APFloat value(llvm::APFloat::IEEEdouble());
    auto status = value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return std::nullopt;
    }
    if (!value.isFinite())
      return std::nullopt;
    return Constant::ofFloat(type, value.convertToDouble());
  }
  }
  return std::nullopt;
}
