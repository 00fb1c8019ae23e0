"""Running fusec-bench on generated files and classifying what it reports.

One fusec-bench run checks every program of a file under every pipeline on one grid and one
backend against the interpreter on the unoptimised program (`--repeat 0`: no timing). Its
JSON report (`tools/fusec-bench/ReportFiles.cpp`) gives each variant's verdict; the terminal
report gives the details (failing fields, errors of the reference run). Outcomes:

* `mismatch`: a variant's outputs differ from the oracle's (verdict FAIL);
* `error`: a variant could not be built or run (verdict ERROR), fusec-bench died on a signal
  (`crash`), ran past the time limit (`timeout`), or fusec reported an internal error;
* `invalid`: a generator bug: fusec rejected the file with a diagnostic, the oracle rejected a
  program (a read outside a field, ...; an operation it does not support is an `error`), or a
  pipeline's text is not valid.

When fusec-bench crashes, the pipelines of the run are run one at a time to tell which crash
and to get the verdicts of the others.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from . import model

GRIDS = ("lam-r2b3", "r2b2")  # limited area (-1 neighbours at its boundary), global (pentagons)


@dataclass(frozen=True)
class Failure:
    kind: str  # "mismatch", "error", "crash", "timeout" or "invalid"
    program: Optional[str]  # None when the whole run failed
    pipeline: Optional[str]  # None when no pipeline is to blame (the file, the oracle)
    backend: str
    grid: str
    detail: str

    @property
    def category(self) -> str:
        """mismatch, error (crash and timeout included) or invalid."""
        return "error" if self.kind in ("crash", "timeout") else self.kind

    def signature(self) -> tuple:
        """What a reduced program must still show: where and how it fails (for errors the
        message without names and numbers, for crashes the signal and function)."""
        detail = ""
        if self.kind == "error":
            detail = _error_class(self.detail)
        elif self.kind == "crash":
            detail = self.detail.splitlines()[0]
        return (self.kind, self.program, self.pipeline, detail)

    def describe(self) -> str:
        where = f"{self.program or 'all programs'} [{self.pipeline or '-'}]"
        return f"{self.kind} {where} {self.backend} {self.grid}: {self.detail.splitlines()[0] if self.detail else ''}"


def _error_class(message: str) -> str:
    """An error message without names, numbers and positions, to compare errors by kind."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|\S+\.stn:\d+:\d+|\d+", "_", message.splitlines()[0] if message else "")
    return text[:80]


@dataclass
class Settings:
    """How to call fusec-bench."""

    bin_dir: Path
    include_dir: Path
    timeout: int = 600
    threads: int = 2

    @property
    def bench(self) -> Path:
        return self.bin_dir / "fusec-bench"


@dataclass
class Run:
    """One fusec-bench invocation and what it printed."""

    command: list[str]
    returncode: Optional[int]  # None: timed out
    stdout: str
    stderr: str
    report: Optional[dict]
    seconds: float


# Fuzzer backends beyond fusec-bench's own: the C++ backend in ICON's blocked layout, with an
# nproma that leaves the last block of every location partial on both grids, and compiled for
# the columns layout (nproma 1, kernels vectorised over levels).
BLOCKED_NPROMA = 7
BACKEND_ARGUMENTS = {"cpp-blocked": ["--backend", "cpp", "--layout", f"blocked:{BLOCKED_NPROMA}"],
                     "cpp-columns": ["--backend", "cpp", "--layout", "columns"]}
# And the C++ backend through a configuration next to the file that marks every applied stencil
# `split_gathers` (stn-split-gather-loops: gathers split off into scalar loops) and `prefetch`
# (stn-prefetch-columns: the next point's neighbour columns asked for, columns layout only):
# fusec-bench's `config` variant, checked next to fuse-all, in the flat and the columns layout.
CONFIG_BACKENDS = {"cpp-split": ["--backend", "cpp"],
                   "cpp-prefetch": ["--backend", "cpp", "--layout", "columns"]}


def split_config(stn: Path) -> Path:
    return stn.with_suffix(".split.yaml")


def render_split_config(file: model.File) -> str:
    applied = sorted({stmt.stencil for prog in file.programs for stmt in model.statements(prog.body)
                      if isinstance(stmt, model.Apply)})
    lines = ["default: fuse-all", "stencils:" if applied else "stencils: {}"]
    for name in applied:
        lines += [f"  {name}:", "    split_gathers: true", "    prefetch: true",
                  "    reason: fusec-fuzz"]
    return "\n".join(lines) + "\n"


