#!/usr/bin/env python3
"""Measures pipelines side by side in interleaved rounds, as issue reports ask for.

fusec-bench already interleaves its variants within one run; this script repeats such runs in
rounds, for every thread count and input mode in turn (round 1: 1 thread random, 1 thread
realistic, 2 threads random, ...; round 2: the same again), so that a noisy phase of a shared
machine hits every configuration alike. Each round starts the pipelines one later in their
list (round 1: none,fuse-all; round 2: fuse-all,none), since fusec-bench sets its variants up
in that order, and on some hosts the memory a run allocates later is slower: on a VM in such a
state, single runs gave fuse-all / none 1.90x with fuse-all listed first and 1.08x with it
second (docs/bench.md). Per program, variant, thread count and input mode it
reports the median of the rounds' medians, their spread (min-max over rounds), the speed-up
against the first pipeline, and time over the memory-bandwidth limit (the faster of the copy
kernels fusec-bench measured before and after the programs of the same run; where the backend
has non-temporal stores, also time/nt-limit against the copy with them), and writes the table
as Markdown and every round as JSON.

    scripts/bench_rounds.py --grid r2b5 --nlev 80 --threads 1,2 --rounds 3 \\
        --inputs random,realistic --pipelines none,fuse-all --layout blocked:16 --out build/bench-rounds
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIFFUSION_PROGRAMS = [
    "mo_intp_rbf_rbf_vec_interpol_vertex",
    "calculate_nabla2_and_smag_coefficients_for_vn",
    "calculate_diagnostic_quantities_for_turbulence",
    "apply_diffusion_to_vn",
    "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence",
    "calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools",
    "apply_diffusion_to_theta_and_exner",
    "diffusion_step",
]


def run_once(args, threads, inputs, json_path, extra=(), pipelines=None):
    """One fusec-bench run (`extra`: more of its options; `pipelines`: in the order to set them
    up, by default `args.pipelines`); its JSON report."""
    command = [args.fusec_bench, "run", args.source, "--grid", args.grid, "--nlev", str(args.nlev),
               "--inputs", inputs, "--pipelines", pipelines or args.pipelines,
               "--programs", args.programs,
               "--repeat", str(args.repeat), "--backend", args.backend, "--layout", args.layout,
               "--json", json_path, *extra]
    if args.evict_caches:  # only then: builds older than the option lack it (compare_builds.py)
        command += ["--evict-caches", str(args.evict_caches)]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env)
    if result.returncode != 0:
        sys.exit(f"bench_rounds: fusec-bench failed ({threads} threads, {inputs}):\n{result.stdout}")
    with open(json_path) as f:
        return json.load(f)


def describe_machine(report):
    """The host and compiler line of a fusec-bench JSON report (older builds name neither)."""
    run = report["run"]
    parts = [f"{what}: {run[what]}" for what in ("host", "compiler") if run.get(what)]
    return "; ".join(parts)


def cells_of(grid):
    """Cells of a global rNbK grid, 20 * N^2 * 4^K; exits on any other grid."""
    match = re.match(r"^r(\d+)b(\d+)$", grid)
    if not match:
        sys.exit(f"{os.path.basename(sys.argv[0])}: --grid must be a global rNbK grid, not {grid}")
    n, k = int(match.group(1)), int(match.group(2))
    return 20 * n * n * 4 ** k


def spread(values, scale):
    return f"{min(values) * scale:.3g}–{max(values) * scale:.3g}"


def add_program_arguments(parser, bench=True):
    """The fusec-bench binary (unless `bench` is false), the .stn file, its programs and the
    pipelines to compare."""
    if bench:
        parser.add_argument("--fusec-bench",
                            default=os.path.join(ROOT, "build", "bin", "fusec-bench"))
    parser.add_argument("--source", default=os.path.join(ROOT, "stencils", "diffusion.stn"))
    parser.add_argument("--programs", default=",".join(DIFFUSION_PROGRAMS))
    parser.add_argument("--pipelines", default="none,fuse-all")


def add_run_arguments(parser, threads="1,2"):
    """Where and how often: backend, layout, grid, levels, thread counts, input modes, rounds,
    runs."""
    parser.add_argument("--backend", default="cpp")
    parser.add_argument("--layout", default="flat",
                        help="flat or blocked:NPROMA (ICON's CPU layout; fusec-bench --layout)")
    parser.add_argument("--grid", default="r2b5")
    parser.add_argument("--nlev", type=int, default=80)
    parser.add_argument("--threads", default=threads)
    parser.add_argument("--inputs", default="random,realistic")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--evict-caches", type=int, default=0, metavar="MIB",
                        help="MiB written before every run (fusec-bench --evict-caches)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_program_arguments(parser)
    add_run_arguments(parser)
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "bench-rounds"))
    parser.add_argument("--config", help="per-program pipeline configuration (YAML): fusec-bench's "
                        "'config' variant, added to --pipelines")
    args = parser.parse_args()
    extra = ("--config", args.config) if args.config else ()
    os.makedirs(args.out, exist_ok=True)

    configurations = [(int(t), i) for t in args.threads.split(",") for i in args.inputs.split(",")]
    # medians[(threads, inputs)][program][variant] = [round medians]; likewise copy bandwidths.
    # Compulsory bytes per configuration too: a point list's length comes with the inputs.
    medians, bandwidths, stream_bandwidths, compulsory = {}, {}, {}, {}
    machine = ""  # the first run's host and compiler: figures hold for those
    listed = args.pipelines.split(",")
    for round_index in range(args.rounds):
        shift = round_index % len(listed)
        pipelines = ",".join(listed[shift:] + listed[:shift])
        for threads, inputs in configurations:
            path = os.path.join(args.out, f"round{round_index}-{threads}t-{inputs}.json")
            print(f"bench_rounds: round {round_index + 1}/{args.rounds}, {threads} thread(s), "
                  f"{inputs} inputs, pipelines {pipelines}", file=sys.stderr)
            report = run_once(args, threads, inputs, path, extra, pipelines)
            key = (threads, inputs)
            machine = machine or describe_machine(report)
            # The limit fusec-bench used: the faster of its copies before and after the programs.
            run = report["run"]
            bandwidths.setdefault(key, []).append(run.get(
                "limit_bandwidth_bytes_per_second", run["copy"]["bandwidth_bytes_per_second"]))
            if "stream_limit_bandwidth_bytes_per_second" in run:
                stream_bandwidths.setdefault(key, []).append(
                    run["stream_limit_bandwidth_bytes_per_second"])
            for program, entry in report["comparison"].items():
                compulsory.setdefault(key, {})[program] = entry["compulsory_bytes"]
                for variant, result in entry["variants"].items():
                    if result.get("verdict") not in ("PASS", "UNCHANGED"):
                        sys.exit(f"bench_rounds: {program} {variant} did not verify: "
                                 f"{result.get('verdict')}")
                    medians.setdefault(key, {}).setdefault(program, {}).setdefault(
                        variant, []).append(result["median"])

    variants = args.pipelines.split(",")
    if args.config and "config" not in variants:
        variants.append("config")
    lines = [f"`{args.source}` on {args.grid} with {args.nlev} levels, backend {args.backend}, "
             f"layout {args.layout}, "
             f"{args.rounds} interleaved rounds of {args.repeat} timed runs (the pipelines' order "
             f"rotated from round to round); median of the "
             f"rounds' medians (spread: min–max of the rounds' medians); speed-up against "
             f"`{variants[0]}`; time/limit against the copy kernel of the same runs"
             + ("; time/nt-limit against its copy with non-temporal stores"
                if stream_bandwidths else ""), ""]
    if machine:
        lines[-1:-1] = ["", machine]
    header = "| program | threads | inputs | " + " | ".join(
        f"{v} (ms) | {v} spread" for v in variants) + " | " + " | ".join(
        f"{v} / {variants[0]}" for v in variants[1:]) + " | " + " | ".join(
        f"{v} time/limit" for v in variants) + "".join(
        f" | {v} time/nt-limit" for v in variants if stream_bandwidths) + " |"
    lines += [header, "|" + "---|" * (header.count("|") - 1)]
    summary = {}
    for threads, inputs in configurations:
        key = (threads, inputs)
        bandwidth = statistics.median(bandwidths[key])
        for program in args.programs.split(","):
            times = medians[key][program]
            middle = {v: statistics.median(times[v]) for v in variants}
            limit = compulsory[key][program] / bandwidth
            row = [program, str(threads), inputs]
            row += [x for v in variants for x in (f"{middle[v] * 1e3:.3g}", spread(times[v], 1e3))]
            row += [f"{middle[variants[0]] / middle[v]:.2f}x" for v in variants[1:]]
            row += [f"{middle[v] / limit:.2f}" for v in variants]
            entry = {"median": middle, "rounds": times,
                     "time_over_limit": {v: middle[v] / limit for v in variants}}
            if key in stream_bandwidths:
                stream_limit = compulsory[key][program] / statistics.median(stream_bandwidths[key])
                row += [f"{middle[v] / stream_limit:.2f}" for v in variants]
                entry["time_over_stream_limit"] = {v: middle[v] / stream_limit for v in variants}
            lines.append("| " + " | ".join(row) + " |")
            summary.setdefault(f"{threads}t-{inputs}", {})[program] = entry
        lines.append(f"| copy kernel | {threads} | {inputs} | "
                     f"{statistics.median(bandwidths[key]) / 1e9:.1f} GB/s | "
                     f"{spread(bandwidths[key], 1e-9)} GB/s |" + " |" * (header.count("|") - 6))
        if key in stream_bandwidths:
            lines.append(f"| copy kernel, non-temporal stores | {threads} | {inputs} | "
                         f"{statistics.median(stream_bandwidths[key]) / 1e9:.1f} GB/s | "
                         f"{spread(stream_bandwidths[key], 1e-9)} GB/s |"
                         + " |" * (header.count("|") - 6))
    table = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(table)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    print(table)


if __name__ == "__main__":
    main()
