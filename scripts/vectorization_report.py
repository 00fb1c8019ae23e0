#!/usr/bin/env python3
"""Which kernels of emitted C++ the compiler vectorises, and why not (docs/bench.md).

Compiles FILE.cpp (fusec --emit=cpp) with the C++ backend's flags and GCC's
-fopt-info-vec-all, attributes every remark to the kernel function whose lines hold it,
and prints one Markdown row per kernel: loops vectorised, loops not vectorised, and the
reasons GCC gives (with counts). GCC reports OpenMP-outlined loops at shifted lines, so
the rows say how many loops of a kernel vectorise, not which: the innermost neighbour
loops count as loops too.

    scripts/vectorization_report.py out.cpp [--cxx g++] [--flags "-O3 -march=native"]
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

KERNEL = re.compile(r"^static void (\w+)\(")
TOP_LEVEL = re.compile(r"^(static|extern|namespace|}|template|struct|constexpr)")
REMARK = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):\d+: (?P<kind>optimized|missed): (?P<text>.*)$")


def kernel_ranges(lines):
    """(name, first line, last line) of every `static void` kernel, 1-based."""
    ranges = []
    for number, line in enumerate(lines, 1):
        match = KERNEL.match(line)
        if match:
            # A kernel right after another (a blocked variant) ends the one before.
            if ranges and ranges[-1][2] == len(lines):
                ranges[-1][2] = number - 1
            ranges.append([match.group(1), number, len(lines)])
        elif ranges and ranges[-1][2] == len(lines) and TOP_LEVEL.match(line) and line != "}":
            ranges[-1][2] = number - 1
    return ranges


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="emitted C++ (fusec --emit=cpp)")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    parser.add_argument("--flags", default="-O3 -march=native -fno-math-errno -ffp-contract=fast",
                        help="optimisation flags (default: the timed build's)")
    parser.add_argument("--include", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "runtime", "include"))
    args = parser.parse_args()

    with open(args.source) as handle:
        lines = handle.read().splitlines()
    ranges = kernel_ranges(lines)
    if not ranges:
        sys.exit(f"vectorization_report: no kernels (static void functions) in {args.source}")

    with tempfile.TemporaryDirectory() as scratch:
        remarks_file = os.path.join(scratch, "remarks.txt")
        command = [args.cxx, "-std=c++17", *args.flags.split(), "-fopenmp", "-fPIC", "-c",
                   "-I", args.include, args.source, "-o", os.path.join(scratch, "out.o"),
                   f"-fopt-info-vec-all={remarks_file}"]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"vectorization_report: {' '.join(command)} failed:\n{result.stderr}")
        with open(remarks_file) as handle:
            remarks = handle.read().splitlines()

    source_name = os.path.basename(args.source)
    # A loop vectorised with an epilogue gets two remarks at one line; one that
    # is not gets "couldn't vectorize loop" and its reasons there.
    vectorised = collections.defaultdict(set)
    missed = collections.defaultdict(set)
    reasons = collections.defaultdict(collections.Counter)
    for remark in remarks:
        match = REMARK.match(remark)
        if not match or os.path.basename(match.group("file")) != source_name:
            continue
        line = int(match.group("line"))
        kernel = next((name for name, first, last in ranges if first <= line <= last), None)
        if kernel is None:
            continue
        text = match.group("text")
        if text.startswith("loop vectorized"):
            vectorised[kernel].add(line)
        elif text.startswith("couldn't vectorize loop"):
            missed[kernel].add(line)
        elif text.startswith("not vectorized: "):
            reasons[kernel][text[len("not vectorized: "):].rstrip(".")] += 1

    print(f"`{' '.join([args.cxx, *args.flags.split()])}` on `{source_name}`\n")
    print("| kernel | loops vectorised | loops not vectorised | why not (count) |")
    print("|---|---:|---:|---|")
    for name, _, _ in ranges:
        why = "; ".join(f"{text} ({count})" for text, count in reasons[name].most_common())
        print(f"| `{name}` | {len(vectorised[name])} | {len(missed[name] - vectorised[name])} "
              f"| {why} |")


if __name__ == "__main__":
    main()
