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

The kernels are built with debug lines (-g, which does not change the code), so the counts
split by source line: the share of the instructions spent in `omp simd` loops GCC vectorised,
the share in those it did not, and GCC's reasons for these (vectorization_report.py's remarks
for the same flags), weighted by the instructions their loops executed.

The counted build is the timed one (FMA contraction, fusec-bench --fma) on a host without
AVX-512. Valgrind does not run AVX-512; on a host with it the kernels are built for AVX2
(-mno-avx512f) with -fno-trapping-math, with which GCC vectorises nearly the loops it
vectorises with AVX-512 (docs/bench.md, "Vectorisation"), and, where the compiler is GCC, with
AVX2's gathers allowed (-mtune-ctrl=use_gather...), which GCC's AMD tunings leave out for AVX2
and use for AVX-512: without them loops reading at data-dependent levels (the steep-point
correction) stay scalar in the counted build only. FUSEC_BENCH_CXXFLAGS adds flags of one's
own.

With --times DIR (a scripts/bench_rounds.py --out directory of the same programs and
pipelines) it also gives the IPC each timed run achieved: the counted instructions per
cell-level times the timed grid's cell-levels, over the median time, the threads and the clock.

    scripts/instructions_per_point.py [--grid r2b3] [--nlev 30] [--pipelines none,fuse-all]
        [--programs P1,P2] [--layout flat|blocked:N|columns] [--bandwidth GB/s] [--threads 2]
        [--times DIR] [--out DIR]
"""

import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_rounds import add_program_arguments, cells_of  # noqa: E402
from vectorization_report import RUNTIME_INCLUDE, TIMED_FLAGS, loop_verdicts  # noqa: E402

# Kernels and the launch and execute functions around them: GCC may inline a kernel called
# once into them. A long name goes to the line after `static void` (clang-format).
KERNEL = re.compile(r"^static (?:void|int)\s+(\w+)\(", re.MULTILINE)


def host_has_avx512():
    if not os.path.exists("/proc/cpuinfo"):
        return False
    with open("/proc/cpuinfo") as handle:
        return any(line.startswith("flags") and " avx512f" in line for line in handle)


GATHERS = "-mtune-ctrl=use_gather,use_gather_4parts,use_gather_2parts"


def compiler_takes(flag):
    """Whether fusec-bench's C++ compiler ($CXX, else c++) accepts `flag`."""
    command = [os.environ.get("CXX", "c++"), flag, "-x", "c++", "-fsyntax-only", "-"]
    return subprocess.run(command, input=b"", capture_output=True).returncode == 0


def counted_flags():
    """Flags added to the timed build so that Valgrind runs it, vectorised as the timed one."""
    if not host_has_avx512():
        return ""
    return " ".join(["-mno-avx512f", "-fno-trapping-math"] +
                    ([GATHERS] if compiler_takes(GATHERS) else []))


def emitted_instructions(cachegrind_file, cache_dir):
    """Instructions executed in the kernels of the generated .cpp in `cache_dir` (their
    launch code, OpenMP-outlined parts and the runtime helpers inlined into them included):
    (total, Counter of them by line of the .cpp, the .cpp's path)."""
    sources = glob.glob(os.path.join(cache_dir, "*.cpp"))
    if len(sources) != 1:
        sys.exit(f"instructions_per_point: expected one generated .cpp in {cache_dir}")
    with open(sources[0]) as handle:
        kernels = set(KERNEL.findall(handle.read()))
    source_name = os.path.basename(sources[0])
    total, by_line, counted, in_source = 0, collections.Counter(), False, False
    with open(cachegrind_file) as handle:
        for line in handle:
            if line.startswith("fn="):
                # Demangled: `name(arguments)`, OpenMP's parts `... [clone ._omp_fn.0]`.
                counted = line[3:].split("(")[0].strip() in kernels
            elif line.startswith("fl="):
                # Cachegrind starts a new file for code inlined from a header (a runtime helper).
                in_source = os.path.basename(line[3:].strip()) == source_name
            elif counted and line[:1].isdigit():
                fields = line.split()
                if len(fields) >= 2:
                    total += int(fields[1])
                    if in_source:
                        by_line[int(fields[0])] += int(fields[1])
    return total, by_line, sources[0]


