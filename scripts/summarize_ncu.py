#!/usr/bin/env python3
"""Summarises the Nsight Compute CSV that scripts/profile-gpu-bundle.sh wrote for one program.

fusec-bundle-run with --repeat 1 launches a program's kernels in this order: the reference run
(the first variant's exact build), then per variant its exact build and its timed build, then
one timed run per variant. The launches are split into those runs by kernel names (each run of
one variant launches the same sequence; the runner's bandwidth probe, fusec_bench_copy_kernel,
is left out), and the last run of each variant is printed as a
markdown table: per kernel time, DRAM and L2 traffic, registers, occupancy and instructions,
then the variant's totals.

    scripts/summarize_ncu.py ncu-r2b6-PROGRAM.csv [--variants none,fuse-all,config]
"""
import argparse
import csv
import sys


def read_launches(path):
    """Returns [(kernel name, {metric: (value, unit)})] in launch order."""
    with open(path, newline="") as f:
        lines = [line for line in f if line.startswith('"')]
    launches = {}
    for row in csv.DictReader(lines):
        launch = launches.setdefault(int(row["ID"]), (row["Kernel Name"], {}))
        value = row["Metric Value"].replace(",", "")
        try:
            number = float(value)
        except ValueError:
            number = float("nan")
        launch[1][row["Metric Name"]] = (number, row["Metric Unit"])
    return [launches[i] for i in sorted(launches)
            if not launches[i][0].startswith("fusec_bench_copy_kernel")]


def split_runs(names, variants):
    """Finds per-variant run lengths so that the sequence is: reference + exact + timed build of
    the first variant, exact + timed build of each other variant, then one run of each."""
    counts = [3] + [2] * (len(variants) - 1)

    def search(v, pos, lengths):
        if v == len(variants):
            tail = names[pos:]
            expected = []
            for i, length in enumerate(lengths):
                start = starts[i]
                expected += names[start:start + length]
            return lengths if tail == expected else None
        for length in range(1, len(names) - pos + 1):
            run = names[pos:pos + length]
            if all(names[pos + k * length:pos + (k + 1) * length] == run
                   for k in range(counts[v])):
                starts.append(pos)
                found = search(v + 1, pos + counts[v] * length, lengths + [length])
                if found:
                    return found
                starts.pop()
        return None

    starts = []
    lengths = search(0, 0, [])
    if lengths is None:
        return None
    timed, pos = [], len(names) - sum(lengths)
    for length in lengths:
        timed.append((pos, length))
        pos += length
    return timed


def short(name):
    return name.split("(")[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--variants", default="none,fuse-all,config")
    args = parser.parse_args()
    variants = args.variants.split(",")
    launches = read_launches(args.csv)
    if not launches:
        sys.exit(f"summarize_ncu: no kernel launches in {args.csv}")
    names = [short(name) for name, _ in launches]
    timed = split_runs(names, variants)
    if timed is None:
        sys.exit(f"summarize_ncu: the {len(names)} launches do not split into runs of "
                 f"{','.join(variants)}: {names}")

    def metric(m, key):
        return m.get(key, (float("nan"), ""))[0]

    print("| variant | kernel | µs | DRAM MB | L2 MB | regs | occupancy % | Minst | "
          "DRAM+L2 % peak | long-scoreboard stall |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for variant, (start, length) in zip(variants, timed):
        total_us = total_dram = total_l2 = 0.0
        for name, m in launches[start:start + length]:
            us = metric(m, "gpu__time_duration.sum") / 1e3  # base units: ns and bytes
            dram = (metric(m, "dram__bytes_read.sum") + metric(m, "dram__bytes_write.sum")) / 1e6
            l2 = metric(m, "lts__t_bytes.sum") / 1e6
            total_us, total_dram, total_l2 = total_us + us, total_dram + dram, total_l2 + l2
            print(f"| {variant} | {short(name)} | {us:.1f} | {dram:.1f} | {l2:.1f} | "
                  f"{metric(m, 'launch__registers_per_thread'):.0f} | "
                  f"{metric(m, 'sm__warps_active.avg.pct_of_peak_sustained_active'):.0f} | "
                  f"{metric(m, 'smsp__inst_executed.sum') / 1e6:.1f} | "
                  f"{metric(m, 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed'):.0f} | "
                  f"{metric(m, 'smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio'):.1f} |")
        print(f"| {variant} | **total ({length} kernels)** | {total_us:.1f} | {total_dram:.1f} | "
              f"{total_l2:.1f} | | | | | |")


if __name__ == "__main__":
    main()
