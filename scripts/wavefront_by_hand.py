#!/usr/bin/env python3
"""diffusion_step's kernels run as wavefront schedules, applied by hand to fuse-all's C++.

What `fusec/wavefront.h` gains before a pass makes the schedule (docs/bench.md, "Wavefront
schedules"; docs/architecture.md for the pass). Three groups of fuse-all's kernels (columns
layout, one rank) run tile by tile through `fusec::wavefront::Plan`:
  vn:    RBF#1 -> nabla2/Smagorinsky -> diagnostics -> RBF#2 -> vn's update (not the initial
         run, not a limited area, with the turbulence diagnostics);
  w:     w's Laplacian -> w's update (shear_type 2);
  theta: theta's edge Laplacian -> the update (few steep points: the correction at them runs
         before the group) or -> the cell divergence (many: the list and the update after).
The exchanges in between do nothing on one rank, so the groups run them after their kernels.

Steps: fusec-bench compiles fuse-all's diffusion_step on a small grid and keeps its source;
the source is patched (each group's kernels copied without their `omp for`, the body running
the plans); the patched source, built as fusec-bench builds it, replaces fuse-all's cached
library, once without FMA contraction (OUT/cache-exact: fusec-bench checks it on --check-grid
with every group tiled, exactly) and once with (OUT/cache-fma: timed on --grid with the calls
alternating between the groups unfused and tiled, the body's own timer printed when the
library is unloaded, beside `none`).

Usage: scripts/wavefront_by_hand.py --bin build/bin --stencils stencils --out DIR \
           [--grid r2b5] [--check-grid r2b3] [--threads 2,1] [--inputs realistic,random] \
           [--repeat 21] [--tile 1024]
"""

import argparse
import glob
import os
import re
import subprocess
import sys

# The kernels of each group, as fuse-all names them in diffusion_step.
RBF1 = "mo_intp_rbf_rbf_vec_interpol_vertex_op"
NABLA2 = "calculate_nabla2_and_smag_coefficients_for_vn_op_1"
DIAGNOSTICS = "calculate_diagnostic_quantities_for_turbulence_op"
RBF2 = "mo_intp_rbf_rbf_vec_interpol_vertex_op_1"
VN = "apply_diffusion_to_vn_op_unless_limited_area_1"
W_LAPLACIAN = ("calculate_nabla2_for_w_op_apply_diffusion_to_w_and_compute_horizontal_"
               "gradients_for_turbulence_op_if_condition")
W_UPDATE = "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence_op"
W_BUFFER = ("calculate_nabla2_for_w_op_apply_diffusion_to_w_and_compute_horizontal_gradients_"
            "for_turbulence_op_0")
THETA_LAPLACIAN = "calculate_nabla2_for_z_op"
THETA_UPDATE = "update_theta_and_exner_op"
THETA_LAPLACIAN_ALL_STEEP = "calculate_nabla2_for_z_op_1"
THETA_DIVERGENCE = "calculate_nabla2_for_theta_op"
KERNELS = [RBF1, NABLA2, DIAGNOSTICS, RBF2, VN, W_LAPLACIAN, W_UPDATE, THETA_LAPLACIAN,
           THETA_UPDATE, THETA_LAPLACIAN_ALL_STEEP, THETA_DIVERGENCE]

