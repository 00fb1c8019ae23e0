#!/usr/bin/env python3
"""Compares fusec with GT4Py's gtfn_cpu on the same inputs (issue 12).

ICON4Py's own diffusion programs (`icon4py.model.atmosphere.diffusion.stencils`, from PyPI's
`icon4py-atmosphere-diffusion` with the `gt4py` it pulls in) run with `backend=gtx.gtfn_cpu` on
the inputs that `fusec-bench run --save-outputs DIR` generated; their outputs are compared with
the reference outputs in DIR (fusec's interpreter on the unoptimised program); then gtfn_cpu and
fusec (`fusec-bench run --inputs DIR --pipelines none,fuse-all`) are timed in interleaved rounds
at each thread count. docs/bench.md, section "fusec against GT4Py's gtfn_cpu", describes it.

    scripts/compare_gtfn.py --grid r2b5 --nlev 80 --inputs random --threads 1,2 --rounds 1:3,2:2

Steps:
 1. a virtual environment (default build/gtfn-venv) with icon4py-atmosphere-diffusion==0.2.0
    from PyPI (skipped when it is already there);
 2. per inputs mode, `fusec-bench run ... --save-outputs OUT/inputs-MODE --repeat 0`: every
    neighbour table, every program's arguments and the reference outputs as .npy;
 3. per thread count, a worker process (the venv's python, OMP_NUM_THREADS set before it
    starts) builds gt4py fields (`gtx.as_field`) and offset providers (`gtx.as_connectivity`
    from OUT/inputs-MODE/grid/*.npy, `Koff` -> K), runs each program once from fresh copies of
    the inputs (compiling it: the untimed warm-up) and checks every output buffer against the
    reference with |x - ref| <= atol + rtol*|ref|;
 4. rounds: per round, the worker times `--repeat` runs of each program (median; inout fields
    restored from the inputs before every run, outside the timed region), then fusec-bench
    times none and fuse-all (`--repeat` runs each, medians from its --json);
 5. per inputs, threads, program and variant: the median of the round medians, the spread
    (min-max of the round medians) and fusec/gtfn; OUT/compare-gtfn.{json,md}.

The orchestrating process needs only the standard library; the worker (`--worker`) runs in
the venv. The worker alone: `--worker DIR --check-only` verifies without timing, `--worker DIR
--bind-only` only binds the arguments (tests/e2e/compare-gtfn.test).
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ICON4PY_PACKAGE = "icon4py-atmosphere-diffusion"
ICON4PY_VERSION = "0.2.0"

# The programs compared: fusec's program name = ICON4Py's module and program name.
PROGRAMS = [
    "apply_diffusion_to_vn",
    "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence",
    "apply_diffusion_to_theta_and_exner",
    "calculate_nabla2_and_smag_coefficients_for_vn",
    "calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools",
]
HEAVY = PROGRAMS[:4]

# fusec's domain scalars -> ICON4Py's keyword names; every other parameter has the same name.
RENAMED = {"h_start": "horizontal_start", "h_end": "horizontal_end",
           "v_start": "vertical_start", "v_end": "vertical_end"}

# Default tolerances of the output comparison (gtfn_cpu against fusec's reference outputs).
RTOL = 1e-9
ATOL = 1e-12


# ---------------------------------------------------------------------------------------------
# worker side (runs inside the venv: gt4py, icon4py, numpy)
# ---------------------------------------------------------------------------------------------
def build_offset_providers(tables):
    """ICON4Py's offset providers from the saved tables (name -> (points, neighbours) int32):
    `gtx.as_connectivity([source, local], target, data, skip_value=-1 where a table has
    missing neighbours)` for every FieldOffset of icon4py's dimension module, plus Koff -> K."""
    import gt4py.next as gtx
    import numpy as np
    from icon4py.model.common import dimension as dims

    providers = {}
    for name in sorted(tables):
        offset = getattr(dims, name, None)
        if not isinstance(offset, gtx.FieldOffset):
            continue
        source, local = offset.target
        table = np.ascontiguousarray(tables[name], dtype=np.int32)
        skip = -1 if (table < 0).any() else None
        providers[name] = gtx.as_connectivity([source, local], offset.source, data=table,
                                              dtype=gtx.int32, skip_value=skip)
    providers["Koff"] = dims.KDim
    return providers


def load_tables(directory):
    import numpy as np

    tables = {}
    for name in sorted(os.listdir(os.path.join(directory, "grid"))):
        if name.endswith(".npy"):
            tables[name[:-4]] = np.load(os.path.join(directory, "grid", name)).T
    return tables


