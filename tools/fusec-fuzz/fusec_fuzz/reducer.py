"""Delta debugging of a failing file on the generator's program model.

`reduce(file, failure, ...)` shrinks a `model.File` while it still fails the same way: the
same kind of failure (mismatch, error, crash, ...) of the same program under the same
pipeline (`runner.Failure.signature`). Each candidate must also stay fit for testing
(`model.problems` is empty) and compile. The edits, tried greedily until none applies:

* drop programs, statements (chunks, then one at a time), `if`s (keeping a branch), `else`
  branches and exchanged fields;
* drop stencil outputs, lets and parameters that nothing reads (with their arguments);
* replace expressions by a literal of their type or by one of their sub-expressions; drop
  level offsets, data-dependent levels and neighbours of reads;
* shrink domains and spell run-time bounds as literals; turn a point-list domain into the
  box its entries lie in, shrink a list's range, make a `nonzero` list a `fraction`; switch
  f32 off.

Candidates run only the failing pipeline, on the failing grid, on the interpreter when the
failure shows there too (much faster than compiling C++), else on the failing backend.
`write_regression` keeps the result as a lit test under tests/e2e/fuzz-regressions.
"""

from __future__ import annotations

import copy
import dataclasses
import re
import shutil
import time
from pathlib import Path
from typing import Callable, Iterator

from . import model, runner
from .generator import typed
from .model import (Access, Apply, Domain, Exchange, Expr, File, HBound, If, KBound, LetCall, Lit,
                    Ref, let_exprs, let_names, with_let_exprs)


class Oracle:
    """Tells whether a candidate file still shows the failure (results cached by text)."""

    def __init__(self, settings: runner.Settings, failure: runner.Failure, backend: str,
                 work: Path):
        self.settings = settings
        self.failure = failure
        self.backend = backend
        self.work = work
        self.seen: dict[str, bool] = {}
        self.runs = 0

    def __call__(self, file: File) -> bool:
        if model.problems(file):
            return False
        key = model.render_stn(file) + model.render_inputs(file)
        if key not in self.seen:
            self.runs += 1
            stn, inputs = runner.write_files(file, self.work, "candidate")
            _, failures, _ = runner.run_file(self.settings, file, stn, inputs,
                                             [self.failure.pipeline or "none"], self.backend,
                                             self.failure.grid, self.work / "cache", self.work)
            self.seen[key] = any(self.matches(f) for f in failures)
        return self.seen[key]

    def matches(self, found: runner.Failure) -> bool:
        """The same failure; one that no pipeline was blamed for (the frontend) may show
        under any."""
        kind, program, pipeline, detail = self.failure.signature()
        other = found.signature()
        return (kind, program, detail) == (other[0], other[1], other[3]) and \
            (pipeline is None or pipeline == other[2])


def reduce(settings: runner.Settings, file: File, failure: runner.Failure, work: Path,
           seconds: float, log: Callable[[str], None] = lambda _: None) -> tuple[File, str]:
    """The smallest file found within `seconds` that still fails like `failure`, and the
    backend it was reduced on."""
    work.mkdir(parents=True, exist_ok=True)
    backend = failure.backend
    if backend != "interp":
        interp = Oracle(settings, dataclasses.replace(failure, backend="interp"), "interp", work)
        if interp(file):
            backend = "interp"
    oracle = Oracle(settings, dataclasses.replace(failure, backend=backend), backend, work)
    if not oracle(file):
        log(f"the failure does not reproduce with {failure.pipeline} alone on {backend}")
        return file, backend
    deadline = time.monotonic() + seconds
    current = copy.deepcopy(file)
    if failure.program:
        only = _keep_programs(current, {failure.program})
        if oracle(only):
            current = only
    passes = [_drop_programs, _drop_statements, _flatten_ifs, _drop_exchanged, _drop_outputs,
              _simplify_expressions, _drop_lets, _drop_params, _shrink_domains, _shrink_lists,
              _simplify_file]
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for edit in passes:
            for candidate in edit(current):
                if time.monotonic() >= deadline:
                    break
                if _cost(candidate) < _cost(current) and oracle(candidate):
                    current = candidate
                    changed = True
                    log(f"{edit.__name__.strip('_')}: {_size(current)}")
                    break
    shutil.rmtree(work / "cache", ignore_errors=True)
    log(f"{oracle.runs} candidates run")
    return current, backend