SUPPORT = r"""
#include "fusec/wavefront.h"
namespace by_hand {
/* 1: run the groups tiled; FUSEC_WAVEFRONT_ALTERNATE alternates calls unfused / tiled. */
static int tiled = 1;
static std::vector<double> group_seconds[2], step_seconds[2];
struct Report {
  ~Report() {
    auto median = [](std::vector<double> v) {
      if (v.empty()) return 0.0;
      std::sort(v.begin(), v.end());
      return v[v.size() / 2] * 1e3;
    };
    if (getenv("FUSEC_WAVEFRONT_ALTERNATE") && !step_seconds[1].empty())
      fprintf(stderr, "wavefront: vn's group unfused %.2f ms tiled %.2f ms, step unfused %.2f ms "
              "tiled %.2f ms (calls %zu, %zu)\n", median(group_seconds[0]),
              median(group_seconds[1]), median(step_seconds[0]), median(step_seconds[1]),
              step_seconds[0].size(), step_seconds[1].size());
  }
};
static Report report;
struct StepTimer {
  double start = omp_get_wtime();
  ~StepTimer() {
    fusec::team_barrier();
    if (fusec::is_team_master()) step_seconds[tiled].push_back(omp_get_wtime() - start);
  }
};
static fusec::wavefront::Plan vn_plan, w_plan, theta_plan, theta_all_steep_plan;
template <class Run>
int run_group(fusec::wavefront::Plan &plan, const fusec::wavefront::Domain *domains,
              int32_t stages, const fusec::wavefront::Dependence *waits, int32_t count,
              Run &&run) {
  static const int32_t tile =
      getenv("FUSEC_WAVEFRONT_TILE") ? atoi(getenv("FUSEC_WAVEFRONT_TILE")) : 1024;
  const int32_t threads = omp_get_num_threads();
  if (int rc = fusec::on_one_thread([&] {
        return plan.built_for(domains, stages, threads)
                   ? 0 : plan.build(domains, stages, waits, count, threads, tile);
      }))
    return rc;
  plan.execute(omp_get_thread_num(), run);
  return 0;
}
} // namespace by_hand
using fusec::wavefront::Order;
"""

VN_GROUP = r"""
#pragma omp master
  {
    static int calls = 0;
    by_hand::tiled = getenv("FUSEC_WAVEFRONT_ALTERNATE") ? calls++ % 2 : 1;
  }
  fusec::team_barrier();
  const double group_start = omp_get_wtime();
@FLAGS@  if (!initial_run && t3 && !limited_area && by_hand::tiled) {
    double *u_vert = instance.u_vert.data(), *v_vert = instance.v_vert.data();
    double *kh_smag_e = instance.kh_smag_e.data(), *kh_smag_ec = instance.kh_smag_ec.data();
    double *z_nabla2_e = instance.z_nabla2_e.data();
    const double *diff_multfac_smag = instance.diff_multfac_smag.data();
    const int32_t nlev = instance.extents.nlev;
    const fusec::wavefront::Dependence waits[] = {
        {1, 0, Order::Gather, instance.E2C2V.data(), instance.E2C2V.ld(), 4},
        {2, 1, Order::Gather, instance.C2E.data(), instance.C2E.ld(), 3},
        {3, 1, Order::Gather, instance.V2E.data(), instance.V2E.ld(), 6},
        // RBF#2 overwrites the u_vert and v_vert nabla2 read through E2C2V
        {3, 1, Order::Scatter, instance.E2C2V.data(), instance.E2C2V.ld(), 4},
        {4, 3, Order::Gather, instance.E2C2V.data(), instance.E2C2V.ld(), 4},
        {4, 1, Order::Same, nullptr, 0, 0},
        // vn's update overwrites the vn RBF#1 read through V2E and the diagnostics through C2E
        {4, 0, Order::Scatter, instance.V2E.data(), instance.V2E.ld(), 6},
        {4, 2, Order::Scatter, instance.C2E.data(), instance.C2E.ld(), 3}};
    const fusec::wavefront::Domain domains[] = {{start_lb2_v, end_local_v},
        {start_lb5_e, end_halo2_e}, {start_nudging_c, end_local_c}, {start_lb2_v, end_local_v},
        {start_lb5_e, end_local_e}};
    if (int rc = by_hand::run_group(by_hand::vn_plan, domains, 5, waits, 8,
          [&](int32_t stage, int32_t a, int32_t b) {
      switch (stage) {
      case 0:
        range_@RBF1@(instance, a, b, 0, nlev, end_local_v, vn, rbf_coeff_1, rbf_coeff_2, u_vert,
            v_vert);
        break;
      case 1:
        range_@NABLA2@(instance, a, b, 0, nlev, primal_normal_vert_x, primal_normal_vert_y,
            dual_normal_vert_x, dual_normal_vert_y, inv_primal_edge_length, inv_vert_vert_length,
            tangent_orientation, u_vert, v_vert, diff_multfac_smag, vn, smag_offset, smag_limit,
            kh_smag_e, kh_smag_ec, z_nabla2_e);
        break;
      case 2:
        range_@DIAGNOSTICS@(instance, a, b, 1, nlev, end_local_c, vn, kh_smag_ec, geofac_div,
            e_bln_c_s, wgtfac_c, diff_multfac_smag, div_ic, hdef_ic);
        break;
      case 3:
        range_@RBF2@(instance, a, b, 0, nlev, end_local_v, z_nabla2_e, rbf_coeff_1, rbf_coeff_2,
            u_vert, v_vert);
        break;
      default:
        range_@VN@(instance, a, b, 0, nlev, start_nudging2_e, area_edge, primal_normal_vert_x,
            primal_normal_vert_y, inv_vert_vert_length, inv_primal_edge_length, kh_smag_e, vn,
            z_nabla2_e, diff_multfac_vn, u_vert, v_vert);
      }
    }))
      return rc;
@EXCHANGES@  } else {
@ORIGINAL@  }
  fusec::team_barrier();
  if (fusec::is_team_master())
    by_hand::group_seconds[by_hand::tiled].push_back(omp_get_wtime() - group_start);
"""

