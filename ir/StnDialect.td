//===- StnDialect.td - the stn dialect ---------------------*- tablegen -*-===//
//
// The stn dialect describes stencil programs on ICON's unstructured grid:
// fields located on cells, edges or vertices with a structured vertical.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_IR_STNDIALECT_TD
#define FUSEC_IR_STNDIALECT_TD

include "mlir/IR/OpBase.td"

def Stn_Dialect : Dialect {
  let name = "stn";
  let cppNamespace = "::fusec::stn";
  let summary = "Stencil programs on ICON's icosahedral grid";
  let description = [{
    Programs (`stn.program`) apply per-point computations (`stn.apply`) over
    domains of cells, edges or vertices and levels, store the resulting
    value-semantic temporaries into field buffers (`stn.store`) and separate
    phases by halo exchanges (`stn.exchange`). After optimisation, each launch
    is a `stn.kernel`. See docs/dialect.md for the rationale.
  }];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();

    /// `stn.target` on a module: the code the passes optimise for, `"cpp"` or
    /// `"cuda"` (the fusion cost model's weights; docs/dialect.md).
    static constexpr ::llvm::StringLiteral kTargetAttr = "stn.target";
    /// `stn.layout = "columns"` on a `cpp` module: the code runs in ICON's
    /// blocked layout with one point per block only (each point's levels
    /// contiguous), and its loop form vectorises over levels (docs/dialect.md).
    static constexpr ::llvm::StringLiteral kLayoutAttr = "stn.layout";
    static constexpr ::llvm::StringLiteral kColumnsLayout = "columns";
    /// On an `scf.for` of a kernel in loop form: its iterations are
    /// independent and the emitter vectorises it (`omp simd`).
    static constexpr ::llvm::StringLiteral kSimdAttr = "stn.simd";
    /// On an `arith.select` in an `stn.simd` loop: the C++ emitter prints it
    /// as a branch-free blend (`stn-blend-selects`).
    static constexpr ::llvm::StringLiteral kBlendAttr = "stn.blend";
    /// On a C++ kernel: its reads through neighbour tables go to a scalar
    /// loop before its vectorised point loop (`stn-split-gather-loops`).
    static constexpr ::llvm::StringLiteral kSplitGathersAttr = "split_gathers";
    /// On a C++ kernel in the columns layout, a bool overriding
    /// `stn-prefetch-columns`' rule: `false`, no prefetches; `true`, each
    /// point asks for every column a point ahead reads at its neighbours.
    static constexpr ::llvm::StringLiteral kPrefetchAttr = "prefetch";
    /// Points per work item of a C++ kernel without an `hblock` attribute.
    static constexpr int64_t kCppPointsPerWorkItem = 128;
    /// A `kblock` of all the levels of ICON's grids (the largest a
    /// configuration may give): one work item walks every level of its points.
    static constexpr int64_t kAllLevels = 1024;
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect"];
}

class Stn_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stn_Dialect, mnemonic, traits>;

#endif // FUSEC_IR_STNDIALECT_TD
