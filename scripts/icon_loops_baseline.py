#!/usr/bin/env python3
"""fuse-all against ICON's own loop structure, from a bench_rounds.py summary (docs/bench.md).

The fused programs of `stencils/diffusion.stn` are written as ICON4Py writes them, one field
operator each; `none` runs them as ICON's OpenACC code does (stn-split-where: one loop per
stencil over its own index and level range, only the branch the configuration takes). The
file's standalone programs are those loops, with ICON's ranges in diffusion.inputs.yaml; this
script adds up their `none` times round by round (the loops ICON runs on a global grid with the
file's scalars: limited_area false, type_shear 2, apply_zdiffusion_t true) and sets them beside
the fused programs' `none` and `fuse-all`, as a check that `none` is ICON's loops.

The theta program is the one with ICON's list of steep points
(apply_diffusion_to_theta_and_exner_on_steep_points), and its loops include the steep-point
correction on that list. `diffusion_step` runs ICON's structure under `none` itself (the list
included), so its row sets `none` in the ICON column.

    scripts/bench_rounds.py --programs "$(scripts/icon_loops_baseline.py --programs)" \\
        --out build/icon-loops ...
    scripts/icon_loops_baseline.py build/icon-loops/summary.json
"""

import argparse
import json
import statistics
import sys

# The loops of ICON's OpenACC code per fused program on a global grid (diffusion-spec.md).
ICON_LOOPS = {
    "apply_diffusion_to_vn": ["calculate_nabla4", "apply_nabla2_and_nabla4_global_to_vn"],
    "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence": [
        "calculate_nabla2_for_w", "calculate_horizontal_gradients_for_turbulence",
        "apply_nabla2_to_w", "apply_nabla2_to_w_in_upper_damping_layer"],
    "apply_diffusion_to_theta_and_exner_on_steep_points": [
        "calculate_nabla2_for_z", "calculate_nabla2_of_theta",
        "truly_horizontal_diffusion_nabla_of_theta_on_steep_points", "update_theta_and_exner"],
}
STEP = "diffusion_step"


def programs():
    names = [STEP] + list(ICON_LOOPS)
    for loops in ICON_LOOPS.values():
        names += loops
    return ",".join(names)


def round_sums(results, loops, pipeline="none"):
    """Per round, the sum of the loops' medians under `pipeline`."""
    rounds = [results[loop]["rounds"][pipeline] for loop in loops]
    return [sum(values) for values in zip(*rounds)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("summary", nargs="?", help="summary.json of scripts/bench_rounds.py")
    parser.add_argument("--programs", action="store_true",
                        help="print the programs bench_rounds.py must run, comma-separated")
    args = parser.parse_args()
    if args.programs:
        print(programs())
        return
    if not args.summary:
        parser.error("a summary.json is needed")
    with open(args.summary) as handle:
        summary = json.load(handle)

    print("| program | threads-inputs | `none` (ms) | ICON's loops under `none` (ms) | "
          "`fuse-all` (ms) | fuse-all / none | fuse-all / ICON's loops |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for configuration, results in sorted(summary.items()):
        missing = [p for p in programs().split(",") if p not in results]
        if missing:
            sys.exit(f"icon_loops_baseline: {configuration} lacks {', '.join(missing)}")
        for program, loops in ICON_LOOPS.items():
            none = results[program]["median"]["none"]
            fused = results[program]["median"]["fuse-all"]
            icon = statistics.median(round_sums(results, loops))
            print(f"| `{program}` | {configuration} | {1e3 * none:.1f} | {1e3 * icon:.1f} | "
                  f"{1e3 * fused:.1f} | {none / fused:.2f}× | {icon / fused:.2f}× |")
        none = results[STEP]["median"]["none"]
        fused = results[STEP]["median"]["fuse-all"]
        print(f"| `{STEP}` | {configuration} | {1e3 * none:.1f} | {1e3 * none:.1f} | "
              f"{1e3 * fused:.1f} | {none / fused:.2f}× | {none / fused:.2f}× |")


if __name__ == "__main__":
    main()
