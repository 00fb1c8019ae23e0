#!/usr/bin/env python3
"""Writes programs.F90 for the Fortran driver from a fusec-bench --save-outputs manifest.

    generate_programs.py MANIFEST.json OUTPUT.F90

For every program of the manifest, a subroutine creates an instance (type <program>_t) with the
driver's padded layout and the driver's exchange callback, loads each argument from
<data>/<program>/inputs into an array with nproma rows (NaN in the padding), each point list
(manifest type 'points<Cell, K>', saved as an int32 (N, 2) array of 0-based cells and levels)
into its cell and level arrays, calls the instance's run (wrap_run_<program>) with keyword
arguments as ICON does (a list L as L_count, L_cell, L_level), checks each output against
<data>/<program>/reference and destroys the instance. The Fortran is generated
because diffusion.stn has 34 programs with 400 parameters; the wrappers it calls are fusec's.
"""
import json
import re
import sys

FORTRAN_MAX_NAME = 63  # fusec shortens longer names the same way (docs/integration.md)

# Names of test_support that arguments must not hide.
SUPPORT_NAMES = {"mesh", "nlev", "nproma", "num_points", "layout", "nan64", "nan32", "failures",
                 "instance", "status"}

ELEMENT = {
    "f64": ("real(c_double)", "FUSEC_F64", "nan64"),
    "f32": ("real(c_float)", "FUSEC_F32", "nan32"),
    "i32": ("integer(c_int32_t)", "FUSEC_I32", "-huge(0_c_int32_t)"),
    "i1": ("logical(c_bool)", "FUSEC_BOOL", ".false._c_bool"),
    "bool": ("logical(c_bool)", "FUSEC_BOOL", None),
}
LOCATIONS = {"Cell": "FUSEC_CELL", "Edge": "FUSEC_EDGE", "Vertex": "FUSEC_VERTEX"}


def fortran_name(prefix, program, suffix=""):
    """fusec's rule: keep the prefix and suffix, shorten the program name."""
    room = FORTRAN_MAX_NAME - len(prefix) - len(suffix)
    return prefix + program[:room] + suffix


class PointList:
    """A point-list parameter from its manifest type, 'points<Cell, K>' (or 'points<Cell>').

    The wrapper takes it as three arguments, <name>_count, <name>_cell(:) and <name>_level(:)
    (0-based flat cell indices and levels); the test's arrays have those names too."""

    def __init__(self, name, text):
        if not re.fullmatch(r"points<\s*(Cell|Edge|Vertex)\s*(,\s*K\s*)?>", text):
            sys.exit(f"generate_programs.py: {name}: unsupported point list type '{text}'")
        self.name = name
        self.count, self.cell, self.level = (f"{name}_{part}"
                                             for part in ("count", "cell", "level"))

    def names(self):
        return [self.count, self.cell, self.level]

    def run_arguments(self):
        return [f"{self.count}=size({self.cell}, kind=c_int32_t)", f"{self.cell}={self.cell}",
                f"{self.level}={self.level}"]


class Field:
    """One field parameter from its manifest type, e.g. 'Cell x [3] x K x f64, inout'."""

    def __init__(self, name, text):
        shape, intent = [part.strip() for part in text.split(",")]
        dims = [d.strip() for d in shape.split(" x ")]
        self.name = name
        self.intent = intent
        self.declared_type, self.kind, self.fill = ELEMENT[dims.pop()]
        self.location = LOCATIONS.get(dims[0], "FUSEC_NO_LOCATION")
        self.neighbors = next((d.strip("[]") for d in dims if d.startswith("[")), "0")
        self.levels = {"K": "nlev", "KHalf": "nlev + 1"}.get(dims[-1], "0")
        extents = []
        if self.location != "FUSEC_NO_LOCATION":
            extents.append("nproma")
        if self.neighbors != "0":
            extents.append(self.neighbors)
        if self.levels != "0":
            extents.append(self.levels)
        self.extents = extents

    def arguments(self):
        return f"c_loc({self.name}), {self.kind}, {self.location}, {self.neighbors}, {self.levels}"


def wrapped(first, items, last, indent):
    """A statement `first item, item, ... last` continued with '&' within 100 columns."""
    lines, line = [], " " * indent + first
    for index, item in enumerate(items):
        text = item + ("," if index + 1 < len(items) else last)
        if len(line) + len(text) + 3 > 100:
            lines.append(line.rstrip() + " &")
            line = " " * (indent + 4)
        line += text + " "
    lines.append(line.rstrip())
    return lines


