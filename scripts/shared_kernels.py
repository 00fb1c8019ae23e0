#!/usr/bin/env python3
"""How far fusion can take a program: the kernels two pipelines run alike.

A kernel whose emitted C++ function is the same text in both variants' code
(up to the names it declares and line breaks) runs the same instructions over
as many bytes in both: no pass changed it, so its time S is common to both.
With N and F the baseline's and the variant's program times, F - S is the
variant's own part (its other kernels, launches and barriers); even with that
part free the speed-up N / F could be no more than N / S, and for a speed-up R
the own part must take at most N / R - S. With --kernel-traffic bytes in the
JSON the script also gives the bandwidth the own part's kernels would need.

Input: a `fusec-bench run --json` file with both variants (a timed run
reports each kernel), and the code each variant was compiled from, as
`fusec-bench run --save-outputs DIR` writes it (DIR/sources/<variant>.cpp; the
code does not depend on the grid, so a run on a small grid with --repeat 0
and the same programs, pipelines and layout gives it). For a GPU bundle: the
JSON of `fusec-bench report BUNDLE/results/GRID.json --json FILE` and the
bundle's directory (its variants/<index>-<variant>.cu).

Usage: scripts/shared_kernels.py --json RUN.json --sources DIR --program diffusion_step \
           [--baseline none] [--variant fuse-all] [--target 1.7]
"""

import argparse
import glob
import json
import os
import re
import sys


# A name the function declares: after its type, before `=`, `,`, `)` or `;`.
DECLARATION = re.compile(
    r"\b(?:double|float|bool|int32_t|int64_t|int8_t|uint8_t)\s*(?:\*\s*(?:__restrict__\s*)?)?"
    r"(\w+)\s*(?=[=,);])")


def canonical(text):
    """`text` with every name it declares (parameters, locals) renamed in order
    of first appearance and white space collapsed: two kernels that run the
    same instructions on other buffers (a copy's source after the copy was
    removed) compare equal."""
    names = {}
    for name in DECLARATION.findall(text):
        names.setdefault(name, f"v{len(names)}")
    renamed = re.sub(r"\b\w+\b", lambda m: names.get(m.group(0), m.group(0)), text)
    return " ".join(renamed.split())  # the formatter breaks lines by name length


def kernel_functions(source):
    """Maps each kernel function of emitted C++ (`[[gnu::noinline]] static
    void NAME(` or `NAME_blocked(`) or CUDA (`static __global__ void
    [__launch_bounds__(N)] NAME(`) to its canonical text (signature and body,
    its own name and the names it declares replaced)."""
    functions = {}
    kernel = (r"(?:\[\[gnu::noinline\]\]\s*static void|static __global__ void"
              r"(?:\s+__launch_bounds__\([^)]*\))?)\s+(\w+)\(")
    for match in re.finditer(kernel, source):
        function = match.group(1)
        name = function.removesuffix("_blocked")
        start = source.index("{", match.end())
        depth = 0
        for end in range(start, len(source)):
            if source[end] == "{":
                depth += 1
            elif source[end] == "}":
                depth -= 1
                if depth == 0:
                    break
        text = source[match.end():end + 1]
        functions[name] = canonical(text)
    return functions


def kernel_medians(report, variant, program):
    """Median time and bytes per call (None without --kernel-traffic) of each
    kernel of `program` under `variant`, by name."""
    medians = {}
    prefix = program + "/"
    for key, entry in report["metrics"].get(variant, {}).items():
        metadata = entry["metadata"]
        if key.startswith(prefix) and metadata.get("kind") == "kernel":
            medians[key[len(prefix):]] = (metadata["median"], metadata.get("bytes_per_call"))
    if not medians:
        sys.exit(f"shared_kernels: no kernel times for {program} under {variant} "
                 "(a timed run, --repeat 1 or more, reports each kernel)")
    return medians


def duration(seconds):
    """`seconds` in ms, or us below 0.1 ms (the small grids of tests)."""
    return f"{seconds * 1e3:.2f} ms" if seconds >= 1e-4 else f"{seconds * 1e6:.2f} us"


