"""The program model of fusec-fuzz: `.stn` files as data, their text, and their validity.

The generator builds a `File` of stencils and programs, the reducer edits it, and both rely
on the same three services of this module:

* `render_stn` / `render_inputs` print a file and the `.inputs.yaml` fusec-bench calls it with;
* `problems` checks what the compiler cannot check but the oracle needs for a meaningful
  comparison: every read stays inside the levels of the field it reads (fusec-bench's
  interpreter reports out-of-range reads as errors), program-local `var` buffers are read
  only where the program wrote them in the same run (their other contents are undefined),
  and applications on point lists (`@ list`) keep fusec's rules for them (`list_problems`);
* `features` lists the language constructs a program exercises (`--coverage`).

Horizontal domain bounds are zone markers (`start(NUDGING, Cell)`, ...) passed as scalar
parameters. The markers of each location are listed in an order that holds on every grid
(on a global grid the lateral-boundary and nudging zones collapse to 0), so comparing marker
indices compares the bounds on the limited-area and on the global grid alike. Vertical bounds
are `c` or `nlev + c`, evaluated with the file's `nlev`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Iterator, Optional, Union

LOCATIONS = ("Cell", "Edge", "Vertex")

# The connectivities of stencils/icon.stn: name -> (source, target, neighbours, may hold -1).
CONNECTIVITIES = {
    "E2C": ("Edge", "Cell", 2, True),
    "E2V": ("Edge", "Vertex", 2, True),
    "E2C2V": ("Edge", "Vertex", 4, True),
    "E2C2E": ("Edge", "Edge", 4, True),
    "E2C2EO": ("Edge", "Edge", 5, True),
    "C2E": ("Cell", "Edge", 3, False),
    "C2V": ("Cell", "Vertex", 3, False),
    "C2E2C": ("Cell", "Cell", 3, True),
    "C2E2CO": ("Cell", "Cell", 4, True),
    "C2E2C2E": ("Cell", "Edge", 9, True),
    "C2E2C2E2C": ("Cell", "Cell", 9, True),
    "V2E": ("Vertex", "Edge", 6, True),
    "V2C": ("Vertex", "Cell", 6, True),
    "V2E2V": ("Vertex", "Vertex", 6, True),
}


def connectivities_from(location: str) -> list[str]:
    return [name for name, (src, _, _, _) in CONNECTIVITIES.items() if src == location]


# Horizontal bound markers per location, in an order that holds on every grid: (name of the
# scalar parameter, its value in the inputs file). Marker 0 is the literal 0.
_ZONES = {
    "Cell": ["LATERAL_BOUNDARY_LEVEL_2", "LATERAL_BOUNDARY_LEVEL_4", "NUDGING", "INTERIOR"],
    "Edge": ["LATERAL_BOUNDARY_LEVEL_2", "LATERAL_BOUNDARY_LEVEL_5", "NUDGING",
             "NUDGING_LEVEL_2", "INTERIOR"],
    "Vertex": ["LATERAL_BOUNDARY_LEVEL_2", "LATERAL_BOUNDARY_LEVEL_4", "NUDGING", "INTERIOR"],
}
_SHORT = {"LATERAL_BOUNDARY_LEVEL_2": "lb2", "LATERAL_BOUNDARY_LEVEL_4": "lb4",
          "LATERAL_BOUNDARY_LEVEL_5": "lb5", "NUDGING": "nudging",
          "NUDGING_LEVEL_2": "nudging2", "INTERIOR": "interior"}
MARKERS = {
    loc: [("0", None)]
    + [(f"{loc.lower()}_{_SHORT[z]}", f"start({z}, {loc})") for z in zones]
    + [(f"{loc.lower()}_local", f"end(LOCAL, {loc})"), (f"{loc.lower()}_end", f"end(END, {loc})")]
    for loc, zones in _ZONES.items()
}


def last_marker(location: str) -> int:
    return len(MARKERS[location]) - 1


# Every start up to start(INTERIOR) is 0 on a global grid: domains ending there are empty there.
INTERIOR_MARKER = {loc: [m[0] for m in ms].index(f"{loc.lower()}_interior")
                   for loc, ms in MARKERS.items()}


# ----------------------------------------------------------------------------------------
# Types


@dataclass(frozen=True)
class FieldType:
    """`field<loc, sparse, vert, elem>`; any of loc, sparse and vert may be absent."""

    loc: Optional[str]
    sparse: Optional[str]
    vert: Optional[str]  # "K", "KHalf" or None
    elem: str  # "wp", "vp", "i32" or "bool"

    def text(self) -> str:
        dims = [d for d in (self.loc, self.sparse, self.vert) if d]
        return f"field<{', '.join(dims + [self.elem])}>"


Type = Union[FieldType, str]  # a field type or a scalar type name


def levels(vert: Optional[str], nlev: int) -> Optional[int]:
    return {"K": nlev, "KHalf": nlev + 1}.get(vert) if vert else None


# ----------------------------------------------------------------------------------------
# Expressions (stencil bodies and program-level scalar expressions). Nodes are immutable;
# `children`/`with_children` let the reducer walk and rebuild them generically.


@dataclass(frozen=True)
class Expr:
    ty: str

    def children(self) -> tuple["Expr", ...]:
        return ()

    def with_children(self, children: tuple["Expr", ...]) -> "Expr":
        return self


@dataclass(frozen=True)
class Lit(Expr):
    text: str


@dataclass(frozen=True)
class Ref(Expr):
    """A name alone: a scalar, a field or let at the current point, a sparse field's current
    fold entry."""

    name: str


@dataclass(frozen=True)
class DynLevel:
    """The data-dependent part of a level subscript.

    kind "offset": `K + off` (off an i32 field filled by the `vertoffset` generator, so that
    k + off stays in [0, nlev-2]); "guarded": `K + where(guard, off, 0)`; "absolute":
    `K + (level - index(K))`, which reads the absolute level `level`."""

    kind: str
    off: Optional[str] = None
    guard: Optional[Expr] = None
    level: int = 0


@dataclass(frozen=True)
class Access(Expr):
    """`name[conn:slot, K + koff]`: slot None inside a fold or each over conn."""

    name: str
    conn: Optional[str] = None
    slot: Optional[int] = None
    koff: int = 0
    dyn: Optional[DynLevel] = None
    shifted: bool = False  # print the vertical subscript even when koff is 0: f[K]


@dataclass(frozen=True)
class Unary(Expr):
    op: str
    arg: Expr

    def children(self):
        return (self.arg,)

    def with_children(self, children):
        return dataclasses.replace(self, arg=children[0])


@dataclass(frozen=True)
class Binary(Expr):
    """Arithmetic, logic and comparisons; `^` takes an integer literal exponent."""

    op: str
    lhs: Expr
    rhs: Expr

    def children(self):
        return (self.lhs, self.rhs)

    def with_children(self, children):
        return dataclasses.replace(self, lhs=children[0], rhs=children[1])


# Functions whose spelling guards their domain, so that values stay finite and the
# interpreter never divides by zero or converts an out-of-range value.
GUARDED = {
    "sqrt": "sqrt(abs({0}) + 1.0)",
    "log": "log(abs({0}) + 1.0)",
    "exp": "exp(min({0}, 5.0))",
    "rpow": "(abs({0}) + 1.0) ^ 1.5",
    "fdiv": "({0} / (abs({1}) + 1.0))",
    "idiv": "({0} / (max({1}, 0) + 1))",
    "toint": "i32(min(max({0}, -100.0), 100.0))",
}


@dataclass(frozen=True)
class Func(Expr):
    """Built-in functions, conversions (`wp(x)`, ...) and the guarded forms of GUARDED."""

    name: str
    args: tuple[Expr, ...]

    def children(self):
        return self.args

    def with_children(self, children):
        return dataclasses.replace(self, args=tuple(children))


@dataclass(frozen=True)
class Call(Expr):
    """A call of a one-output stencil, read at the current point."""

    stencil: str
    args: tuple[Expr, ...]

    def children(self):
        return self.args

    def with_children(self, children):
        return dataclasses.replace(self, args=tuple(children))


@dataclass(frozen=True)
class Fold(Expr):
    op: str  # sum, min, max, prod
    conn: str
    body: Expr

    def children(self):
        return (self.body,)

    def with_children(self, children):
        return dataclasses.replace(self, body=children[0])


@dataclass(frozen=True)
class Index(Expr):
    loc: str  # Cell, Edge, Vertex or K


@dataclass(frozen=True)
class Item(Expr):
    """`v[slot]` of a list bound by `let v = each(X) e`."""

    name: str
    slot: int


def walk(expr: Expr) -> Iterator[Expr]:
    """The expression and all its sub-expressions (guards of data-dependent levels too)."""
    yield expr
    if isinstance(expr, Access) and expr.dyn and expr.dyn.guard:
        yield from walk(expr.dyn.guard)
    for child in expr.children():
        yield from walk(child)


# ----------------------------------------------------------------------------------------
# Stencils


@dataclass(frozen=True)
class Param:
    name: str
    ty: Type
    role: str = "data"  # "offset": an i32 field that must hold vertoffset values


@dataclass(frozen=True)
class LetExpr:
    name: str
    value: Expr


@dataclass(frozen=True)
class LetEach:
    name: str
    conn: str
    value: Expr


@dataclass(frozen=True)
class LetCall:
    names: tuple[str, ...]
    stencil: str
    args: tuple[Expr, ...]


Let = Union[LetExpr, LetEach, LetCall]


def let_names(let: Let) -> tuple[str, ...]:
    return let.names if isinstance(let, LetCall) else (let.name,)


def let_exprs(let: Let) -> tuple[Expr, ...]:
    return let.args if isinstance(let, LetCall) else (let.value,)


def with_let_exprs(let: Let, exprs: tuple[Expr, ...]) -> Let:
    if isinstance(let, LetCall):
        return dataclasses.replace(let, args=tuple(exprs))
    return dataclasses.replace(let, value=exprs[0])


@dataclass
class Stencil:
    name: str
    loc: Optional[str]  # None: the stencil lives on levels only
    vert: Optional[str]  # "K", "KHalf" or None (2-D)
    params: list[Param]
    outputs: list[tuple[str, FieldType]]
    lets: list[Let] = field(default_factory=list)
    results: list[Expr] = field(default_factory=list)

    def param(self, name: str) -> Optional[Param]:
        return next((p for p in self.params if p.name == name), None)

    def let(self, name: str) -> Optional[Let]:
        return next((l for l in self.lets if name in let_names(l)), None)


# ----------------------------------------------------------------------------------------
# Programs


@dataclass(frozen=True)
class ProgField:
    ty: FieldType
    role: str = "data"  # "offset" (vertoffset values, never written) or "data"
    var: bool = False
    prefer_inout: bool = False  # written and read only after: inout rather than out


@dataclass(frozen=True)
class HBound:
    marker: int  # index into MARKERS[loc]


@dataclass(frozen=True)
class KBound:
    base: str  # "0" or "nlev"
    const: int
    param: bool = False  # spelled as a scalar parameter (a run-time value)

    def value(self, nlev: int) -> int:
        return self.const + (nlev if self.base == "nlev" else 0)

    def text(self) -> str:
        if self.base == "0":
            return str(self.const)
        return "nlev" if self.const == 0 else f"nlev {'+' if self.const > 0 else '-'} {abs(self.const)}"

    def param_name(self) -> str:
        if self.base == "0":
            return f"k{self.const}"
        return "knlev" + ("" if self.const == 0 else ("_p" if self.const > 0 else "_m") + str(abs(self.const)))


@dataclass(frozen=True)
class PointList:
    """A `points<loc, K>` program parameter and the generator of the inputs file that lists
    its entries: the (point, level) pairs with the point in markers [hlo, hhi) and the level
    in [klo, khi): all of them (`all`), a random share of them (`fraction`), or those where
    the program's bool field `field` is true (`nonzero`; the list then belongs to `program`)."""

    loc: str
    kind: str  # "fraction", "all" or "nonzero"
    hlo: int  # markers, as HBound
    hhi: int
    klo: KBound
    khi: KBound
    fraction: str = "1"  # fraction: the share, as spelled
    field: Optional[str] = None  # nonzero: a field<loc, K, bool> of `program`
    program: Optional[str] = None  # nonzero: the only program the list may appear in

    def region(self, nlev: int) -> tuple[int, int, int, int]:
        """Where its entries lie: (hlo, hhi) markers and [klo, khi) levels."""
        return self.hlo, self.hhi, self.klo.value(nlev), self.khi.value(nlev)

    def text(self) -> str:
        """The generator, as the inputs file spells it."""
        bounds = [MARKERS[self.loc][m][1] or "0" for m in (self.hlo, self.hhi)]
        if (self.klo.base, self.klo.const, self.khi.base, self.khi.const) != ("0", 0, "nlev", 0):
            bounds += [self.klo.text(), self.khi.text()]
        head = {"fraction": [self.fraction], "all": [], "nonzero": [self.field or ""]}[self.kind]
        return f"{self.kind}({', '.join(head + bounds)})"