W_GROUP = r"""  if (t6 && by_hand::tiled) {
    const fusec::wavefront::Dependence waits[] = {
        {1, 0, Order::Gather, instance.C2E2CO.data(), instance.C2E2CO.ld(), 4},
        // the update overwrites the w the Laplacian read through C2E2CO
        {1, 0, Order::Scatter, instance.C2E2CO.data(), instance.C2E2CO.ld(), 4}};
    const fusec::wavefront::Domain domains[] = {{t4, t5}, {start_w_c, end_halo_c}};
    double *laplacian = instance.@W_BUFFER@.data();
    if (int rc = by_hand::run_group(by_hand::w_plan, domains, 2, waits, 2,
          [&](int32_t stage, int32_t a, int32_t b) {
      if (stage == 0)
        range_@W_LAPLACIAN@(instance, a, b, 0, instance.extents.nlev, t5, w, geofac_n2s,
            start_w_c, end_halo_c, laplacian, geofac_grg_x, geofac_grg_y, dwdx, dwdy);
      else
        range_@W_UPDATE@(instance, a, b, 0, instance.extents.nlev, end_halo_c, laplacian,
            start_interior_c, end_local_c, geofac_n2s, area, diff_multfac_w, w, nrdmax,
            diff_multfac_n2w);
    }))
      return rc;
  } else {
@ORIGINAL@  }
"""

THETA_GROUPS = r"""    if (t14 && by_hand::tiled) {
      if (apply_zdiffusion_t) {
        if (int rc = launch_update_theta_and_exner_op_at_steep(
                instance, steep_count, steep_cell, steep_level, steep_count,
                instance.kh_smag_e.data(), instance.extents.nlev, start_nudging_c, end_local_c,
                theta_v, exner, instance.theta_v_at_steep.data(), instance.exner_at_steep.data(),
                instance.extents.nlev, inv_dual_edge_length, geofac_div, geofac_n2s_nbh,
                geofac_n2s_c, area, zd_diffcoef, zd_intcoef, zd_vertoffset, rd_o_cvd))
          return rc;
      }
      const fusec::wavefront::Dependence waits[] = {
          {1, 0, Order::Gather, instance.C2E.data(), instance.C2E.ld(), 3},
          // the update overwrites the theta_v the Laplacian read through E2C
          {1, 0, Order::Scatter, instance.E2C.data(), instance.E2C.ld(), 2}};
      const fusec::wavefront::Domain domains[] = {{c2e_image.lo, c2e_image.hi},
                                                  {start_nudging_c, end_local_c}};
      double *laplacian = instance.calculate_nabla2_for_z_op_0_1.data();
      if (int rc = by_hand::run_group(by_hand::theta_plan, domains, 2, waits, 2,
            [&](int32_t stage, int32_t a, int32_t b) {
        if (stage == 0)
          range_@THETA_LAPLACIAN@(instance, a, b, 0, instance.extents.nlev, c2e_image.hi, theta_v,
              inv_dual_edge_length, instance.kh_smag_e.data(), laplacian);
        else
          range_@THETA_UPDATE@(instance, a, b, 0, instance.extents.nlev, end_local_c, laplacian,
              area, geofac_div, theta_v, exner, rd_o_cvd);
      }))
        return rc;
      if (apply_zdiffusion_t) {
        if (int rc = launch_update_theta_and_exner_op_results_at_steep(
                instance, steep_count, steep_cell, steep_level, instance.theta_v_at_steep.data(),
                instance.exner_at_steep.data(), theta_v, exner))
          return rc;
      }
    } else if (!t14 && by_hand::tiled) {
      const fusec::wavefront::Dependence waits[] = {
          {1, 0, Order::Gather, instance.C2E.data(), instance.C2E.ld(), 3}};
      const fusec::wavefront::Domain domains[] = {{c2e_image.lo, c2e_image.hi},
                                                  {start_nudging_c, end_local_c}};
      if (int rc = by_hand::run_group(by_hand::theta_all_steep_plan, domains, 2, waits, 1,
            [&](int32_t stage, int32_t a, int32_t b) {
        if (stage == 0)
          range_@THETA_LAPLACIAN_ALL_STEEP@(instance, a, b, 0, instance.extents.nlev,
              c2e_image.hi, theta_v, inv_dual_edge_length, instance.kh_smag_e.data(),
              instance.calculate_nabla2_for_z_op_0.data());
        else
          range_@THETA_DIVERGENCE@(instance, a, b, 0, instance.extents.nlev, end_local_c,
              instance.calculate_nabla2_for_z_op_0.data(), geofac_div, instance.z_temp.data());
      }))
        return rc;
      if (apply_zdiffusion_t) {
        if (int rc = launch_truly_horizontal_diffusion_nabla_of_theta_over_steep_points_op(
                instance, steep_count, steep_cell, steep_level, steep_count,
                instance.extents.nlev, geofac_n2s_nbh, geofac_n2s_c, theta_v, zd_diffcoef,
                zd_intcoef, zd_vertoffset, instance.z_temp.data()))
          return rc;
      }
      if (int rc = launch_update_theta_and_exner_op_1(instance, start_nudging_c, end_local_c, 0,
                                                      instance.extents.nlev, area, theta_v,
                                                      instance.z_temp.data(), exner, rd_o_cvd))
        return rc;
    } else
"""


