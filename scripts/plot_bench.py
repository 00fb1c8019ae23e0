#!/usr/bin/env python3
"""Bar chart of the speed-up of each variant against the baseline, per program.

Reads the JSON report of `fusec-bench run --json FILE` (docs/bench.md) and writes a PNG:
one group of horizontal bars per program, one bar per variant other than the baseline
(`none`), its length the speed-up (baseline median / variant median), 1.0 marked.

    scripts/plot_bench.py report.json speedup.png
"""

import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the non-interactive backend)


def speedups(report):
    """{variant: [speed-up or None per program]} and the program names, in report order."""
    baseline = report["baseline"]
    variants = [v for v in report["variants"] if v != baseline]
    programs = report["programs"]
    values = {
        v: [report["comparison"][p]["variants"].get(v, {}).get("speedup") for p in programs]
        for v in variants
    }
    return programs, values


def plot(report, path):
    programs, values = speedups(report)
    run = report["run"]
    bar = 0.8 / max(len(values), 1)
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(programs) * max(len(values), 1) + 1.5))
    for i, (variant, speedup) in enumerate(values.items()):
        positions = [p + i * bar for p in range(len(programs))]
        lengths = [s if s is not None else 0.0 for s in speedup]
        bars = ax.barh(positions, lengths, height=bar, label=variant)
        for rect, s in zip(bars, speedup):
            ax.text(rect.get_width(), rect.get_y() + rect.get_height() / 2,
                    f" {s:.2f}x" if s is not None else " failed", va="center", fontsize=8)
    ax.axvline(1.0, color="gray", linestyle="--", linewidth=1)
    ax.set_yticks([p + bar * (len(values) - 1) / 2 for p in range(len(programs))])
    ax.set_yticklabels(programs, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"speed-up against {report['baseline']} (median time)")
    threads = f", {run['threads']} OpenMP threads" if run["backend"] == "cpp" else ""
    ax.set_title(f"fusec-bench: {run['grid']}, {run['nlev']} levels, {run['backend']}{threads}")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", help="JSON written by fusec-bench run --json")
    parser.add_argument("png", help="the chart to write")
    args = parser.parse_args()
    with open(args.report) as f:
        plot(json.load(f), args.png)


if __name__ == "__main__":
    main()
