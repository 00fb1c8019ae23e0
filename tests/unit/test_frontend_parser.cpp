// Unit tests of the .stn parser.
#include "compiler/Parser.h"

#include <catch2/catch.hpp>

#include <string>

using namespace fusec;
using namespace fusec::ast;

namespace {
/// Parses `source` as a file or as one expression; errors go to `errors`.
struct Parsed {
  explicit Parsed(const std::string &source, bool expression = false) {
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, "test.stn"),
                                 llvm::SMLoc());
    llvm::StringRef buffer = sourceMgr.getMemoryBuffer(1)->getBuffer();
    llvm::raw_string_ostream os(errors);
    DiagnosticEngine diag(sourceMgr, os);
    Parser parser(buffer, diag);
    if (expression)
      expr = parser.parseStandaloneExpression();
    else
      parser.parseFile(file);
    errorCount = diag.getErrorCount();
  }

  bool hasError(const std::string &text) const { return errors.find(text) != std::string::npos; }

  llvm::SourceMgr sourceMgr;
  std::string errors;
  unsigned errorCount = 0;
  SourceFile file;
  ExprPtr expr;
};

/// The tree as a parenthesised string, for precedence checks.
std::string show(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::IntLiteral: return std::to_string(llvm::cast<IntLiteralExpr>(expr).value);
  case Expr::Kind::FloatLiteral: return "f";
  case Expr::Kind::BoolLiteral: return llvm::cast<BoolLiteralExpr>(expr).value ? "true" : "false";
  case Expr::Kind::Name: return llvm::cast<NameExpr>(expr).name.name;
  case Expr::Kind::Unary: {
    const auto &unary = llvm::cast<UnaryExpr>(expr);
    return std::string(unary.op == UnaryExpr::Op::Neg ? "-" : "!") + show(*unary.operand);
  }
  case Expr::Kind::Binary: {
    const auto &binary = llvm::cast<BinaryExpr>(expr);
    return "(" + show(*binary.lhs) + " " + binaryOpSpelling(binary.op).str() + " " +
           show(*binary.rhs) + ")";
  }
  case Expr::Kind::Fold: return "fold{" + show(*llvm::cast<FoldExpr>(expr).body) + "}";
  case Expr::Kind::Call: {
    const auto &call = llvm::cast<CallExpr>(expr);
    std::string text = call.callee.name + "(";
    for (const ExprPtr &arg : call.args)
      text += show(*arg) + (&arg == &call.args.back() ? "" : ", ");
    return text + ")";
  }
  default: return "?";
  }
}
} // namespace

TEST_CASE("operator precedence", "[parser]") {
  CHECK(show(*Parsed("a + b * c", true).expr) == "(a + (b * c))");
  CHECK(show(*Parsed("a - b - c", true).expr) == "((a - b) - c)");
  CHECK(show(*Parsed("-a ^ 2", true).expr) == "-(a ^ 2)");
  CHECK(show(*Parsed("a ^ b ^ c", true).expr) == "(a ^ (b ^ c))");
  CHECK(show(*Parsed("a ^ -2", true).expr) == "(a ^ -2)");
  CHECK(show(*Parsed("a < b && c || !d", true).expr) == "(((a < b) && c) || !d)");
  CHECK(show(*Parsed("(a + b) * c", true).expr) == "((a + b) * c)");
}

TEST_CASE("comparisons do not chain", "[parser]") {
  Parsed parsed("a < b < c", true);
  CHECK(parsed.expr == nullptr);
  CHECK(parsed.hasError("test.stn:1:7: error: comparisons cannot be chained"));
}

TEST_CASE("folds extend as far right as possible", "[parser]") {
  CHECK(show(*Parsed("sum(C2E) a * b + c", true).expr) == "fold{((a * b) + c)}");
  CHECK(show(*Parsed("x + (sum(C2E) a) * 2", true).expr) == "(x + (fold{a} * 2))");
}

TEST_CASE("min and max are folds or functions", "[parser]") {
  Parsed fold("min(C2E) a[C2E]", true);
  REQUIRE(fold.expr);
  auto *minFold = llvm::dyn_cast<FoldExpr>(fold.expr.get());
  REQUIRE(minFold);
  CHECK(minFold->op == FoldExpr::Op::Min);
  CHECK(minFold->connectivity.name == "C2E");
  Parsed call("max(a, 0.0)", true);
  REQUIRE(call.expr);
  CHECK(show(*call.expr) == "max(a, f)");
}

TEST_CASE("subscripts", "[parser]") {
  Parsed parsed("f[E2C:1, K-1] + g[C2E2C, K + off + 1] + v[2] + h[K]", true);
  REQUIRE(parsed.expr);
  std::vector<const NameExpr *> names;
  walk(*parsed.expr, [&](const Expr &e) {
    if (const auto *name = llvm::dyn_cast<NameExpr>(&e); name && !name->subscripts.empty())
      names.push_back(name);
  });
  REQUIRE(names.size() == 4);
  const NameExpr &f = *names[0];
  REQUIRE(f.subscripts.size() == 2);
  CHECK(f.subscripts[0].kind == Subscript::Kind::Neighbor);
  CHECK(f.subscripts[0].connectivity.name == "E2C");
  CHECK(f.subscripts[0].slot == 1);
  CHECK(f.subscripts[1].kind == Subscript::Kind::Level);
  CHECK(f.subscripts[1].levelOffset == -1);
  CHECK(f.subscripts[1].levelShift == nullptr);
  const NameExpr &g = *names[1];
  CHECK(!g.subscripts[0].slot);
  CHECK(g.subscripts[1].levelOffset == 1);
  REQUIRE(g.subscripts[1].levelShift);
  CHECK(show(*g.subscripts[1].levelShift) == "off");
  CHECK(names[2]->subscripts[0].kind == Subscript::Kind::ListEntry);
  CHECK(names[2]->subscripts[0].entry == 2);
  CHECK(names[3]->subscripts[0].levelOffset == 0);
}

