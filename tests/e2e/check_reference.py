#!/usr/bin/env python3
"""Checks a `fusec-bench run --save-outputs DIR` against the plain-numpy reference.

For every program in DIR/manifest.json this script loads the arguments fusec-bench generated
(DIR/<program>/inputs/<name>.npy, scalars as 0-d arrays), calls the function of the same name
in tests/e2e/reference/diffusion_reference.py on them and the grid's neighbour tables
(DIR/grid/<TABLE>.npy), and compares each output with what fusec-bench saved: the reference
interpreter on the unoptimised program (DIR/<program>/reference/) and every variant.

A value agrees when |x - ref| <= rtol * |ref| + atol * max|ref| (per output array, so fields
of any magnitude are compared relatively). Prints one line per program and a summary; exits
with 1 when anything disagrees.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference"))
import diffusion_reference as reference  # noqa: E402


def load_tables(directory):
    tables = {}
    for name in os.listdir(os.path.join(directory, "grid")):
        if name.endswith(".npy"):
            tables[name[:-4]] = np.load(os.path.join(directory, "grid", name)).T
    return tables


def load_arguments(directory, program, names):
    """The saved arguments in the reference's conventions: fields in icon4py's logical shape
    (points, [neighbours], [levels]), scalars as Python values."""
    arguments = {}
    for name in names:
        array = np.load(os.path.join(directory, program, "inputs", name + ".npy"))
        arguments[name] = array.item() if array.ndim == 0 else array.T.copy()
    return arguments


def compare(actual, expected, rtol, atol_scale):
    """(number of disagreeing values, max relative error, worst index)."""
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if actual.shape != expected.shape:
        return actual.size, float("inf"), None
    scale = np.max(np.abs(expected)) if expected.size else 0.0
    error = np.abs(actual - expected)
    both_nan = np.isnan(actual) & np.isnan(expected)
    allowed = rtol * np.abs(expected) + atol_scale * scale
    bad = ~((error <= allowed) | both_nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(expected != 0, error / np.abs(expected), 0.0)
    relative = np.where(both_nan, 0.0, relative)
    worst = np.unravel_index(np.argmax(np.where(bad, error, -1.0)), error.shape) if bad.any() else None
    return int(bad.sum()), float(np.nanmax(relative)) if relative.size else 0.0, worst


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", help="the --save-outputs directory of a fusec-bench run")
    parser.add_argument("--rtol", type=float, default=1e-12)
    parser.add_argument("--atol", type=float, default=1e-14,
                        help="absolute tolerance, as a fraction of the largest reference value")
    parser.add_argument("--vp", choices=["f64", "f32"], default="f64",
                        help="the precision vp had in the run (-D vp=f32)")
    args = parser.parse_args(argv)

    reference.set_vp(np.float32 if args.vp == "f32" else np.float64)
    with open(os.path.join(args.directory, "manifest.json")) as f:
        manifest = json.load(f)
    tables = load_tables(args.directory)
    print(f"grid {manifest['grid']}, nlev {manifest['nlev']}, inputs {manifest['inputs']}")

    failures = []
    programs = manifest["programs"]
    for program, description in programs.items():
        function, signature = reference.PROGRAMS[program]
        names = [name for _, name, _ in signature]
        saved = [parameter["name"] for parameter in description["parameters"]]
        if sorted(names) != sorted(saved):
            print(f"{program}: FAIL: the reference's parameters {names} differ from {saved}")
            failures.append(program)
            continue
        expected = function(tables, load_arguments(args.directory, program, names))
        runs = ["reference"] + sorted(set(description["variants"].values()))
        problems = []
        max_relative = 0.0
        for run in runs:
            for name, value in sorted(expected.items()):
                path = os.path.join(args.directory, program, run, name + ".npy")
                if not os.path.exists(path):
                    continue  # the variant did not run (its error is in fusec-bench's report)
                bad, relative, worst = compare(np.load(path).T, value, args.rtol, args.atol)
                max_relative = max(max_relative, relative)
                if bad:
                    problems.append(f"{run}/{name}: {bad} values differ, max rel err "
                                    f"{relative:.2g}, worst at {tuple(int(i) for i in worst)}"
                                    if worst is not None else f"{run}/{name}: shape differs")
        if problems:
            failures.append(program)
            print(f"{program}: FAIL")
            for problem in problems:
                print(f"  {problem}")
        else:
            print(f"{program}: PASS (max rel err {max_relative:.2g})")
    print(f"summary: {len(programs) - len(failures)} of {len(programs)} programs agree with "
          "the numpy reference")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
