// Unit tests of the frontend's entry point: source text to a verified module.
#include "compiler/Frontend.h"

#include "ir/StnOps.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <catch2/catch.hpp>

#include <string>

using namespace fusec;

namespace {
struct Translated {
  explicit Translated(const std::string &source, std::vector<Define> defines = {}) {
    FrontendOptions options;
    options.defines = std::move(defines);
    llvm::raw_string_ostream os(errors);
    module = translateStnSource(source, "test.stn", options, sourceMgr, context, os);
  }

  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  std::string errors;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

const char *kScale = R"(
precision wp = f64;
stencil scale(f: field<K, wp>, s: wp) -> field<K, wp> { return f * s; }
program p(inout f: field<K, wp>, s: wp) { f = scale(f, s) @ K[0:nlev]; }
)";
} // namespace

TEST_CASE("a valid source gives a verified module", "[frontend]") {
  Translated translated(kScale);
  REQUIRE(translated.module);
  CHECK(translated.errors.empty());
  CHECK(mlir::succeeded(mlir::verify(*translated.module)));
  auto programs = translated.module->getOps<stn::ProgramOp>();
  REQUIRE(std::distance(programs.begin(), programs.end()) == 1);
  stn::ProgramOp program = *programs.begin();
  CHECK(program.getArgName(0) == "f");
  CHECK(program.getArgIntent(0) == stn::Intent::InOut);
  unsigned applies = 0;
  program.walk([&](stn::ApplyOp apply) {
    ++applies;
    CHECK(apply.getName() == "scale");
    CHECK(apply.isDomainInferred());
  });
  CHECK(applies == 1);
}

TEST_CASE("errors give no module", "[frontend]") {
  Translated translated("precision wp = f64;\nprogram p(f: field<K, wp>) { f = nope(f) @ K[0:1]; }\n");
  CHECK(!translated.module);
  CHECK(translated.errors.find("test.stn:2:34: error: unknown stencil 'nope'") !=
        std::string::npos);
}

TEST_CASE("defines fix parameters", "[frontend]") {
  Translated translated(kScale, {Define{"s", "2.5"}, Define{"nlev", "10"}});
  REQUIRE(translated.module);
  unsigned constants = 0;
  translated.module->walk([&](mlir::arith::ConstantOp constant) {
    if (auto value = llvm::dyn_cast<mlir::FloatAttr>(constant.getValue()))
      constants += value.getValueAsDouble() == 2.5;
    if (auto value = llvm::dyn_cast<mlir::IntegerAttr>(constant.getValue()))
      constants += value.getInt() == 10;
  });
  CHECK(constants == 2);
  CHECK(translated.module->walk([](stn::NumLevelsOp) { return mlir::WalkResult::interrupt(); })
            .wasInterrupted() == false);
}
