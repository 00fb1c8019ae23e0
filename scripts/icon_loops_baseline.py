#!/usr/bin/env python3
"""fuse-all against ICON's own loop structure, from a bench_rounds.py summary (docs/bench.md).

`stencils/diffusion.stn` writes apply_diffusion_to_vn, the w program and the theta program as
ICON4Py does: one field operator whose branches are per-point `where`s, so `none` runs every
branch over the whole domain plus a select kernel. ICON's OpenACC code instead runs one loop per
stencil over that stencil's own index and level range, and only the branch the configuration
takes. The file's standalone programs are exactly those loops, with ICON's ranges in
diffusion.inputs.yaml; this script adds up their `none` times round by round (the loops ICON
runs on a global grid with the file's scalars: limited_area false, type_shear 2,
apply_zdiffusion_t true) and sets them beside the fused programs' `none` and `fuse-all`.

The steep-point correction runs in ICON only on its list of steep cells, a few percent of them,
which the language cannot express; its standalone program runs on every cell, so the ICON sum
for the theta program is given without it (a lower bound) and with it (an upper bound).

The whole step is estimated as diffusion_step's `none` minus the three fused programs' `none`
plus their ICON sums (fusec-bench reports how far its program sums are from the step).

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
    "apply_diffusion_to_theta_and_exner": [
        "calculate_nabla2_for_z", "calculate_nabla2_of_theta", "update_theta_and_exner"],
}
STEEP_POINTS = "truly_horizontal_diffusion_nabla_of_theta_over_steep_points"
THETA = "apply_diffusion_to_theta_and_exner"
STEP = "diffusion_step"


def programs():
    names = [STEP] + list(ICON_LOOPS) + [STEEP_POINTS]
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
        step_difference = {"low": 0.0, "high": 0.0}
        for program, loops in ICON_LOOPS.items():
            none = results[program]["median"]["none"]
            fused = results[program]["median"]["fuse-all"]
            bounds = {"low": statistics.median(round_sums(results, loops))}
            bounds["high"] = (statistics.median(round_sums(results, loops + [STEEP_POINTS]))
                              if program == THETA else bounds["low"])
            for bound, icon in bounds.items():
                step_difference[bound] += icon - none
            icon_text = " – ".join(dict.fromkeys(f"{1e3 * v:.1f}" for v in bounds.values()))
            ratio_text = " – ".join(dict.fromkeys(f"{v / fused:.2f}×" for v in bounds.values()))
            print(f"| `{program}` | {configuration} | {1e3 * none:.1f} | {icon_text} | "
                  f"{1e3 * fused:.1f} | {none / fused:.2f}× | {ratio_text} |")
        none = results[STEP]["median"]["none"]
        fused = results[STEP]["median"]["fuse-all"]
        estimates = {b: none + d for b, d in step_difference.items()}
        icon_text = " – ".join(dict.fromkeys(f"{1e3 * v:.1f}" for v in estimates.values()))
        ratio_text = " – ".join(dict.fromkeys(f"{v / fused:.2f}×" for v in estimates.values()))
        print(f"| `{STEP}` (estimate) | {configuration} | {1e3 * none:.1f} | {icon_text} | "
              f"{1e3 * fused:.1f} | {none / fused:.2f}× | {ratio_text} |")


if __name__ == "__main__":
    main()