def bench(settings: Settings, stn: Path, inputs: Path, grid: str, nlev: int, seed: int,
          pipelines: list[str], backend: str, defines: list[str], cache_dir: Path,
          json_path: Path, programs: str = "all") -> Run:
    command = [str(settings.bench), "run", str(stn), "--inputs-file", str(inputs),
               "-I", str(settings.include_dir), "--grid", grid, "--nlev", str(nlev),
               "--inputs", "random", "--seed", str(seed), "--repeat", "0", "--warmup", "0",
               "--programs", programs, "--pipelines", ",".join(pipelines),
               *([*CONFIG_BACKENDS[backend], "--config", str(split_config(stn))]
                 if backend in CONFIG_BACKENDS
                 else BACKEND_ARGUMENTS.get(backend, ["--backend", backend])),
               "--cache-dir", str(cache_dir), "--json", str(json_path)]
    for d in defines:
        command += ["-D", d]
    # cuda-host runs the threads of every launch shuffled: a result that depends on their
    # order is a race.
    env = dict(os.environ, OMP_NUM_THREADS=str(settings.threads), OMP_WAIT_POLICY="passive",
               FUSEC_CUDA_HOST_ORDER="shuffled", FUSEC_CUDA_HOST_SEED=str(seed))
    if json_path.exists():
        json_path.unlink()
    start = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=settings.timeout,
                              env=env, errors="replace")
        returncode, stdout, stderr = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        returncode = None
        stdout = _text(expired.stdout)
        stderr = _text(expired.stderr)
    report = None
    if json_path.exists():
        try:
            report = json.loads(json_path.read_text())
        except json.JSONDecodeError:
            report = None
    return Run(command, returncode, stdout, stderr, report, time.monotonic() - start)


def _text(data) -> str:
    if data is None:
        return ""
    return data.decode(errors="replace") if isinstance(data, bytes) else data


def _report_sections(stdout: str, pipelines: list[str]) -> dict:
    """The terminal report per program: {program: {"errors": [...], pipeline: [detail lines]}}."""
    sections: dict = {}
    current = None
    variant = None
    for line in stdout.splitlines():
        if line and not line.startswith(" "):
            if line.startswith(("fusec-bench:", "inputs ", "summary:")):
                current = None
                continue
            current = sections.setdefault(line.strip(), {"errors": []})
            variant = None
        elif current is not None and line.startswith("    ") and variant:
            current[variant].append(line.strip())
        elif current is not None and line.startswith("  "):
            text = line[2:]
            if text.startswith("error:"):
                current["errors"].append(text[len("error:"):].strip())
                variant = None
                continue
            names = [p for p in pipelines if text.startswith(p + " ")]
            variant = max(names, key=len) if names else None
            if variant:
                current[variant] = [text[len(variant):].strip()]
    return sections


def classify(run: Run, pipelines: list[str], backend: str, grid: str) -> tuple[int, list[Failure]]:
    """The number of passing (program, pipeline) pairs and the failures of one run."""
    def whole(kind: str, detail: str) -> tuple[int, list[Failure]]:
        return 0, [Failure(kind, None, pipelines[0] if len(pipelines) == 1 else None,
                           backend, grid, detail)]

    if run.returncode is None:
        return whole("timeout", f"fusec-bench ran longer than its limit ({run.seconds:.0f} s)")
    if run.returncode < 0:
        return whole("crash", f"fusec-bench died on signal {-run.returncode} in "
                     f"{_crash_frame(run.stderr)}\n" + _tail(run.stderr))
    if run.report is None:
        if "internal error" in run.stderr:
            return whole("error", _tail(run.stderr))
        if re.search(r"\.stn:\d+:\d+: error:", run.stderr):
            return 0, [Failure("invalid", None, None, backend, grid,
                               "fusec rejected the file: " + _first_error(run.stderr))]
        return whole("error", f"fusec-bench exited with {run.returncode}: " + _tail(run.stderr))
    sections = _report_sections(run.stdout, pipelines)
    passed = 0
    failures = []
    for program in run.report.get("programs", []):
        section = sections.get(program, {"errors": []})
        variants = run.report["comparison"].get(program, {}).get("variants", {})
        if not variants:
            detail = "; ".join(section["errors"]) or "the reference run failed"
            # The oracle lacking an operation is its bug; anything else it rejects is ours.
            kind = "error" if "unsupported operation" in detail else "invalid"
            failures.append(Failure(kind, program, None, backend, grid, detail))
            continue
        for pipeline in pipelines:
            meta = run.report["metrics"].get(pipeline, {}).get(program, {}).get("metadata", {})
            verdict = meta.get("verdict")
            lines = section.get(pipeline, [])
            if verdict == "PASS":
                passed += 1
            elif verdict == "FAIL":
                failures.append(Failure("mismatch", program, pipeline, backend, grid,
                                        "\n".join(lines[1:]) or "outputs differ"))
            else:
                message = meta.get("error") or " ".join(lines) or "no verdict"
                # fusec-bench rejects a pipeline text it cannot parse: a generator bug
                kind = "invalid" if f"pipeline '{pipeline}': invalid pipeline" in run.stderr \
                    else "error"
                if "could not be built" in message:
                    message += ": " + _pipeline_error(run.stderr, pipeline)
                failures.append(Failure(kind, program, pipeline, backend, grid, message))
    if run.returncode != 0 and not failures:
        failures.append(Failure("error", None, None, backend, grid,
                                f"fusec-bench exited with {run.returncode}: " + _tail(run.stderr)))
    return passed, failures


