//===- InputGenerator.h - the arguments of each program call ------*- C++ -*-===//
//
// Builds every argument of a program from the inputs file (docs/bench.md):
// the program's own entry wins over the file-wide defaults, which win over the
// built-in defaults by type:
//
//   h_start / h_end   0 / the number of points of the program's output location
//   v_start / v_end   0 / nlev
//   other scalars     floats uniform in [-1, 1) (seeded by name), integers 0, booleans false
//   fields            realistic mode: the coefficient of the same name, if
//                     DiffusionCoefficients has one; otherwise uniform in
//                     [-1, 1) (booleans: a random mask)
//   point lists       fraction(0.1, 0, number of points): a tenth of all
//                     (point, level) pairs, in ICON's order (memory order of
//                     the layout: blocks, levels, points of a block)
//
// Point lists are made after fields and scalars: nonzero(FIELD, ...) lists
// where the program's argument FIELD (as generated or loaded) is nonzero.
//
// Random values come from RandomGenerator::for_field(seed, parameter name), so a
// field's values depend only on the seed, its name and its shape. With an input
// directory, every parameter found there as <name>.npy is loaded instead.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_INPUTGENERATOR_H
#define FUSEC_TOOLS_BENCH_INPUTGENERATOR_H

#include "HostField.h"
#include "InputSpec.h"
#include "ProgramSignature.h"

#include "fusec/coefficients.h"
#include "fusec/grid.h"
#include "fusec/status.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fusec::bench {

struct InputSource {
  InputMode mode = InputMode::Random;
  uint64_t seed = 0;
  /// Parameters found here are loaded: <dir>/<program>/inputs/<name>.npy (what
  /// --save-outputs writes), else <dir>/<name>.npy.
  std::optional<std::string> directory;
  /// Generated point lists come in ICON's order for this layout: blocks of
  /// nproma points, levels, the points of a block (0: the flat layout, one
  /// block). Loaded lists keep their order.
  int64_t nproma = 0;
};

/// The arguments of one call, and where each came from.
struct GeneratedArguments {
  std::vector<ArgumentValue> values; // in parameter order
  unsigned loadedFromDirectory = 0;
};

/// Checks that every name in `file` means something for the module whose
/// programs are `programs`: programs exist, scalar entries name scalar
/// parameters, field entries field parameters, point-list entries point-list
/// parameters, tolerances output fields (the file-wide sections: of some
/// program), and the field of each `nonzero` list that a program gets is one
/// of its fields on the list's location with full levels.
Status checkInputsFile(const InputsFile &file, const std::vector<ProgramSignature> &programs);

class InputGenerator {
public:
  /// `grid` and `file` must outlive the generator.
  InputGenerator(const Grid &grid, int32_t nlev, InputSource source, const InputsFile &file);

  Result<GeneratedArguments> generate(const ProgramSignature &program);

  /// Scalars (zone bounds in expressions, the default h_end) from `local`'s
  /// zones instead of the grid's, while fields and coefficients stay on the
  /// grid: a rank's arguments of a decomposed run (fusec-bench-ranks), whose
  /// fields are the global ones at its points. The default h_end becomes
  /// end(LOCAL), the owned points. Null restores the grid's.
  void setScalarGrid(const Grid *local) { scalarGrid = local; }

  /// The value of one scalar parameter (as `generate` computes it).
  Result<ScalarArgument> scalar(const ProgramSignature &program, const Parameter &parameter);

  /// The names `coefficient(...)` accepts.
  static std::vector<std::string> coefficientNames();

private:
  /// The program's entry in the file, if it has one.
  const ParameterInputs *programInputs(const ProgramSignature &program) const;
  Status fillField(const ProgramSignature &program, const Parameter &parameter, HostField &field);
  Status generateField(const FieldGenerator &generator, const Parameter &parameter,
                       HostField &field);
  /// Point list `index` of `program`, from its other arguments in `values`.
  Status fillPoints(const ProgramSignature &program, size_t index,
                    std::vector<ArgumentValue> &values);
  Status generatePoints(const PointsGenerator &generator, const ProgramSignature &program,
                        const Parameter &parameter, const std::vector<ArgumentValue> &values,
                        PointList &list);
  Result<std::vector<double>> evaluateNumbers(const std::vector<ScalarExpression> &arguments);
  Status copyCoefficient(const std::string &name, const std::string &parameter, HostField &field);
  Result<const DiffusionCoefficients *> coefficients();
  ScalarEnvironment environment();

  const Grid &grid;
  const Grid *scalarGrid = nullptr;
  int32_t nlev;
  InputSource source;
  const InputsFile &file;
  // Computed on first use: realistic inputs and `end_index_of_damping_layer` need them.
  std::unique_ptr<DiffusionCoefficients> coefficients_;
};

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_INPUTGENERATOR_H