TEST_CASE("declarations", "[parser]") {
  Parsed parsed(R"(
    import "icon.stn";
    precision wp = f64;
    connectivity V2E : Vertex -> Edge[6] skip;
    stencil s(a: field<Edge, K, wp>, c: wp) -> (x: field<Edge, K, wp>, y: field<Edge, K, wp>) {
      let (p, q) = t(a);
      return (p, q * c);
    }
    program prog(a: field<Edge, K, wp>, out x: field<Edge, K, wp>, inout y: field<Edge, K, wp>,
                 n: i32) {
      var tmp: field<Edge, K, wp>;
      (x, tmp) = s(a, 2.0) @ Edge[0:n], K[1:nlev];
      x, y = s(tmp, 1.0) @ Edge[0:n];
      exchange x, y;
      if (n > 3) { x, y = s(a, 1.0) @ Edge[0:n]; } else if (n > 1) { } else { }
    }
  )");
  CHECK(parsed.errors.empty());
  REQUIRE(parsed.file.decls.size() == 5);
  CHECK(llvm::cast<ImportDecl>(*parsed.file.decls[0]).path == "icon.stn");
  const auto &conn = llvm::cast<ConnectivityDecl>(*parsed.file.decls[2]);
  CHECK(conn.size == 6);
  CHECK(conn.skip);
  const auto &stencil = llvm::cast<StencilDecl>(*parsed.file.decls[3]);
  CHECK(stencil.params.size() == 2);
  CHECK(stencil.outputs.size() == 2);
  REQUIRE(stencil.body.size() == 2);
  CHECK(llvm::cast<LetStmt>(*stencil.body[0]).names.size() == 2);
  CHECK(llvm::cast<ReturnStmt>(*stencil.body[1]).values.size() == 2);
  const auto &program = llvm::cast<ProgramDecl>(*parsed.file.decls[4]);
  CHECK(program.params[1]->intent == Intent::Out);
  CHECK(program.params[2]->intent == Intent::InOut);
  CHECK(program.params[3]->intent == Intent::In);
  REQUIRE(program.body.size() == 5);
  const auto &assign = llvm::cast<AssignStmt>(*program.body[1]);
  CHECK(assign.targets.size() == 2);
  CHECK(assign.domain.location->name == "Edge");
  CHECK(assign.domain.hasLevels);
  CHECK(!llvm::cast<AssignStmt>(*program.body[2]).domain.hasLevels);
  const auto &ifStmt = llvm::cast<IfStmt>(*program.body[4]);
  REQUIRE(ifStmt.elseBody.size() == 1);
  CHECK(llvm::isa<IfStmt>(*ifStmt.elseBody[0]));
}

TEST_CASE("errors are reported once per statement and parsing goes on", "[parser]") {
  Parsed parsed(R"(precision wp = f64;
stencil s(a: field<Edge, K, wp>) -> field<Edge, K, wp> {
  let b = a + ;
  let c = (a;
  return a;
}
stencil t(a: field<Edge, K, wp>) -> field<Edge, K, wp> { return a }
)");
  CHECK(parsed.errorCount == 3);
  CHECK(parsed.hasError("test.stn:3:15: error: expected an expression, found ';'"));
  CHECK(parsed.hasError("test.stn:4:13: error: expected ')', found ';'"));
  CHECK(parsed.hasError("test.stn:7:67: error: expected ';' at the end of the return"));
  CHECK(parsed.file.decls.size() == 3);
}

TEST_CASE("deep nesting is an error, not a stack overflow", "[parser]") {
  std::string deep = std::string(100000, '(') + "a" + std::string(100000, ')');
  Parsed parens(deep, true);
  CHECK(parens.expr == nullptr);
  CHECK(parens.errorCount == 1);
  CHECK(parens.hasError("nesting is too deep (the limit is 256 levels)"));

  std::string chain = "a";
  for (int i = 0; i < 100000; ++i)
    chain += " + a";
  Parsed sum(chain, true);
  CHECK(sum.expr == nullptr);
  CHECK(sum.hasError("expression is nested too deeply"));

  std::string blocks = "program p(n: i32) {";
  for (int i = 0; i < 1000; ++i)
    blocks += "if (n > 0) {";
  Parsed ifs(blocks);
  CHECK(ifs.hasError("nesting is too deep"));
}

TEST_CASE("literals that do not fit are errors", "[parser]") {
  CHECK(Parsed("2147483647", true).errorCount == 0);
  CHECK(Parsed("2147483648", true).hasError("does not fit in i32"));
  CHECK(Parsed("1e308", true).errorCount == 0);
  CHECK(Parsed("1e309", true).hasError("is out of range for f64"));
}

TEST_CASE("truncated input", "[parser]") {
  Parsed parsed("stencil s(a: field<Edge, K, f64>) -> field<Edge, K, f64> { return a +");
  CHECK(parsed.hasError("expected an expression, found end of file"));
  CHECK(parsed.hasError("expected '}' at the end of stencil 's', found end of file"));
}
