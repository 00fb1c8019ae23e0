//===- Remarks.cpp - `-Rpass=<regex>` explanations from passes ------------===//

#include "passes/Remarks.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/Regex.h"

namespace fusec {

namespace {
struct RemarkFilter {
  std::optional<llvm::Regex> regex;
};
llvm::ManagedStatic<RemarkFilter> filter;

// Registered with LLVM's command line so fusec and fusec-opt both accept it.
llvm::cl::opt<std::string> rpassOption(
    "Rpass", llvm::cl::Prefix,
    llvm::cl::desc("Explain the decisions of the passes whose name matches this regular "
                   "expression (e.g. -Rpass=stn-map-fusion, -Rpass=.*)"),
    llvm::cl::value_desc("regex"), llvm::cl::callback([](const std::string &value) {
      std::string error;
      if (!setRemarkFilter(value, error))
        llvm::report_fatal_error(llvm::Twine("invalid -Rpass: ") + error, false);
    }));
} // namespace

bool setRemarkFilter(llvm::StringRef regex, std::string &error) {
  if (regex.empty()) {
    filter->regex.reset();
    return true;
  }
  llvm::Regex compiled(("^(" + regex + ")$").str());
  if (!compiled.isValid(error))
    return false;
  filter->regex = std::move(compiled);
  return true;
}

std::optional<mlir::InFlightDiagnostic> remark(llvm::StringRef pass, mlir::Operation *op) {
  if (!filter->regex || !filter->regex->match(pass))
    return std::nullopt;
  // At the op's location, without the op itself: MLIR would print the op after the remark,
  // for a module remark the whole program.
  return mlir::emitRemark(op->getLoc()) << "[" << pass << "] ";
}

} // namespace fusec
