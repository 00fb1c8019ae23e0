#!/usr/bin/env python3
"""Which loops over points of emitted C++ the compiler vectorises, and why not (docs/bench.md).

Compiles FILE.cpp (fusec --emit=cpp) with the C++ backend's flags and GCC's
-fopt-info-vec-all, with -fopenmp-simd instead of -fopenmp (the `omp simd` pragmas count,
the parallel regions are not outlined, so every remark keeps the line of its loop) and
-fno-ipa-icf (kernels with identical bodies keep their own remarks). Prints one Markdown row
per kernel: its `#pragma omp simd` loops (the loops over the points of a block, stn.simd),
how many GCC vectorised, and the reasons it gives for the others (or that GCC replaced the loop
by a call to memcpy or memmove).

    scripts/vectorization_report.py out.cpp [--cxx g++] [--flags "-O3 -march=native"]
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

# A kernel's first line; a long name goes to the next line (clang-format).
KERNEL = re.compile(r"^static void\s+(\w+)\(")
TIMED_FLAGS = "-O3 -march=native -fno-math-errno -ffp-contract=fast"
RUNTIME_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime",
                               "include")
REMARK = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):\d+: (?P<kind>\w+): (?P<text>.*)$")


def simd_loops(lines):
    """(kernel, first line, last line) of every `#pragma omp simd` loop, 1-based: from the
    loop's header to its closing brace."""
    loops, kernel = [], None
    for number, line in enumerate(lines, 1):
        wrapped = line.rstrip() == "static void" and number < len(lines)
        match = KERNEL.match(f"{line} {lines[number]}" if wrapped else line)
        if match:
            kernel = match.group(1)
        if line.strip() != "#pragma omp simd" or kernel is None:
            continue
        depth, last = 0, number + 1
        for last in range(number + 1, len(lines) + 1):
            depth += lines[last - 1].count("{") - lines[last - 1].count("}")
            if depth <= 0:
                break
        loops.append((kernel, number + 1, last))
    return loops


def loop_verdicts(source, cxx, flags, include):
    """(kernel, first line, last line, vectorised, reasons) of every `omp simd` loop of the
    emitted C++ file `source`, compiled with `flags` and GCC's vectorisation remarks; the
    reasons are GCC's for a loop it did not vectorise."""
    with open(source) as handle:
        loops = simd_loops(handle.read().splitlines())
    if not loops:
        sys.exit(f"vectorization_report: no `omp simd` loops in {source}")

    with tempfile.TemporaryDirectory() as scratch:
        remarks_file = os.path.join(scratch, "remarks.txt")
        command = [cxx, "-std=c++17", *flags.split(), "-fopenmp-simd", "-fno-ipa-icf",
                   "-fPIC", "-c", "-I", include, source,
                   "-o", os.path.join(scratch, "out.o"), f"-fopt-info-vec-all={remarks_file}"]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"vectorization_report: {' '.join(command)} failed:\n{result.stderr}")
        with open(remarks_file) as handle:
            remarks = handle.read().splitlines()

    source_name = os.path.basename(source)
    by_line = collections.defaultdict(list)
    for remark in remarks:
        match = REMARK.match(remark)
        if match and os.path.basename(match.group("file")) == source_name:
            by_line[int(match.group("line"))].append(match.group("text"))

    verdicts = []
    for kernel, first, last in loops:
        texts = [text for number in range(first, last + 1) for text in by_line[number]]
        if any(text.startswith("loop vectorized") for text in texts):
            verdicts.append((kernel, first, last, True, []))
        elif any("__builtin_mem" in text for text in texts):
            verdicts.append((kernel, first, last, False, ["a library call (memcpy, memmove)"]))
        else:
            verdicts.append((kernel, first, last, False,
                             [text[len("not vectorized: "):].rstrip(".") for text in texts
                              if text.startswith("not vectorized: ")]))
    return verdicts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="emitted C++ (fusec --emit=cpp)")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    parser.add_argument("--flags", default=TIMED_FLAGS,
                        help="optimisation flags (default: the timed build's)")
    parser.add_argument("--include", default=RUNTIME_INCLUDE)
    args = parser.parse_args()

    kernels = {}  # kernel -> [loops, vectorised, Counter of reasons]
    for kernel, _, _, vectorised, reasons in loop_verdicts(args.source, args.cxx, args.flags,
                                                           args.include):
        row = kernels.setdefault(kernel, [0, 0, collections.Counter()])
        row[0] += 1
        row[1] += vectorised
        row[2].update(reasons)
    source_name = os.path.basename(args.source)
    print(f"`{' '.join([args.cxx, *args.flags.split()])}` on `{source_name}`\n")
    print("| kernel | simd loops | vectorised | why not (count) |")
    print("|---|---:|---:|---|")
    for kernel, (count, vectorised, reasons) in kernels.items():
        why = "; ".join(f"{text} ({n})" for text, n in reasons.most_common())
        print(f"| `{kernel}` | {count} | {vectorised} | {why} |")
    total = sum(row[0] for row in kernels.values())
    done = sum(row[1] for row in kernels.values())
    print(f"\n{done} of {total} simd loops vectorised in {len(kernels)} kernels")


if __name__ == "__main__":
    main()
