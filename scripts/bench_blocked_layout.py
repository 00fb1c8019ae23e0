#!/usr/bin/env python3
"""Blocked (ICON's CPU nproma layout) against flat layout at equal work (docs/bench.md).

Runs `fusec-bench run` once per (round, threads, layout), the layouts interleaved inside every
round so that load from other work on the machine hits each alike, and prints a Markdown table
per program, pipeline and thread count: the median of every timed run of each layout over all
rounds, the spread of the per-round medians (min-max), and blocked / flat.

    scripts/bench_blocked_layout.py --bench build/bin/fusec-bench [--rounds 3] [--nproma 16]
"""

import argparse
import collections
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from bench_rounds import DIFFUSION_PROGRAMS, cells_of


def run(bench, source, layout, threads, args, json_path):
    command = [bench, "run", source, "--backend", "cpp", "--pipelines", "none,fuse-all",
               "--programs", ",".join(args.programs), "--grid", args.grid, "--nlev",
               str(args.nlev), "--repeat", str(args.repeat), "--layout", layout,
               "--evict-caches", str(args.evict_caches), "--json", json_path]
    environment = dict(os.environ, OMP_NUM_THREADS=str(threads))
    result = subprocess.run(command, env=environment, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"bench_blocked_layout: {' '.join(command)} failed:\n{result.stdout[-3000:]}"
                 f"\n{result.stderr[-3000:]}")
    with open(json_path) as handle:
        return json.load(handle)["metrics"]


def build_copy_baseline(scratch):
    compiler = os.environ.get("CXX", shutil.which("c++") or "c++")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layout_copy.cpp")
    binary = os.path.join(scratch, "layout_copy")
    subprocess.run([compiler, "-std=c++17", "-O3", "-march=native", "-fopenmp", source, "-o",
                    binary], check=True)
    return binary


def copy_baseline(binary, args, threads, k_range, nproma):
    """(flat us, blocked us) of the hand-written copy over levels k_range."""
    environment = dict(os.environ, OMP_NUM_THREADS=str(threads))
    result = subprocess.run([binary, str(cells_of(args.grid)), str(args.nlev), str(k_range[0]),
                             str(k_range[1]), str(nproma), str(args.repeat * 3),
                             str(args.evict_caches)],
                            env=environment, capture_output=True, text=True, check=True)
    flat, blocked = result.stdout.split()
    return float(flat), float(blocked)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", default="build/bin/fusec-bench")
    parser.add_argument("--source", default="stencils/diffusion.stn")
    parser.add_argument("--grid", default="r2b4")
    parser.add_argument("--nlev", type=int, default=80)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--nproma", type=int, nargs="+", default=[16])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--programs", nargs="+", default=DIFFUSION_PROGRAMS)
    parser.add_argument("--evict-caches", type=int, default=0, metavar="MIB")
    parser.add_argument("--copy-baseline", action="store_true")
    args = parser.parse_args()
    if args.copy_baseline:
        cells_of(args.grid)  # a global grid, checked before anything runs
    level_ranges = {"bottom two levels": (args.nlev - 2, args.nlev), "all levels": (0, args.nlev)}
    copies = collections.defaultdict(list)       # (levels, threads, nproma) -> [(flat, blocked)]

    layouts = ["flat"] + [f"blocked:{n}" for n in args.nproma]
    samples = collections.defaultdict(list)      # (program, pipeline, threads, layout) -> s
    round_medians = collections.defaultdict(list)
    with tempfile.TemporaryDirectory() as scratch:
        copy_binary = build_copy_baseline(scratch) if args.copy_baseline else None
        for round_index in range(args.rounds):
            for threads in args.threads:
                if copy_binary:
                    for name, k_range in level_ranges.items():
                        for nproma in args.nproma:
                            copies[(name, threads, nproma)].append(
                                copy_baseline(copy_binary, args, threads, k_range, nproma))
                # Alternate which layout goes first, so neither always follows the other.
                order = layouts if round_index % 2 == 0 else layouts[::-1]
                for layout in order:
                    print(f"round {round_index + 1}/{args.rounds}, {threads} threads, {layout}",
                          file=sys.stderr, flush=True)
                    metrics = run(args.bench, args.source, layout, threads, args,
                                  os.path.join(scratch, "bench.json"))
                    for pipeline, programs in metrics.items():
                        for program in args.programs:
                            times = programs[program]["metrics"]["compute"]
                            key = (program, pipeline, threads, layout)
                            samples[key] += times
                            round_medians[key].append(statistics.median(times))

    print(f"| program | pipeline | threads | layout | median (ms) | round medians (ms) "
          f"| blocked / flat |")
    print("|---|---|---:|---|---:|---|---:|")
    for program in args.programs:
        for pipeline in ["none", "fuse-all"]:
            for threads in args.threads:
                flat = statistics.median(samples[(program, pipeline, threads, "flat")])
                for layout in layouts:
                    key = (program, pipeline, threads, layout)
                    median = statistics.median(samples[key])
                    spread = f"{1e3 * min(round_medians[key]):.1f}-{1e3 * max(round_medians[key]):.1f}"
                    ratio = "" if layout == "flat" else f"{median / flat:.3f}"
                    print(f"| `{program}` | {pipeline} | {threads} | {layout} | "
                          f"{1e3 * median:.1f} | {spread} | {ratio} |")
    if copies:
        print("\nHand-written copy b = 2a, ICON's loop order (scripts/layout_copy.cpp); medians of "
              "the round medians\n")
        print("| levels | threads | nproma | flat (us) | blocked (us) | blocked / flat |")
        print("|---|---:|---:|---:|---:|---:|")
        for (name, threads, nproma), rounds in copies.items():
            flat = statistics.median(r[0] for r in rounds)
            blocked = statistics.median(r[1] for r in rounds)
            print(f"| {name} | {threads} | {nproma} | {flat:.0f} | {blocked:.0f} | "
                  f"{blocked / flat:.2f} |")


if __name__ == "__main__":
    main()
