"""Checks bench_rounds.py's summary: each configuration's time/limit uses that run's bytes and
bandwidth limit, and so does its time/nt-limit where the run timed the copy with non-temporal
stores."""
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
    if "stream_copy" in run:
        stream = max(run[copy]["bandwidth_bytes_per_second"]
                     for copy in ("stream_copy", "stream_copy_after"))
        expected = row["median"]["none"] / (moved[inputs] / stream)
        if not math.isclose(row["time_over_stream_limit"]["none"], expected, rel_tol=1e-9):
            sys.exit(f"{inputs}: time/nt-limit {row['time_over_stream_limit']['none']} != "
                     f"{expected}")
    elif "time_over_stream_limit" in row:
        sys.exit(f"{inputs}: a time/nt-limit without a copy with non-temporal stores")
    print(f"{inputs}: limit of its own run")
if moved["realistic"] == moved["random"]:
    sys.exit("the two input sets move the same bytes: the test checks nothing")
print("the two input sets move different bytes")