def _cost(file: File) -> tuple:
    """What the reduction decreases, so that it ends: program elements (a literal costs
    nothing), then the extent of the domains, then the length of the text."""
    def nodes(e: Expr) -> int:
        if isinstance(e, Lit) or (isinstance(e, model.Func) and isinstance(e.args[0], Lit)
                                  and e.name == e.ty):
            return 0
        own = 1
        if isinstance(e, Access):
            own += (e.conn is not None) + (e.koff != 0) + 2 * (e.dyn is not None)
        return own + sum(nodes(c) for c in e.children())

    count = len(file.programs) + file.f32
    for s in model.used_stencils(file):
        count += len(s.params) + len(s.outputs) + len(s.lets)
        count += sum(nodes(e) for let in s.lets for e in let_exprs(let))
        count += sum(nodes(e) for e in s.results)
    extent = 0
    for prog in file.programs:
        for stmt in model.statements(prog.body):
            count += 1
            if isinstance(stmt, Exchange):
                count += len(stmt.names)
            elif isinstance(stmt, If):
                count += nodes(stmt.cond)
            else:
                count += sum(nodes(a) for a in stmt.args if isinstance(a, Expr))
                d = stmt.domain
                if d.points:  # a program parameter and a generator: more than a box
                    count += 1
                elif d.loc:
                    extent += d.hhi.marker - d.hlo.marker
                if d.klo is not None and d.explicit_k:
                    extent += d.khi.value(file.nlev) - d.klo.value(file.nlev) + d.klo.param + d.khi.param
    for name in {n for prog in file.programs for n in model.referenced_lists(prog)}:
        pl = file.points[name]
        count += pl.kind == "nonzero"
        hlo, hhi, klo, khi = pl.region(file.nlev)
        extent += hhi - hlo + khi - klo
    return count, extent, len(model.render_stn(file)) + len(model.render_inputs(file))


def _size(file: File) -> str:
    text = model.render_stn(file)
    return f"{text.count(chr(10))} lines, {len(text)} characters"


# ----------------------------------------------------------------------------------------
# Candidates. Each generator yields edited copies of the file, larger cuts first.


def _keep_programs(file: File, names: set) -> File:
    out = copy.deepcopy(file)
    out.programs = [p for p in out.programs if p.name in names]
    return out


def _drop_programs(file: File) -> Iterator[File]:
    if len(file.programs) > 1:
        for p in file.programs:
            yield _keep_programs(file, {q.name for q in file.programs} - {p.name})


def _statement_paths(body, prefix=()) -> Iterator[tuple]:
    for i, stmt in enumerate(body):
        yield prefix + (i,)
        if isinstance(stmt, If):
            yield from _statement_paths(stmt.then, prefix + (i, "then"))
            yield from _statement_paths(stmt.orelse or (), prefix + (i, "else"))


def _edit(body, path: tuple, fn) -> list:
    """`body` with the statement at `path` replaced by the statements fn returns for it."""
    body = list(body)
    i = path[0]
    if len(path) == 1:
        return body[:i] + list(fn(body[i])) + body[i + 1:]
    stmt = body[i]
    if path[1] == "then":
        body[i] = dataclasses.replace(stmt, then=tuple(_edit(stmt.then, path[2:], fn)))
    else:
        body[i] = dataclasses.replace(stmt, orelse=tuple(_edit(stmt.orelse, path[2:], fn)))
    return body


def _with_body(file: File, index: int, body: list) -> File:
    out = copy.deepcopy(file)
    out.programs[index].body = body
    return out


def _drop_statements(file: File) -> Iterator[File]:
    for index, prog in enumerate(file.programs):
        n = len(prog.body)
        size = n // 2
        while size >= 2:  # chunks of the top level first
            for start in range(0, n - size + 1, size):
                yield _with_body(file, index, prog.body[:start] + prog.body[start + size:])
            size //= 2
        for path in reversed(list(_statement_paths(prog.body))):
            yield _with_body(file, index, _edit(prog.body, path, lambda s: []))


def _flatten_ifs(file: File) -> Iterator[File]:
    for index, prog in enumerate(file.programs):
        for path in _statement_paths(prog.body):
            stmt = _statement_at(prog.body, path)
            if isinstance(stmt, If):
                yield _with_body(file, index, _edit(prog.body, path, lambda s: s.then))
                if stmt.orelse is not None:
                    yield _with_body(file, index, _edit(prog.body, path, lambda s: s.orelse))
                    yield _with_body(file, index, _edit(
                        prog.body, path, lambda s: [dataclasses.replace(s, orelse=None)]))