def load_program_arrays(directory, program):
    """{fusec parameter name: numpy array in icon4py's logical shape, or Python scalar}."""
    import numpy as np

    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    arrays = {}
    for parameter in manifest["programs"][program]["parameters"]:
        name = parameter["name"]
        array = np.load(os.path.join(directory, program, "inputs", name + ".npy"))
        arrays[name] = array.item() if array.ndim == 0 else np.ascontiguousarray(array.T)
    return manifest, arrays


def output_names(manifest, program):
    return [p["name"] for p in manifest["programs"][program]["parameters"]
            if p["type"].endswith(", out") or p["type"].endswith(", inout")]


class GtfnProgram:
    """One ICON4Py program bound to gt4py fields made from a saved run."""

    def __init__(self, directory, program, providers, backend):
        import importlib

        import gt4py.next as gtx
        import numpy as np
        from gt4py.next.type_system import type_specifications as ts

        module = importlib.import_module(
            f"icon4py.model.atmosphere.diffusion.stencils.{program}")
        self.name = program
        self.program = getattr(module, program).with_backend(backend)
        self.manifest, self.arrays = load_program_arrays(directory, program)
        self.outputs = output_names(self.manifest, program)
        self.reference_dir = os.path.join(directory, program, "reference")
        if not hasattr(self.program, "past_stage"):
            raise RuntimeError(f"{program}: this gt4py's programs have no past_stage")
        params = self.program.past_stage.past_node.params  # name and gt4py type, in order
        self.kwargs = {}
        self.fields = {}
        for param in params:
            fusec_name = {v: k for k, v in RENAMED.items()}.get(param.id, param.id)
            if fusec_name not in self.arrays:
                raise KeyError(f"{program}: ICON4Py's parameter {param.id} is not in {directory}")
            value = self.arrays[fusec_name]
            type_ = param.type
            if isinstance(type_, ts.FieldType):
                data = np.asarray(value, dtype=_numpy_dtype(type_.dtype))
                field = gtx.as_field(list(type_.dims), data)
                self.fields[fusec_name] = field
                self.kwargs[param.id] = field
            else:
                self.kwargs[param.id] = _scalar(value, type_)
        missing = set(self.arrays) - {
            {v: k for k, v in RENAMED.items()}.get(p.id, p.id) for p in params}
        if missing:
            raise KeyError(f"{program}: fusec's parameters {sorted(missing)} are not ICON4Py's")
        self.providers = providers

    def restore(self):
        """Copies the saved inputs into every output field (outside any timed region)."""
        for name in self.outputs:
            self.fields[name].ndarray[...] = self.arrays[name]

    def run(self):
        self.program(**self.kwargs, offset_provider=self.providers)

    def check(self, rtol, atol):
        """{output: {max_abs_err, max_rel_err, failing, size}} against the reference."""
        import numpy as np

        result = {}
        for name in self.outputs:
            expected = np.load(os.path.join(self.reference_dir, name + ".npy")).T
            actual = np.asarray(self.fields[name].asnumpy(), dtype=np.float64)
            expected = np.asarray(expected, dtype=np.float64)
            if actual.shape != expected.shape:
                result[name] = {"failing": int(actual.size), "size": int(actual.size),
                                "error": f"shape {actual.shape} != {expected.shape}"}
                continue
            both_nan = np.isnan(actual) & np.isnan(expected)
            error = np.where(both_nan, 0.0, np.abs(actual - expected))
            with np.errstate(divide="ignore", invalid="ignore"):
                relative = np.where(expected != 0, error / np.abs(expected), 0.0)
            bad = ~(error <= atol + rtol * np.abs(expected))
            result[name] = {"failing": int(bad.sum()), "size": int(actual.size),
                            "max_abs_err": float(np.nanmax(error)) if error.size else 0.0,
                            "max_rel_err": float(np.nanmax(relative)) if relative.size else 0.0}
        return result

    def time(self, repeat):
        """`repeat` timed runs, each from the saved inputs: seconds per run."""
        times = []
        for _ in range(repeat):
            self.restore()
            start = time.perf_counter()
            self.run()
            times.append(time.perf_counter() - start)
        return times

    def strides(self):
        return {name: list(field.ndarray.strides) for name, field in self.fields.items()
                if field.ndarray.ndim > 1}