@dataclass(frozen=True)
class Domain:
    loc: Optional[str]  # None for vertical-only stencils
    hlo: Optional[HBound]  # None for lists too
    hhi: Optional[HBound]
    klo: Optional[KBound]  # None for 2-D stencils and lists
    khi: Optional[KBound]
    explicit_k: bool = True  # False: `K[...]` omitted (all levels of the output)
    points: Optional[str] = None  # `@ points`: a PointList of the file (loc is its location)


@dataclass(frozen=True)
class Apply:
    targets: tuple[str, ...]
    stencil: str
    args: tuple[Union[str, Expr], ...]  # field names for field parameters, else expressions
    domain: Domain


@dataclass(frozen=True)
class Exchange:
    names: tuple[str, ...]


@dataclass(frozen=True)
class If:
    cond: Expr
    then: tuple
    orelse: Optional[tuple] = None


Stmt = Union[Apply, Exchange, If]


@dataclass
class Program:
    name: str
    fields: dict[str, ProgField]  # parameters and vars; only referenced ones are declared
    body: list[Stmt]


@dataclass
class File:
    seed: int
    index: int
    nlev: int
    f32: bool  # run with -D vp=f32
    stencils: list[Stencil]
    programs: list[Program]
    scalars: dict[str, tuple[str, str]]  # name -> (type, value in the inputs file)
    points: dict[str, PointList] = field(default_factory=dict)  # point-list parameters

    def stencil(self, name: str) -> Stencil:
        return next(s for s in self.stencils if s.name == name)

    def defines(self) -> list[str]:
        return ["vp=f32"] if self.f32 else []


