#!/usr/bin/env python3
"""Checks ratios of median times measured in one fusec-bench run.

    check_ratios.py REPORT.json --slower VARIANT --faster BASELINE --margin 0.3 [--programs P,...]

passes when, for every program (all of the report's, or --programs), the median of
VARIANT is at most (1 + margin) times the median of BASELINE, and both variants verified.
Prints one line per program with both medians and their ratio, so a failure shows by how much.
"""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("--slower", required=True, help="the variant that must not be slower")
    parser.add_argument("--faster", required=True, help="the variant it is compared with")
    parser.add_argument("--margin", type=float, required=True, help="allowed excess, e.g. 0.3")
    parser.add_argument("--programs", help="comma-separated; default: every program of the report")
    args = parser.parse_args()

    with open(args.report) as f:
        report = json.load(f)
    programs = args.programs.split(",") if args.programs else report["programs"]
    failed = False
    for program in programs:
        variants = report["comparison"][program]["variants"]
        a, b = variants.get(args.slower, {}), variants.get(args.faster, {})
        if "median" not in a or "median" not in b:
            print(f"FAIL {program}: {args.slower} {a.get('verdict')}, {args.faster} {b.get('verdict')}")
            failed = True
            continue
        ratio = a["median"] / b["median"]
        ok = ratio <= 1.0 + args.margin
        failed |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} {program}: {args.slower} {a['median'] * 1e3:.3f} ms, "
              f"{args.faster} {b['median'] * 1e3:.3f} ms, ratio {ratio:.2f} "
              f"(at most {1.0 + args.margin:.2f})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
