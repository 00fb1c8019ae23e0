"""fusec-fuzz: random-program differential testing of fusec (docs/fuzzing.md).

    fusec-fuzz --seed S --count N | --minutes T [--bin DIR] [--backends interp,interp-cuda,cpp,cpp-blocked,cpp-columns,cpp-split,cpp-prefetch,cuda-host]
               [--jobs J] [--keep-dir DIR] [--reduce] [--regressions-dir DIR]
               [--coverage] [--generate-only]

Generates files of 4-6 random programs (file i of seed S is always the same), runs each with
fusec-bench on a limited-area and a global grid under every pipeline on each backend,
against the interpreter on the unoptimised program, prints a line per batch and per failure,
optionally reduces failures to regression tests, and ends with

    fusec-fuzz: N programs, M mismatches, E errors, X invalid (generator bugs), in T s

exiting 1 when M, E or X is not 0.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import itertools
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator, Optional

from . import generator, model, reducer, runner

REPO = Path(__file__).resolve().parents[3]
BATCH = 10  # files per progress line
PROGRAMS_PER_FILE = (4, 6)


def parse(argv) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="fusec-fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=1, help="batch seed (default 1)")
    amount = p.add_mutually_exclusive_group(required=True)
    amount.add_argument("--count", type=int, help="number of programs")
    amount.add_argument("--minutes", type=float, help="run for this long")
    p.add_argument("--bin", type=Path, default=REPO / "build" / "bin",
                   help="directory of fusec-bench (default <repo>/build/bin)")
    p.add_argument("--include", type=Path, default=REPO / "stencils",
                   help="directory of icon.stn (default <repo>/stencils)")
    p.add_argument("--backends", default="interp,interp-cuda,cpp,cpp-blocked,cpp-columns,cpp-split,cpp-prefetch,cuda-host",
                   help="comma-separated fusec-bench backends, cpp-blocked (cpp with --layout blocked:7), "
                        "cpp-columns (cpp with --layout columns), "
                        "cpp-split (cpp with every applied stencil's gathers split off) or cpp-prefetch (cpp-columns "
                        "with every applied stencil prefetching its neighbours' columns) "
                        "(default interp,interp-cuda,cpp,cpp-blocked,cpp-columns,cpp-split,cpp-prefetch,cuda-host)")
    p.add_argument("--jobs", type=int, default=2, help="files checked at once (default 2)")
    p.add_argument("--timeout", type=int, default=600,
                   help="seconds one fusec-bench run may take (default 600)")
    p.add_argument("--keep-dir", type=Path, help="keep failing files (and their reports) here")
    p.add_argument("--reduce", action="store_true",
                   help="reduce failures (one per kind and set of failing pipelines) to "
                        "regression tests")
    p.add_argument("--regressions-dir", type=Path,
                   default=REPO / "tests" / "e2e" / "fuzz-regressions",
                   help="where --reduce writes them (default tests/e2e/fuzz-regressions)")
    p.add_argument("--reduce-minutes", type=float, default=10,
                   help="time limit of one reduction (default 10)")
    p.add_argument("--reduce-limit", type=int, default=5,
                   help="reductions per run at most (default 5)")
    p.add_argument("--coverage", action="store_true",
                   help="print how many programs per 100 contain each construct")
    p.add_argument("--with-open-bugs", action="store_true",
                   help="also generate the constructs of open fusec bugs that the generator "
                        "avoids (generator.AVOID)")
    p.add_argument("--generate-only", action="store_true",
                   help="generate (into --keep-dir, if given) without running anything")
    args = p.parse_args(argv)
    if args.count is not None and args.count < 1 or args.jobs < 1:
        p.error("--count and --jobs must be positive")
    return args


def jobs(seed: int, count: Optional[int]) -> Iterator[runner.Job]:
    """Files 0, 1, ... of the batch; with a count, the last one is cut to reach it."""
    left = count
    for index in itertools.count():
        if left is not None and left <= 0:
            return
        lo, hi = PROGRAMS_PER_FILE
        file = generator.generate(seed, index, lo + index % (hi - lo + 1))
        if left is not None:
            file.programs = file.programs[:left]
            left -= len(file.programs)
        names = [s.name for s in model.used_stencils(file)]
        yield runner.Job(file, generator.pipelines(seed, index, names), f"fuzz_s{seed}_f{index}")


def print_coverage(files: list) -> None:
    programs = [(f, p) for f in files for p in f.programs]
    counts = collections.Counter(x for f, p in programs for x in model.features(f, p))
    print(f"coverage over {len(programs)} programs (programs per 100 containing each construct):")
    for key, description in model.FEATURES:
        print(f"  {description:<62} {100 * counts[key] / max(1, len(programs)):6.1f}")


def report_failures(result: runner.FileResult) -> None:
    """One line per failure of a file, backends and grids merged."""
    merged: dict = {}
    for f in result.failures:
        key = (f.kind, f.program, f.pipeline)
        entry = merged.setdefault(key, [set(), set(), f.detail])
        entry[0].add(f.backend)
        entry[1].add(f.grid)
    for (kind, program, pipeline), (backends, grids, detail) in merged.items():
        first = detail.splitlines()[0] if detail else ""
        print(f"  {result.job.name}: {kind} {program or 'all programs'} [{pipeline or '-'}] "
              f"({', '.join(sorted(backends))}; {', '.join(sorted(grids))}): {first[:200]}",
              flush=True)


def keep(result: runner.FileResult, keep_dir: Path) -> None:
    target = keep_dir / result.job.name
    target.mkdir(parents=True, exist_ok=True)
    for suffix in (".stn", ".inputs.yaml"):
        shutil.copy(result.directory / f"{result.job.name}{suffix}", target)
    lines = [f"pipelines: {','.join(result.job.pipelines)}",
             f"nlev {result.job.file.nlev}, inputs seed {result.job.file.index}, "
             f"defines {result.job.file.defines()}", ""]
    for f in result.failures:
        lines += [f.describe(), f.detail, ""]
    (target / "failures.txt").write_text("\n".join(lines))


def fingerprints(result: runner.FileResult) -> dict:
    """The failures of a file worth one reduction each, by a fingerprint that tells bugs
    apart without reducing them: kind, error class, and the fixed pipelines (not the random
    sequences) under which the program fails. One bug shows under several pipelines (CSE's
    under cse, fuse-all and fuse-all+k-blocking) and in many files."""
    fixed = result.job.pipelines[:generator.FIXED_PIPELINES]
    groups: dict = {}
    for f in result.failures:
        if f.kind in ("mismatch", "error", "crash"):
            groups.setdefault((f.kind, f.program, f.signature()[3]), []).append(f)
    found = {}
    for (kind, _, detail), failures in groups.items():
        pipelines = frozenset(f.pipeline for f in failures if f.pipeline in fixed)
        # the first fixed pipeline, on the interpreter when it fails there
        failures.sort(key=lambda f: (f.backend != "interp", result.job.pipelines.index(f.pipeline)
                                     if f.pipeline in result.job.pipelines else -1))
        found.setdefault((kind, detail, pipelines), failures[0])
    return found


def reduce_failures(args, settings, results: list, work: Path) -> list[Path]:
    """Reduces one failure per fingerprint (at most --reduce-limit) and writes each as a
    regression test."""
    seen, written = set(), []
    for result in results:
        for key, failure in fingerprints(result).items():
            if key in seen:
                continue
            seen.add(key)
            if len(written) >= args.reduce_limit:
                return written
            print(f"fusec-fuzz: reducing {result.job.name}: {failure.describe()[:160]}", flush=True)
            reduced, backend = reducer.reduce(
                settings, result.job.file, failure, work / f"reduce-{len(written)}",
                args.reduce_minutes * 60, lambda text: print(f"  {text}", flush=True))
            name = reducer.regression_name(failure, result.job.file)
            path = reducer.write_regression(reduced, failure, result.job.pipelines,
                                            args.regressions_dir, name)
            print(f"fusec-fuzz: wrote {path} (reduced on {backend})", flush=True)
            written.append(path)
    return written


def run(args) -> int:
    start = time.monotonic()
    settings = runner.Settings(args.bin.resolve(), args.include.resolve(), args.timeout)
    if not settings.bench.exists():
        print(f"fusec-fuzz: error: {settings.bench} does not exist (--bin)", file=sys.stderr)
        return 2
    backends = [b for b in args.backends.split(",") if b]
    deadline = start + args.minutes * 60 if args.minutes is not None else None
    work = Path(tempfile.mkdtemp(prefix="fusec-fuzz-"))
    totals = collections.Counter()
    failing: list = []
    files: list = []
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            source = jobs(args.seed, args.count)
            pending: collections.deque = collections.deque()
            batch = collections.Counter()

            def submit() -> None:
                while len(pending) < 2 * args.jobs and (deadline is None or time.monotonic() < deadline):
                    job = next(source, None)
                    if job is None:
                        return
                    pending.append(pool.submit(runner.check, settings, job, backends, work))

            submit()
            done_files = batch_start = 0
            while pending:
                result = pending.popleft().result()
                submit()
                files.append(result.job.file)
                counts = {"programs": len(result.job.file.programs),
                          "mismatches": len(result.programs_with("mismatch")),
                          "errors": len(result.programs_with("error")),
                          "invalid": len(result.programs_with("invalid"))}
                totals.update(counts)
                batch.update(counts)
                if result.failures:
                    report_failures(result)
                    failing.append(result)
                    if args.keep_dir:
                        keep(result, args.keep_dir)
                shutil.rmtree(result.directory, ignore_errors=True)
                done_files += 1
                if done_files % BATCH == 0 or not pending:
                    minutes = (time.monotonic() - start) / 60
                    print(f"fusec-fuzz: files {batch_start}-{done_files - 1}: "
                          f"{batch['programs']} programs, {batch['mismatches']} "
                          f"mismatches, {batch['errors']} errors, {batch['invalid']} invalid; "
                          f"{totals['programs']} programs in {minutes:.1f} min "
                          f"({totals['programs'] / max(minutes, 1e-9):.0f}/min)", flush=True)
                    batch.clear()
                    batch_start = done_files
        if args.coverage:
            print_coverage(files)
        if args.reduce and failing:
            reduce_failures(args, settings, failing, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"fusec-fuzz: {totals['programs']} programs, {totals['mismatches']} mismatches, "
          f"{totals['errors']} errors, {totals['invalid']} invalid (generator bugs), "
          f"in {time.monotonic() - start:.0f} s")
    return 1 if totals["mismatches"] or totals["errors"] or totals["invalid"] else 0


def generate_only(args) -> int:
    files = []
    deadline = time.monotonic() + args.minutes * 60 if args.minutes is not None else None
    for job in jobs(args.seed, args.count):
        files.append(job.file)
        if args.keep_dir:
            runner.write_files(job.file, args.keep_dir, job.name)
        if deadline is not None and time.monotonic() > deadline:
            break
    if args.coverage:
        print_coverage(files)
    print(f"fusec-fuzz: generated {sum(len(f.programs) for f in files)} programs in "
          f"{len(files)} files")
    return 0


def main(argv=None) -> int:
    args = parse(argv)
    if args.with_open_bugs:
        generator.AVOID.clear()
    return generate_only(args) if args.generate_only else run(args)


if __name__ == "__main__":
    sys.exit(main())