def program_test(program, parameters):
    fields, scalars, lists = [], [], []
    for parameter in parameters:
        name, text = parameter["name"], parameter["type"]
        if name in SUPPORT_NAMES:
            sys.exit(f"generate_programs.py: {program}: parameter '{name}' hides a driver name")
        if text.startswith("points<"):  # before fields: 'points<Cell, K>' has a comma too
            lists.append(PointList(name, text))
        elif "," in text:
            fields.append(Field(name, text))
        else:
            scalars.append((name, text))
    # A list's arguments are named after it; fusec would rename them on a clash, this would not.
    taken = {parameter["name"] for parameter in parameters} | SUPPORT_NAMES
    for point_list in lists:
        for name in point_list.names():
            if name in taken:
                sys.exit(f"generate_programs.py: {program}: the argument '{name}' of point list "
                         f"'{point_list.name}' clashes with another name")
            taken.add(name)
    by_name = {point_list.name: point_list for point_list in lists}
    test = fortran_name("test_", program)
    out = [f"  subroutine {test}()", f"    type({fortran_name('', program, '_t')}) :: instance",
           "    integer(c_int) :: status"]
    for field in fields:
        rank = ", ".join(":" for _ in field.extents)
        out.append(f"    {field.declared_type}, allocatable, target :: {field.name}({rank})")
    for point_list in lists:
        out.append(f"    integer(c_int32_t), allocatable, target :: {point_list.cell}(:), "
                   f"{point_list.level}(:)")
    for name, text in scalars:
        out.append(f"    {ELEMENT[text][0]}, target :: {name}")
    out.append(f"    call begin_program('{program}')")
    out.append("    call instance%create_with_layout(mesh, nlev, layout, status=status)")
    out.append("    call check_status(status, 'create')")
    out.append("    call instance%set_exchange_callback(c_funloc(on_exchange), c_null_ptr)")
    for field in fields:
        out.append(f"    allocate({field.name}({', '.join(field.extents)}))")
        out.append(f"    {field.name} = {field.fill}")
        out.append(f"    call load_field('{field.name}', {field.arguments()})")
    for point_list in lists:
        out.append(f"    call load_points('{point_list.name}', {point_list.cell}, "
                   f"{point_list.level})")
    for name, text in scalars:
        out.append(f"    call load_scalar('{name}', c_loc({name}), {ELEMENT[text][1]})")
    # Flags are default logicals in the wrappers, as in ICON.
    arguments = []
    for name, text in ((p["name"], p["type"]) for p in parameters):
        if name in by_name:
            arguments += by_name[name].run_arguments()
        else:
            arguments.append(f"{name}=logical({name})" if text == "bool" else f"{name}={name}")
    out += wrapped("call instance%run(", arguments, ")", 4)
    for field in fields:
        if field.intent != "in":
            out.append(f"    call check_output('{field.name}', {field.arguments()})")
    out.append("    call instance%destroy()")
    out.append(f"  end subroutine {test}")
    return test, out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: generate_programs.py MANIFEST.json OUTPUT.F90")
    with open(sys.argv[1]) as file:
        manifest = json.load(file)
    tests, bodies = [], []
    for program, entry in manifest["programs"].items():
        test, body = program_test(program, entry["parameters"])
        tests.append(test)
        bodies += [""] + body
    lines = [
        f"! Generated by generate_programs.py from {sys.argv[1]}. Do not edit.",
        "module programs",
        "  use, intrinsic :: iso_c_binding",
        "  use fusec_diffusion",
        "  use fusec_runtime",
        "  use test_support",
        "  implicit none",
        "  private",
        "  public :: run_every_program",
        f"  character(*), parameter, public :: grid_name = '{manifest['grid']}'",
        f"  integer(c_int32_t), parameter, public :: levels = {manifest['nlev']}",
        "contains",
        "",
        "  ! Every program of the manifest, each created, run once and destroyed.",
        "  subroutine run_every_program()",
    ]
    lines += [f"    call {test}()" for test in tests]
    lines.append("  end subroutine run_every_program")
    lines += bodies
    lines.append("end module programs")
    with open(sys.argv[2], "w") as file:
        file.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