def loop_shares(source, by_line, flags):
    """How the instructions executed on the lines of `source` split between the `omp simd`
    loops GCC vectorised and those it did not (GCC's reasons weighted by the instructions of
    their loops), and how many loops ran."""
    shares = {"vectorised": 0.0, "scalar": 0.0, "reasons": collections.Counter(),
              "loops_run": 0, "loops_run_vectorised": 0}
    for _, first, last, vectorised, reasons in loop_verdicts(
            source, os.environ.get("CXX", "g++"), flags, RUNTIME_INCLUDE):
        executed = sum(by_line[number] for number in range(first, last + 1))
        if not executed:
            continue
        shares["loops_run"] += 1
        shares["loops_run_vectorised"] += vectorised
        shares["vectorised" if vectorised else "scalar"] += executed
        for reason in set(reasons):
            shares["reasons"][reason] += executed
    on_lines = max(sum(by_line.values()), 1)
    shares["vectorised"] /= on_lines
    shares["scalar"] /= on_lines
    shares["reasons"] = {reason: count / on_lines
                         for reason, count in shares["reasons"].most_common()}
    return shares


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
    extra = " ".join(filter(None, [os.environ.get("FUSEC_BENCH_CXXFLAGS", ""), counted_flags()]))
    env = dict(os.environ, OMP_NUM_THREADS="1", FUSEC_BENCH_CXXFLAGS=f"{extra} -g".strip())
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"instructions_per_point: {' '.join(command)} failed:\n{result.stderr[-3000:]}")
    with open(json_path) as handle:
        report = json.load(handle)
    compulsory = report["comparison"][program]["compulsory_bytes"]
    instructions, by_line, source = emitted_instructions(out_path, cache_dir)
    shares = loop_shares(source, by_line, f"{TIMED_FLAGS} {extra}".strip())
    return instructions, compulsory, shares