def fail(message):
    sys.exit("wavefront_by_hand.py: error: " + message)


def find(text, needle, start=0):
    at = text.find(needle, start)
    if at < 0:
        fail("the emitted code no longer has `%s`: update this script to fuse-all's names"
             % needle.strip()[:80])
    return at


def function(source, name):
    """The text of the function `name` (its attribute line, signature and body)."""
    definition = re.search(r"\nstatic (?:void|int)\s+" + re.escape(name) + r"\(", source)
    if not definition:
        fail("the emitted code no longer defines `%s`: update this script to fuse-all's names"
             % name)
    start = definition.start() + 1
    if source[:start].endswith("[[gnu::noinline]]\n"):
        start -= len("[[gnu::noinline]]\n")
    end = find(source, "\n}\n", start) + 3
    return source[start:end]


def range_functions(source, kernel):
    """`<kernel>_blocked_range`, the kernel without its `omp for`, and `range_<kernel>`, its
    launcher without the domain checks and timer, calling it on [h_lb, h_ub)."""
    blocked = function(source, kernel + "_blocked")
    if blocked.count("#pragma omp for schedule(static)\n") != 1:
        fail("kernel %s is not shared by one `omp for`" % kernel)
    ranged = blocked.replace("#pragma omp for schedule(static)\n", "").replace(
        kernel + "_blocked(", kernel + "_blocked_range(")
    launcher = function(source, "launch_" + kernel)
    body = find(launcher, ") {\n") + 4
    call = launcher[find(launcher, kernel + "_blocked(", body):]
    call = call[:find(call, ");\n") + 3].replace(kernel + "_blocked(", kernel + "_blocked_range(")
    signature = launcher[:body].replace("[[gnu::noinline]]\n", "").replace(
        "launch_" + kernel + "(", "range_" + kernel + "(")
    return ranged + signature + "  " + call + "  return FUSEC_SUCCESS;\n}\n"


def substitute(template):
    names = {"RBF1": RBF1, "NABLA2": NABLA2, "DIAGNOSTICS": DIAGNOSTICS, "RBF2": RBF2, "VN": VN,
             "W_LAPLACIAN": W_LAPLACIAN, "W_UPDATE": W_UPDATE, "W_BUFFER": W_BUFFER,
             "THETA_LAPLACIAN": THETA_LAPLACIAN, "THETA_UPDATE": THETA_UPDATE,
             "THETA_LAPLACIAN_ALL_STEEP": THETA_LAPLACIAN_ALL_STEEP,
             "THETA_DIVERGENCE": THETA_DIVERGENCE}
    return re.sub(r"@(\w+)@", lambda m: names.get(m.group(1), m.group(0)), template)


