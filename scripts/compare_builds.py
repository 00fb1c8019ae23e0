#!/usr/bin/env python3
"""Two builds of fusec side by side: the same programs and pipelines timed by each build's
fusec-bench in interleaved rounds (which build goes first alternates from round to round), so
that load from other work on the machine hits both alike. Prints a Markdown table per program,
pipeline, thread count and input mode: the median of the rounds' medians of each build, their
spread (min-max over rounds) and after / before.

    scripts/compare_builds.py --before /tmp/old/bin --after build/bin \\
        --programs apply_diffusion_to_theta_and_exner,diffusion_step --rounds 3
"""

import argparse
import os
import statistics
import sys
import tempfile
from types import SimpleNamespace

from bench_rounds import (add_program_arguments, add_run_arguments, describe_machine, run_once,
                          spread)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_program_arguments(parser, bench=False)
    parser.add_argument("--before", required=True, help="bin directory of the first build")
    parser.add_argument("--after", required=True, help="bin directory of the second build")
    add_run_arguments(parser, threads="2,1")
    args = parser.parse_args()

    builds = {"before": args.before, "after": args.after}
    configurations = [(int(t), i) for t in args.threads.split(",") for i in args.inputs.split(",")]
    medians = {}  # (threads, inputs, program, pipeline) -> build -> [round medians]
    machines = {}  # build -> its first run's host and compiler
    with tempfile.TemporaryDirectory() as scratch:
        for round_index in range(args.rounds):
            order = list(builds) if round_index % 2 == 0 else list(reversed(builds))
            for threads, inputs in configurations:
                for build in order:
                    print(f"compare_builds: round {round_index + 1}/{args.rounds}, {threads} "
                          f"thread(s), {inputs} inputs, {build}", file=sys.stderr)
                    run = SimpleNamespace(**vars(args))
                    run.fusec_bench = os.path.join(builds[build], "fusec-bench")
                    report = run_once(run, threads, inputs, os.path.join(scratch, "run.json"))
                    machines.setdefault(build, describe_machine(report))
                    for program, entry in report["comparison"].items():
                        for pipeline, result in entry["variants"].items():
                            if result.get("verdict") not in ("PASS", "UNCHANGED"):
                                sys.exit(f"compare_builds: {build}: {program} {pipeline} did not "
                                         f"verify: {result.get('verdict')}")
                            medians.setdefault((threads, inputs, program, pipeline), {}).setdefault(
                                build, []).append(result["median"])

    print(f"`{args.source}` on {args.grid} with {args.nlev} levels, backend {args.backend}; "
          f"{args.rounds} interleaved rounds of {args.repeat} timed runs per build; median of "
          f"the rounds' medians (spread: min-max of the rounds' medians)\n")
    for build, machine in machines.items():
        if machine:
            print(f"- {build}: {machine}")
    print()
    print("| program | pipeline | threads | inputs | before (ms) | after (ms) | after / before |")
    print("|---|---|---:|---|---:|---:|---:|")
    for (threads, inputs, program, pipeline), times in sorted(medians.items(),
                                                              key=lambda item: item[0][2:] + item[0][:2]):
        before, after = statistics.median(times["before"]), statistics.median(times["after"])
        print(f"| `{program}` | {pipeline} | {threads} | {inputs} | {before * 1e3:.1f} "
              f"({spread(times['before'], 1e3)}) | {after * 1e3:.1f} ({spread(times['after'], 1e3)}) "
              f"| {after / before:.3f} |")


if __name__ == "__main__":
    main()