def timed_medians(directory):
    """{(program, pipeline, threads): median seconds} and the timed grid's cell-levels from a
    bench_rounds.py --out directory."""
    with open(os.path.join(directory, "summary.json")) as handle:
        summary = json.load(handle)
    rounds = sorted(glob.glob(os.path.join(directory, "round*.json")))
    if not rounds:
        sys.exit(f"instructions_per_point: no round*.json in {directory}")
    with open(rounds[0]) as handle:
        meta = next(iter(json.load(handle)["metrics"].values()))
        meta = next(iter(meta.values()))["metadata"]
    medians = {}
    for key, programs in summary.items():
        threads = int(key.split("t-")[0])
        for program, result in programs.items():
            for pipeline, median in result["median"].items():
                medians[(program, pipeline, threads)] = median
    return medians, cells_of(meta["grid"]) * meta["nlev"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_program_arguments(parser)
    parser.add_argument("--grid", default="r2b3")
    parser.add_argument("--nlev", type=int, default=30)
    parser.add_argument("--inputs", default="random")
    parser.add_argument("--layout", default="flat",
                        help="fusec-bench --layout: flat, blocked:N or columns")
    parser.add_argument("--bandwidth", type=float, default=0.0,
                        help="copy bandwidth in GB/s (e.g. from bench_rounds.py) for the IPC column")
    parser.add_argument("--threads", type=int, default=2, help="cores for the IPC column")
    parser.add_argument("--ghz", type=float, default=0.0,
                        help="clock in GHz for the IPC columns (default: /proc/cpuinfo)")
    parser.add_argument("--times", help="bench_rounds.py --out directory: achieved IPC columns")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "instructions"))
    args = parser.parse_args()

    ghz = args.ghz
    if not ghz and os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as handle:
            speeds = [float(line.split(":")[1]) for line in handle if line.startswith("cpu MHz")]
        ghz = max(speeds) / 1000 if speeds else 0.0
    medians, timed_points = timed_medians(args.times) if args.times else ({}, 0)
    thread_counts = sorted({threads for (_, _, threads) in medians})

    points = cells_of(args.grid) * args.nlev
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for program in args.programs.split(","):
            for pipeline in args.pipelines.split(","):
                print(f"instructions_per_point: {program} {pipeline}", file=sys.stderr)
                instructions, compulsory, shares = measure(args, program, pipeline, scratch)
                row = {"program": program, "pipeline": pipeline, "instructions": instructions,
                       "compulsory_bytes": compulsory,
                       "instructions_per_cell_level": instructions / points,
                       "instructions_per_byte": instructions / compulsory, "loops": shares}
                if args.bandwidth and ghz:
                    # Instructions per second at the limit, per core and cycle.
                    row["ipc_needed"] = (row["instructions_per_byte"] * args.bandwidth /
                                         (args.threads * ghz))
                for threads in thread_counts:
                    median = medians.get((program, pipeline, threads))
                    if median and ghz:
                        row.setdefault("ipc_achieved", {})[threads] = (
                            row["instructions_per_cell_level"] * timed_points /
                            (median * threads * ghz * 1e9))
                rows.append(row)

    os.makedirs(args.out, exist_ok=True)
    flags = counted_flags() or "the timed build"
    with open(os.path.join(args.out, "instructions.json"), "w") as handle:
        json.dump({"grid": args.grid, "nlev": args.nlev, "layout": args.layout, "points": points,
                   "ghz": ghz, "flags": flags, "bandwidth_gb_s": args.bandwidth,
                   "threads": args.threads, "rows": rows}, handle, indent=1)
    ipc_needed = bool(args.bandwidth and ghz)
    header = ("| program | pipeline | instructions / cell-level | instructions / byte | in "
              "vectorised loops | in scalar loops | loops run (vectorised) |")
    rule = "|---|---|---:|---:|---:|---:|---:|"
    if ipc_needed:
        header += " IPC needed at the limit |"
        rule += "---:|"
    for threads in thread_counts:
        header += f" IPC achieved, {threads} thread{'s' if threads > 1 else ''} |"
        rule += "---:|"
    lines = [f"cachegrind instruction counts of the emitted C++ ({flags}, FMA), "
             f"{args.grid}, {args.nlev} levels, {args.inputs} inputs, {args.layout} layout; "
             "per cell-level of the grid", "", header, rule]
    for row in rows:
        loops = row["loops"]
        line = (f"| {row['program']} | {row['pipeline']} | {row['instructions_per_cell_level']:.1f} "
                f"| {row['instructions_per_byte']:.2f} | {100 * loops['vectorised']:.0f}% "
                f"| {100 * loops['scalar']:.0f}% "
                f"| {loops['loops_run']} ({loops['loops_run_vectorised']}) |")
        if ipc_needed:
            line += f" {row['ipc_needed']:.1f} |"
        for threads in thread_counts:
            achieved = row.get("ipc_achieved", {}).get(threads)
            line += f" {achieved:.2f} |" if achieved else " |"
        lines.append(line)
    lines.append("")
    lines.append("Why GCC left loops scalar, by share of the program's instructions:")
    lines.append("")
    for row in rows:
        for reason, share in row["loops"]["reasons"].items():
            lines.append(f"- {row['program']} {row['pipeline']}: {reason} ({100 * share:.0f}%)")
    if ipc_needed:
        lines.append("")
        lines.append(f"IPC needed: instructions per byte x {args.bandwidth} GB/s / "
                     f"({args.threads} cores x {ghz:.2f} GHz)")
    if thread_counts:
        lines.append(f"IPC achieved: instructions per cell-level x {timed_points} cell-levels / "
                     f"(median time x threads x {ghz:.2f} GHz), medians from {args.times}")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "instructions.md"), "w") as handle:
        handle.write(table)
    print(table)


if __name__ == "__main__":
    main()