def _numpy_dtype(dtype):
    import numpy as np

    return np.dtype({
        "FLOAT64": np.float64, "FLOAT32": np.float32, "INT32": np.int32, "INT64": np.int64,
        "BOOL": np.bool_}[dtype.kind.name])


def _scalar(value, type_):
    import numpy as np

    return np.dtype(_numpy_dtype(type_)).type(value)


def openmp_threads():
    """(OpenMP runtime loaded in this process?, omp_get_max_threads() or None)."""
    import ctypes

    with open("/proc/self/maps") as f:
        libs = {line.split()[-1] for line in f if "libgomp" in line or "libomp" in line}
    if not libs:
        return False, None
    try:
        lib = ctypes.CDLL(sorted(libs)[0])
        return True, int(lib.omp_get_max_threads())
    except OSError:
        return True, None


def worker(args):
    """Loads, verifies and warms up every program; then answers 'round' lines on stdin with
    one JSON line of per-program times, until 'quit' or end of input."""
    import gt4py
    import gt4py.next as gtx
    import numpy as np
    from importlib import metadata

    directory = args.worker
    providers = build_offset_providers(load_tables(directory))
    programs = []
    info = {"gt4py": gt4py.__version__,
            "icon4py_atmosphere_diffusion": metadata.version(ICON4PY_PACKAGE),
            "icon4py_common": metadata.version("icon4py-common"),
            "numpy": np.__version__, "backend": "gtx.gtfn_cpu",
            "omp_num_threads_env": os.environ.get("OMP_NUM_THREADS"),
            "programs": {}}
    for name in args.programs.split(","):
        start = time.perf_counter()
        program = GtfnProgram(directory, name, providers, gtx.gtfn_cpu)
        if args.bind_only:
            print(f"{name}: bound {len(program.kwargs)} arguments ({len(program.fields)} fields), "
                  f"outputs {','.join(program.outputs)}")
            continue
        program.restore()
        program.run()  # compiles (cached under GT4PY_BUILD_CACHE_DIR): the untimed warm-up
        first = time.perf_counter() - start
        check = program.check(args.rtol, args.atol)
        info["programs"][name] = {"compile_and_first_run_s": first, "outputs": check,
                                  "strides": program.strides()}
        programs.append(program)
    if args.bind_only:
        print(f"offset providers: {','.join(sorted(providers))}")
        return 0
    loaded, threads = openmp_threads()
    info["openmp_runtime_loaded"] = loaded
    info["omp_get_max_threads"] = threads
    print(json.dumps({"ready": info}), flush=True)
    if args.check_only:
        return 0
    for line in sys.stdin:
        command = line.strip()
        if command == "quit":
            break
        if command != "round":
            print(json.dumps({"error": f"unknown command {command!r}"}), flush=True)
            continue
        times = {program.name: program.time(args.repeat) for program in programs}
        print(json.dumps({"times": times}), flush=True)
    return 0


# ---------------------------------------------------------------------------------------------
# orchestrator side (standard library only)
# ---------------------------------------------------------------------------------------------
def log(message):
    print(f"compare-gtfn: {message}", file=sys.stderr, flush=True)


def ensure_venv(venv, version, install):
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        if not install:
            sys.exit(f"compare-gtfn: no virtual environment at {venv} (and --no-install)")
        log(f"creating the virtual environment {venv}")
        if subprocess.run([sys.executable, "-m", "venv", venv]).returncode != 0:
            sys.exit("compare-gtfn: python3 -m venv failed (on Debian's own python3 the venv "
                     "module is the package python3-venv: apt-get install python3-venv)")
    probe = subprocess.run([python, "-c", "from importlib import metadata; "
                            f"print(metadata.version('{ICON4PY_PACKAGE}'))"],
                           capture_output=True, text=True)
    if probe.returncode != 0 or probe.stdout.strip() != version:
        if not install:
            sys.exit(f"compare-gtfn: {ICON4PY_PACKAGE}=={version} is not installed in {venv}")
        log(f"installing {ICON4PY_PACKAGE}=={version} (and gt4py) from PyPI into {venv}")
        subprocess.run([python, "-m", "pip", "install", "-q", f"{ICON4PY_PACKAGE}=={version}"],
                       check=True)
    freeze = subprocess.run([python, "-m", "pip", "freeze"], capture_output=True, text=True,
                            check=True).stdout.split()
    return python, freeze


