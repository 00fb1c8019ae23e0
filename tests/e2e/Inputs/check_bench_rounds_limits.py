"""Checks bench_rounds.py's summary: each configuration's time/limit uses that run's bytes and
bandwidth limit."""
import json
import math
import os
import sys

out, program = sys.argv[1], sys.argv[2]
summary = json.load(open(os.path.join(out, "summary.json")))
moved = {}
for inputs in ("realistic", "random"):
    report = json.load(open(os.path.join(out, f"round0-1t-{inputs}.json")))
    run = report["run"]
    # fusec-bench's limit: the faster of its copies before and after the programs.
    bandwidth = max(run[copy]["bandwidth_bytes_per_second"] for copy in ("copy", "copy_after"))
    if not math.isclose(run["limit_bandwidth_bytes_per_second"], bandwidth, rel_tol=1e-12):
        sys.exit(f"{inputs}: the report's limit is not the faster copy")
    moved[inputs] = report["comparison"][program]["compulsory_bytes"]
    row = summary[f"1t-{inputs}"][program]
    expected = row["median"]["none"] / (moved[inputs] / bandwidth)
    if not math.isclose(row["time_over_limit"]["none"], expected, rel_tol=1e-9):
        sys.exit(f"{inputs}: time/limit {row['time_over_limit']['none']} != {expected}")
    print(f"{inputs}: limit of its own run")
if moved["realistic"] == moved["random"]:
    sys.exit("the two input sets move the same bytes: the test checks nothing")
print("the two input sets move different bytes")