def patch(source):
    """fuse-all's diffusion_step with the three groups running through wavefront plans."""
    body = find(source, "static int execute_diffusion_step(")
    added = "".join(range_functions(source, kernel) for kernel in KERNELS)
    source = source[:body] + added + SUPPORT + "\n" + source[body:]
    body = find(source, "static int execute_diffusion_step(")
    brace = find(source, ") {\n", body) + 4
    source = source[:brace] + "  by_hand::StepTimer step_timer;\n" + source[brace:]

    # vn's group: from RBF#1's launch to the last launch of vn's update.
    begin = find(source, "  if (int rc = launch_" + RBF1 + "(\n", body)
    end = find(source, "  const fusec::HostTable::Image c2e2co_image", begin)
    original = source[begin:end]
    flags = original[find(original, "  const bool t0 = shear_type >= 1;"):
                     find(original, "  if (t3) {")]
    exchanges, at = "", 0
    while "  {\n    const fusec_exchange_field" in original[at:]:
        first = find(original, "  {\n    const fusec_exchange_field", at)
        at = find(original, "\n  }\n", first) + 5
        exchanges += original[first:at]
    group = substitute(VN_GROUP).replace("@FLAGS@", flags).replace(
        "@EXCHANGES@", exchanges).replace("@ORIGINAL@", original.replace(flags, ""))
    source = source[:begin] + group + source[end:]

    # w's group: its Laplacian's two versions and the update.
    begin = find(source, "  if (t6) {\n", body)
    end = find(source, "  {\n    const fusec_exchange_field exchanged[] = {\n"
               "        instance.extents.describe(\"vn\"", begin)
    source = source[:begin] + substitute(W_GROUP).replace("@ORIGINAL@", source[begin:end]) + \
        source[end:]

    # theta's groups, in front of the two versions the list's size chooses between.
    begin = find(source, "    if (t14) {\n", body)
    source = source[:begin] + substitute(THETA_GROUPS) + source[begin:]
    return source


def cache_of(args, fma):
    """The cache of the exact (no FMA contraction) or the contracted build: each holds one
    build of fuse-all."""
    return os.path.join(args.out, "cache-fma" if fma else "cache-exact")


def bench(args, fma, extra, env=None):
    """fusec-bench on diffusion_step, columns layout, with the exact or the contracted build."""
    command = [os.path.join(args.bin, "fusec-bench"), "run",
               os.path.join(args.stencils, "diffusion.stn"), "-I", args.stencils,
               "--programs=diffusion_step", "--layout", "columns", "--nlev", str(args.nlev),
               "--cache-dir", cache_of(args, fma)] + (["--fma"] if fma else []) + extra
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        fail("fusec-bench failed:\n" + result.stdout[-2000:] + result.stderr[-2000:])
    return result.stdout + result.stderr


def cached_build(args, fma):
    """fuse-all's source and the library fusec-bench built from it into the cache."""
    saved = os.path.join(args.out, "run-fma" if fma else "run-exact")
    bench(args, fma, ["--pipelines", "fuse-all", "--grid", "r2b1", "--nlev", "4", "--repeat",
                      "0", "--save-outputs", saved])
    with open(os.path.join(saved, "sources", "fuse-all.cpp")) as f:
        source = f.read()
    cached = [path for path in glob.glob(os.path.join(cache_of(args, fma), "*.cpp"))
              if open(path).read() == source]
    if len(cached) != 1:
        fail("expected one cached build of fuse-all's source in %s, found %d"
             % (cache_of(args, fma), len(cached)))
    return source, cached[0][:-len(".cpp")] + ".so"


