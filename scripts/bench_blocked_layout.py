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
import statistics
import subprocess
import sys
import tempfile

from bench_rounds import DIFFUSION_PROGRAMS


def run(bench, source, layout, threads, args, json_path):
    command = [bench, "run", source, "--backend", "cpp", "--pipelines", "none,fuse-all",
               "--programs", ",".join(args.programs), "--grid", args.grid, "--nlev",
               str(args.nlev), "--repeat", str(args.repeat), "--layout", layout, "--json",
               json_path]
    environment = dict(os.environ, OMP_NUM_THREADS=str(threads))
    result = subprocess.run(command, env=environment, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"bench_blocked_layout: {' '.join(command)} failed:\n{result.stdout[-3000:]}"
                 f"\n{result.stderr[-3000:]}")
    with open(json_path) as handle:
        return json.load(handle)["metrics"]


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
    args = parser.parse_args()

    layouts = ["flat"] + [f"blocked:{n}" for n in args.nproma]
    samples = collections.defaultdict(list)      # (program, pipeline, threads, layout) -> s
    round_medians = collections.defaultdict(list)
    with tempfile.TemporaryDirectory() as scratch:
        for round_index in range(args.rounds):
            for threads in args.threads:
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


if __name__ == "__main__":
    main()