def _statement_at(body, path: tuple):
    stmt = body[path[0]]
    if len(path) == 1:
        return stmt
    return _statement_at(stmt.then if path[1] == "then" else stmt.orelse, path[2:])


def _drop_exchanged(file: File) -> Iterator[File]:
    for index, prog in enumerate(file.programs):
        for path in _statement_paths(prog.body):
            stmt = _statement_at(prog.body, path)
            if isinstance(stmt, Exchange) and len(stmt.names) > 1:
                for name in stmt.names:
                    kept = tuple(n for n in stmt.names if n != name)
                    yield _with_body(file, index, _edit(
                        prog.body, path, lambda s, kept=kept: [Exchange(kept)]))


def _applies(file: File) -> Iterator[tuple[int, tuple, Apply]]:
    for index, prog in enumerate(file.programs):
        for path in _statement_paths(prog.body):
            stmt = _statement_at(prog.body, path)
            if isinstance(stmt, Apply):
                yield index, path, stmt


def _replace_apply(file: File, index: int, path: tuple, new: Apply) -> File:
    return _with_body(file, index, _edit(file.programs[index].body, path, lambda s: [new]))


def _drop_outputs(file: File) -> Iterator[File]:
    """A stencil output with its result and its targets (stencils bound by `let (a, b)`
    keep theirs)."""
    bound = {let.stencil for s in file.stencils for let in s.lets if isinstance(let, LetCall)}
    for s in model.used_stencils(file):
        if len(s.outputs) < 2 or s.name in bound:
            continue
        for i in range(len(s.outputs)):
            out = copy.deepcopy(file)
            t = out.stencil(s.name)
            del t.outputs[i]
            del t.results[i]
            for index, prog in enumerate(out.programs):
                def cut(stmt):
                    if isinstance(stmt, Apply) and stmt.stencil == s.name:
                        return [dataclasses.replace(stmt, targets=stmt.targets[:i] + stmt.targets[i + 1:])]
                    return [stmt]
                for path in _statement_paths(prog.body):
                    prog.body = _edit(prog.body, path, cut)
            yield out


def _references(s) -> set:
    names = set()
    for e in [x for let in s.lets for x in let_exprs(let)] + list(s.results):
        for node in model.walk(e):
            if isinstance(node, (Ref, Access, model.Item)):
                names.add(node.name)
            if isinstance(node, Access) and node.dyn and node.dyn.off:
                names.add(node.dyn.off)
    return names


def _drop_lets(file: File) -> Iterator[File]:
    for s in model.used_stencils(file):
        used = _references(s)
        for i, let in enumerate(s.lets):
            if not any(n in used for n in let_names(let)):
                out = copy.deepcopy(file)
                del out.stencil(s.name).lets[i]
                yield out


def _drop_params(file: File) -> Iterator[File]:
    """An unread stencil parameter, with its argument in every application and call."""
    for s in model.used_stencils(file):
        used = _references(s)
        for i, p in enumerate(s.params):
            if p.name in used:
                continue
            out = copy.deepcopy(file)
            del out.stencil(s.name).params[i]
            for prog in out.programs:
                def cut(stmt):
                    if isinstance(stmt, Apply) and stmt.stencil == s.name:
                        return [dataclasses.replace(stmt, args=stmt.args[:i] + stmt.args[i + 1:])]
                    return [stmt]
                for path in _statement_paths(prog.body):
                    prog.body = _edit(prog.body, path, cut)
            for t in out.stencils:
                t.lets = [dataclasses.replace(l, args=l.args[:i] + l.args[i + 1:])
                          if isinstance(l, LetCall) and l.stencil == s.name else l for l in t.lets]
                _map_stencil_exprs(t, lambda e: _drop_call_arg(e, s.name, i))
            yield out


def _drop_call_arg(e: Expr, callee: str, i: int) -> Expr:
    children = tuple(_drop_call_arg(c, callee, i) for c in e.children())
    e = e.with_children(children) if children else e
    if isinstance(e, model.Call) and e.stencil == callee:
        return dataclasses.replace(e, args=e.args[:i] + e.args[i + 1:])
    return e


def _map_stencil_exprs(s, fn) -> None:
    s.lets = [with_let_exprs(l, tuple(fn(e) for e in let_exprs(l))) for l in s.lets]
    s.results = [fn(e) for e in s.results]