def save_inputs(args, mode, directory):
    manifest = os.path.join(directory, "manifest.json")
    if os.path.exists(manifest) and not args.regenerate:
        with open(manifest) as f:
            m = json.load(f)
        if (m.get("grid") == args.grid and m.get("nlev") == args.nlev
                and m.get("inputs") == mode and set(m["programs"]) >= set(args.programs)):
            log(f"inputs: reusing {directory}")
            return
    log(f"inputs: fusec-bench run --inputs {mode} --save-outputs {directory}")
    command = [args.fusec_bench, "run", args.stn, "--programs", ",".join(args.programs),
               "--grid", args.grid, "--nlev", str(args.nlev), "--inputs", mode,
               "--save-outputs", directory, "--repeat", "0", "--pipelines", "none",
               *args.bench_args]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def start_worker(args, python, directory, threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads),
               GT4PY_BUILD_CACHE_LIFETIME="persistent", GT4PY_BUILD_CACHE_DIR=args.gt4py_cache)
    command = [python, "-O", os.path.abspath(__file__), "--worker", directory,
               "--programs", ",".join(args.programs), "--repeat", str(args.repeat),
               "--rtol", repr(args.rtol), "--atol", repr(args.atol)]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               env=env)
    ready = read_reply(process)
    if "ready" not in ready:
        process.wait()
        sys.exit(f"compare-gtfn: the gtfn worker failed (exit {process.returncode})")
    return process, ready["ready"]


def read_reply(process):
    """The worker's next JSON line ({} at end of output); other lines (anything a library
    prints) go to standard error."""
    for line in process.stdout:
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            reply = None
        if isinstance(reply, dict):
            return reply
        sys.stderr.write(line)
    return {}


def worker_round(process):
    process.stdin.write("round\n")
    process.stdin.flush()
    reply = read_reply(process)
    if "times" not in reply:
        sys.exit(f"compare-gtfn: the gtfn worker failed: {reply}")
    return reply["times"]


def fusec_round(args, directory, threads, json_file):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    command = [args.fusec_bench, "run", args.stn, "--programs", ",".join(args.programs),
               "--grid", args.grid, "--nlev", str(args.nlev), "--inputs", directory,
               "--pipelines", ",".join(args.variants), "--repeat", str(args.repeat),
               "--layout", args.layout, "--json", json_file, *args.bench_args]
    for attempt in range(3):
        try:
            result = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True)
        except OSError as error:  # e.g. ETXTBSY while the binary is being relinked
            result = subprocess.CompletedProcess(command, 126, stdout=str(error))
        # 1: a variant failed or erred (final); other codes (a binary being replaced while a
        # build runs, a signal) are retried after a pause.
        if result.returncode in (0, 1):
            break
        log(f"fusec-bench exited with {result.returncode}; retrying in 30 s")
        time.sleep(30)
    if result.returncode != 0:
        print(result.stdout)
        sys.exit(f"compare-gtfn: fusec-bench failed (exit {result.returncode})")
    with open(json_file) as f:
        report = json.load(f)
    medians, verdicts = {}, {}
    for program in args.programs:
        entry = report["comparison"][program]["variants"]
        medians[program] = {v: entry[v]["median"] for v in args.variants}
        verdicts[program] = {v: entry[v]["verdict"] for v in args.variants}
    return medians, verdicts, report["run"]


def summarise(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "rounds": values}


def parse_rounds(text, threads):
    """'3' (every thread count) or '1:3,2:2' -> {threads: rounds}."""
    if ":" not in text:
        return {t: int(text) for t in threads}
    rounds = {}
    for item in text.split(","):
        t, n = item.split(":")
        rounds[int(t)] = int(n)
    return {t: rounds.get(t, 1) for t in threads}


def fmt_ms(seconds):
    return f"{seconds * 1e3:.0f}" if seconds >= 0.01 else f"{seconds * 1e3:.2f}"


