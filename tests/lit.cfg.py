# lit configuration shared by every suite under tests/.
import os
import platform
import shutil

import lit.formats
import lit.util

config.name = "fusec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".stn", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in", "reference", "instances"]
config.test_source_root = os.path.dirname(__file__)

site_config = lit_config.params.get("site_config")
if site_config is None:
    lit_config.fatal("run lit through ctest, or pass --param site_config=<build>/tests/lit.site.cfg.py")
lit_config.load_config(config, site_config)
config.test_exec_root = os.path.join(config.fusec_obj_root, "tests")

config.environment["PATH"] = os.pathsep.join(
    [config.fusec_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# The compilers and flags fusec-bench builds emitted code with (docs/bench.md), which
# scripts/sanitize-env.sh sets for the sanitizer build.
for name in ["CXX", "NVCC", "FUSEC_BENCH_CXXFLAGS"]:
    if name in os.environ:
        config.environment[name] = os.environ[name]

src = config.fusec_src_root
tools = config.fusec_tools_dir
for name in ["fusec", "fusec-opt", "fusec-translate", "fusec-bench", "fusec-grid"]:
    config.substitutions.append(("%" + name + " ", os.path.join(tools, name) + " "))
# Kernel form to the loop form a backend prints, folds left as loops (fusec also runs
# stn-unroll-reductions, which tests/passes/stn-unroll-reductions.mlir checks).
for target in ["cuda", "cpp"]:
    config.substitutions.append(
        ("%loops-" + target + " ",
         os.path.join(tools, "fusec-opt") + " --stn-lower-to-loops=target=" + target +
         " --stn-hoist-loop-invariant --stn-carry-levels "))
config.substitutions.append(("%stencils", os.path.join(src, "stencils")))
config.substitutions.append(("%runtime_include", os.path.join(src, "runtime", "include")))
config.substitutions.append(("%src_root", src))
config.substitutions.append(("%build_root", config.fusec_obj_root))

if config.nvcc and not config.nvcc.endswith("NOTFOUND"):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", config.nvcc))
if config.gfortran and not config.gfortran.endswith("NOTFOUND"):
    config.available_features.add("gfortran")
# The C++ backend's non-temporal stores (and fusec-bench's copy kernel with them) are x86-64's.
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")
if shutil.which("valgrind"):
    config.available_features.add("valgrind")
if lit_config.params.get("timing") in ("1", "on", "true"):
    config.available_features.add("timing")
if shutil.which("nvidia-smi") and os.system("nvidia-smi -L >/dev/null 2>&1") == 0:
    config.available_features.add("cuda-gpu")