def source_of(directory, variant):
    """The code of `variant`: DIR/sources/<variant>.cpp or .cu (`fusec-bench run
    --save-outputs DIR`), or DIR/variants/<index>-<variant>.cu (a GPU bundle)."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", variant)
    candidates = [f"{directory}/sources/{name}.cpp", f"{directory}/sources/{name}.cu"]
    candidates += sorted(glob.glob(f"{glob.escape(directory)}/variants/[0-9]*-{glob.escape(name)}.cu"))
    for path in candidates:
        if os.path.exists(path):
            return path, open(path).read()
    sys.exit(f"shared_kernels: no code of variant '{variant}' under {directory} "
             f"(looked for {', '.join(candidates)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", required=True, help="fusec-bench run --json output")
    parser.add_argument("--program", required=True)
    parser.add_argument("--sources", required=True,
                        help="a fusec-bench --save-outputs directory or a GPU bundle")
    parser.add_argument("--baseline", default="none", help="baseline variant (default none)")
    parser.add_argument("--variant", default="fuse-all", help="variant compared (default fuse-all)")
    parser.add_argument("--target", type=float, default=1.7, help="speed-up asked for")
    args = parser.parse_args()

    report = json.load(open(args.json))
    base_name, var_name = args.baseline, args.variant
    _, base_source = source_of(args.sources, base_name)
    var_path, var_source = source_of(args.sources, var_name)
    base_code, var_code = kernel_functions(base_source), kernel_functions(var_source)
    base_kernels = kernel_medians(report, base_name, args.program)
    var_kernels = kernel_medians(report, var_name, args.program)
    base_times = {name: time for name, (time, _) in base_kernels.items()}
    var_times = {name: time for name, (time, _) in var_kernels.items()}
    program = report["comparison"][args.program]["variants"]
    base_total, var_total = program[base_name]["median"], program[var_name]["median"]

    # Each of the variant's kernels is common when the baseline has a kernel
    # with the same text; each baseline kernel is matched once.
    unmatched = {name: base_code.get(name) for name in base_times}
    common = []
    for name in sorted(var_times):
        # A wavefront's kernels run interleaved and are timed together: the variant's own.
        if name.startswith("wavefront("):
            continue
        text = var_code.get(name)
        if text is None:
            sys.exit(f"shared_kernels: {var_path} has no kernel '{name}'")
        twin = next((b for b, t in unmatched.items() if t == text), None)
        if twin is not None:
            common.append((name, twin))
            del unmatched[twin]

    def row(label, base_time, var_time):
        print(f"  {label:<72} {duration(base_time):>10} {duration(var_time):>10}")

    print(f"{args.program}: {base_name} {duration(base_total)}, {var_name} "
          f"{duration(var_total)} ({base_total / var_total:.2f}x)")
    print(f"  {'kernels both run alike (' + base_name + ', ' + var_name + ')':<72}")
    shared_base = shared_var = 0.0
    for name, twin in common:
        row(name, base_times[twin], var_times[name])
        shared_base += base_times[twin]
        shared_var += var_times[name]
    row("sum", shared_base, shared_var)
    own_base = base_total - shared_base
    own_var = var_total - shared_var
    # With every kernel common the rest is launch overhead and noise, either sign.
    ratio = f" ({own_base / own_var:.2f}x)" if own_base > 0 and own_var > 0 else ""
    print(f"  the rest: {base_name} {duration(own_base)}, {var_name} {duration(own_var)}{ratio}")
    if shared_var > 0:
        print(f"  bound with the common kernels as they are and the rest free: "
              f"{base_total / shared_var:.2f}x")
    else:
        print("  no kernel in common: no bound from them")
    budget = base_total / args.target - shared_var
    if budget <= 0:
        print(f"  {args.target}x is out of reach: the common kernels alone take more than "
              f"{base_name} / {args.target}")
        return
    print(f"  for {args.target}x the rest of {var_name} must take at most {duration(budget)} "
          f"(now {duration(own_var)}, {own_var / budget:.2f}x that)")
    common_names = {name for name, _ in common}
    own_bytes = [traffic for name, (_, traffic) in var_kernels.items() if name not in common_names]
    copy = report["run"].get("limit_bandwidth_bytes_per_second",
                             report["run"].get("copy", {}).get("bandwidth_bytes_per_second"))
    if own_bytes and None not in own_bytes and copy:
        total = sum(own_bytes)
        print(f"  the rest moves {total / 1e6:,.1f} MB: {total / budget / 1e9:.1f} GB/s in that time "
              f"(copy kernel {copy / 1e9:.1f} GB/s; now {total / own_var / 1e9:.1f})")


if __name__ == "__main__":
    main()