def markdown(results, meta):
    lines = ["# fusec against GT4Py's gtfn_cpu",
             "",
             f"{meta['date']}, {meta['grid']}, {meta['nlev']} levels; {meta['repeat']} runs per "
             f"variant and round (median), median of the round medians [min-max of the round "
             f"medians]; rounds per thread count: {meta['rounds']}. Host: {meta['host']}. "
             f"{meta['note']}",
             "",
             f"fusec's fields in the {meta.get('layout', 'flat')} layout; gtfn_cpu's in its own "
             "(horizontal index contiguous).",
             "",
             f"gtfn_cpu: {meta['versions']['icon4py_atmosphere_diffusion']} "
             f"(icon4py-atmosphere-diffusion), gt4py {meta['versions']['gt4py']}; OpenMP runtime "
             f"loaded by gtfn_cpu's modules: {meta['versions']['openmp_runtime_loaded']}.",
             ""]
    for mode, per_mode in results.items():
        lines += [f"## inputs: {mode}", "",
                  "| program | threads | gtfn_cpu ms | fusec none ms | fusec fuse-all ms | "
                  "none/gtfn | fuse-all/gtfn | gtfn/fuse-all |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for threads, per_thread in per_mode["timings"].items():
            for program, entry in per_thread.items():
                g = entry["gtfn_cpu"]
                n = entry["none"]
                f = entry["fuse-all"]

                def cell(s):
                    return f"{fmt_ms(s['median'])} [{fmt_ms(s['min'])}-{fmt_ms(s['max'])}]"

                lines.append(
                    f"| {program} | {threads} | {cell(g)} | {cell(n)} | {cell(f)} | "
                    f"{entry['ratio']['none']:.2f} | {entry['ratio']['fuse-all']:.2f} | "
                    f"{1 / entry['ratio']['fuse-all']:.2f} |")
        lines += ["", "Output agreement of gtfn_cpu with fusec's reference outputs "
                  f"(|x - ref| <= {meta['atol']:g} + {meta['rtol']:g}·|ref|, every value of every "
                  "output buffer); fusec's own verdicts are fusec-bench's:", "",
                  "| program | output | max abs err | max rel err | failing | fusec none | "
                  "fusec fuse-all |", "|---|---|---:|---:|---:|---|---|"]
        for program, check in per_mode["agreement"].items():
            verdicts = per_mode["fusec_verdicts"].get(program, {})
            for output, c in check.items():
                lines.append(f"| {program} | {output} | {c.get('max_abs_err', float('nan')):.3g} | "
                             f"{c.get('max_rel_err', float('nan')):.3g} | "
                             f"{c['failing']} of {c['size']} | {verdicts.get('none', '?')} | "
                             f"{verdicts.get('fuse-all', '?')} |")
        lines.append("")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", default="r2b5")
    parser.add_argument("--nlev", type=int, default=80)
    parser.add_argument("--inputs", default="random",
                        help="comma-separated modes: random, realistic")
    parser.add_argument("--threads", default="1,2", help="OMP_NUM_THREADS values, e.g. 1,2")
    parser.add_argument("--rounds", default="1:3,2:2",
                        help="rounds per thread count: N, or THREADS:N,... (default 1:3,2:2)")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per variant and round")
    parser.add_argument("--programs", default=",".join(PROGRAMS))
    parser.add_argument("--variants", default="none,fuse-all", help="fusec pipelines")
    parser.add_argument("--layout", default="flat",
                        help="fusec's field layout: flat, blocked:NPROMA (ICON's CPU layout) or "
                        "columns (nproma 1, gtfn_cpu's own); gtfn_cpu keeps its own")
    parser.add_argument("--rtol", type=float, default=RTOL)
    parser.add_argument("--atol", type=float, default=ATOL)
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "compare-gtfn"))
    parser.add_argument("--venv", default=os.environ.get("FUSEC_GTFN_VENV",
                                                         os.path.join(ROOT, "build", "gtfn-venv")))
    parser.add_argument("--icon4py-version", default=ICON4PY_VERSION)
    parser.add_argument("--no-install", action="store_true",
                        help="fail instead of creating the venv or installing into it")
    parser.add_argument("--fusec-bench", default=os.environ.get(
        "FUSEC_BENCH", os.path.join(ROOT, "build", "bin", "fusec-bench")))
    parser.add_argument("--stn", default=os.path.join(ROOT, "stencils", "diffusion.stn"))
    parser.add_argument("--cache-dir", help="fusec-bench --cache-dir")
    parser.add_argument("--gt4py-cache", help="GT4PY_BUILD_CACHE_DIR (default OUT/gt4py-cache)")
    parser.add_argument("--regenerate", action="store_true",
                        help="write the inputs again even when OUT/inputs-MODE matches")
    parser.add_argument("--note", default="", help="a line for the report (machine notes)")
    parser.add_argument("--worker", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--check-only", action="store_true",
                        help="with --worker DIR: verify gtfn_cpu's outputs, print, exit")
    parser.add_argument("--bind-only", action="store_true",
                        help="with --worker DIR: build the offset providers and bind every "
                        "argument of every program (no compilation), print, exit (the test)")
    args = parser.parse_args(argv)

    if args.worker:
        return worker(args)

    args.programs = args.programs.split(",")
    args.variants = args.variants.split(",")
    threads = [int(t) for t in args.threads.split(",")]
    rounds = parse_rounds(args.rounds, threads)
    os.makedirs(args.out, exist_ok=True)
    args.gt4py_cache = os.path.abspath(args.gt4py_cache or os.path.join(args.out, "gt4py-cache"))
    args.bench_args = ["--cache-dir", args.cache_dir] if args.cache_dir else []
    if not os.path.exists(args.fusec_bench):
        sys.exit(f"compare-gtfn: no fusec-bench at {args.fusec_bench} (--fusec-bench)")

    python, freeze = ensure_venv(args.venv, args.icon4py_version, not args.no_install)
    # A snapshot of fusec-bench, so that a rebuild while the rounds run does not change what is
    # measured (the emitted code's runtime headers are still read from the path compiled into
    # it; fusec-bench's cache key covers them).
    original = args.fusec_bench
    snapshot = os.path.join(args.out, "fusec-bench")
    shutil.copy2(original, snapshot + ".tmp")
    os.replace(snapshot + ".tmp", snapshot)
    args.fusec_bench = snapshot
    with open(snapshot, "rb") as f:
        fusec_sha256 = hashlib.sha256(f.read()).hexdigest()
    log(f"fusec-bench: {original} (sha256 {fusec_sha256[:12]}), copied to {snapshot}")
    results = {}
    versions = {}
    for mode in args.inputs.split(","):
        directory = os.path.join(args.out, f"inputs-{mode}")
        save_inputs(args, mode, directory)
        per_mode = {"timings": {}, "agreement": {}, "fusec_verdicts": {}, "workers": {}}
        for t in threads:
            log(f"{mode}, {t} thread(s): gtfn_cpu worker (compiles, verifies, warms up)")
            process, info = start_worker(args, python, directory, t)
            versions = {k: info[k] for k in ("gt4py", "icon4py_atmosphere_diffusion",
                                             "icon4py_common", "numpy", "openmp_runtime_loaded")}
            per_mode["workers"][t] = info
            for program, p in info["programs"].items():
                per_mode["agreement"][program] = p["outputs"]
            gtfn = {p: [] for p in args.programs}
            fusec = {p: {v: [] for v in args.variants} for p in args.programs}
            for r in range(rounds[t]):
                log(f"{mode}, {t} thread(s): round {r + 1} of {rounds[t]}")
                for program, times in worker_round(process).items():
                    gtfn[program].append(statistics.median(times))
                json_file = os.path.join(args.out, f"fusec-{mode}-t{t}-r{r + 1}.json")
                medians, verdicts, run = fusec_round(args, directory, t, json_file)
                per_mode["fusec_verdicts"] = verdicts
                per_mode.setdefault("fusec_run", {})[t] = run
                for program in args.programs:
                    for v in args.variants:
                        fusec[program][v].append(medians[program][v])
            process.stdin.write("quit\n")
            process.stdin.close()
            process.wait()
            table = {}
            for program in args.programs:
                entry = {"gtfn_cpu": summarise(gtfn[program])}
                for v in args.variants:
                    entry[v] = summarise(fusec[program][v])
                entry["ratio"] = {v: entry[v]["median"] / entry["gtfn_cpu"]["median"]
                                  for v in args.variants}
                table[program] = entry
            per_mode["timings"][t] = table
        results[mode] = per_mode

    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "grid": args.grid, "nlev": args.nlev, "repeat": args.repeat, "layout": args.layout,
            "rounds": ", ".join(f"{n} at {t} thread(s)" for t, n in rounds.items()),
            "rtol": args.rtol, "atol": args.atol, "host": f"{platform.node()}, "
            f"{os.cpu_count()} CPUs, {platform.processor() or platform.machine()}",
            "note": args.note, "versions": versions, "pip_freeze": freeze,
            "fusec_bench": original, "fusec_bench_sha256": fusec_sha256,
            "command": [os.path.relpath(__file__, ROOT), *(argv if argv is not None else sys.argv[1:])]}
    with open(os.path.join(args.out, "compare-gtfn.json"), "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    text = markdown(results, meta)
    with open(os.path.join(args.out, "compare-gtfn.md"), "w") as f:
        f.write(text)
    print(text)
    failing = [(mode, program, output) for mode, r in results.items()
               for program, check in r["agreement"].items()
               for output, c in check.items() if c["failing"]]
    for mode, program, output in failing:
        log(f"DISAGREE: {mode} {program} {output}")
    log(f"wrote {args.out}/compare-gtfn.{{json,md}}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
