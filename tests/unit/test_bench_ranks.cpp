// fusec-bench --ranks: the job and result files that fusec-bench and fusec-bench-ranks
// exchange (RankJob.h), and the local scalars of a rank (InputGenerator::setScalarGrid).
#include "InputGenerator.h"
#include "RankJob.h"
#include "bench_parameters.h"

#include "fusec/decomposition.h"
#include "fusec/grid_generator.h"

#include <catch2/catch.hpp>

using namespace fusec;
using namespace fusec::bench;
using namespace fusec::bench::testing;

TEST_CASE("rank jobs survive writing and reading", "[ranks]") {
  RankJob job;
  job.library = "/cache/lib with space.so";
  job.variant = "stn-map-fusion{bytes-weight=4}+cse";
  job.grid = "lam-r2b4:30@0,0";
  job.nlev = 7;
  job.inputs = "realistic";
  job.seed = 42;
  job.inputsFile = "/x/diffusion.inputs.yaml";
  job.steps = 3;
  job.repeat = 5;
  job.warmup = 2;
  ProgramSignature program;
  program.name = "p";
  program.outputLocation = Location::Edge;
  program.parameters = {
      field("vn", Location::Edge, 0, Parameter::Vertical::Full, DType::Float64, Parameter::Intent::InOut),
      field("mask", Location::Cell, 3, Parameter::Vertical::Half, DType::Bool, Parameter::Intent::In),
      field("k_only", std::nullopt, 0, Parameter::Vertical::Full, DType::Float32, Parameter::Intent::Out),
      field("offsets", Location::Vertex, 6, Parameter::Vertical::None, DType::Int32, Parameter::Intent::In),
      scalar("dtime", ScalarArgument::Type::F64), scalar("flag", ScalarArgument::Type::Bool),
      scalar("end_local_e", ScalarArgument::Type::I32),
      scalar("big", ScalarArgument::Type::I64), scalar("half", ScalarArgument::Type::F32),
      points("steep", Location::Cell)};
  ProgramSignature second;
  second.name = "q";
  second.parameters = {scalar("x", ScalarArgument::Type::F64)};
  job.programs = {program, second};

  Result<RankJob> read = parseRankJob(writeRankJob(job));
  REQUIRE(read);
  CHECK(writeRankJob(*read) == writeRankJob(job));
  CHECK(read->library == job.library);
  CHECK(read->variant == job.variant);
  CHECK(read->grid == job.grid);
  CHECK(read->seed == 42);
  CHECK(read->steps == 3);
  REQUIRE(read->programs.size() == 2);
  CHECK(read->programs[0].outputLocation == Location::Edge);
  CHECK_FALSE(read->programs[1].outputLocation);
  const Parameter &mask = read->programs[0].parameters[1];
  CHECK(mask.isField());
  CHECK(mask.location == Location::Cell);
  CHECK(mask.neighbors == 3);
  CHECK(mask.vertical == Parameter::Vertical::Half);
  CHECK(mask.dtype == DType::Bool);
  CHECK_FALSE(read->programs[0].parameters[2].location);
  CHECK(read->programs[0].parameters[8].scalarType == ScalarArgument::Type::F32);
  const Parameter &steep = read->programs[0].parameters[9];
  CHECK(steep.isPoints());
  CHECK(steep.location == Location::Cell);
  CHECK(steep.describe() == "points<Cell, K>");
}

TEST_CASE("malformed rank jobs are rejected with their line", "[ranks]") {
  auto error = [](const std::string &text) {
    Result<RankJob> job = parseRankJob(text);
    REQUIRE_FALSE(job);
    return job.error();
  };
  CHECK(error("program p\n").find("no library") != std::string::npos);
  CHECK(error("library l\n").find("no program") != std::string::npos);
  CHECK(error("library l\nsteps 0\nprogram p\n").find("line 2") != std::string::npos);
  CHECK(error("library l\nparam x scalar f64\n").find("before any program") != std::string::npos);
  CHECK(error("library l\nprogram p\nparam x field in 5 0 full f64\n").find("malformed") !=
        std::string::npos);
  CHECK(error("library l\nprogram p\nparam x scalar f16\n").find("scalar type") !=
        std::string::npos);
  CHECK(error("library l\nprogram p\nparam x points 7\n").find("malformed point-list") !=
        std::string::npos);
  CHECK(error("library l\ncolour blue\nprogram p\n").find("unknown entry") != std::string::npos);
  CHECK(error("library l\ninputs DIR\nprogram p\n").find("random or realistic") !=
        std::string::npos);
}

TEST_CASE("rank results survive writing and reading", "[ranks]") {
  RankProgramResult ran;
  ran.program = "diffusion_step";
  ran.match = true;
  ran.compared = 1234;
  ran.total = {0.5, 0.25};
  ran.exchange = {0.125, 0.0625};
  ran.compute = {0.375, 0.1875};
  ran.exchangeCalls = 9;
  ran.messages = 18;
  ran.bytes = 1e6 / 3;
  RankProgramResult failed;
  failed.program = "other";
  failed.error = "rank 1: something\nwent wrong";
  RankProgramResult differs;
  differs.program = "third";
  differs.mismatched = 5;
  differs.compared = 10;

  Result<std::vector<RankProgramResult>> read =
      parseRankResults(writeRankResults({ran, failed, differs}));
  REQUIRE(read);
  REQUIRE(read->size() == 3);
  CHECK((*read)[0].match);
  CHECK((*read)[0].compared == 1234);
  CHECK((*read)[0].total == ran.total);
  CHECK((*read)[0].exchange == ran.exchange);
  CHECK((*read)[0].compute == ran.compute);
  CHECK((*read)[0].bytes == ran.bytes);
  CHECK((*read)[1].error == "rank 1: something went wrong");
  CHECK_FALSE((*read)[2].match);
  CHECK((*read)[2].mismatched == 5);
  CHECK_FALSE(parseRankResults("time nobody 1 2 3\n"));
  CHECK_FALSE(parseRankResults("program p maybe x y\n"));
}

TEST_CASE("a rank's scalars come from its local zones, its fields from the global grid",
          "[ranks]") {
  Grid global = std::move(make_grid("lam-r2b3")).value();
  Decomposition parts = std::move(decompose(global, 3)).value();
  LocalDomain local = std::move(make_local_domain(global, parts, 1)).value();
  InputsFile file;
  ProgramSignature program;
  program.name = "p";
  program.outputLocation = Location::Edge;
  program.parameters = {scalar("h_end", ScalarArgument::Type::I32),
                        scalar("h_start", ScalarArgument::Type::I32),
                        field("f", Location::Edge, 0, Parameter::Vertical::Full, DType::Float64, Parameter::Intent::In)};
  InputSource source;
  source.seed = 3;
  InputGenerator generator(global, 4, source, file);
  Result<GeneratedArguments> whole = generator.generate(program);
  REQUIRE(whole);
  CHECK(whole->values[0].scalar.integer == global.num_edges());
  generator.setScalarGrid(&local.grid);
  Result<ScalarArgument> end = generator.scalar(program, program.parameters[0]);
  REQUIRE(end);
  CHECK(end->integer == local.grid.end(Location::Edge, Zone::Local));
  CHECK(end->integer == local.points.num_owned[int(Location::Edge)]);
  Result<GeneratedArguments> again = generator.generate(program);
  REQUIRE(again);
  // Fields stay global: the same values as before.
  CHECK(again->values[2].field.bytes() == whole->values[2].field.bytes());
}