def _crash_frame(stderr: str) -> str:
    """Where a crash happened: the innermost function of its stack dump (below the signal
    handlers) and, when that is not fusec's, the innermost fusec function calling it."""
    names = []
    for line in stderr.splitlines():
        frame = re.match(r"\s*#\d+ 0x[0-9a-f]+ (\S.*)", line)
        if frame and not frame.group(1).startswith(("llvm::sys::", "(/", "__")):
            names.append(re.sub(r"\(.*|\s.*", "", frame.group(1).replace("(anonymous namespace)::", "")))
    if not names:
        return "an unknown function"
    own = next((n for n in names if "fusec::" in n or ("::" in n and "mlir::" not in n)), None)
    return names[0] if own in (None, names[0]) else f"{names[0]} called by {own}"


def _tail(text: str, lines: int = 12) -> str:
    kept = [l for l in text.splitlines() if l.strip() and not l.startswith("fusec-bench: note:")]
    return "\n".join(kept[-lines:])


def _first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if " error: " in line:
            return line
    return _tail(stderr, 3)


def _pipeline_error(stderr: str, pipeline: str) -> str:
    """fusec-bench's message about one pipeline (and the lines that follow it)."""
    lines = stderr.splitlines()
    for i, line in enumerate(lines):
        if f"pipeline '{pipeline}'" in line or (".stn:" in line and "error:" in line):
            return "\n".join(lines[i:i + 6])
    return _tail(stderr, 6)


@dataclass
class Job:
    """A file to check: its model (for the reducer) and how to run it."""

    file: model.File
    pipelines: list[str]
    name: str


@dataclass
class FileResult:
    job: Job
    passed: int = 0
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0
    directory: Optional[Path] = None

    def programs_with(self, category: str) -> set:
        return {f.program or "*" for f in self.failures if f.category == category}


def write_files(file: model.File, directory: Path, name: str, header: str = "") -> tuple[Path, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    stn = directory / f"{name}.stn"
    inputs = directory / f"{name}.inputs.yaml"
    stn.write_text(model.render_stn(file, header))
    inputs.write_text(model.render_inputs(file))
    split_config(stn).write_text(render_split_config(file))
    return stn, inputs


def run_file(settings: Settings, file: model.File, stn: Path, inputs: Path, pipelines: list[str],
             backend: str, grid: str, cache_dir: Path, work: Path,
             programs: str = "all") -> tuple[int, list[Failure], list[Run]]:
    """All pipelines on one backend and grid; after a crash, each pipeline alone. The
    configuration backends run fuse-all and the configuration instead."""
    json_path = work / f"{stn.stem}.{backend}.{grid}.json"
    checked = pipelines
    if backend in CONFIG_BACKENDS:
        pipelines, checked = ["fuse-all"], ["fuse-all", "config"]

    def run_pipelines(which: list[str]) -> Run:
        return bench(settings, stn, inputs, grid, file.nlev, file.index, which, backend,
                     file.defines(), cache_dir, json_path, programs)

    run = run_pipelines(pipelines)
    if run.returncode is not None and run.returncode < 0 and len(pipelines) > 1:
        passed, failures, runs = 0, [], [run]
        for pipeline in pipelines:
            alone = run_pipelines([pipeline])
            p, f = classify(alone, [pipeline], backend, grid)
            passed, failures = passed + p, failures + f
            runs.append(alone)
        return passed, failures, runs
    passed, failures = classify(run, checked, backend, grid)
    return passed, failures, [run]


def check(settings: Settings, job: Job, backends: list[str], work: Path) -> FileResult:
    """Every pipeline of the job on both grids and every backend."""
    start = time.monotonic()
    directory = work / job.name
    stn, inputs = write_files(job.file, directory, job.name)
    result = FileResult(job, directory=directory)
    cache_dir = directory / "cache"
    for grid in GRIDS:
        for backend in backends:
            passed, failures, _ = run_file(settings, job.file, stn, inputs, job.pipelines,
                                           backend, grid, cache_dir, directory)
            result.passed += passed
            result.failures += failures
    result.seconds = time.monotonic() - start
    return result