def statements(body) -> Iterator[Stmt]:
    """Every statement of a body, including those nested in `if`s, in program order."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, If):
            yield from statements(stmt.then)
            yield from statements(stmt.orelse or ())


# ----------------------------------------------------------------------------------------
# Printing

def expr_text(e: Expr) -> str:
    if isinstance(e, Lit):
        return e.text
    if isinstance(e, Ref):
        return e.name
    if isinstance(e, Index):
        return f"index({e.loc})"
    if isinstance(e, Item):
        return f"{e.name}[{e.slot}]"
    if isinstance(e, Access):
        subs = []
        if e.conn:
            subs.append(e.conn if e.slot is None else f"{e.conn}:{e.slot}")
        vertical = ""
        if e.dyn:
            if e.dyn.kind == "offset":
                vertical = f"K + {e.dyn.off}"
            elif e.dyn.kind == "guarded":
                vertical = f"K + where({expr_text(e.dyn.guard)}, {e.dyn.off}, 0)"
            else:
                vertical = f"K + ({e.dyn.level} - index(K))"
        if e.koff or e.shifted or e.dyn:
            vertical = vertical or "K"
            if e.koff:
                vertical += f" {'+' if e.koff > 0 else '-'} {abs(e.koff)}"
            subs.append(vertical)
        return f"{e.name}[{', '.join(subs)}]" if subs else e.name
    if isinstance(e, Unary):
        return f"{e.op}{operand(e.arg)}"
    if isinstance(e, Binary):
        return f"{operand(e.lhs)} {e.op} {operand(e.rhs)}"
    if isinstance(e, Func):
        if e.name in GUARDED:
            return GUARDED[e.name].format(*(operand(a) if e.name == "rpow" else expr_text(a)
                                            for a in e.args))
        return f"{e.name}({', '.join(expr_text(a) for a in e.args)})"
    if isinstance(e, Call):
        return f"{e.stencil}({', '.join(expr_text(a) for a in e.args)})"
    if isinstance(e, Fold):
        return f"({e.op}({e.conn}) {operand(e.body)})"
    raise TypeError(e)


def operand(e: Expr) -> str:
    """An operand of an operator: parenthesised unless it is a primary or a fold (which
    prints its own parentheses), so that no precedence rule of the language matters."""
    text = expr_text(e)
    primary = isinstance(e, (Lit, Ref, Access, Call, Index, Item, Fold)) or (
        isinstance(e, Func) and e.name != "rpow")
    return text if primary else f"({text})"


def _type_text(ty: Type) -> str:
    return ty.text() if isinstance(ty, FieldType) else ty


def render_stencil(s: Stencil) -> str:
    params = ", ".join(f"{p.name}: {_type_text(p.ty)}" for p in s.params)
    if len(s.outputs) == 1:
        outputs = s.outputs[0][1].text()
    else:
        outputs = "(" + ", ".join(f"{n}: {t.text()}" for n, t in s.outputs) + ")"
    lines = [f"stencil {s.name}({params}) -> {outputs}", "{"]
    for let in s.lets:
        if isinstance(let, LetExpr):
            lines.append(f"  let {let.name} = {expr_text(let.value)};")
        elif isinstance(let, LetEach):
            lines.append(f"  let {let.name} = each({let.conn}) {operand(let.value)};")
        else:
            names = let.names[0] if len(let.names) == 1 else "(" + ", ".join(let.names) + ")"
            args = ", ".join(expr_text(a) for a in let.args)
            lines.append(f"  let {names} = {let.stencil}({args});")
    results = [expr_text(r) for r in s.results]
    lines.append(f"  return {results[0] if len(results) == 1 else '(' + ', '.join(results) + ')'};")
    lines.append("}")
    return "\n".join(lines)


def _domain_text(d: Domain) -> str:
    if d.points:
        return d.points
    parts = []
    if d.loc:
        parts.append(f"{d.loc}[{MARKERS[d.loc][d.hlo.marker][0]}:{MARKERS[d.loc][d.hhi.marker][0]}]")
    if d.klo and d.explicit_k:
        lo, hi = (b.param_name() if b.param else b.text() for b in (d.klo, d.khi))
        parts.append(f"K[{lo}:{hi}]")
    return ", ".join(parts)


def _render_body(body, indent: str, out: list[str]) -> None:
    for stmt in body:
        if isinstance(stmt, Apply):
            targets = stmt.targets[0] if len(stmt.targets) == 1 else "(" + ", ".join(stmt.targets) + ")"
            args = ", ".join(a if isinstance(a, str) else expr_text(a) for a in stmt.args)
            out.append(f"{indent}{targets} = {stmt.stencil}({args}) @ {_domain_text(stmt.domain)};")
        elif isinstance(stmt, Exchange):
            out.append(f"{indent}exchange {', '.join(stmt.names)};")
        else:
            out.append(f"{indent}if ({expr_text(stmt.cond)}) {{")
            _render_body(stmt.then, indent + "  ", out)
            if stmt.orelse is not None:
                out.append(f"{indent}}} else {{")
                _render_body(stmt.orelse, indent + "  ", out)
            out.append(f"{indent}}}")


def referenced_lists(prog: Program) -> list[str]:
    """The point lists the program applies stencils on, in order of first use."""
    names: list[str] = []
    for stmt in statements(prog.body):
        if isinstance(stmt, Apply) and stmt.domain.points and stmt.domain.points not in names:
            names.append(stmt.domain.points)
    return names


def referenced_names(prog: Program, file: Optional[File] = None) -> tuple[list[str], list[str], list[str]]:
    """The program's field names, file scalars and bound parameters it references, each in a
    deterministic order (fields in table order); with `file`, the fields that its `nonzero`
    point lists read count too."""
    fields, scalars, bounds = set(), set(), set()
    if file is not None:
        fields.update(file.points[n].field for n in referenced_lists(prog) if file.points[n].field)
    for stmt in statements(prog.body):
        if isinstance(stmt, Apply):
            fields.update(stmt.targets)
            for a in stmt.args:
                if isinstance(a, str):
                    fields.add(a)
                else:
                    scalars.update(r.name for r in walk(a) if isinstance(r, Ref))
            d = stmt.domain
            if d.loc and not d.points:
                bounds.update(MARKERS[d.loc][b.marker][0] for b in (d.hlo, d.hhi) if b.marker)
            if d.klo and d.explicit_k:
                bounds.update(b.param_name() for b in (d.klo, d.khi) if b.param)
        elif isinstance(stmt, Exchange):
            fields.update(stmt.names)
        else:
            scalars.update(r.name for r in walk(stmt.cond) if isinstance(r, Ref))
    return ([n for n in prog.fields if n in fields], sorted(scalars), sorted(bounds))


def intents(prog: Program) -> dict[str, str]:
    """The intent of each field parameter: `inout` when the program may read it before it
    surely wrote it (or when the generator preferred inout), `out` when written, else `in`.
    Writes inside an `if` do not count as sure writes after it."""
    written, early_read = set(), set()

    def visit(body, sure: set) -> None:
        for stmt in body:
            if isinstance(stmt, Apply):
                early_read.update(a for a in stmt.args if isinstance(a, str) and a not in sure)
                written.update(stmt.targets)
                sure.update(stmt.targets)
            elif isinstance(stmt, If):
                visit(stmt.then, set(sure))
                visit(stmt.orelse or (), set(sure))

    visit(prog.body, set())
    result = {}
    for name, f in prog.fields.items():
        if name not in written:
            result[name] = "in"
        else:
            result[name] = "inout" if name in early_read or f.prefer_inout else "out"
    return result


def render_program(file: File, prog: Program) -> str:
    fields, scalars, bounds = referenced_names(prog, file)
    modes = intents(prog)
    params = []
    for name in fields:
        f = prog.fields[name]
        if not f.var:
            prefix = "" if modes[name] == "in" else modes[name] + " "
            params.append(f"{prefix}{name}: {f.ty.text()}")
    params += [f"{n}: points<{file.points[n].loc}, K>" for n in referenced_lists(prog)]
    params += [f"{n}: {file.scalars[n][0]}" for n in scalars]
    params += [f"{n}: i32" for n in bounds]
    lines = [f"program {prog.name}({', '.join(params)})", "{"]
    lines += [f"  var {n}: {prog.fields[n].ty.text()};" for n in fields if prog.fields[n].var]
    _render_body(prog.body, "  ", lines)
    lines.append("}")
    return "\n".join(lines)


def used_stencils(file: File) -> list[Stencil]:
    """The stencils the programs apply, directly or through calls, in file order."""
    used: set[str] = set()

    def use(name: str) -> None:
        if name in used:
            return
        used.add(name)
        s = file.stencil(name)
        for let in s.lets:
            if isinstance(let, LetCall):
                use(let.stencil)
        for e in [x for let in s.lets for x in let_exprs(let)] + list(s.results):
            for node in walk(e):
                if isinstance(node, Call):
                    use(node.stencil)

    for prog in file.programs:
        for stmt in statements(prog.body):
            if isinstance(stmt, Apply):
                use(stmt.stencil)
    return [s for s in file.stencils if s.name in used]


def render_stn(file: File, header: str = "") -> str:
    """The file's text, after `header` (comment lines, e.g. a test's RUN lines)."""
    lines = header.rstrip("\n").split("\n") if header else []
    lines += [f"// fusec-fuzz: seed {file.seed}, file {file.index}: nlev {file.nlev}"
              + (", -D vp=f32" if file.f32 else ""),
              'import "icon.stn";', "", "precision wp = f64;", "precision vp = f64;", ""]
    for s in used_stencils(file):
        lines += [render_stencil(s), ""]
    for prog in file.programs:
        lines += [render_program(file, prog), ""]
    return "\n".join(lines)


def render_inputs(file: File) -> str:
    """The inputs file: zone markers and K bounds, the scalars' values, and the vertoffset
    generator for offset fields (everything else takes fusec-bench's defaults)."""
    scalars, bounds, offsets = set(), set(), set()
    shared, own = {}, {}  # point lists: file-wide, and nonzero lists per program
    for prog in file.programs:
        for n in referenced_lists(prog):
            pl = file.points[n]
            (own.setdefault(prog.name, {}) if pl.kind == "nonzero" else shared)[n] = pl.text()
        fields, s, b = referenced_names(prog, file)
        scalars.update(s)
        bounds.update(b)
        offsets.update(n for n in fields if prog.fields[n].role == "offset")
    values = {}
    for markers in MARKERS.values():
        values.update({name: value for name, value in markers[1:] if name in bounds})
    for prog in file.programs:
        for stmt in statements(prog.body):
            if isinstance(stmt, Apply) and stmt.domain.klo and stmt.domain.explicit_k:
                for b in (stmt.domain.klo, stmt.domain.khi):
                    if b.param:
                        values[b.param_name()] = b.text()
    values.update({n: file.scalars[n][1] for n in scalars})
    lines = [f"# fusec-fuzz: seed {file.seed}, file {file.index}"]
    if values:
        lines.append("scalars:")
        lines += [f"  {n}: {v}" for n, v in sorted(values.items())]
    if offsets:
        lines.append("fields:")
        lines += [f"  {n}: vertoffset" for n in sorted(offsets)]
    if shared:
        lines.append("points:")
        lines += [f"  {n}: {t}" for n, t in sorted(shared.items())]
    if own:
        lines.append("programs:")
        for prog, lists in sorted(own.items()):
            lines += [f"  {prog}:", "    points:"] + [f"      {n}: {t}" for n, t in sorted(lists.items())]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------------
# Validity: level reach and var definedness


@dataclass
class Reach:
    """How a stencil reads one field (or one of its temporaries): at neighbours or only at
    the current point; level offsets relative to the current level (`rel`), and offsets
    relative to the whole range [0, nlev) for reads at data-dependent levels (`absr`)."""

    neigh: bool = False
    rel: Optional[tuple[int, int]] = None
    absr: Optional[tuple[int, int]] = None

    def note(self, ctx: "Ctx") -> None:
        self.neigh |= ctx.neigh
        span = (ctx.d, ctx.d)
        if ctx.mode == "rel":
            self.rel = _hull(self.rel, span)
        else:
            self.absr = _hull(self.absr, span)


def _hull(a, b):
    return b if a is None else (min(a[0], b[0]), max(a[1], b[1]))


@dataclass(frozen=True)
class Ctx:
    """Where an expression is evaluated relative to the application's point and level."""

    neigh: bool = False
    mode: str = "rel"  # "rel": level k + d; "abs": a level in [d, nlev - 1 + d]
    d: int = 0


class ReachAnalysis:
    """Per stencil, the Reach of each field parameter and of each temporary (keys
    ("tmp", stencil, let) with the stencil's levels), through lets and calls."""

    def __init__(self, file: File):
        self.file = file
        self.stencils = {s.name: s for s in file.stencils}
        self.memo: dict[str, dict] = {}

    def reach(self, name: str) -> dict:
        if name not in self.memo:
            s = self.stencils[name]
            acc: dict = {}
            for result in s.results:
                self._expr(s, result, Ctx(), acc)
            # A let that nothing reads may still become an application: count it as read here.
            for let in s.lets:
                if not isinstance(let, LetEach):
                    self._name(s, let_names(let)[0], Ctx(), acc)
            self.memo[name] = acc
        return self.memo[name]

    def _expr(self, s: Stencil, e: Expr, ctx: Ctx, acc: dict) -> None:
        if isinstance(e, Ref):
            self._name(s, e.name, ctx, acc)
        elif isinstance(e, Access):
            neigh = ctx.neigh or e.conn is not None
            if e.dyn:
                if e.dyn.off:
                    self._name(s, e.dyn.off, ctx, acc)
                if e.dyn.guard:
                    self._expr(s, e.dyn.guard, ctx, acc)
                # A let read at a data-dependent level is computed on all levels of the
                # stencil: [0, nlev + 1) on half levels.
                top = 1 if s.param(e.name) is None and s.vert == "KHalf" else 0
                for d in range(top + 1):
                    self._name(s, e.name, Ctx(neigh, "abs", d), acc)
                if e.dyn.kind == "guarded":  # K + where(g, off, 0) reads level k when g is false
                    self._name(s, e.name, Ctx(neigh, ctx.mode, ctx.d + e.koff), acc)
            else:
                self._name(s, e.name, Ctx(neigh, ctx.mode, ctx.d + e.koff), acc)
        elif isinstance(e, Item):
            let = s.let(e.name)
            self._expr(s, let.value, ctx, acc)
        elif isinstance(e, Call):
            self._call(s, e.stencil, e.args, ctx, acc)
        else:
            for child in e.children():
                self._expr(s, child, ctx, acc)

    def _name(self, s: Stencil, name: str, ctx: Ctx, acc: dict) -> None:
        param = s.param(name)
        if param is not None:
            if isinstance(param.ty, FieldType):
                acc.setdefault(name, Reach()).note(ctx)
            return
        let = s.let(name)
        if let is None or isinstance(let, LetEach):
            return
        acc.setdefault(("tmp", s.name, let_names(let)[0]), Reach()).note(ctx)
        if isinstance(let, LetExpr):
            self._expr(s, let.value, ctx, acc)
        else:
            self._call(s, let.stencil, let.args, ctx, acc)

    def _call(self, s: Stencil, callee_name: str, args, ctx: Ctx, acc: dict) -> None:
        callee = self.stencils[callee_name]
        inner = self.reach(callee_name)
        for key, r in inner.items():
            if isinstance(key, tuple):  # a temporary of the callee, seen from here
                target = acc.setdefault(key, Reach())
                for span, mode in ((r.rel, "rel"), (r.absr, "abs")):
                    for d in span or ():
                        if mode == "abs":
                            target.note(Ctx(ctx.neigh or r.neigh, "abs", d))
                        else:
                            target.note(Ctx(ctx.neigh or r.neigh, ctx.mode, ctx.d + d))
                continue
            index = next(i for i, p in enumerate(callee.params) if p.name == key)
            arg = args[index]
            neigh = ctx.neigh or r.neigh
            contexts = [Ctx(neigh, ctx.mode, ctx.d + d) for d in (r.rel or ())]
            contexts += [Ctx(neigh, "abs", d) for d in (r.absr or ())]
            for c in contexts or [Ctx(neigh, ctx.mode, ctx.d)]:
                if not isinstance(arg, Ref):  # computed here into a temporary of its own
                    acc.setdefault(("tmp", s.name, f"{callee_name}.{key}"), Reach()).note(c)
                self._expr(s, arg, c, acc)


def k_values(file: File, stencil: Stencil, d: Domain) -> Optional[tuple[int, int]]:
    """The application's level range [klo, khi) at the file's nlev (None for 2-D). A point
    list's entries may lie at any level: fusec checks its reads against all of them."""
    if stencil.vert is None:
        return None
    if d.points or d.klo is None or not d.explicit_k:
        return 0, levels(stencil.vert, file.nlev)
    return d.klo.value(file.nlev), d.khi.value(file.nlev)


def _level_problems(what: str, r: Reach, count: Optional[int], klo: int, khi: int,
                    nlev: int) -> list[str]:
    if count is None or klo >= khi:
        return []
    out = []
    if r.rel and (klo + r.rel[0] < 0 or khi - 1 + r.rel[1] > count - 1):
        out.append(f"{what} read at levels [{klo + r.rel[0]}, {khi - 1 + r.rel[1]}] of {count}")
    if r.absr and (r.absr[0] < 0 or nlev - 1 + r.absr[1] > count - 1):
        out.append(f"{what} read at data-dependent levels shifted by {r.absr} of {count}")
    return out


def apply_problems(file: File, analysis: ReachAnalysis, prog: Program, stmt: Apply,
                   defined: dict) -> list[str]:
    """Why an application is not valid after the statements that produced `defined` (the
    region each var holds defined values in: markers and levels)."""
    s = analysis.stencils.get(stmt.stencil)
    if s is None or len(stmt.args) != len(s.params) or len(stmt.targets) != len(s.outputs):
        return [f"{stmt.stencil}: wrong stencil or arity"]
    out = []
    nlev = file.nlev
    kr = k_values(file, s, stmt.domain)
    klo, khi = kr if kr else (0, 0)
    listed = None  # a point list: where its entries lie (markers and levels)
    if stmt.domain.points:
        pl = file.points.get(stmt.domain.points)
        if pl is None:
            return [f"{stmt.domain.points} is not a point list of the file"]
        if pl.program not in (None, prog.name):
            out.append(f"point list {stmt.domain.points} belongs to {pl.program}")
        if pl.field is not None and (pl.field not in prog.fields or prog.fields[pl.field].var
                                     or prog.fields[pl.field].ty != FieldType(pl.loc, None, "K", "bool")):
            out.append(f"point list {stmt.domain.points} reads {pl.field}, not a bool field on {pl.loc}")
        out += [f"{s.name} on point list {stmt.domain.points}: {p}"
                for p in list_problems(analysis, s, pl.loc)]
        listed = pl.region(nlev)
    bound = {}
    for p, a in zip(s.params, stmt.args):
        if isinstance(p.ty, FieldType):
            if not isinstance(a, str) or a not in prog.fields:
                return [f"{s.name}: argument for {p.name} is not a field"]
            f = prog.fields[a]
            if (p.role == "offset") != (f.role == "offset"):
                out.append(f"{a} bound to {p.name}: offset roles differ")
            bound[p.name] = (a, f)
    for key, r in analysis.reach(s.name).items():
        if isinstance(key, tuple):
            vert = analysis.stencils[key[1]].vert
            if kr:
                out += _level_problems(f"temporary {key[2]} of {key[1]}", r, levels(vert, nlev),
                                       klo, khi, nlev)
            continue
        name, f = bound[key]
        if kr:
            out += _level_problems(name, r, levels(f.ty.vert, nlev), klo, khi, nlev)
        if f.var:
            if listed:
                hlo, hhi, lklo, lkhi = listed
                out += _var_problems(file, name, f, r, (stmt.domain.loc, hlo, hhi),
                                     (lklo, lkhi), defined.get(name))
            else:
                d = stmt.domain
                h = (d.loc, d.hlo.marker, d.hhi.marker) if d.loc else (None, None, None)
                out += _var_problems(file, name, f, r, h, kr, defined.get(name))
    for t, (_, oty) in zip(stmt.targets, s.outputs):
        f = prog.fields.get(t)
        if f is None or f.role != "data" or f.ty.loc != oty.loc or f.ty.elem != oty.elem \
                or (f.ty.vert != oty.vert and (f.ty.vert, oty.vert) != ("KHalf", "K")):
            out.append(f"target {t} does not fit output {oty.text()}")
        elif kr and (klo < 0 or khi > min(levels(f.ty.vert, nlev), levels(s.vert, nlev))):
            out.append(f"target {t} written at levels [{klo}, {khi})")
    if len(set(stmt.targets)) != len(stmt.targets):
        out.append("targets repeat")
    return out


def _var_problems(file: File, name: str, f: ProgField, r: Reach, h, kr, region) -> list:
    """Reads of var `name` by an application on markers h = (loc, lo, hi) and levels kr."""
    if region is None:
        return [f"var {name} read before it is written"]
    hlo, hhi, dklo, dkhi = region
    out = []
    loc, lo, hi = h
    if f.ty.loc and loc:
        if r.neigh:
            if hlo != 0 or hhi != last_marker(f.ty.loc):
                out.append(f"var {name} read at neighbours but written on part of {f.ty.loc}")
        elif lo < hlo or hi > hhi:
            out.append(f"var {name} read outside the points it was written at")
    if f.ty.vert and kr and kr[0] < kr[1]:
        klo, khi = kr
        reads = []
        if r.rel:
            reads.append((klo + r.rel[0], khi - 1 + r.rel[1]))
        if r.absr:
            reads.append((r.absr[0], file.nlev - 1 + r.absr[1]))
        for lo, hi in reads:
            if lo < dklo or hi > dkhi - 1:
                out.append(f"var {name} read at levels [{lo}, {hi}], written at [{dklo}, {dkhi})")
    return out


def write_region(file: File, s: Stencil, d: Domain):
    """The region an application writes: (hlo, hhi, klo, khi), markers and levels."""
    kr = k_values(file, s, d) or (None, None)
    h = (d.hlo.marker, d.hhi.marker) if d.loc else (None, None)
    return h + kr


def update_defined(defined: dict, prog: Program, file: File, s: Stencil, stmt: Apply) -> None:
    """Vars written by `stmt`: the region they are defined in grows when the write covers it.
    A point list defines no region (it writes some of its points only)."""
    if stmt.domain.points:
        return
    new = write_region(file, s, stmt.domain)
    for t in stmt.targets:
        if not prog.fields[t].var:
            continue
        old = defined.get(t)
        if old is None or _covers(new, old):
            defined[t] = new


def _covers(a, b) -> bool:
    def inside(lo_a, hi_a, lo_b, hi_b):
        return lo_a is None or (lo_a <= lo_b and hi_a >= hi_b)
    return inside(a[0], a[1], b[0], b[1]) and inside(a[2], a[3], b[2], b[3])


def list_problems(analysis: "ReachAnalysis", s: Stencil, loc: Optional[str] = None) -> list[str]:
    """Why stencil `s` may not be applied on a point list (of `loc`): it must live on that
    location with full levels, and each of its temporaries (lets read at neighbours or other
    levels, field arguments computed for calls, calls) must be read only at the entry's own
    point and level, which fusec checks ("'t' is read away from the entry of the point list
    being computed"). Its level reach is checked against all levels by apply_problems."""
    if s.loc is None or s.vert != "K" or (loc is not None and s.loc != loc):
        return [f"{s.name} does not live on {loc or 'a location'} with full levels"]
    out = []
    for key, r in analysis.reach(s.name).items():
        if isinstance(key, tuple) and (r.neigh or r.absr or (r.rel and r.rel != (0, 0))):
            out.append(f"temporary {key[2]} of {key[1]} is read away from the entry")
    return out


def problems(file: File) -> list[str]:
    """Everything that makes the file unfit for differential testing (empty when it is fit).
    Programs are checked statement by statement; writes inside an `if` define vars only
    within their branch."""
    analysis = ReachAnalysis(file)
    out = []
    for prog in file.programs:
        def visit(body, defined: dict) -> None:
            for stmt in body:
                if isinstance(stmt, Apply):
                    out.extend(f"{prog.name}: {p}"
                               for p in apply_problems(file, analysis, prog, stmt, defined))
                    if stmt.stencil in analysis.stencils:
                        update_defined(defined, prog, file, analysis.stencils[stmt.stencil], stmt)
                elif isinstance(stmt, Exchange):
                    out.extend(f"{prog.name}: exchange of unwritten var {n}" for n in stmt.names
                               if prog.fields[n].var and n not in defined)
                else:
                    visit(stmt.then, dict(defined))
                    visit(stmt.orelse or (), dict(defined))
        visit(prog.body, {})
    for s in file.stencils:
        names = {n for let in s.lets for n in let_names(let)}
        for e in [x for let in s.lets for x in let_exprs(let)] + list(s.results):
            for node in walk(e):
                if isinstance(node, (Ref, Access, Item)) and node.name not in names \
                        and s.param(node.name) is None:
                    out.append(f"{s.name}: {node.name} is not declared")
    return out


def kept_params(result: Expr) -> list[str]:
    """The names an output keeps under a condition: arms of its outer `where`s that are a
    name alone (generator.StencilGen.keep_where makes them)."""
    names: list[str] = []
    pending = [result]
    while pending:
        e = pending.pop()
        if isinstance(e, Func) and e.name == "where":
            pending.extend(e.args[1:])
        elif isinstance(e, Ref) and e.name not in names:
            names.append(e.name)
    return names


# ----------------------------------------------------------------------------------------
# Coverage

FEATURES = [
    ("loc:Cell", "stencil applied on cells"),
    ("loc:Edge", "stencil applied on edges"),
    ("loc:Vertex", "stencil applied on vertices"),
    ("stencil:KHalf", "stencil on half levels (KHalf)"),
    ("stencil:2d", "2-D stencil (no levels)"),
    ("stencil:konly", "vertical-only stencil (@ K[...])"),
    *[(f"conn:{c}", f"connectivity {c}") for c in CONNECTIVITIES],
    ("read:neighbour", "neighbour read f[X:j]"),
    ("read:neighbour-skip", "neighbour read through a skip table"),
    ("read:sparse", "sparse field read"),
    ("read:fold", "read at the current fold neighbour f[X]"),
    ("read:K-1", "read at K-n"),
    ("read:K+n", "read at K+n"),
    ("read:dyn", "data-dependent level f[K + off]"),
    ("read:dyn-guarded", "guarded data-dependent level K + where(c, off, 0)"),
    ("read:absolute", "absolute level K + (c - index(K))"),
    ("fold", "fold"),
    ("fold:sum", "sum fold"),
    ("fold:min", "min fold"),
    ("fold:max", "max fold"),
    ("fold:prod", "prod fold"),
    ("fold:nested", "nested folds"),
    ("let", "let"),
    ("let:neighbour", "let read at a neighbour (temporary)"),
    ("let:level", "let read at another level (temporary)"),
    ("let:dyn", "let read at a data-dependent level"),
    ("let:each", "each list + v[j]"),
    ("call:same", "stencil call on the same location"),
    ("call:other", "call on another location read through a connectivity"),
    ("call:multi", "call with several outputs"),
    ("where", "where"),
    ("index:predicate", "index predicate (index(...) in a comparison)"),
    ("math", "sqrt/exp/log/abs/floor/ceil/min/max"),
    ("power", "power ^"),
    ("convert", "conversion wp()/vp()/i32()"),
    ("field:KHalf", "KHalf field"),
    ("field:half-for-full", "KHalf field passed for a K parameter"),
    ("field:konly", "vertical-only field field<K, T>"),
    ("field:2d", "2-D field"),
    ("field:bool", "bool field"),
    ("field:i32-out", "i32 output"),
    ("prog:multi-apply", "several applies"),
    ("prog:overlap", "two applies with overlapping domains"),
    ("prog:disjoint", "two applies with disjoint domains"),
    ("prog:if", "if"),
    ("prog:else", "if with else"),
    ("prog:inout", "inout update in place (f = s(f))"),
    ("prog:inout-shifted", "in-place update reading the field at neighbours/levels"),
    ("prog:inout-kept", "in-place update keeping the value under a condition (f = where(c, x, f))"),
    ("prog:read-after-write", "field read after written"),
    ("prog:repeat-after-write", "same application repeated after a write to its input"),
    ("prog:exchange", "exchange"),
    ("prog:var", "var"),
    ("prog:k-params", "K bounds as run-time parameters"),
    ("prog:k-literal", "K bounds as literals / nlev"),
    ("prog:k-default", "K range omitted (all levels)"),
    ("prog:empty-global", "apply whose domain is empty on the global grid"),
    ("points", "application on a point list (@ list)"),
    ("points:Cell", "... of cells"),
    ("points:Edge", "... of edges"),
    ("points:Vertex", "... of vertices"),
    ("points:fraction", "... from fraction(F, ...)"),
    ("points:fraction-0", "... from fraction(0, ...): an empty list"),
    ("points:fraction-1", "... from fraction(1, ...): every pair"),
    ("points:all", "... from all(...)"),
    ("points:nonzero", "... from nonzero(mask, ...)"),
    ("points:levels", "... over a level sub-range"),
    ("points:twice", "one list applied twice in a program"),
    ("points:in-place", "list application updating a field it reads"),
    ("points:temporary", "list application computing temporaries (read at the entry)"),
    ("points:and-box", "list and box applications on the same location"),
    ("file:f32", "-D vp=f32"),
]


def _stencil_features(file: File, s: Stencil, seen: set, out: set) -> None:
    if s.name in seen:
        return
    seen.add(s.name)
    lets = {n: let for let in s.lets for n in let_names(let)}
    for let in s.lets:
        out.add("let")
        if isinstance(let, LetEach):
            out.add("let:each")
            out.add(f"conn:{let.conn}")
        if isinstance(let, LetCall):
            callee = file.stencil(let.stencil)
            out.add("call:multi" if len(let.names) > 1 else
                    "call:same" if callee.loc == s.loc else "call:other")
            _stencil_features(file, callee, seen, out)
    for p in s.params:
        if isinstance(p.ty, FieldType):
            if p.ty.elem == "bool":
                out.add("field:bool")
    for _, oty in s.outputs:
        if oty.elem == "i32":
            out.add("field:i32-out")

    def visit(e: Expr, folds: int) -> None:
        if isinstance(e, Fold):
            out.update({"fold", f"fold:{e.op}", f"conn:{e.conn}"})
            if folds:
                out.add("fold:nested")
            visit(e.body, folds + 1)
            return
        if isinstance(e, Access):
            if e.conn:
                out.add(f"conn:{e.conn}")
                param = s.param(e.name)
                sparse = param is not None and isinstance(param.ty, FieldType) and param.ty.sparse
                if sparse:
                    out.add("read:sparse")
                elif e.slot is not None:
                    out.add("read:neighbour")
                    if CONNECTIVITIES[e.conn][3]:
                        out.add("read:neighbour-skip")
                else:
                    out.add("read:fold")
            if e.koff < 0:
                out.add("read:K-1")
            if e.koff > 0:
                out.add("read:K+n")
            if e.dyn:
                out.add({"offset": "read:dyn", "guarded": "read:dyn-guarded",
                         "absolute": "read:absolute"}[e.dyn.kind])
                if e.dyn.guard:
                    visit(e.dyn.guard, folds)
            if e.name in lets:
                if e.conn:
                    out.add("let:neighbour")
                if e.koff:
                    out.add("let:level")
                if e.dyn:
                    out.add("let:dyn")
        elif isinstance(e, Ref):
            param = s.param(e.name)
            if param is not None and isinstance(param.ty, FieldType) and param.ty.sparse:
                out.add("read:sparse")
        elif isinstance(e, Func):
            if e.name == "where":
                out.add("where")
            elif e.name in ("wp", "vp", "f64", "f32", "i32", "toint"):
                out.add("convert")
            elif e.name == "rpow":
                out.add("power")
            elif e.name not in ("fdiv", "idiv"):
                out.add("math")
        elif isinstance(e, Binary):
            if e.op == "^":
                out.add("power")
            if e.op in ("<", "<=", ">", ">=", "==", "!=") and any(
                    isinstance(n, Index) for n in walk(e)):
                out.add("index:predicate")
        elif isinstance(e, Call):
            callee = file.stencil(e.stencil)
            out.add("call:same")
            _stencil_features(file, callee, seen, out)
        for child in e.children():
            visit(child, folds)

    for e in [x for let in s.lets for x in let_exprs(let)] + list(s.results):
        visit(e, 0)


def domain_markers(file: File, d: Domain) -> Optional[tuple[int, int]]:
    """The markers [lo, hi) a domain's points lie in (a list's: its generator's range)."""
    if d.points:
        pl = file.points[d.points]
        return pl.hlo, pl.hhi
    return (d.hlo.marker, d.hhi.marker) if d.loc else None


def features(file: File, prog: Program) -> set[str]:
    """The constructs of FEATURES that the program exercises (through its stencils too)."""
    out: set[str] = set()
    if file.f32:
        out.add("file:f32")
    seen: set[str] = set()
    applies = [s for s in statements(prog.body) if isinstance(s, Apply)]
    if len(applies) > 1:
        out.add("prog:multi-apply")
    for name in referenced_names(prog)[0]:
        f = prog.fields[name]
        if f.var:
            out.add("prog:var")
        if f.ty.vert == "KHalf":
            out.add("field:KHalf")
        if f.ty.vert and not f.ty.loc:
            out.add("field:konly")
        if f.ty.loc and not f.ty.vert:
            out.add("field:2d")
    written: set[str] = set()
    history: list[tuple[Apply, set]] = []  # earlier applies and what was written since
    analysis = ReachAnalysis(file)
    for stmt in statements(prog.body):
        if isinstance(stmt, If):
            out.add("prog:if")
            if stmt.orelse:
                out.add("prog:else")
            continue
        if isinstance(stmt, Exchange):
            out.add("prog:exchange")
            continue
        s = file.stencil(stmt.stencil)
        _stencil_features(file, s, seen, out)
        d = stmt.domain
        out.add(f"loc:{s.loc}" if s.loc else "stencil:konly")
        if s.vert == "KHalf":
            out.add("stencil:KHalf")
        if s.vert is None:
            out.add("stencil:2d")
        if d.klo is not None:
            out.add("prog:k-default" if not d.explicit_k else
                    "prog:k-params" if d.klo.param or d.khi.param else "prog:k-literal")
        region = domain_markers(file, d)
        if region and region[1] <= INTERIOR_MARKER[d.loc]:
            out.add("prog:empty-global")
        if d.points:
            pl = file.points[d.points]
            out.update({"points", f"points:{pl.loc}", f"points:{pl.kind}"})
            if pl.kind == "fraction" and float(pl.fraction) in (0.0, 1.0):
                out.add(f"points:fraction-{int(float(pl.fraction))}")
            if pl.region(file.nlev)[2:] != (0, file.nlev):
                out.add("points:levels")
            if any(prev.domain.points == d.points for prev, _ in history):
                out.add("points:twice")
            if set(stmt.targets) & {a for a in stmt.args if isinstance(a, str)}:
                out.add("points:in-place")
            if any(isinstance(k, tuple) for k in analysis.reach(s.name)):
                out.add("points:temporary")
        pairs = [(a, p) for a, p in zip(stmt.args, s.params) if isinstance(p.ty, FieldType)]
        fargs = {a for a, _ in pairs}
        if any(p.ty.vert == "K" and prog.fields[a].ty.vert == "KHalf" for a, p in pairs):
            out.add("field:half-for-full")
        if fargs & written:
            out.add("prog:read-after-write")
        shared = fargs & set(stmt.targets)
        if shared:
            out.add("prog:inout")
            reach = analysis.reach(s.name)
            for a, p in pairs:
                r = reach.get(p.name)
                if a in shared and r and (r.neigh or (r.rel and r.rel != (0, 0)) or r.absr):
                    out.add("prog:inout-shifted")
            bound = {p.name: a for a, p in pairs}
            if any(bound.get(n) == t for t, result in zip(stmt.targets, s.results)
                   for n in kept_params(result)):
                out.add("prog:inout-kept")
        for prev, since in history:
            if prev.stencil == stmt.stencil and prev.args == stmt.args and fargs & since:
                out.add("prog:repeat-after-write")
            if d.loc and prev.domain.loc == d.loc:
                a, b = domain_markers(file, prev.domain), region
                if a[1] <= b[0] or b[1] <= a[0]:
                    out.add("prog:disjoint")
                else:
                    out.add("prog:overlap")
                if bool(prev.domain.points) != bool(d.points):
                    out.add("points:and-box")
            since.update(stmt.targets)
        history.append((stmt, set()))
        written.update(stmt.targets)
    return out
