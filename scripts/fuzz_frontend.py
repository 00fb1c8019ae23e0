#!/usr/bin/env python3
"""Mutation fuzzing of the fusec frontend.

Makes N mutated copies of a .stn file (truncations, swapped and duplicated
tokens, byte flips, random bytes with NULs and control characters, deleted and
duplicated lines, deeply nested parentheses) and runs fusec on each with a
timeout. Every run must end with exit status 0 or 1, never a signal or a
timeout; a failing run must print at least one `file:line:col: error:`
diagnostic (or a `fusec: error:` line for errors without a source position),
never an internal error, and must not leave an output file. Prints
`N passed, M failed` and exits with 1 when a run failed.

    scripts/fuzz_frontend.py --fusec build/bin/fusec stencils/diffusion.stn -n 500
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

DIAGNOSTIC = re.compile(rb"^[^\n:]+:\d+:\d+: error: |^fusec: error: ", re.MULTILINE)
TOKEN = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\S")


def mutate(data: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(8)
    if kind == 0:  # truncation
        return data[: rng.randrange(len(data) + 1)]
    if kind in (1, 2):  # swap or duplicate tokens
        tokens = [m.span() for m in TOKEN.finditer(data)]
        if len(tokens) < 2:
            return data
        a, b = sorted(rng.sample(range(len(tokens)), 2))
        (a0, a1), (b0, b1) = tokens[a], tokens[b]
        if kind == 1:
            return data[:a0] + data[b0:b1] + data[a1:b0] + data[a0:a1] + data[b1:]
        return data[:a0] + data[b0:b1] + b" " + data[a0:]
    if kind == 3:  # byte flips
        out = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            if out:
                out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        return bytes(out)
    if kind == 4:  # random bytes inserted (NUL and control characters included)
        pos = rng.randrange(len(data) + 1)
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        return data[:pos] + junk + data[pos:]
    lines = data.split(b"\n")
    if kind == 5:  # deleted lines
        for _ in range(rng.randint(1, 5)):
            if lines:
                del lines[rng.randrange(len(lines))]
        return b"\n".join(lines)
    if kind == 6:  # duplicated line
        i = rng.randrange(len(lines))
        lines.insert(rng.randrange(len(lines) + 1), lines[i])
        return b"\n".join(lines)
    # deep nesting
    pos = rng.randrange(len(data) + 1)
    depth = rng.choice([10, 300, 5000])
    return data[:pos] + b"(" * depth + b"x" + b")" * depth + data[pos:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", help="the .stn file to mutate")
    parser.add_argument("-n", type=int, default=500, help="number of mutations")
    parser.add_argument("--fusec", default="build/bin/fusec", help="path to fusec")
    parser.add_argument("--seed", type=int, default=1, help="random seed")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per run")
    parser.add_argument("--pipeline", default="none", help="optimisation pipeline (-O)")
    parser.add_argument("--keep", help="directory to copy failing inputs into")
    args = parser.parse_args()

    with open(args.input, "rb") as f:
        original = f.read()
    rng = random.Random(args.seed)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        # The mutants import what the original imports, from its directory.
        source_dir = os.path.dirname(os.path.abspath(args.input))
        for i in range(args.n):
            data = mutate(original, rng)
            path = os.path.join(tmp, f"mutant{i}.stn")
            out = os.path.join(tmp, f"mutant{i}.mlir")
            with open(path, "wb") as f:
                f.write(data)
            problem = None
            try:
                run = subprocess.run([args.fusec, path, "-I", source_dir, "-O", args.pipeline,
                                      "-o", out],
                                     capture_output=True, timeout=args.timeout)
                if run.returncode not in (0, 1):
                    problem = f"exit status {run.returncode}"
                elif b"internal error" in run.stderr:
                    problem = "internal error"
                elif run.returncode == 1 and not DIAGNOSTIC.search(run.stderr):
                    problem = "failed without a located error"
                elif run.returncode == 1 and os.path.exists(out):
                    problem = "failed but wrote its output file"
            except subprocess.TimeoutExpired:
                problem = f"timed out after {args.timeout} s"
            if problem:
                failed += 1
                print(f"mutant {i}: {problem}", file=sys.stderr)
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    shutil.copy(path, args.keep)
            else:
                passed += 1
            for leftover in (path, out):
                if os.path.exists(leftover):
                    os.remove(leftover)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
