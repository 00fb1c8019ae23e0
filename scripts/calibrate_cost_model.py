#!/usr/bin/env python3
"""Calibrates the fusion cost model of a backend by measurement (docs/architecture.md §5).

The cost model of stn-map-fusion counts work units: one per arithmetic operation and fold
step, `load` per read at the point being computed, `gather` per read through a neighbour
table, and `bytes` per byte of DRAM traffic. This script measures the last two against the
first on the machine it runs on: it times the three programs of
scripts/calibration/cost-model.stn with fusec-bench (the same compiler flags and threads as
every benchmark), which all read and write one cell field, and

    unit   = (t(arithmetic) - t(copy)) / (points * 263)        seconds per arithmetic operation
    bytes  = t(copy) / compulsory bytes / unit                  work units per byte
    gather = (t(gather) - t(copy)) / (points * 4) / unit - 1    work units per gathered value
                                                                (its fold step is one unit)

Rounds are interleaved (every round runs all three programs) and the medians of the rounds'
medians are used; the spread over rounds is printed with them.

    scripts/calibrate_cost_model.py [--backend cpp] [--layout columns] [--grid r2b5] [--nlev 80]
                                    [--rounds 3]

On a GPU machine, which has no fusec-bench, pack the programs into a bundle
(`fusec-bench pack DIR scripts/calibration/cost-model.stn -I stencils --pipelines none`), run
it there, render its results with `fusec-bench report DIR/results/<grid>.json --json F`, and
compute the weights from that file:

    scripts/calibrate_cost_model.py --from-json F [F ...]      (one round per file)
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "scripts", "calibration", "cost-model.stn")
ARITHMETIC_OPERATIONS = 263
GATHERED_NEIGHBOURS = 4


def read_round(json_path):
    with open(json_path) as f:
        report = json.load(f)
    medians = {name: entry["variants"]["none"]["median"]
               for name, entry in report["comparison"].items()}
    missing = {"copy", "arithmetic", "gather"} - medians.keys()
    if missing:
        sys.exit(f"calibrate_cost_model: {json_path} has no time for {', '.join(sorted(missing))}")
    return report, medians


def measure_round(args, json_path):
    command = [args.fusec_bench, "run", SOURCE, "-I", os.path.join(ROOT, "stencils"),
               "--pipelines", "none", "--backend", args.backend, "--grid", args.grid,
               "--nlev", str(args.nlev), "--repeat", str(args.repeat), "--layout", args.layout,
               "--json", json_path]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.exit(f"calibrate_cost_model: fusec-bench failed:\n{result.stdout}")
    return read_round(json_path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fusec-bench", default=os.path.join(ROOT, "build", "bin", "fusec-bench"))
    parser.add_argument("--backend", default="cpp", choices=["cpp", "cuda", "cuda-host"])
    parser.add_argument("--grid", default="r2b5")
    parser.add_argument("--nlev", type=int, default=80)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--layout", default="flat", help="fusec-bench's --layout (flat, "
                        "blocked:N, columns): the C++ schedules differ by layout")
    parser.add_argument("--from-json", nargs="+", metavar="FILE",
                        help="fusec-bench JSON reports to use instead of measuring")
    args = parser.parse_args()

    rounds = []
    if args.from_json:
        for path in args.from_json:
            report, medians = read_round(path)
            rounds.append(medians)
        args.backend, args.rounds, args.repeat = report["run"]["backend"], len(rounds), report["run"]["repeat"]
        args.layout = report["run"].get("layout", "flat")
    else:
        with tempfile.TemporaryDirectory() as scratch:
            for index in range(args.rounds):
                report, medians = measure_round(args, os.path.join(scratch, f"round{index}.json"))
                rounds.append(medians)
    run = report["run"]
    points = run["cells"] * run["nlev"]
    compulsory = report["comparison"]["copy"]["compulsory_bytes"]

    def weights(medians):
        unit = (medians["arithmetic"] - medians["copy"]) / (points * ARITHMETIC_OPERATIONS)
        per_byte = medians["copy"] / compulsory / unit
        per_gather = (medians["gather"] - medians["copy"]) / (points * GATHERED_NEIGHBOURS) / unit - 1
        return unit, per_byte, per_gather

    per_round = [weights(medians) for medians in rounds]
    median = {name: statistics.median(r[name] for r in rounds) for name in rounds[0]}
    unit, per_byte, per_gather = weights(median)

    print(f"backend {args.backend}, layout {args.layout}, {run['grid']} with {run['nlev']} levels, {run['threads']} "
          f"thread(s), {args.rounds} rounds of {args.repeat} runs")
    for name in ("copy", "arithmetic", "gather"):
        values = [r[name] for r in rounds]
        print(f"  {name:<11} {median[name] * 1e3:8.2f} ms  (rounds {min(values) * 1e3:.2f}"
              f"-{max(values) * 1e3:.2f} ms)")
    print(f"  arithmetic operation   {unit * 1e12:8.2f} ps")
    print(f"  bytes-weight   {per_byte:6.2f} work units per byte      "
          f"(rounds {min(r[1] for r in per_round):.2f}-{max(r[1] for r in per_round):.2f})")
    print(f"  gather-weight  {per_gather:6.2f} work units per gathered value "
          f"(rounds {min(r[2] for r in per_round):.2f}-{max(r[2] for r in per_round):.2f})")
    print(f"stn-map-fusion{{bytes-weight={max(1, round(per_byte))} "
          f"gather-weight={max(1, round(per_gather))}}}")


if __name__ == "__main__":
    main()
