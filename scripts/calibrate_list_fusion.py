#!/usr/bin/env python3
"""Where fusion across a point-list update pays: stn-fuse-across-lists' points-per-entry.

The pass versions ICON's theta diffusion by the length of the list of steep points: fused (13,
14 and 16 in one pass over the cells, the list's work at its entries: 13, 14, 15 and 16
recomputed there, written after) when the list is short, the original (z_temp between the
loops) otherwise. This script times both versions of
`apply_diffusion_to_theta_and_exner_on_steep_points` with lists of a growing share F of the
cells at every level (fusec-bench's `fraction(F, ...)`), forcing each version by the pipeline
(`points-per-entry=1`: always fused; without the pass: the original), in interleaved rounds,
and prints fused / original per share. The default of `points-per-entry` is the 1/F where
the two cross (docs/bench.md, "Fusion across the list of steep points").

    scripts/calibrate_list_fusion.py --grid r2b5 --threads 1,2 --rounds 2
"""

import argparse
import os
import statistics
import sys
import tempfile
from types import SimpleNamespace

from bench_rounds import run_once

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "stencils", "diffusion.stn")
PROGRAM = "apply_diffusion_to_theta_and_exner_on_steep_points"
FUSE_ALL = ["stn-remove-redundant-arrays", "stn-map-fusion", "stn-merge-vertical",
            "stn-remove-redundant-arrays", "canonicalize", "cse", "stn-uniform-if"]
PIPELINES = {
    "original": "+".join(FUSE_ALL),
    "fused": "+".join(FUSE_ALL[:1] + ["stn-fuse-across-lists{points-per-entry=1}"] + FUSE_ALL[1:]),
}
# The program's list in diffusion.inputs.yaml (realistic mode: ICON's cells).
LIST_LINE = "realistic: nonzero(zd_diffcoef, start(NUDGING, Cell), end(LOCAL, Cell))"


def inputs_file(directory, share):
    """diffusion.inputs.yaml with the program's realistic list a share of its cells."""
    with open(os.path.join(ROOT, "stencils", "diffusion.inputs.yaml")) as f:
        text = f.read()
    start = text.index(f"  {PROGRAM}:\n")
    at = text.index(LIST_LINE, start)
    text = (text[:at] + f"realistic: fraction({share}, start(NUDGING, Cell), end(LOCAL, Cell))" +
            text[at + len(LIST_LINE):])
    path = os.path.join(directory, f"share-{share}.inputs.yaml")
    with open(path, "w") as f:
        f.write(text)
    return path


def run(args, inputs, threads, json_path):
    """Both versions' medians with the list of the inputs file `inputs`."""
    bench = SimpleNamespace(fusec_bench=args.fusec_bench, source=SOURCE, grid=args.grid,
                            nlev=args.nlev, pipelines=",".join(PIPELINES.values()),
                            programs=PROGRAM, repeat=args.repeat, backend="cpp",
                            layout=args.layout, evict_caches=0)
    report = run_once(bench, threads, "realistic", json_path, ["--inputs-file", inputs])
    variants = report["comparison"][PROGRAM]["variants"]
    return {name: variants[pipeline]["median"] for name, pipeline in PIPELINES.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fusec-bench", default=os.path.join(ROOT, "build", "bin", "fusec-bench"))
    parser.add_argument("--shares", default="0.001,0.01,0.03,0.05,0.1,0.2,0.5,1")
    parser.add_argument("--grid", default="r2b5")
    parser.add_argument("--nlev", type=int, default=80)
    parser.add_argument("--layout", default="blocked:16")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    shares = args.shares.split(",")
    threads = [int(t) for t in args.threads.split(",")]
    medians = {}  # (share, threads) -> version -> [round medians]
    with tempfile.TemporaryDirectory() as scratch:
        files = {share: inputs_file(scratch, share) for share in shares}
        for round_index in range(args.rounds):
            for t in threads:
                for share in shares:
                    print(f"calibrate_list_fusion: round {round_index + 1}/{args.rounds}, "
                          f"{t} thread(s), share {share}", file=sys.stderr)
                    result = run(args, files[share], t, os.path.join(scratch, "report.json"))
                    for version, median in result.items():
                        medians.setdefault((share, t), {}).setdefault(version, []).append(median)

    print(f"`{PROGRAM}` on {args.grid} with {args.nlev} levels, layout {args.layout}, realistic "
          f"inputs, the list a share F of the cells at every level; {args.rounds} interleaved "
          f"rounds of {args.repeat} runs, median of the rounds' medians (min–max)\n")
    print("| F | points per entry (1/F) | threads | original (ms) | fused (ms) | fused / original |")
    print("|---:|---:|---:|---:|---:|---:|")
    for t in threads:
        for share in shares:
            times = medians[(share, t)]
            middle = {v: statistics.median(times[v]) for v in times}
            cells = ", ".join(
                f"{middle[v] * 1e3:.3g} ({min(times[v]) * 1e3:.3g}–{max(times[v]) * 1e3:.3g})"
                for v in ("original", "fused")).split(", ")
            print(f"| {share} | {1 / float(share):.0f} | {t} | {cells[0]} | {cells[1]} | "
                  f"{middle['fused'] / middle['original']:.2f} |")


if __name__ == "__main__":
    main()