# --- expressions


def _paths(e: Expr, prefix=()) -> Iterator[tuple]:
    yield prefix
    for i, child in enumerate(e.children()):
        yield from _paths(child, prefix + (i,))


def _at(e: Expr, path: tuple) -> Expr:
    for i in path:
        e = e.children()[i]
    return e


def _replace(e: Expr, path: tuple, new: Expr) -> Expr:
    if not path:
        return new
    children = list(e.children())
    children[path[0]] = _replace(children[path[0]], path[1:], new)
    return e.with_children(tuple(children))


def _smaller(e: Expr) -> Iterator[Expr]:
    """Simpler expressions of the same type to put in e's place."""
    if not isinstance(e, Lit):
        literal = {"bool": "false", "i32": "1"}.get(e.ty, "1.0")
        yield typed(Lit(e.ty, literal))
    for child in e.children():
        if child.ty == e.ty:
            yield child
    if isinstance(e, Access):
        if e.dyn:
            yield dataclasses.replace(e, dyn=None)
        if e.koff:
            yield dataclasses.replace(e, koff=0, shifted=False)
        if e.conn and e.slot is not None:
            yield Ref(e.ty, e.name) if not e.koff else dataclasses.replace(e, conn=None, slot=None)


def _expression_slots(file: File) -> Iterator[tuple[Callable, Callable]]:
    """(get, set) pairs for every expression root of the used stencils and the programs."""
    for s in model.used_stencils(file):
        for li, let in enumerate(s.lets):
            for ei in range(len(let_exprs(let))):
                def get(f, n=s.name, li=li, ei=ei):
                    return let_exprs(f.stencil(n).lets[li])[ei]

                def put(f, e, n=s.name, li=li, ei=ei):
                    t = f.stencil(n)
                    exprs = list(let_exprs(t.lets[li]))
                    exprs[ei] = e
                    t.lets[li] = with_let_exprs(t.lets[li], tuple(exprs))
                yield get, put
        for ri in range(len(s.results)):
            def get(f, n=s.name, ri=ri):
                return f.stencil(n).results[ri]

            def put(f, e, n=s.name, ri=ri):
                f.stencil(n).results[ri] = e
            yield get, put
    for index, path, stmt in list(_applies(file)):
        for ai, arg in enumerate(stmt.args):
            if isinstance(arg, Expr):
                def get(f, index=index, path=path, ai=ai):
                    return _statement_at(f.programs[index].body, path).args[ai]

                def put(f, e, index=index, path=path, ai=ai):
                    prog = f.programs[index]
                    prog.body = _edit(prog.body, path, lambda s: [dataclasses.replace(
                        s, args=s.args[:ai] + (e,) + s.args[ai + 1:])])
                yield get, put


def _simplify_expressions(file: File) -> Iterator[File]:
    for get, put in list(_expression_slots(file)):
        root = get(file)
        for path in _paths(root):
            for new in _smaller(_at(root, path)):
                out = copy.deepcopy(file)
                put(out, _replace(root, path, new))
                yield out


# --- domains and settings


def _shrink_domains(file: File) -> Iterator[File]:
    """Narrower ranges and literal bounds; a point list's box instead of the list, and
    narrower lists."""
    for index, path, stmt in list(_applies(file)):
        d = stmt.domain
        if d.points:
            pl = file.points[d.points]
            hlo, hhi, klo, khi = pl.region(file.nlev)
            box = Domain(pl.loc, HBound(hlo), HBound(hhi), KBound("0", klo),
                         KBound("nlev", khi - file.nlev))
            yield _replace_apply(file, index, path, dataclasses.replace(stmt, domain=box))
            continue
        options = []
        if d.loc:
            lo, hi = d.hlo.marker, d.hhi.marker
            # up to start(INTERIOR): [m, end) stays non-empty on both grids
            top = min(hi, model.INTERIOR_MARKER[d.loc] + 1)
            options += [dataclasses.replace(d, hlo=HBound(m)) for m in range(lo + 1, top)]
            options += [dataclasses.replace(d, hhi=HBound(m)) for m in range(hi - 1, lo, -1)]
        if d.klo is not None and d.explicit_k:
            if d.klo.param or d.khi.param:
                options.append(dataclasses.replace(d, klo=dataclasses.replace(d.klo, param=False),
                                                   khi=dataclasses.replace(d.khi, param=False)))
            if d.klo.value(file.nlev) + 1 < d.khi.value(file.nlev):  # never empty
                options.append(dataclasses.replace(d, klo=KBound("0", d.klo.value(file.nlev) + 1)))
                options.append(dataclasses.replace(d, khi=KBound("nlev", d.khi.const - 1)))
        for new in options:
            yield _replace_apply(file, index, path, dataclasses.replace(stmt, domain=new))


