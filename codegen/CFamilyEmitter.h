//===- CFamilyEmitter.h - a program as a C++ or CUDA file ---------*- C++ -*-===//
//
// The CUDA and C++ backends emit the same translation unit: per program the
// type of its instances' handle (extents, neighbour tables, program-local
// buffers, stream, callbacks, verification and timers; the file has no other
// state), one kernel function and one launcher
// per stn.kernel, the program body as a static function executed on the host,
// and the extern "C" functions of CInterface.h around it. A CFamilyTarget
// supplies what differs: the loop nest around a kernel body, how it is
// launched, and where tables and buffers live.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_CFAMILYEMITTER_H
#define FUSEC_CODEGEN_CFAMILYEMITTER_H

#include "codegen/CInterface.h"
#include "codegen/KernelBodyEmitter.h"
#include "codegen/KernelForm.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace fusec::codegen {

/// One stn.kernel: its kernel function, its launcher and their parameters.
struct KernelPlan {
  struct Parameter {
    std::string type; ///< C type; pointers end in '*'
    std::string name;
    /// Launcher parameters: the program value passed at the call site.
    mlir::Value value;
    /// Without `value`, what the caller passes: for state parameters the
    /// expression reading it from the program state, for a point list's
    /// count and arrays the program's C argument.
    std::string argument;
    /// Where it differs inside a wavefront's plan: the argument from the
    /// plan (a folded buffer's column starts).
    std::string staged;

    bool isPointer() const { return !type.empty() && type.back() == '*'; }
  };

  stn::KernelOp op;
  std::string function; ///< the kernel function
  std::string launcher; ///< the host function that checks the domain and launches
  /// A stage of an stn.wavefront (C++): the kernel function runs the blocks of
  /// points it is given (its last two parameters), without sharing them among
  /// the team; `ranged` runs it on a range from the program body, `checker`
  /// checks its domain as the launcher does.
  bool staged = false;
  std::string ranged, checker;
  size_t index = 0;     ///< position among the program's kernels (its timer)
  KernelUses uses;
  KernelScope scope;
  /// Parameter names of the domain bounds, and the names of the work item's
  /// box the kernel body reads (docs/dialect.md, loop form); empty when absent.
  std::string hlb, hub, klb, kub, hBegin, hEnd, kBegin, kEnd;
  /// A kernel on a point list: the parameters of its count and arrays, and
  /// the work item's range of entries [eBegin, eEnd).
  PointListArguments list;
  std::string eBegin, eEnd;
  /// Consecutive levels per thread (CUDA) or per OpenMP work item (C++).
  int64_t kblock = 1;
  /// CUDA: on a kernel with points and levels and `column_order`, the bytes a
  /// level tile of one point reads and writes (those its levels share, plus
  /// `kblock` levels' worth), else 0; `levelTiles` names the count of level
  /// tiles the kernel computes.
  int64_t columnOrderBytes = 0;
  std::string levelTiles, byColumn;
  /// Horizontal points per CUDA block or per OpenMP work item: the kernel's
  /// `hblock` attribute, else 0 (the target's default constant).
  int64_t hblock = 0;
  /// Domain bounds or point list, then captured program values.
  std::vector<Parameter> launcherParameters;
  /// Leading dimensions, then neighbour tables: read from the state by the
  /// launcher and passed on to the kernel function.
  std::vector<Parameter> stateParameters;
  /// Targets with a blocked layout: what the kernel's blocked variant reads
  /// besides (nproma, the number of levels, each table's blocks).
  std::vector<Parameter> blockedParameters;
  /// The blocked variant's nproma parameter.
  std::string nproma;

  bool hasLevels() const { return !klb.empty(); }
  /// A horizontal range [hlb, hub), as opposed to a point list or no points.
  bool hasPoints() const { return !hlb.empty(); }
  bool hasPointList() const { return !list.count.empty(); }
  /// The points (or entries of a point list) per block as C++ text: the
  /// `hblock` literal, or `defaultConstant`.
  std::string horizontalBlock(llvm::StringRef defaultConstant) const {
    return hblock > 0 ? std::to_string(hblock) : defaultConstant.str();
  }
  /// Declares the work item's levels `[kBegin, kEnd)`: level tile `tile` (a C
  /// expression) of `kblock` levels, clipped to k_ub with `minFunction`.
  std::string declareLevelTile(llvm::StringRef tile, llvm::StringRef minFunction) const;
  /// The kernel function's parameter list; pointers get __restrict__ there.
  /// `blocked`: the blocked variant's, with blockedParameters.
  std::string kernelSignature(bool blocked = false) const;
  /// The arguments the launcher passes to the kernel function.
  std::string kernelArguments(bool blocked = false, bool staged = false) const;
};

/// What differs between the CUDA and the C++ translation units.
class CFamilyTarget {
public:
  virtual ~CFamilyTarget() = default;

  /// "CUDA kernels" / "C++17 with OpenMP", for the file's first comment.
  virtual llvm::StringRef description() const = 0;
  /// "cuda" / "cpp": the backend in the timers' metadata.
  virtual llvm::StringRef backendName() const = 0;
  /// Includes and file-wide constants; `hasKernels` says whether any exist.
  virtual void emitPrelude(bool hasKernels, llvm::raw_ostream &os) const = 0;
  /// Type of the state member holding a program-local buffer.
  virtual std::string bufferType(llvm::StringRef elementType) const = 0;
  /// Type of the state member holding a table kernels read.
  virtual llvm::StringRef kernelTableType() const = 0;
  /// Whether stn.image can read the kernels' tables (host memory).
  virtual bool kernelTablesOnHost() const = 0;
  /// Whether kernels have a blocked variant (fusec_layout.nproma > 0); else
  /// P_create refuses the blocked layout with FUSEC_ERROR_UNSUPPORTED_LAYOUT.
  virtual bool supportsBlockedLayout() const = 0;
  /// Type of the state's stream member, and its value from setup's `void *`.
  virtual llvm::StringRef streamType() const = 0;
  virtual std::string streamFromArgument(llvm::StringRef argument) const = 0;
  /// The kernel function: the work items around the body of one.
  virtual mlir::LogicalResult emitKernel(KernelPlan &plan, llvm::raw_ostream &os) const = 0;
  /// The launcher's last statements (after its domain checks): run the kernel
  /// on the non-empty domain and return a fusec_status.
  virtual void emitLaunch(const KernelPlan &plan, llvm::StringRef state,
                          llvm::raw_ostream &os) const = 0;
  /// The launcher's statements for an empty domain, where the kernel does
  /// not run: return success, and on CPUs first wait at the barrier the
  /// kernel's worksharing construct ends with, which the team still needs.
  virtual std::vector<std::string> emptyDomainStatements(const KernelPlan &plan) const {
    return {"return FUSEC_SUCCESS;"};
  }
  /// How P_run runs the program body `call` (an int expression): as it is,
  /// or on every thread of a team.
  virtual std::string runBody(llvm::StringRef call) const { return call.str(); }
  /// Host work in the program body that must run once, `call` (an
  /// expression): as it is, or on one thread of the team.
  virtual std::string onOneThread(llvm::StringRef call) const { return call.str(); }
  /// Whether stn.wavefront runs as a plan (C++); else it is an error.
  virtual bool supportsWavefronts() const { return false; }
};

/// Emits the translation unit of every program in `module` (formatted).
mlir::LogicalResult emitCFamily(mlir::ModuleOp module, const CFamilyTarget &target,
                                llvm::raw_ostream &os);

} // namespace fusec::codegen

#endif // FUSEC_CODEGEN_CFAMILYEMITTER_H