def install(args, fma, patched_path, library):
    """Builds the patched source as fusec-bench builds fuse-all's (flags of
    tools/fusec-bench/NativeLibrary.cpp) in place of the cached `library`."""
    flags = ["-std=c++17", "-O3", "-march=native", "-fno-math-errno",
             "-ffp-contract=fast" if fma else "-ffp-contract=off", "-fopenmp", "-fPIC",
             "-shared", "-I", args.runtime_include] + os.environ.get("FUSEC_BENCH_CXXFLAGS",
                                                                    "").split()
    command = [os.environ.get("CXX", "c++")] + flags + [patched_path, "-o", library + ".tmp"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        fail("the patched source does not compile:\n" + result.stderr[-3000:])
    os.replace(library + ".tmp", library)


def median_ms(text, variant):
    match = re.search(r"^\s+%s\s+PASS\s.*?median\s+([0-9.]+) (us|ms|s)\b" % re.escape(variant),
                      text, re.M)
    if not match:
        fail("no passing, timed `%s` in fusec-bench's output:\n%s" % (variant, text[-2000:]))
    return float(match.group(1)) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[match.group(2)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="directory with fusec-bench")
    parser.add_argument("--stencils", required=True, help="directory with diffusion.stn")
    parser.add_argument("--out", required=True, help="work directory (sources, cache)")
    parser.add_argument("--runtime-include",
                        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                             "runtime", "include"))
    parser.add_argument("--grid", default="r2b5")
    parser.add_argument("--check-grid", default="r2b3")
    parser.add_argument("--nlev", type=int, default=80)
    parser.add_argument("--threads", default="2,1")
    parser.add_argument("--inputs", default="realistic,random")
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--tile", type=int, default=1024)
    parser.add_argument("--timing-rtol", type=float, default=1e-9)
    args = parser.parse_args()

    os.makedirs(args.out, exist_ok=True)
    source, library = cached_build(args, fma=False)
    patched = os.path.join(args.out, "fuse-all-wavefront.cpp")
    with open(patched, "w") as f:
        f.write(patch(source))

    # Exact: the patched build without contraction against the interpreter, every group tiled.
    install(args, False, patched, library)
    environment = dict(os.environ, FUSEC_WAVEFRONT_TILE=str(args.tile))
    for inputs in args.inputs.split(","):
        for threads in args.threads.split(","):
            text = bench(args, False, ["--pipelines", "fuse-all", "--grid", args.check_grid,
                                       "--inputs", inputs, "--repeat", "0"],
                         dict(environment, OMP_NUM_THREADS=threads))
            if not re.search(r"^\s+fuse-all\s+PASS\s+max rel err 0\b", text, re.M):
                fail("the patched build does not reproduce fuse-all's results exactly:\n"
                     + text[-2000:])
            print("exact: %s, %s inputs, OMP_NUM_THREADS=%s, every group tiled"
                  % (args.check_grid, inputs, threads))

    # Timed: the contracted build, as fusec-bench times fuse-all. Its check against the
    # interpreter takes --timing-rtol: where the tiled kernels are compiled apart from the
    # program body, GCC contracts a few products differently.
    contracted_source, library = cached_build(args, fma=True)
    if contracted_source != source:
        fail("fusec-bench emitted different code for the contracted build")
    install(args, True, patched, library)
    print("\n| threads | inputs | copy kernel | none | vn's group: unfused -> tiled "
          "| step: unfused -> tiled | none / fuse-all: unfused -> tiled |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for threads in args.threads.split(","):
        for inputs in args.inputs.split(","):
            text = bench(args, True, ["--pipelines", "none,fuse-all", "--grid", args.grid,
                                      "--inputs", inputs, "--repeat", str(args.repeat),
                                      "--rtol", str(args.timing_rtol)],
                         dict(environment, OMP_NUM_THREADS=threads,
                              FUSEC_WAVEFRONT_ALTERNATE="1"))
            none = median_ms(text, "none")
            copy = re.search(r"copy kernel: ([0-9.]+ GB/s)", text)
            match = re.search(r"wavefront: vn's group unfused ([0-9.]+) ms tiled ([0-9.]+) ms, "
                              r"step unfused ([0-9.]+) ms tiled ([0-9.]+) ms", text)
            if not match:
                fail("the patched library printed no times:\n" + text[-2000:])
            group_unfused, group_tiled, step_unfused, step_tiled = map(float, match.groups())
            print("| %s | %s | %s | %.1f ms | %.2f -> %.2f ms | %.2f -> %.2f ms (%.2fx) "
                  "| %.2fx -> %.2fx |"
                  % (threads, inputs, copy.group(1) if copy else "-", none, group_unfused,
                     group_tiled, step_unfused, step_tiled, step_unfused / step_tiled,
                     none / step_unfused, none / step_tiled))


if __name__ == "__main__":
    main()
