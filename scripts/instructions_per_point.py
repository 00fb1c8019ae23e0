#!/usr/bin/env python3
"""Instructions the emitted C++ executes per grid point, and per byte of compulsory traffic.

Why a program stays above the memory-bandwidth limit on CPUs (docs/bench.md, "Why the C++
backend is above the limit"): for each program and pipeline, runs fusec-bench once under
Valgrind's cachegrind (instruction counts, no cache simulation) and sums the instructions
executed in the emitted code (the functions of the generated .cpp; the reference
interpreter, the runtime and fusec-bench are left out). It divides them by the program's grid
points (cells x levels: one unit for every program) and by its compulsory bytes (what it must
read and write at least once, from fusec-bench's JSON). Times the copy kernel's bandwidth, the
instructions per byte give the instruction rate the program would need to run at the limit;
with the clock, the instructions per cycle and core it would need.

Valgrind does not run AVX-512, so the kernels are built for AVX2 (-mno-avx512f) with
-fno-trapping-math, with which GCC vectorises nearly the loops it vectorises with AVX-512 (100
of diffusion.stn's 115 against 106; without it 54, docs/bench.md, "Vectorisation"); otherwise
the build is the timed one (FMA contraction, fusec-bench --fma). FUSEC_BENCH_CXXFLAGS adds
flags of one's own.

    scripts/instructions_per_point.py [--grid r2b3] [--nlev 30] [--pipelines none,fuse-all]
        [--programs P1,P2] [--layout flat|blocked:N] [--bandwidth GB/s] [--threads 2] [--out DIR]
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_rounds import add_program_arguments, cells_of  # noqa: E402

# Cells of rNbK: 20 n^2 4^k.
# Kernels and the launch and execute functions around them: GCC may inline a kernel called
# once into them.
KERNEL = re.compile(r"^static (?:void|int) (\w+)\(", re.MULTILINE)


def emitted_instructions(cachegrind_file, cache_dir):
    """Instructions executed in the kernels of the generated .cpp files in `cache_dir` (their
    launch code, OpenMP-outlined parts and the runtime helpers inlined into them included)."""
    kernels = set()
    for name in os.listdir(cache_dir):
        if name.endswith(".cpp"):
            with open(os.path.join(cache_dir, name)) as handle:
                kernels.update(KERNEL.findall(handle.read()))
    total, counted = 0, False
    with open(cachegrind_file) as handle:
        for line in handle:
            if line.startswith("fn="):
                # Demangled: `name(arguments)`, OpenMP's parts `... [clone ._omp_fn.0]`.
                counted = line[3:].split("(")[0].strip() in kernels
            elif line.startswith("fl="):
                continue
            elif counted and line[:1].isdigit():
                fields = line.split()
                if len(fields) >= 2:
                    total += int(fields[1])
    if not kernels:
        sys.exit(f"instructions_per_point: no generated .cpp in {cache_dir}")
    return total


def measure(args, program, pipeline, scratch):
    json_path = os.path.join(scratch, "run.json")
    out_path = os.path.join(scratch, "cachegrind.out")
    cache_dir = os.path.join(scratch, f"cache-{program}-{pipeline}")
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
               f"--cachegrind-out-file={out_path}", args.fusec_bench, "run", args.source,
               "--grid", args.grid, "--nlev", str(args.nlev), "--inputs", args.inputs,
               "--pipelines", pipeline, "--programs", program, "--repeat", "0", "--fma",
               # FMA contraction: fusec-bench's tolerances for its timed builds.
               "--rtol", "1e-8", "--atol", "1e-12",
               "--backend", "cpp", "--layout", args.layout, "--cache-dir", cache_dir,
               "--json", json_path]
    env = dict(os.environ, OMP_NUM_THREADS="1",
               FUSEC_BENCH_CXXFLAGS=(os.environ.get("FUSEC_BENCH_CXXFLAGS", "") +
                                     " -mno-avx512f -fno-trapping-math").strip())
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"instructions_per_point: {' '.join(command)} failed:\n{result.stderr[-3000:]}")
    with open(json_path) as handle:
        report = json.load(handle)
    compulsory = report["comparison"][program]["compulsory_bytes"]
    return emitted_instructions(out_path, cache_dir), compulsory


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_program_arguments(parser)
    parser.add_argument("--grid", default="r2b3")
    parser.add_argument("--nlev", type=int, default=30)
    parser.add_argument("--inputs", default="random")
    parser.add_argument("--layout", default="flat", help="fusec-bench --layout: flat or blocked:N")
    parser.add_argument("--bandwidth", type=float, default=0.0,
                        help="copy bandwidth in GB/s (e.g. from bench_rounds.py) for the IPC column")
    parser.add_argument("--threads", type=int, default=2, help="cores for the IPC column")
    parser.add_argument("--ghz", type=float, default=0.0,
                        help="clock in GHz for the IPC column (default: /proc/cpuinfo)")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "instructions"))
    args = parser.parse_args()

    ghz = args.ghz
    if not ghz and os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as handle:
            speeds = [float(line.split(":")[1]) for line in handle if line.startswith("cpu MHz")]
        ghz = max(speeds) / 1000 if speeds else 0.0

    points = cells_of(args.grid) * args.nlev
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for program in args.programs.split(","):
            for pipeline in args.pipelines.split(","):
                print(f"instructions_per_point: {program} {pipeline}", file=sys.stderr)
                instructions, compulsory = measure(args, program, pipeline, scratch)
                row = {"program": program, "pipeline": pipeline, "instructions": instructions,
                       "compulsory_bytes": compulsory,
                       "instructions_per_cell_level": instructions / points,
                       "instructions_per_byte": instructions / compulsory}
                if args.bandwidth and ghz:
                    # Instructions per second at the limit, per core and cycle.
                    row["ipc_needed"] = (row["instructions_per_byte"] * args.bandwidth /
                                         (args.threads * ghz))
                rows.append(row)

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "instructions.json"), "w") as handle:
        json.dump({"grid": args.grid, "nlev": args.nlev, "layout": args.layout, "points": points,
                   "ghz": ghz,
                   "bandwidth_gb_s": args.bandwidth, "threads": args.threads, "rows": rows},
                  handle, indent=1)
    lines = [f"cachegrind instruction counts of the emitted C++ (AVX2 build, -fno-trapping-math, "
             "FMA), "
             f"{args.grid}, {args.nlev} levels, {args.inputs} inputs, {args.layout} layout; "
             "per cell-level of the grid",
             "", "| program | pipeline | instructions / cell-level | instructions / byte |"
             + (" IPC needed at the limit |" if args.bandwidth and ghz else ""),
             "|---|---|---:|---:|" + ("---:|" if args.bandwidth and ghz else "")]
    for row in rows:
        line = (f"| {row['program']} | {row['pipeline']} | {row['instructions_per_cell_level']:.1f} "
                f"| {row['instructions_per_byte']:.2f} |")
        if "ipc_needed" in row:
            line += f" {row['ipc_needed']:.1f} |"
        lines.append(line)
    if args.bandwidth and ghz:
        lines.append("")
        lines.append(f"IPC needed: instructions per byte x {args.bandwidth} GB/s / "
                     f"({args.threads} cores x {ghz:.2f} GHz)")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "instructions.md"), "w") as handle:
        handle.write(table)
    print(table)


if __name__ == "__main__":
    main()