def _shrink_lists(file: File) -> Iterator[File]:
    """Point lists over fewer points and levels, `fraction` for `nonzero`."""
    for name in {n for prog in file.programs for n in model.referenced_lists(prog)}:
        pl = file.points[name]
        hlo, hhi, klo, khi = pl.region(file.nlev)
        options = []
        if pl.kind == "nonzero":
            options.append(dataclasses.replace(pl, kind="fraction", fraction="0.5", field=None,
                                               program=None))
        top = min(hhi, model.INTERIOR_MARKER[pl.loc] + 1)
        options += [dataclasses.replace(pl, hlo=m) for m in range(hlo + 1, top)]
        options += [dataclasses.replace(pl, hhi=m) for m in range(hhi - 1, hlo, -1)]
        if klo + 1 < khi:
            options.append(dataclasses.replace(pl, klo=KBound("0", klo + 1)))
            options.append(dataclasses.replace(pl, khi=dataclasses.replace(pl.khi, const=pl.khi.const - 1)))
        for new in options:
            out = copy.deepcopy(file)
            out.points[name] = new
            yield out


def _simplify_file(file: File) -> Iterator[File]:
    if file.f32:
        out = copy.deepcopy(file)
        out.f32 = False
        yield out


# ----------------------------------------------------------------------------------------
# Regression tests


def regression_name(failure: runner.Failure, file: File) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", (failure.pipeline or "reference").lower()).strip("-")[:40]
    return f"{failure.kind}-{slug}-s{file.seed}-f{file.index}"


def write_regression(file: File, failure: runner.Failure, pipelines: list[str],
                     directory: Path, name: str) -> Path:
    """`<name>.stn` (with lit RUN/CHECK lines running every pipeline on the interpreter and
    on C++) and `<name>.inputs.yaml`, which fusec-bench finds next to it."""
    count = len(file.programs) * len(pipelines)
    flags = " ".join(f"-D {d}" for d in file.defines())
    command = (f"%fusec-bench run %s -I %stencils --grid {failure.grid} --nlev {file.nlev} "
               f"--inputs random --seed {file.index} --repeat 0 --warmup 0 {flags}".rstrip())
    header = [
        f"// Found by fusec-fuzz (seed {file.seed}, file {file.index}) and reduced: "
        f"{failure.kind} of {failure.program or 'the file'} "
        f"{f'under {failure.pipeline!r}' if failure.pipeline else 'in the reference run'} "
        f"({failure.backend}, {failure.grid}).",
    ]
    # the failure as seen, without the temporary directory it was seen in
    header += ["// " + re.sub(r"[^\s:]*/([^/\s:]+\.stn)", r"\1", line)
               for line in failure.detail.splitlines()[:2]]
    for backend in ("interp", "cpp"):
        header += [f"// RUN: {command} \\",
                   f"// RUN:     --pipelines '{','.join(pipelines)}' --backend {backend} \\",
                   "// RUN:   | FileCheck %s"]
    if failure.backend in runner.BACKEND_ARGUMENTS:  # cpp-blocked, cpp-columns: its layout too
        header += [f"// RUN: {command} \\",
                   f"// RUN:     --pipelines '{','.join(pipelines)}' "
                   f"{' '.join(runner.BACKEND_ARGUMENTS[failure.backend])} \\",
                   "// RUN:   | FileCheck %s"]
    header.append(f"// CHECK: summary: {count} of {count} passed")
    if failure.backend in runner.CONFIG_BACKENDS:
        split = 2 * len(file.programs)
        header += [f"// RUN: {command} \\",
                   f"// RUN:     --pipelines fuse-all {' '.join(runner.CONFIG_BACKENDS[failure.backend])} "
                   f"--config %S/{name}.split.yaml \\",
                   "// RUN:   | FileCheck %s --check-prefix=SPLIT",
                   f"// SPLIT: summary: {split} of {split} passed"]
    stn, _ = runner.write_files(file, directory, name, "\n".join(header) + "\n")
    return stn
