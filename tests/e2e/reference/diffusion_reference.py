#!/usr/bin/env python3
"""Plain-numpy reference implementation of ICON's horizontal diffusion (``nh_hdiff``).

Written from ``diffusion-spec.md`` (the math, dataflow, domains, precision casts and call
order of ICON4Py's diffusion granule), independently of ``stencils/diffusion.stn``, so that
tests can cross-check fusec's interpreter and generated code against it. Every program of
``stencils/diffusion.stn`` has a function here with the same name.

Conventions
-----------
* ``conn`` is a dict of neighbour tables, ``conn["E2C"]`` an int array ``table[h, n]``
  (0-based, ``-1`` = missing neighbour). Tables used: E2C, E2C2V, C2E, C2E2C, C2E2CO, V2E.
* Fields are numpy arrays: ``(n_points, nlev)`` on full levels, ``(n_points, nlev + 1)`` on
  half levels (w, dwdx, dwdy, div_ic, hdef_ic, wgtfac_c), ``(n_points,)`` horizontal-only,
  ``(nlev,)`` / ``(nlev + 1,)`` vertical-only, ``(n_points, n_nbh)`` sparse and
  ``(n_points, n_nbh, nlev)`` sparse 3-D (zd_vertoffset, zd_intcoef/vcoef).
* A program function takes ``(conn, args)`` where ``args`` maps every parameter name of the
  program (fields, scalars, domain bounds ``h_start, h_end, v_start, v_end``) to its value,
  and returns a dict ``{name: new array}`` for every ``out``/``inout`` parameter. The input
  arrays are never modified. Outside the program's domain the returned arrays hold the
  content of the input buffers (points outside the domain are not written).
* Missing neighbours (-1) are masked as in ICON4Py's references:
  ``np.where(table != -1, value, 0)`` for sums and direct reads, ``-inf`` for max.
* Precision: ``wp`` is float64; ``vp`` is float64 by default, ``set_vp(np.float32)`` switches
  to mixed precision. The casts follow diffusion-spec section 3 (and ICON4Py's ``astype``).

``PROGRAMS`` maps each program name to ``(function, signature)``; the signature lists
``(intent, name, kind)`` in the parameter order of the .stn program, ``kind`` being
``"Edge,K,wp"``, ``"Cell,C2E2C,K,i32"``, ``"K,vp"``, ``"wp"``, ``"i32"``, ``"bool"``...

Run ``python3 diffusion_reference.py --selftest`` for a quick self-check on a random grid.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

WP = np.float64
VP = np.float64

# ICON4Py / ICON default constants (diffusion-spec section 2)
DBL_EPS = float(np.finfo(np.float64).eps)
RD = 287.04
CPD = 1004.64
RD_O_CVD = RD / (CPD - RD)
THRESH_TDIFF = -5.0

NBH = {"E2C": 2, "E2V": 2, "E2C2V": 4, "E2C2E": 4, "E2C2EO": 5, "C2E": 3, "C2V": 3,
       "C2E2C": 3, "C2E2CO": 4, "V2E": 6, "V2C": 6, "V2E2V": 6}
SRC = {"E2C": "Edge", "E2V": "Edge", "E2C2V": "Edge", "C2E": "Cell", "C2E2C": "Cell",
       "C2E2CO": "Cell", "V2E": "Vertex"}
DST = {"E2C": "Cell", "E2V": "Vertex", "E2C2V": "Vertex", "C2E": "Edge", "C2E2C": "Cell",
       "C2E2CO": "Cell", "V2E": "Edge"}


def set_vp(dtype) -> None:
    """Select the variable precision (np.float64 or np.float32)."""
    global VP
    VP = np.dtype(dtype).type


def vp(x):
    return np.asarray(x).astype(VP)


def wp(x):
    return np.asarray(x).astype(WP)


# ----------------------------------------------------------------------------------------------
# neighbour helpers
# ----------------------------------------------------------------------------------------------
def nbh(field: np.ndarray, table: np.ndarray, fill=0.0) -> np.ndarray:
    """field at the neighbours: (n_src, n_nbh, ...) with ``fill`` where table == -1."""
    safe = np.where(table >= 0, table, 0)
    g = field[safe]
    mask = (table >= 0).reshape(table.shape + (1,) * (field.ndim - 1))
    return np.where(mask, g, np.asarray(fill, dtype=field.dtype)).astype(field.dtype)


def nbh_sum(weights: np.ndarray, field: np.ndarray, table: np.ndarray) -> np.ndarray:
    """sum_j weights[h, j] * field[table[h, j], k] over the valid neighbours (skip -1)."""
    g = nbh(field, table)
    w = weights if weights.ndim == g.ndim else weights[..., None]
    mask = (table >= 0).reshape(table.shape + (1,) * (g.ndim - 2))
    return np.sum(np.where(mask, w * g, 0), axis=1)


def _write(buf: np.ndarray, value: np.ndarray, h0: int, h1: int, k0: int | None = None,
           k1: int | None = None) -> np.ndarray:
    """Copy of ``buf`` with ``value`` written over the domain [h0,h1) x [k0,k1)."""
    out = np.array(buf, copy=True)
    if k0 is None:
        out[h0:h1] = np.asarray(value)[h0:h1]
    else:
        assert 0 <= k0 <= k1 <= out.shape[1], (k0, k1, out.shape)
        assert value.shape[1] >= k1, (value.shape, k1)
        out[h0:h1, k0:k1] = value[h0:h1, k0:k1]
    return out


def _write_k(buf: np.ndarray, value: np.ndarray, k0: int, k1: int) -> np.ndarray:
    out = np.array(buf, copy=True)
    out[k0:k1] = np.broadcast_to(value, out.shape)[k0:k1]
    return out


def _dom(a):
    return int(a["h_start"]), int(a["h_end"]), int(a["v_start"]), int(a["v_end"])


# ----------------------------------------------------------------------------------------------
# 3.0 RBF vector interpolation
# ----------------------------------------------------------------------------------------------
def rbf_vec_interpol_vertex_math(conn, p_e_in, c1, c2):
    """u(v,k) = sum_j c1(v,j) p_e_in(V2E[v,j],k); missing neighbours skipped. Stored as vp
    (the granule's u_vert/v_vert are REAL(vp) in ICON Fortran)."""
    v2e = conn["V2E"]
    return vp(nbh_sum(c1, p_e_in, v2e)), vp(nbh_sum(c2, p_e_in, v2e))


def mo_intp_rbf_rbf_vec_interpol_vertex(conn, a):
    h0, h1, k0, k1 = _dom(a)
    u, v = rbf_vec_interpol_vertex_math(conn, a["p_e_in"], a["ptr_coeff_1"], a["ptr_coeff_2"])
    return {"p_u_out": _write(a["p_u_out"], u, h0, h1, k0, k1),
            "p_v_out": _write(a["p_v_out"], v, h0, h1, k0, k1)}


# ----------------------------------------------------------------------------------------------
# 3.1 stencil 01
# ----------------------------------------------------------------------------------------------
def nabla2_and_smag_math(conn, diff_multfac_smag, tangent_orientation, inv_primal_edge_length,
                         inv_vert_vert_length, u_vert, v_vert, pn_x, pn_y, dn_x, dn_y, vn,
                         smag_limit, smag_offset):
    e2c2v = conn["E2C2V"]
    u = nbh(wp(u_vert), e2c2v)  # (E, 4, K), vertex values cast to wp, 0 at missing
    v = nbh(wp(v_vert), e2c2v)
    vn_j = u * pn_x[:, :, None] + v * pn_y[:, :, None]   # normal component at diamond vertex j
    vt_j = u * dn_x[:, :, None] + v * dn_y[:, :, None]   # tangential component
    lp = inv_primal_edge_length[:, None]
    lv = inv_vert_vert_length[:, None]
    to = tangent_orientation[:, None]
    # ICON4Py / Fortran REAL(vp) intermediates
    dvt_tang_vp = vp((vt_j[:, 1] - vt_j[:, 0]) * to)
    dvt_norm_vp = vp(vt_j[:, 3] - vt_j[:, 2])
    dvn_tang_vp = vp(vn_j[:, 1]) - vp(vn_j[:, 0])
    dvn_norm_vp = vp(vn_j[:, 3]) - vp(vn_j[:, 2])
    d2 = wp(dvn_tang_vp) * to * lp + wp(dvt_norm_vp) * lv        # (vn1-vn0)*to*Lp + (vt3-vt2)*Lvv
    d1 = wp(dvn_norm_vp) * lv - wp(dvt_tang_vp) * lp             # (vn3-vn2)*Lvv - (vt1-vt0)*to*Lp
    kh = wp(diff_multfac_smag)[None, :] * np.sqrt(d1 * d1 + d2 * d2)
    z_nabla2_e = 4.0 * ((wp(vp(vn_j[:, 0]) + vp(vn_j[:, 1])) - 2.0 * vn) * (lp * lp)
                        + (wp(vp(vn_j[:, 2]) + vp(vn_j[:, 3])) - 2.0 * vn) * (lv * lv))
    kh_smag_ec = vp(kh)
    kh_smag_e = np.minimum(np.maximum(VP(0.0), vp(kh - WP(smag_offset))),
                           vp(smag_limit)[None, :])
    return vp(kh_smag_e), kh_smag_ec, wp(z_nabla2_e)


def calculate_nabla2_and_smag_coefficients_for_vn(conn, a):
    h0, h1, k0, k1 = _dom(a)
    khe, khec, nab = nabla2_and_smag_math(
        conn, a["diff_multfac_smag"], a["tangent_orientation"], a["inv_primal_edge_length"],
        a["inv_vert_vert_length"], a["u_vert"], a["v_vert"], a["primal_normal_vert_x"],
        a["primal_normal_vert_y"], a["dual_normal_vert_x"], a["dual_normal_vert_y"], a["vn"],
        a["smag_limit"], a["smag_offset"])
    return {"kh_smag_e": _write(a["kh_smag_e"], khe, h0, h1, k0, k1),
            "kh_smag_ec": _write(a["kh_smag_ec"], khec, h0, h1, k0, k1),
            "z_nabla2_e": _write(a["z_nabla2_e"], nab, h0, h1, k0, k1)}


# ----------------------------------------------------------------------------------------------
# 3.2 stencils 02 + 03
# ----------------------------------------------------------------------------------------------
def temporary_fields_math(conn, kh_smag_ec, vn, e_bln_c_s, geofac_div, diff_multfac_smag):
    c2e = conn["C2E"]
    kh_c = nbh_sum(e_bln_c_s, wp(kh_smag_ec), c2e) / wp(diff_multfac_smag)[None, :]
    div = nbh_sum(geofac_div, vn, c2e)
    return vp(kh_c), vp(div)


def diagnostics_math(div, kh_c, wgtfac_c):
    """Half-level values at k = 1..nlev-1 (column 0 and column nlev are NaN: never valid)."""
    nc, nlev = div.shape
    w = wgtfac_c[:, :nlev]
    div_km1 = np.concatenate([np.full((nc, 1), np.nan, div.dtype), div[:, :-1]], axis=1)
    kh_km1 = np.concatenate([np.full((nc, 1), np.nan, kh_c.dtype), kh_c[:, :-1]], axis=1)
    div_ic = wp(w * div) + (1.0 - wp(w)) * wp(div_km1)
    hdef = wp(w * kh_c) + (1.0 - wp(w)) * wp(kh_km1)
    hdef_ic = hdef * hdef
    pad = np.full((nc, 1), np.nan)
    return (vp(np.concatenate([div_ic, pad], axis=1)),
            vp(np.concatenate([hdef_ic, pad], axis=1)))


def temporary_fields_for_turbulence_diagnostics(conn, a):
    h0, h1, k0, k1 = _dom(a)
    kh_c, div = temporary_fields_math(conn, a["kh_smag_ec"], a["vn"], a["e_bln_c_s"],
                                      a["geofac_div"], a["diff_multfac_smag"])
    return {"kh_c": _write(a["kh_c"], kh_c, h0, h1, k0, k1),
            "div": _write(a["div"], div, h0, h1, k0, k1)}


def calculate_diagnostics_for_turbulence(conn, a):
    h0, h1, k0, k1 = _dom(a)
    assert k0 >= 1, "stencil 03 reads k-1: levels start at 1"
    d, h = diagnostics_math(a["div"], a["kh_c"], a["wgtfac_c"])
    return {"div_ic": _write(a["div_ic"], d, h0, h1, k0, k1),
            "hdef_ic": _write(a["hdef_ic"], h, h0, h1, k0, k1)}


def calculate_diagnostic_quantities_for_turbulence(conn, a):
    h0, h1, k0, k1 = _dom(a)
    assert k0 >= 1
    kh_c, div = temporary_fields_math(conn, a["kh_smag_ec"], a["vn"], a["e_bln_c_s"],
                                      a["geofac_div"], a["diff_multfac_smag"])
    d, h = diagnostics_math(div, kh_c, a["wgtfac_c"])
    return {"div_ic": _write(a["div_ic"], d, h0, h1, k0, k1),
            "hdef_ic": _write(a["hdef_ic"], h, h0, h1, k0, k1)}


# ----------------------------------------------------------------------------------------------
# 3.3 stencils 04 + 05 / 06 / global
# ----------------------------------------------------------------------------------------------
def nabla4_math(conn, u_vert, v_vert, pn_v1, pn_v2, z_nabla2_e, inv_vert_vert_length,
                inv_primal_edge_length):
    e2c2v = conn["E2C2V"]
    u = nbh(wp(u_vert), e2c2v)
    v = nbh(wp(v_vert), e2c2v)
    t = u * pn_v1[:, :, None] + v * pn_v2[:, :, None]
    nabv_tang = wp(vp(t[:, 0] + t[:, 1]))
    nabv_norm = wp(vp(t[:, 2] + t[:, 3]))
    lv = inv_vert_vert_length[:, None]
    lp = inv_primal_edge_length[:, None]
    return vp(4.0 * ((nabv_norm - 2.0 * z_nabla2_e) * (lv * lv)
                     + (nabv_tang - 2.0 * z_nabla2_e) * (lp * lp)))


def nabla2_nabla4_vn_math(area_edge, kh_smag_e, z_nabla2_e, z_nabla4_e2, diff_multfac_vn,
                          nudgecoeff_e, vn, nudgezone_diff):
    ae = area_edge[:, None]
    kh = np.maximum(WP(nudgezone_diff) * nudgecoeff_e[:, None], wp(kh_smag_e))
    return vn + ae * (kh * z_nabla2_e - ae * diff_multfac_vn[None, :] * wp(z_nabla4_e2))


def nabla2_nabla4_global_vn_math(area_edge, kh_smag_e, z_nabla2_e, z_nabla4_e2,
                                 diff_multfac_vn, vn):
    ae = area_edge[:, None]
    return vn + ae * (wp(kh_smag_e) * z_nabla2_e
                      - diff_multfac_vn[None, :] * wp(z_nabla4_e2) * ae)


def nabla2_lateral_boundary_vn_math(z_nabla2_e, area_edge, vn, fac_bdydiff_v):
    return vn + area_edge[:, None] * WP(fac_bdydiff_v) * z_nabla2_e


def calculate_nabla4(conn, a):
    h0, h1, k0, k1 = _dom(a)
    z4 = nabla4_math(conn, a["u_vert"], a["v_vert"], a["primal_normal_vert_v1"],
                     a["primal_normal_vert_v2"], a["z_nabla2_e"], a["inv_vert_vert_length"],
                     a["inv_primal_edge_length"])
    return {"z_nabla4_e2": _write(a["z_nabla4_e2"], z4, h0, h1, k0, k1)}


def apply_nabla2_and_nabla4_to_vn(conn, a):
    h0, h1, k0, k1 = _dom(a)
    r = nabla2_nabla4_vn_math(a["area_edge"], a["kh_smag_e"], a["z_nabla2_e"], a["z_nabla4_e2"],
                              a["diff_multfac_vn"], a["nudgecoeff_e"], a["vn"],
                              a["nudgezone_diff"])
    return {"vn": _write(a["vn"], r, h0, h1, k0, k1)}


def apply_nabla2_and_nabla4_global_to_vn(conn, a):
    h0, h1, k0, k1 = _dom(a)
    r = nabla2_nabla4_global_vn_math(a["area_edge"], a["kh_smag_e"], a["z_nabla2_e"],
                                     a["z_nabla4_e2"], a["diff_multfac_vn"], a["vn"])
    return {"vn": _write(a["vn"], r, h0, h1, k0, k1)}


def apply_nabla2_to_vn_in_lateral_boundary(conn, a):
    h0, h1, k0, k1 = _dom(a)
    r = nabla2_lateral_boundary_vn_math(a["z_nabla2_e"], a["area_edge"], a["vn"],
                                        a["fac_bdydiff_v"])
    return {"vn": _write(a["vn"], r, h0, h1, k0, k1)}


def apply_diffusion_to_vn_math(conn, a, diff_multfac_vn=None):
    dmv = a["diff_multfac_vn"] if diff_multfac_vn is None else diff_multfac_vn
    z4 = nabla4_math(conn, a["u_vert"], a["v_vert"], a["primal_normal_vert_v1"],
                     a["primal_normal_vert_v2"], a["z_nabla2_e"], a["inv_vert_vert_length"],
                     a["inv_primal_edge_length"])
    vn = a["vn"]
    edge = np.arange(vn.shape[0])[:, None]
    inner = edge >= int(a["start_2nd_nudge_line_idx_e"])
    if bool(a["limited_area"]):
        return np.where(inner,
                        nabla2_nabla4_vn_math(a["area_edge"], a["kh_smag_e"], a["z_nabla2_e"], z4,
                                              dmv, a["nudgecoeff_e"], vn, a["nudgezone_diff"]),
                        nabla2_lateral_boundary_vn_math(a["z_nabla2_e"], a["area_edge"], vn,
                                                        a["fac_bdydiff_v"]))
    return np.where(inner,
                    nabla2_nabla4_global_vn_math(a["area_edge"], a["kh_smag_e"], a["z_nabla2_e"],
                                                 z4, dmv, vn),
                    vn)


def apply_diffusion_to_vn(conn, a):
    h0, h1, k0, k1 = _dom(a)
    return {"vn": _write(a["vn"], apply_diffusion_to_vn_math(conn, a), h0, h1, k0, k1)}


# ----------------------------------------------------------------------------------------------
# 3.4 stencils 07 + 08 + 09 + 10
# ----------------------------------------------------------------------------------------------
def nabla2_for_w_math(conn, w, geofac_n2s):
    """(nc, nlev_w) where nlev_w = levels of w (nlev+1 for the half-level w)."""
    return vp(nbh_sum(geofac_n2s, w, conn["C2E2CO"]))


def horizontal_gradients_math(conn, w, geofac_grg_x, geofac_grg_y):
    c2e2co = conn["C2E2CO"]
    return vp(nbh_sum(geofac_grg_x, w, c2e2co)), vp(nbh_sum(geofac_grg_y, w, c2e2co))


def apply_nabla2_to_w_math(conn, area, z_nabla2_c, geofac_n2s, w, diff_multfac_w):
    nl = z_nabla2_c.shape[1]
    lap = nbh_sum(geofac_n2s, wp(z_nabla2_c), conn["C2E2CO"])
    return w[:, :nl] - WP(diff_multfac_w) * (area * area)[:, None] * lap


def apply_nabla2_to_w_in_upper_damping_layer_math(w, diff_multfac_n2w, cell_area, z_nabla2_c):
    nl = z_nabla2_c.shape[1]
    return w[:, :nl] + diff_multfac_n2w[None, :nl] * cell_area[:, None] * wp(z_nabla2_c)


def calculate_nabla2_for_w(conn, a):
    h0, h1, k0, k1 = _dom(a)
    z = nabla2_for_w_math(conn, a["w"], a["geofac_n2s"])
    return {"z_nabla2_c": _write(a["z_nabla2_c"], z, h0, h1, k0, k1)}


def calculate_horizontal_gradients_for_turbulence(conn, a):
    h0, h1, k0, k1 = _dom(a)
    gx, gy = horizontal_gradients_math(conn, a["w"], a["geofac_grg_x"], a["geofac_grg_y"])
    return {"dwdx": _write(a["dwdx"], gx, h0, h1, k0, k1),
            "dwdy": _write(a["dwdy"], gy, h0, h1, k0, k1)}


def apply_nabla2_to_w(conn, a):
    h0, h1, k0, k1 = _dom(a)
    r = apply_nabla2_to_w_math(conn, a["area"], a["z_nabla2_c"], a["geofac_n2s"], a["w"],
                               a["diff_multfac_w"])
    return {"w": _write(a["w"], r, h0, h1, k0, k1)}


def apply_nabla2_to_w_in_upper_damping_layer(conn, a):
    h0, h1, k0, k1 = _dom(a)
    r = apply_nabla2_to_w_in_upper_damping_layer_math(a["w"], a["diff_multfac_n2w"],
                                                      a["cell_area"], a["z_nabla2_c"])
    return {"w": _write(a["w"], r, h0, h1, k0, k1)}


def apply_diffusion_to_w_math(conn, a, w_old):
    nlev = a["diff_multfac_n2w"].shape[0]
    nc = w_old.shape[0]
    nlev_w = w_old.shape[1]
    k = np.arange(nlev_w)[None, :]
    cell = np.arange(nc)[:, None]
    dwdx, dwdy = a["dwdx"], a["dwdy"]
    if int(a["type_shear"]) == 2:
        gx, gy = horizontal_gradients_math(conn, w_old, a["geofac_grg_x"], a["geofac_grg_y"])
        dwdx = np.where(k > 0, gx, dwdx)
        dwdy = np.where(k > 0, gy, dwdy)
    z_nabla2_c = nabla2_for_w_math(conn, w_old[:, :nlev], a["geofac_n2s"])   # (nc, nlev)
    interior = (int(a["interior_idx"]) <= cell) & (cell < int(a["halo_idx"]))
    w1 = np.where(interior,
                  apply_nabla2_to_w_math(conn, a["area"], z_nabla2_c, a["geofac_n2s"], w_old,
                                         a["diff_multfac_w"]),
                  w_old[:, :nlev])
    kk = np.arange(nlev)[None, :]
    sponge = (kk > 0) & (kk < int(a["nrdmax"])) & interior
    w2 = np.where(sponge,
                  apply_nabla2_to_w_in_upper_damping_layer_math(w1, a["diff_multfac_n2w"],
                                                                a["area"], z_nabla2_c),
                  w1)
    w_full = np.concatenate([w2, np.full((nc, nlev_w - nlev), np.nan)], axis=1)
    return w_full, vp(dwdx), vp(dwdy)


def apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(conn, a):
    h0, h1, k0, k1 = _dom(a)
    w, dwdx, dwdy = apply_diffusion_to_w_math(conn, a, a["w_old"])
    return {"w": _write(a["w"], w, h0, h1, k0, k1),
            "dwdx": _write(a["dwdx"], dwdx, h0, h1, k0, k1),
            "dwdy": _write(a["dwdy"], dwdy, h0, h1, k0, k1)}


# ----------------------------------------------------------------------------------------------
# 3.5 stencils 11 + 12
# ----------------------------------------------------------------------------------------------
def cold_pool_temporary_math(conn, theta_v, theta_ref_mc, thresh_tdiff, smallest_vpfloat):
    c2e2c = conn["C2E2C"]
    ones = np.ones(c2e2c.shape)
    tdiff = theta_v - nbh_sum(ones, theta_v, c2e2c) / 3.0            # always /3
    trefdiff = wp(theta_ref_mc) - wp(vp(nbh_sum(ones.astype(VP), vp(theta_ref_mc), c2e2c))) / 3.0
    thr = WP(thresh_tdiff)
    cond = (((tdiff - trefdiff) < thr) & (trefdiff < 0.0)) | ((tdiff - trefdiff) < 1.5 * thr)
    return np.where(cond, vp((thr - tdiff + trefdiff) * 5.0e-4), VP(smallest_vpfloat)).astype(VP)


def enhance_kh_math(conn, kh_smag_e, enh_diffu_3d):
    e2c = conn["E2C"]
    g = nbh(enh_diffu_3d, e2c, fill=-np.inf)
    return np.maximum(kh_smag_e, np.max(g, axis=1)).astype(VP)


def temporary_field_for_grid_point_cold_pools_enhancement(conn, a):
    h0, h1, k0, k1 = _dom(a)
    r = cold_pool_temporary_math(conn, a["theta_v"], a["theta_ref_mc"], a["thresh_tdiff"],
                                 a["smallest_vpfloat"])
    return {"enh_diffu_3d": _write(a["enh_diffu_3d"], r, h0, h1, k0, k1)}


def enhance_diffusion_coefficient_for_grid_point_cold_pools(conn, a):
    h0, h1, k0, k1 = _dom(a)
    r = enhance_kh_math(conn, a["kh_smag_e"], a["enh_diffu_3d"])
    return {"kh_smag_e": _write(a["kh_smag_e"], r, h0, h1, k0, k1)}


def calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools(conn, a):
    h0, h1, k0, k1 = _dom(a)
    enh = cold_pool_temporary_math(conn, a["theta_v"], a["theta_ref_mc"], a["thresh_tdiff"],
                                   a["smallest_vpfloat"])
    r = enhance_kh_math(conn, a["kh_smag_e"], enh)
    return {"kh_smag_e": _write(a["kh_smag_e"], r, h0, h1, k0, k1)}


# ----------------------------------------------------------------------------------------------
# 3.6 stencils 13 + 14 + 15 + 16
# ----------------------------------------------------------------------------------------------
def nabla2_for_z_math(conn, kh_smag_e, inv_dual_edge_length, theta_v):
    g = nbh(theta_v, conn["E2C"])
    return wp(kh_smag_e) * inv_dual_edge_length[:, None] * (g[:, 1] - g[:, 0])


def nabla2_of_theta_math(conn, z_nabla2_e, geofac_div):
    return vp(nbh_sum(geofac_div, z_nabla2_e, conn["C2E"]))


def steep_points_math(conn, zd_vertoffset, zd_diffcoef, geofac_n2s_c, geofac_n2s_nbh, vcoef,
                      theta_v, z_temp, valid=None):
    """Stencil 15, applied where zd_diffcoef != 0. ``valid`` (nc, nlev) marks the program
    domain: there, at the steep points, k + zd_vertoffset must lie in [0, nlev-2]. Elsewhere
    (e.g. zd_vertoffset = 0 at k = nlev-1 of a non-steep cell, where k+1 = nlev) the level is
    clipped; the value is discarded by the mask."""
    c2e2c = conn["C2E2C"]
    nc, nlev = theta_v.shape
    k = np.arange(nlev)[None, None, :]
    kk = k + zd_vertoffset                                      # (nc, 3, nlev) absolute level
    steep = zd_diffcoef != 0.0
    if valid is not None:
        bad = (((kk < 0) | (kk + 1 > nlev - 1)) & (c2e2c >= 0)[:, :, None]
               & (valid & steep)[:, None, :])
        assert not bad.any(), "zd_vertoffset leaves [0, nlev-2] at a steep point of the domain"
    kk0 = np.clip(kk, 0, nlev - 1)
    kk1 = np.clip(kk + 1, 0, nlev - 1)
    nb = np.where(c2e2c >= 0, c2e2c, 0)[:, :, None]
    th0 = theta_v[nb, kk0]
    th1 = theta_v[nb, kk1]
    term = geofac_n2s_nbh[:, :, None] * (vcoef * th0 + (1.0 - vcoef) * th1)
    term = np.where((c2e2c >= 0)[:, :, None], term, 0.0)
    lap = theta_v * geofac_n2s_c[:, None] + np.sum(term, axis=1)
    zt = wp(z_temp)
    return vp(np.where(steep, zt + zd_diffcoef * lap, zt))


def update_theta_and_exner_math(z_temp, area, theta_v, exner, rd_o_cvd):
    theta_new = theta_v + area[:, None] * wp(z_temp)
    exner_new = exner * (1.0 + WP(rd_o_cvd) * (theta_new / theta_v - 1.0))
    return theta_new, exner_new


def _domain_mask(shape, h0, h1, k0, k1):
    m = np.zeros(shape, dtype=bool)
    m[h0:h1, k0:k1] = True
    return m


def _list_mask(points, shape):
    """The (cell, level) points of a point list, as check_reference loads it: (2, N), the
    cells, then the levels."""
    m = np.zeros(shape, dtype=bool)
    m[points[0], points[1]] = True
    return m


def calculate_nabla2_for_z(conn, a):
    h0, h1, k0, k1 = _dom(a)
    r = nabla2_for_z_math(conn, a["kh_smag_e"], a["inv_dual_edge_length"], a["theta_v"])
    return {"z_nabla2_e": _write(a["z_nabla2_e"], r, h0, h1, k0, k1)}


def calculate_nabla2_of_theta(conn, a):
    h0, h1, k0, k1 = _dom(a)
    r = nabla2_of_theta_math(conn, a["z_nabla2_e"], a["geofac_div"])
    return {"z_temp": _write(a["z_temp"], r, h0, h1, k0, k1)}


def calculate_nabla2_for_theta(conn, a):
    h0, h1, k0, k1 = _dom(a)
    z = nabla2_for_z_math(conn, a["kh_smag_e"], a["inv_dual_edge_length"], a["theta_v"])
    r = nabla2_of_theta_math(conn, z, a["geofac_div"])
    return {"z_temp": _write(a["z_temp"], r, h0, h1, k0, k1)}


def truly_horizontal_diffusion_nabla_of_theta_over_steep_points(conn, a):
    h0, h1, k0, k1 = _dom(a)
    valid = _domain_mask(a["z_temp"].shape, h0, h1, k0, k1)
    r = steep_points_math(conn, a["zd_vertoffset"], a["zd_diffcoef"], a["geofac_n2s_c"],
                          a["geofac_n2s_nbh"], a["vcoef"], a["theta_v"], a["z_temp"], valid)
    return {"z_temp": _write(a["z_temp"], r, h0, h1, k0, k1)}


def truly_horizontal_diffusion_nabla_of_theta_on_steep_points(conn, a):
    listed = _list_mask(a["steep"], a["z_temp"].shape)
    r = steep_points_math(conn, a["zd_vertoffset"], a["zd_diffcoef"], a["geofac_n2s_c"],
                          a["geofac_n2s_nbh"], a["vcoef"], a["theta_v"], a["z_temp"], listed)
    return {"z_temp": np.where(listed, r, a["z_temp"])}


def update_theta_and_exner(conn, a):
    h0, h1, k0, k1 = _dom(a)
    th, ex = update_theta_and_exner_math(a["z_temp"], a["area"], a["theta_v"], a["exner"],
                                         a["rd_o_cvd"])
    return {"theta_v": _write(a["theta_v"], th, h0, h1, k0, k1),
            "exner": _write(a["exner"], ex, h0, h1, k0, k1)}


def apply_diffusion_to_theta_and_exner_math(conn, a, theta_in, valid, listed=None):
    """``listed``: the correction only at the points of ICON's list of steep points (else at
    every point of the domain where zd_diffcoef != 0)."""
    z = nabla2_for_z_math(conn, a["kh_smag_e"], a["inv_dual_edge_length"], theta_in)
    z_temp = nabla2_of_theta_math(conn, z, a["geofac_div"])
    if bool(a["apply_zdiffusion_t"]):
        corrected = steep_points_math(conn, a["zd_vertoffset"], a["zd_diffcoef"],
                                      a["geofac_n2s_c"], a["geofac_n2s_nbh"], a["vcoef"],
                                      theta_in, z_temp, valid if listed is None else listed)
        z_temp = corrected if listed is None else np.where(listed, corrected, z_temp)
    return update_theta_and_exner_math(z_temp, a["area"], theta_in, a["exner"], a["rd_o_cvd"])


def apply_diffusion_to_theta_and_exner(conn, a):
    h0, h1, k0, k1 = _dom(a)
    valid = _domain_mask(a["theta_v_in"].shape, h0, h1, k0, k1)
    th, ex = apply_diffusion_to_theta_and_exner_math(conn, a, a["theta_v_in"], valid)
    return {"theta_v": _write(a["theta_v"], th, h0, h1, k0, k1),
            "exner": _write(a["exner"], ex, h0, h1, k0, k1)}


def apply_diffusion_to_theta_and_exner_on_steep_points(conn, a):
    h0, h1, k0, k1 = _dom(a)
    valid = _domain_mask(a["theta_v_in"].shape, h0, h1, k0, k1)
    listed = _list_mask(a["steep"], a["theta_v_in"].shape)
    th, ex = apply_diffusion_to_theta_and_exner_math(conn, a, a["theta_v_in"], valid, listed)
    return {"theta_v": _write(a["theta_v"], th, h0, h1, k0, k1),
            "exner": _write(a["exner"], ex, h0, h1, k0, k1)}


# ----------------------------------------------------------------------------------------------
# 3.7 helpers and init programs
# ----------------------------------------------------------------------------------------------
def copy_field(conn, a):
    return {"new_f": _write(a["new_f"], a["old_f"], int(a["h_start"]), int(a["h_end"]))}


def copy_field_half_levels(conn, a):
    return {"new_f": _write(a["new_f"], a["old_f"], int(a["h_start"]), int(a["h_end"]))}


def scale_k(conn, a):
    return {"scaled_field": vp(a["field_k"] * WP(a["factor"]))}


def setup_fields_for_initial_step_math(k4, hdiff_efdt_ratio, nlev):
    dmv = np.full(nlev, WP(k4) / 3.0 * WP(hdiff_efdt_ratio))
    return dmv, vp(0.125 - 4.0 * dmv)


def setup_fields_for_initial_step(conn, a):
    nlev = a["diff_multfac_vn"].shape[0]
    dmv, sl = setup_fields_for_initial_step_math(a["k4"], a["hdiff_efdt_ratio"], nlev)
    return {"diff_multfac_vn": dmv, "smag_limit": sl}


def en_smag_fac_math(vect_a, f1, f2, f3, f4, z1, z2, z3, z4):
    """enh_smag_fac[k] from the nlev+1 interface heights vect_a (diffusion-spec 2.1)."""
    dz21 = z2 - z1
    alin = (f2 - f1) / dz21
    df32 = f3 - f2
    df42 = f4 - f2
    dz32 = z3 - z2
    dz42 = z4 - z2
    bqdr = (df42 * dz32 - df32 * dz42) / (dz32 * dz42 * (dz42 - dz32))
    aqdr = df32 / dz32 - bqdr * dz32
    zf = 0.5 * (vect_a[:-1] + vect_a[1:])
    dzlin = np.minimum(dz21, np.maximum(0.0, zf - z1))
    dzqdr = np.minimum(dz42, np.maximum(0.0, zf - z2))
    return f1 + dzlin * alin + dzqdr * (aqdr + dzqdr * bqdr)


_SMAG = ("hdiff_smag_fac", "hdiff_smag_fac2", "hdiff_smag_fac3", "hdiff_smag_fac4",
         "hdiff_smag_z", "hdiff_smag_z2", "hdiff_smag_z3", "hdiff_smag_z4")


def en_smag_fac_for_zero_nshift(conn, a):
    return {"enh_smag_fac": en_smag_fac_math(a["vect_a"], *[WP(a[n]) for n in _SMAG])}


def init_diffusion_local_fields_for_regular_timestep(conn, a):
    nlev = a["vect_a"].shape[0] - 1
    dmv = np.full(nlev, min(1.0 / 128.0, WP(a["k4"]) * WP(a["dyn_substeps"]) / 3.0))
    return {"diff_multfac_vn": dmv,
            "smag_limit": vp(0.125 - 4.0 * dmv),
            "enh_smag_fac": en_smag_fac_math(a["vect_a"], *[WP(a[n]) for n in _SMAG])}


def init_nabla2_factor_in_upper_damping_zone(conn, a):
    z = a["physical_heights"]
    nrd = int(a["end_index_of_damping_layer"])
    out = np.array(a["diff_multfac_n2w"], copy=True)
    k = np.arange(1, nrd + 1)
    out[k] = 1.0 / 12.0 * ((z[k] - z[nrd + 1]) / (z[1] - z[nrd + 1])) ** 4
    return {"diff_multfac_n2w": out}


# ----------------------------------------------------------------------------------------------
# 4. one whole diffusion step
# ----------------------------------------------------------------------------------------------
def diffusion_step(conn, a):
    """One granule step in the order of diffusion-spec section 4 (halo exchanges are no-ops
    on a single node). Returns the 8 prognostic/diagnostic in/out fields."""
    vn, w = a["vn"].copy(), a["w"].copy()
    theta_v, exner = a["theta_v"].copy(), a["exner"].copy()
    div_ic, hdef_ic = a["div_ic"].copy(), a["hdef_ic"].copy()
    dwdx, dwdy = a["dwdx"].copy(), a["dwdy"].copy()
    nlev = vn.shape[1]
    nv = a["rbf_coeff_1"].shape[0]
    ne = vn.shape[0]
    nc = w.shape[0]
    # granule temporaries (zero-initialised, like ICON4Py's _allocate)
    u_vert = np.zeros((nv, nlev), VP)
    v_vert = np.zeros((nv, nlev), VP)
    kh_smag_e = np.zeros((ne, nlev), VP)
    kh_smag_ec = np.zeros((ne, nlev), VP)
    z_nabla2_e = np.zeros((ne, nlev), WP)

    # 0. initial run
    if bool(a["initial_run"]):
        diff_multfac_vn, smag_limit = setup_fields_for_initial_step_math(
            a["k4"], a["hdiff_efdt_ratio"], nlev)
        smag_offset = 0.0
    else:
        diff_multfac_vn, smag_limit, smag_offset = (a["diff_multfac_vn"], a["smag_limit"],
                                                    a["smag_offset"])
    # 1. scale_k
    diff_multfac_smag = vp(a["enh_smag_fac"] * WP(a["dtime"]))

    # 2. RBF#1 on vn, vertices [LB2, LOCAL)
    sv, ev = int(a["start_lb2_v"]), int(a["end_local_v"])
    u, v = rbf_vec_interpol_vertex_math(conn, vn, a["rbf_coeff_1"], a["rbf_coeff_2"])
    u_vert = _write(u_vert, u, sv, ev, 0, nlev)
    v_vert = _write(v_vert, v, sv, ev, 0, nlev)
    # 3. exchange u_vert, v_vert (no-op)
    # 4. stencil 01, edges [LB5, HALO_LEVEL_2)
    se5, eh2 = int(a["start_lb5_e"]), int(a["end_halo2_e"])
    khe, khec, nab = nabla2_and_smag_math(
        conn, diff_multfac_smag, a["tangent_orientation"], a["inv_primal_edge_length"],
        a["inv_vert_vert_length"], u_vert, v_vert, a["primal_normal_vert_x"],
        a["primal_normal_vert_y"], a["dual_normal_vert_x"], a["dual_normal_vert_y"], vn,
        smag_limit, smag_offset)
    kh_smag_e = _write(kh_smag_e, khe, se5, eh2, 0, nlev)
    kh_smag_ec = _write(kh_smag_ec, khec, se5, eh2, 0, nlev)
    z_nabla2_e = _write(z_nabla2_e, nab, se5, eh2, 0, nlev)
    # 5. stencils 02+03, cells [NUDGING, LOCAL), k in [1, nlev)
    snc, elc = int(a["start_nudging_c"]), int(a["end_local_c"])
    if int(a["shear_type"]) >= 1 or bool(a["loutshs"]) or float(a["a_hshr"]) > 0.0:
        kh_c, div = temporary_fields_math(conn, kh_smag_ec, vn, a["e_bln_c_s"], a["geofac_div"],
                                          diff_multfac_smag)
        d, h = diagnostics_math(div, kh_c, a["wgtfac_c"])
        div_ic = _write(div_ic, d, snc, elc, 1, nlev)
        hdef_ic = _write(hdef_ic, h, snc, elc, 1, nlev)
    # 6. exchange z_nabla2_e; 7. RBF#2 on z_nabla2_e
    u, v = rbf_vec_interpol_vertex_math(conn, z_nabla2_e, a["rbf_coeff_1"], a["rbf_coeff_2"])
    u_vert = _write(u_vert, u, sv, ev, 0, nlev)
    v_vert = _write(v_vert, v, sv, ev, 0, nlev)
    # 8. exchange; 9. stencils 04+05+06, edges [LB5, LOCAL)
    ele = int(a["end_local_e"])
    vn_args = dict(u_vert=u_vert, v_vert=v_vert,
                   primal_normal_vert_v1=a["primal_normal_vert_x"],
                   primal_normal_vert_v2=a["primal_normal_vert_y"], z_nabla2_e=z_nabla2_e,
                   inv_vert_vert_length=a["inv_vert_vert_length"],
                   inv_primal_edge_length=a["inv_primal_edge_length"], area_edge=a["area_edge"],
                   kh_smag_e=kh_smag_e, diff_multfac_vn=diff_multfac_vn,
                   nudgecoeff_e=a["nudgecoeff_e"], vn=vn, nudgezone_diff=a["nudgezone_diff"],
                   fac_bdydiff_v=a["fac_bdydiff_v"],
                   start_2nd_nudge_line_idx_e=a["start_nudging2_e"],
                   limited_area=a["limited_area"])
    vn = _write(vn, apply_diffusion_to_vn_math(conn, vn_args), se5, ele, 0, nlev)
    # 10. exchange vn (async); 11. copy w -> w_tmp; 12. stencils 07-10, cells [start_w, HALO)
    w_tmp = w.copy()
    w_args = dict(area=a["area"], geofac_n2s=a["geofac_n2s"], geofac_grg_x=a["geofac_grg_x"],
                  geofac_grg_y=a["geofac_grg_y"], type_shear=a["shear_type"], dwdx=dwdx,
                  dwdy=dwdy, diff_multfac_w=a["diff_multfac_w"],
                  diff_multfac_n2w=a["diff_multfac_n2w"], nrdmax=a["nrdmax"],
                  interior_idx=a["start_interior_c"], halo_idx=a["end_local_c"])
    wn, gx, gy = apply_diffusion_to_w_math(conn, w_args, w_tmp)
    swc, ehc = int(a["start_w_c"]), int(a["end_halo_c"])
    w = _write(w, wn, swc, ehc, 0, nlev)
    dwdx = _write(dwdx, gx, swc, ehc, 0, nlev)
    dwdy = _write(dwdy, gy, swc, ehc, 0, nlev)
    # 13. wait for vn; 14. temperature
    if bool(a["apply_to_temperature"]):
        sne, ehe = int(a["start_nudging_e"]), int(a["end_halo_e"])
        enh = cold_pool_temporary_math(conn, theta_v, a["theta_ref_mc"], a["thresh_tdiff"],
                                       a["smallest_vpfloat"])
        kh_smag_e = _write(kh_smag_e, enhance_kh_math(conn, kh_smag_e, enh), sne, ehe,
                           nlev - 2, nlev)
        theta_tmp = theta_v.copy()
        th_args = dict(kh_smag_e=kh_smag_e, inv_dual_edge_length=a["inv_dual_edge_length"],
                       geofac_div=a["geofac_div"], zd_vertoffset=a["zd_vertoffset"],
                       zd_diffcoef=a["zd_diffcoef"], geofac_n2s_c=a["geofac_n2s_c"],
                       geofac_n2s_nbh=a["geofac_n2s_nbh"], vcoef=a["zd_intcoef"],
                       area=a["area"], exner=exner, rd_o_cvd=a["rd_o_cvd"],
                       apply_zdiffusion_t=a["apply_zdiffusion_t"])
        valid = _domain_mask(theta_v.shape, snc, elc, 0, nlev)
        listed = _list_mask(a["steep"], theta_v.shape)
        th, ex = apply_diffusion_to_theta_and_exner_math(conn, th_args, theta_tmp, valid, listed)
        theta_v = _write(theta_v, th, snc, elc, 0, nlev)
        exner = _write(exner, ex, snc, elc, 0, nlev)
    # 15. exchanges (no-op)
    return {"vn": vn, "w": w, "theta_v": theta_v, "exner": exner, "div_ic": div_ic,
            "hdef_ic": hdef_ic, "dwdx": dwdx, "dwdy": dwdy}


# ----------------------------------------------------------------------------------------------
# signatures (parameter order of the .stn programs)
# ----------------------------------------------------------------------------------------------
_D = [("in", "h_start", "i32"), ("in", "h_end", "i32"), ("in", "v_start", "i32"),
      ("in", "v_end", "i32")]

SIGNATURES = {
    "mo_intp_rbf_rbf_vec_interpol_vertex": [
        ("in", "p_e_in", "Edge,K,wp"), ("in", "ptr_coeff_1", "Vertex,V2E,wp"),
        ("in", "ptr_coeff_2", "Vertex,V2E,wp"), ("out", "p_u_out", "Vertex,K,vp"),
        ("out", "p_v_out", "Vertex,K,vp")] + _D,
    "calculate_nabla2_and_smag_coefficients_for_vn": [
        ("in", "diff_multfac_smag", "K,vp"), ("in", "tangent_orientation", "Edge,wp"),
        ("in", "inv_primal_edge_length", "Edge,wp"), ("in", "inv_vert_vert_length", "Edge,wp"),
        ("in", "u_vert", "Vertex,K,vp"), ("in", "v_vert", "Vertex,K,vp"),
        ("in", "primal_normal_vert_x", "Edge,E2C2V,wp"),
        ("in", "primal_normal_vert_y", "Edge,E2C2V,wp"),
        ("in", "dual_normal_vert_x", "Edge,E2C2V,wp"),
        ("in", "dual_normal_vert_y", "Edge,E2C2V,wp"), ("in", "vn", "Edge,K,wp"),
        ("in", "smag_limit", "K,vp"), ("out", "kh_smag_e", "Edge,K,vp"),
        ("out", "kh_smag_ec", "Edge,K,vp"), ("out", "z_nabla2_e", "Edge,K,wp"),
        ("in", "smag_offset", "vp")] + _D,
    "temporary_fields_for_turbulence_diagnostics": [
        ("in", "kh_smag_ec", "Edge,K,vp"), ("in", "vn", "Edge,K,wp"),
        ("in", "e_bln_c_s", "Cell,C2E,wp"), ("in", "geofac_div", "Cell,C2E,wp"),
        ("in", "diff_multfac_smag", "K,vp"), ("out", "kh_c", "Cell,K,vp"),
        ("out", "div", "Cell,K,vp")] + _D,
    "calculate_diagnostics_for_turbulence": [
        ("in", "div", "Cell,K,vp"), ("in", "kh_c", "Cell,K,vp"),
        ("in", "wgtfac_c", "Cell,KHalf,vp"), ("out", "div_ic", "Cell,KHalf,vp"),
        ("out", "hdef_ic", "Cell,KHalf,vp")] + _D,
    "calculate_nabla4": [
        ("in", "u_vert", "Vertex,K,vp"), ("in", "v_vert", "Vertex,K,vp"),
        ("in", "primal_normal_vert_v1", "Edge,E2C2V,wp"),
        ("in", "primal_normal_vert_v2", "Edge,E2C2V,wp"), ("in", "z_nabla2_e", "Edge,K,wp"),
        ("in", "inv_vert_vert_length", "Edge,wp"), ("in", "inv_primal_edge_length", "Edge,wp"),
        ("out", "z_nabla4_e2", "Edge,K,vp")] + _D,
    "apply_nabla2_and_nabla4_to_vn": [
        ("in", "area_edge", "Edge,wp"), ("in", "kh_smag_e", "Edge,K,vp"),
        ("in", "z_nabla2_e", "Edge,K,wp"), ("in", "z_nabla4_e2", "Edge,K,vp"),
        ("in", "diff_multfac_vn", "K,wp"), ("in", "nudgecoeff_e", "Edge,wp"),
        ("inout", "vn", "Edge,K,wp"), ("in", "nudgezone_diff", "vp")] + _D,
    "apply_nabla2_and_nabla4_global_to_vn": [
        ("in", "area_edge", "Edge,wp"), ("in", "kh_smag_e", "Edge,K,vp"),
        ("in", "z_nabla2_e", "Edge,K,wp"), ("in", "z_nabla4_e2", "Edge,K,vp"),
        ("in", "diff_multfac_vn", "K,wp"), ("inout", "vn", "Edge,K,wp")] + _D,
    "apply_nabla2_to_vn_in_lateral_boundary": [
        ("in", "z_nabla2_e", "Edge,K,wp"), ("in", "area_edge", "Edge,wp"),
        ("inout", "vn", "Edge,K,wp"), ("in", "fac_bdydiff_v", "wp")] + _D,
    "calculate_nabla2_for_w": [
        ("in", "w", "Cell,KHalf,wp"), ("in", "geofac_n2s", "Cell,C2E2CO,wp"),
        ("out", "z_nabla2_c", "Cell,K,vp")] + _D,
    "calculate_horizontal_gradients_for_turbulence": [
        ("in", "w", "Cell,KHalf,wp"), ("in", "geofac_grg_x", "Cell,C2E2CO,wp"),
        ("in", "geofac_grg_y", "Cell,C2E2CO,wp"), ("out", "dwdx", "Cell,KHalf,vp"),
        ("out", "dwdy", "Cell,KHalf,vp")] + _D,
    "apply_nabla2_to_w": [
        ("in", "area", "Cell,wp"), ("in", "z_nabla2_c", "Cell,K,vp"),
        ("in", "geofac_n2s", "Cell,C2E2CO,wp"), ("inout", "w", "Cell,KHalf,wp"),
        ("in", "diff_multfac_w", "wp")] + _D,
    "apply_nabla2_to_w_in_upper_damping_layer": [
        ("inout", "w", "Cell,KHalf,wp"), ("in", "diff_multfac_n2w", "K,wp"),
        ("in", "cell_area", "Cell,wp"), ("in", "z_nabla2_c", "Cell,K,vp")] + _D,
    "temporary_field_for_grid_point_cold_pools_enhancement": [
        ("in", "theta_v", "Cell,K,wp"), ("in", "theta_ref_mc", "Cell,K,vp"),
        ("out", "enh_diffu_3d", "Cell,K,vp"), ("in", "thresh_tdiff", "wp"),
        ("in", "smallest_vpfloat", "vp")] + _D,
    "enhance_diffusion_coefficient_for_grid_point_cold_pools": [
        ("inout", "kh_smag_e", "Edge,K,vp"), ("in", "enh_diffu_3d", "Cell,K,vp")] + _D,
    "calculate_nabla2_for_z": [
        ("in", "kh_smag_e", "Edge,K,vp"), ("in", "inv_dual_edge_length", "Edge,wp"),
        ("in", "theta_v", "Cell,K,wp"), ("out", "z_nabla2_e", "Edge,K,wp")] + _D,
    "calculate_nabla2_of_theta": [
        ("in", "z_nabla2_e", "Edge,K,wp"), ("in", "geofac_div", "Cell,C2E,wp"),
        ("out", "z_temp", "Cell,K,vp")] + _D,
    "calculate_nabla2_for_theta": [
        ("in", "kh_smag_e", "Edge,K,vp"), ("in", "inv_dual_edge_length", "Edge,wp"),
        ("in", "theta_v", "Cell,K,wp"), ("in", "geofac_div", "Cell,C2E,wp"),
        ("out", "z_temp", "Cell,K,vp")] + _D,
    "truly_horizontal_diffusion_nabla_of_theta_over_steep_points": [
        ("in", "zd_vertoffset", "Cell,C2E2C,K,i32"), ("in", "zd_diffcoef", "Cell,K,wp"),
        ("in", "geofac_n2s_c", "Cell,wp"), ("in", "geofac_n2s_nbh", "Cell,C2E2C,wp"),
        ("in", "vcoef", "Cell,C2E2C,K,wp"), ("in", "theta_v", "Cell,K,wp"),
        ("inout", "z_temp", "Cell,K,vp")] + _D,
    "truly_horizontal_diffusion_nabla_of_theta_on_steep_points": [
        ("in", "steep", "points,Cell"),
        ("in", "zd_vertoffset", "Cell,C2E2C,K,i32"), ("in", "zd_diffcoef", "Cell,K,wp"),
        ("in", "geofac_n2s_c", "Cell,wp"), ("in", "geofac_n2s_nbh", "Cell,C2E2C,wp"),
        ("in", "vcoef", "Cell,C2E2C,K,wp"), ("in", "theta_v", "Cell,K,wp"),
        ("inout", "z_temp", "Cell,K,vp")],
    "update_theta_and_exner": [
        ("in", "z_temp", "Cell,K,vp"), ("in", "area", "Cell,wp"),
        ("inout", "theta_v", "Cell,K,wp"), ("inout", "exner", "Cell,K,wp"),
        ("in", "rd_o_cvd", "vp")] + _D,
    "calculate_diagnostic_quantities_for_turbulence": [
        ("in", "kh_smag_ec", "Edge,K,vp"), ("in", "vn", "Edge,K,wp"),
        ("in", "e_bln_c_s", "Cell,C2E,wp"), ("in", "geofac_div", "Cell,C2E,wp"),
        ("in", "diff_multfac_smag", "K,vp"), ("in", "wgtfac_c", "Cell,KHalf,vp"),
        ("out", "div_ic", "Cell,KHalf,vp"), ("out", "hdef_ic", "Cell,KHalf,vp")] + _D,
    "apply_diffusion_to_vn": [
        ("in", "u_vert", "Vertex,K,vp"), ("in", "v_vert", "Vertex,K,vp"),
        ("in", "primal_normal_vert_v1", "Edge,E2C2V,wp"),
        ("in", "primal_normal_vert_v2", "Edge,E2C2V,wp"), ("in", "z_nabla2_e", "Edge,K,wp"),
        ("in", "inv_vert_vert_length", "Edge,wp"), ("in", "inv_primal_edge_length", "Edge,wp"),
        ("in", "area_edge", "Edge,wp"), ("in", "kh_smag_e", "Edge,K,vp"),
        ("in", "diff_multfac_vn", "K,wp"), ("in", "nudgecoeff_e", "Edge,wp"),
        ("inout", "vn", "Edge,K,wp"), ("in", "nudgezone_diff", "vp"),
        ("in", "fac_bdydiff_v", "wp"), ("in", "start_2nd_nudge_line_idx_e", "i32"),
        ("in", "limited_area", "bool")] + _D,
    "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence": [
        ("in", "area", "Cell,wp"), ("in", "geofac_n2s", "Cell,C2E2CO,wp"),
        ("in", "geofac_grg_x", "Cell,C2E2CO,wp"), ("in", "geofac_grg_y", "Cell,C2E2CO,wp"),
        ("in", "w_old", "Cell,KHalf,wp"), ("out", "w", "Cell,KHalf,wp"),
        ("in", "type_shear", "i32"), ("inout", "dwdx", "Cell,KHalf,vp"),
        ("inout", "dwdy", "Cell,KHalf,vp"), ("in", "diff_multfac_w", "wp"),
        ("in", "diff_multfac_n2w", "K,wp"), ("in", "nrdmax", "i32"),
        ("in", "interior_idx", "i32"), ("in", "halo_idx", "i32")] + _D,
    "calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools": [
        ("in", "theta_v", "Cell,K,wp"), ("in", "theta_ref_mc", "Cell,K,vp"),
        ("in", "thresh_tdiff", "wp"), ("in", "smallest_vpfloat", "vp"),
        ("inout", "kh_smag_e", "Edge,K,vp")] + _D,
    "apply_diffusion_to_theta_and_exner": [
        ("in", "kh_smag_e", "Edge,K,vp"), ("in", "inv_dual_edge_length", "Edge,wp"),
        ("in", "theta_v_in", "Cell,K,wp"), ("in", "geofac_div", "Cell,C2E,wp"),
        ("in", "zd_vertoffset", "Cell,C2E2C,K,i32"), ("in", "zd_diffcoef", "Cell,K,wp"),
        ("in", "geofac_n2s_c", "Cell,wp"), ("in", "geofac_n2s_nbh", "Cell,C2E2C,wp"),
        ("in", "vcoef", "Cell,C2E2C,K,wp"), ("in", "area", "Cell,wp"),
        ("out", "theta_v", "Cell,K,wp"), ("inout", "exner", "Cell,K,wp"),
        ("in", "rd_o_cvd", "vp"), ("in", "apply_zdiffusion_t", "bool")] + _D,
    "apply_diffusion_to_theta_and_exner_on_steep_points": [
        ("in", "kh_smag_e", "Edge,K,vp"), ("in", "inv_dual_edge_length", "Edge,wp"),
        ("in", "theta_v_in", "Cell,K,wp"), ("in", "geofac_div", "Cell,C2E,wp"),
        ("in", "steep", "points,Cell"),
        ("in", "zd_vertoffset", "Cell,C2E2C,K,i32"), ("in", "zd_diffcoef", "Cell,K,wp"),
        ("in", "geofac_n2s_c", "Cell,wp"), ("in", "geofac_n2s_nbh", "Cell,C2E2C,wp"),
        ("in", "vcoef", "Cell,C2E2C,K,wp"), ("in", "area", "Cell,wp"),
        ("out", "theta_v", "Cell,K,wp"), ("inout", "exner", "Cell,K,wp"),
        ("in", "rd_o_cvd", "vp"), ("in", "apply_zdiffusion_t", "bool")] + _D,
    "copy_field": [
        ("in", "old_f", "Cell,K,wp"), ("out", "new_f", "Cell,K,wp"),
        ("in", "h_start", "i32"), ("in", "h_end", "i32")],
    "copy_field_half_levels": [
        ("in", "old_f", "Cell,KHalf,wp"), ("out", "new_f", "Cell,KHalf,wp"),
        ("in", "h_start", "i32"), ("in", "h_end", "i32")],
    "scale_k": [("in", "field_k", "K,wp"), ("in", "factor", "wp"),
                ("out", "scaled_field", "K,vp")],
    "setup_fields_for_initial_step": [
        ("in", "k4", "wp"), ("in", "hdiff_efdt_ratio", "wp"),
        ("out", "diff_multfac_vn", "K,wp"), ("out", "smag_limit", "K,vp")],
    "en_smag_fac_for_zero_nshift": [("in", "vect_a", "KHalf,wp")]
        + [("in", n, "wp") for n in _SMAG] + [("out", "enh_smag_fac", "K,wp")],
    "init_diffusion_local_fields_for_regular_timestep": [
        ("in", "k4", "wp"), ("in", "dyn_substeps", "wp")] + [("in", n, "wp") for n in _SMAG]
        + [("in", "vect_a", "KHalf,wp"), ("out", "diff_multfac_vn", "K,wp"),
           ("out", "smag_limit", "K,vp"), ("out", "enh_smag_fac", "K,wp")],
    "init_nabla2_factor_in_upper_damping_zone": [
        ("in", "physical_heights", "KHalf,wp"), ("out", "diff_multfac_n2w", "K,wp"),
        ("in", "end_index_of_damping_layer", "i32")],
    "diffusion_step": [
        ("inout", "vn", "Edge,K,wp"), ("inout", "w", "Cell,KHalf,wp"),
        ("inout", "theta_v", "Cell,K,wp"), ("inout", "exner", "Cell,K,wp"),
        ("inout", "div_ic", "Cell,KHalf,vp"), ("inout", "hdef_ic", "Cell,KHalf,vp"),
        ("inout", "dwdx", "Cell,KHalf,vp"), ("inout", "dwdy", "Cell,KHalf,vp"),
        ("in", "e_bln_c_s", "Cell,C2E,wp"), ("in", "rbf_coeff_1", "Vertex,V2E,wp"),
        ("in", "rbf_coeff_2", "Vertex,V2E,wp"), ("in", "geofac_div", "Cell,C2E,wp"),
        ("in", "geofac_n2s", "Cell,C2E2CO,wp"), ("in", "geofac_n2s_c", "Cell,wp"),
        ("in", "geofac_n2s_nbh", "Cell,C2E2C,wp"), ("in", "geofac_grg_x", "Cell,C2E2CO,wp"),
        ("in", "geofac_grg_y", "Cell,C2E2CO,wp"), ("in", "nudgecoeff_e", "Edge,wp"),
        ("in", "theta_ref_mc", "Cell,K,vp"), ("in", "wgtfac_c", "Cell,KHalf,vp"),
        ("in", "zd_intcoef", "Cell,C2E2C,K,wp"), ("in", "zd_vertoffset", "Cell,C2E2C,K,i32"),
        ("in", "zd_diffcoef", "Cell,K,wp"), ("in", "steep", "points,Cell"),
        ("in", "tangent_orientation", "Edge,wp"),
        ("in", "inv_primal_edge_length", "Edge,wp"), ("in", "inv_vert_vert_length", "Edge,wp"),
        ("in", "inv_dual_edge_length", "Edge,wp"), ("in", "area_edge", "Edge,wp"),
        ("in", "primal_normal_vert_x", "Edge,E2C2V,wp"),
        ("in", "primal_normal_vert_y", "Edge,E2C2V,wp"),
        ("in", "dual_normal_vert_x", "Edge,E2C2V,wp"),
        ("in", "dual_normal_vert_y", "Edge,E2C2V,wp"), ("in", "area", "Cell,wp"),
        ("in", "diff_multfac_vn", "K,wp"), ("in", "smag_limit", "K,vp"),
        ("in", "enh_smag_fac", "K,wp"), ("in", "diff_multfac_n2w", "K,wp"),
        ("in", "dtime", "wp"), ("in", "initial_run", "bool"), ("in", "smag_offset", "vp"),
        ("in", "k4", "wp"), ("in", "hdiff_efdt_ratio", "wp"), ("in", "nudgezone_diff", "vp"),
        ("in", "fac_bdydiff_v", "wp"), ("in", "diff_multfac_w", "wp"),
        ("in", "thresh_tdiff", "wp"), ("in", "smallest_vpfloat", "vp"),
        ("in", "rd_o_cvd", "vp"), ("in", "limited_area", "bool"),
        ("in", "apply_to_temperature", "bool"), ("in", "apply_zdiffusion_t", "bool"),
        ("in", "shear_type", "i32"), ("in", "loutshs", "bool"), ("in", "a_hshr", "wp"),
        ("in", "iforcing", "i32"), ("in", "nrdmax", "i32")]
        + [("in", n, "i32") for n in (
            "start_lb2_v", "end_local_v", "start_lb5_e", "start_nudging_e", "start_nudging2_e",
            "end_local_e", "end_halo_e", "end_halo2_e", "start_nudging_c", "start_w_c",
            "start_interior_c", "end_local_c", "end_halo_c", "num_cells")],
}

PROGRAMS = {name: (globals()[name], sig) for name, sig in SIGNATURES.items()}

# the 7 programs the granule calls, in diffusion_step order
GRANULE_PROGRAMS = [
    "mo_intp_rbf_rbf_vec_interpol_vertex",
    "calculate_nabla2_and_smag_coefficients_for_vn",
    "calculate_diagnostic_quantities_for_turbulence",
    "apply_diffusion_to_vn",
    "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence",
    "calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools",
    "apply_diffusion_to_theta_and_exner",
]


# ----------------------------------------------------------------------------------------------
# random grids and inputs (used by the self-test; usable by other tests)
# ----------------------------------------------------------------------------------------------
def random_grid(rng, n_cells=24, n_edges=36, n_vertices=12, nlev=8, skip=True):
    """Random neighbour tables with the right shapes (no geometry). With ``skip`` the tables
    that may hold -1 get some -1 entries (C2E never does; C2E2CO[:,0] is the cell itself)."""
    sizes = {"Cell": n_cells, "Edge": n_edges, "Vertex": n_vertices}
    conn = {}
    for name in ("E2C", "E2C2V", "C2E", "C2E2C", "V2E"):
        conn[name] = rng.integers(0, sizes[DST[name]], size=(sizes[SRC[name]], NBH[name]))
    if skip:
        e = rng.random(n_edges) < 0.15
        conn["E2C"][e, 1] = -1
        conn["E2C2V"][e, 3] = -1
        c = rng.random((n_cells, 3)) < 0.1
        conn["C2E2C"][c] = -1
        v = rng.random(n_vertices) < 0.25
        conn["V2E"][v, 5] = -1
    conn["C2E2CO"] = np.concatenate([np.arange(n_cells)[:, None], conn["C2E2C"]], axis=1)
    return conn, sizes, nlev


def _shape(kind, sizes, nlev):
    parts = kind.split(",")[:-1]
    shp = []
    for p in parts:
        if p in sizes:
            shp.append(sizes[p])
        elif p == "K":
            shp.append(nlev)
        elif p == "KHalf":
            shp.append(nlev + 1)
        else:
            shp.append(NBH[p])
    return tuple(shp)


def random_args(name, conn, sizes, nlev, rng, **fixed):
    """Random arguments for program ``name``: fields uniform in [-1, 1) (positive where a
    division or sqrt needs it), sensible domains. ``fixed`` overrides any argument."""
    sig = SIGNATURES[name]
    a = {}
    for intent, pn, kind in sig:
        if pn in fixed:
            continue
        if kind.startswith("points,"):
            # a fifth of the (point, level) pairs, as check_reference loads a list: (2, N)
            taken = rng.random((sizes[kind.split(",")[1]], nlev)) < 0.2
            a[pn] = np.stack(np.nonzero(taken)).astype(np.int32)
            continue
        if "," not in kind:
            if kind == "bool":
                a[pn] = bool(rng.integers(0, 2))
            elif kind == "i32":
                a[pn] = 0
            else:
                a[pn] = float(rng.uniform(-1.0, 1.0))
            continue
        elem = kind.split(",")[-1]
        shp = _shape(kind, sizes, nlev)
        if elem == "i32":
            a[pn] = np.zeros(shp, np.int32)
        else:
            dt = VP if elem == "vp" else WP
            a[pn] = rng.uniform(-1.0, 1.0, size=shp).astype(dt)
    # positive divisors / physical ranges
    for pn in ("diff_multfac_smag", "theta_v", "theta_v_in", "smag_limit"):
        if pn in a and isinstance(a[pn], np.ndarray):
            a[pn] = (np.abs(a[pn]) + 0.5).astype(a[pn].dtype)
    for pn in ("zd_vertoffset",):
        if pn in a:
            k = np.arange(nlev)
            a[pn] = (rng.integers(0, nlev - 1, size=a[pn].shape) - k).astype(np.int32)
    if "physical_heights" in a or "vect_a" in a:
        z = np.sort(rng.uniform(0.0, 100000.0, nlev + 1))[::-1].copy()
        for pn in ("physical_heights", "vect_a"):
            if pn in a:
                a[pn] = z
    if "end_index_of_damping_layer" in a:
        a["end_index_of_damping_layer"] = int(rng.integers(0, nlev))
    # domains
    loc = _program_location(name)
    n = sizes.get(loc, 0)
    if "h_start" in a:
        a["h_start"] = int(rng.integers(0, max(1, n // 3)))
        a["h_end"] = int(rng.integers(max(a["h_start"], 2 * n // 3), n + 1))
    if "v_start" in a:
        lo, hi = _vertical_range(name, nlev)
        a["v_start"], a["v_end"] = lo, hi
    for pn in ("nrdmax",):
        if pn in a:
            a[pn] = int(rng.integers(1, nlev + 1))
    if "type_shear" in a:
        a["type_shear"] = 2
    if "interior_idx" in a:
        a["interior_idx"] = int(rng.integers(0, sizes["Cell"] // 2))
        a["halo_idx"] = int(rng.integers(a["interior_idx"], sizes["Cell"] + 1))
    if "start_2nd_nudge_line_idx_e" in a:
        a["start_2nd_nudge_line_idx_e"] = int(rng.integers(0, sizes["Edge"]))
    a.update(fixed)
    return a


def _program_location(name):
    sig = SIGNATURES[name]
    for intent, pn, kind in sig:
        if intent in ("out", "inout") and "," in kind:
            return kind.split(",")[0]
    return None


def _vertical_range(name, nlev):
    if name in ("calculate_diagnostics_for_turbulence",
                "calculate_diagnostic_quantities_for_turbulence"):
        return 1, nlev
    if name == "apply_nabla2_to_w_in_upper_damping_layer":
        return 1, max(1, nlev // 2)
    if "cold_pool" in name:
        return nlev - 2, nlev
    return 0, nlev


def random_step_args(conn, sizes, nlev, rng, limited_area=True, **fixed):
    """Arguments for diffusion_step with consistent zone bounds on a random grid."""
    a = random_args("diffusion_step", conn, sizes, nlev, rng)
    nc, ne, nv = sizes["Cell"], sizes["Edge"], sizes["Vertex"]
    if limited_area:
        b = dict(start_lb2_v=nv // 6, end_local_v=nv - 1, start_lb5_e=ne // 8,
                 start_nudging_e=ne // 5, start_nudging2_e=ne // 4, end_local_e=ne - 4,
                 end_halo_e=ne - 2, end_halo2_e=ne, start_nudging_c=nc // 6,
                 start_w_c=nc // 6, start_interior_c=nc // 4, end_local_c=nc - 3,
                 end_halo_c=nc - 1, num_cells=nc)
    else:
        b = dict(start_lb2_v=0, end_local_v=nv, start_lb5_e=0, start_nudging_e=0,
                 start_nudging2_e=0, end_local_e=ne, end_halo_e=ne, end_halo2_e=ne,
                 start_nudging_c=0, start_w_c=0, start_interior_c=0, end_local_c=nc,
                 end_halo_c=nc, num_cells=nc)
    a.update(b)
    a.update(limited_area=limited_area, initial_run=False, apply_to_temperature=True,
             apply_zdiffusion_t=True, shear_type=2, loutshs=False, a_hshr=1.0, iforcing=3,
             nrdmax=max(1, nlev // 2), dtime=10.0, k4=1.0 / (36 * 8 * 8),
             hdiff_efdt_ratio=36.0, thresh_tdiff=THRESH_TDIFF, smallest_vpfloat=DBL_EPS,
             rd_o_cvd=RD_O_CVD)
    a["enh_smag_fac"] = np.abs(a["enh_smag_fac"]) * 0.01
    # realistic potential temperatures, spread wide enough that the cold-pool condition
    # ((tdiff - trefdiff) < thresh_tdiff = -5) holds at some points
    a["theta_v"] = 280.0 + 20.0 * rng.random(a["theta_v"].shape)
    a["theta_ref_mc"] = (280.0 + 20.0 * rng.random(a["theta_ref_mc"].shape)).astype(VP)
    a["smag_offset"] = 0.0
    a["w"] = a["w"].astype(WP)
    # the steep-point metrics as ICON4Py builds them: only some points active, and
    # zd_vertoffset = zd_intcoef = 0 elsewhere (so k + 1 = nlev at the bottom level there)
    steep = rng.random(a["zd_diffcoef"].shape) < 0.3
    a["zd_diffcoef"] = np.where(steep, np.abs(a["zd_diffcoef"]) * 0.002, 0.0)
    a["zd_vertoffset"] = np.where(steep[:, None, :], a["zd_vertoffset"], 0).astype(np.int32)
    a["zd_intcoef"] = np.where(steep[:, None, :], np.abs(a["zd_intcoef"]), 0.0)
    a["steep"] = np.stack(np.nonzero(steep)).astype(np.int32)  # ICON's list of them
    a.update(fixed)
    return a


# ----------------------------------------------------------------------------------------------
# self-test
# ----------------------------------------------------------------------------------------------
def _check_outputs(name, a, out, sizes, nlev):
    sig = SIGNATURES[name]
    outs = [(pn, kind) for intent, pn, kind in sig if intent in ("out", "inout")]
    assert set(out) == {pn for pn, _ in outs}, (name, set(out))
    for pn, kind in outs:
        r = out[pn]
        assert r.shape == _shape(kind, sizes, nlev), (name, pn, r.shape)
        elem = kind.split(",")[-1]
        want = VP if elem == "vp" else WP
        assert r.dtype == want, (name, pn, r.dtype, want)
        # outside the domain: unchanged
        if "h_start" in a and kind.split(",")[0] in sizes:
            h0, h1 = a["h_start"], a["h_end"]
            mask = np.ones(r.shape, bool)
            if "v_start" in a and len(r.shape) == 2:
                mask[h0:h1, a["v_start"]:a["v_end"]] = False
            else:
                mask[h0:h1] = False
            assert np.array_equal(r[mask], a[pn][mask]), (name, pn, "written outside domain")
            inside = r[~mask]
            assert np.all(np.isfinite(inside)), (name, pn, "non-finite in domain")


def selftest(seed=1234, verbose=True) -> int:
    rng = np.random.default_rng(seed)
    failures = 0
    for vp_dtype in (np.float64, np.float32):
        set_vp(vp_dtype)
        for skip in (False, True):
            conn, sizes, nlev = random_grid(rng, skip=skip)
            for name, (fn, _) in PROGRAMS.items():
                if name == "diffusion_step":
                    continue
                a = random_args(name, conn, sizes, nlev, rng)
                out = fn(conn, a)
                _check_outputs(name, a, out, sizes, nlev)
            # whole step, LAM and global, regular and initial run
            for lam in (True, False):
                for init in (False, True):
                    a = random_step_args(conn, sizes, nlev, rng, limited_area=lam,
                                         initial_run=init)
                    out = diffusion_step(conn, a)
                    for k, v in out.items():
                        assert v.shape == a[k].shape and v.dtype == a[k].dtype, k
                        assert np.all(np.isfinite(v)), (k, "non-finite")
    set_vp(np.float64)

    # --- invariants (double precision) ---------------------------------------------------
    conn, sizes, nlev = random_grid(rng, skip=True)
    ne, nc = sizes["Edge"], sizes["Cell"]

    def check(cond, msg):
        nonlocal failures
        if not cond:
            failures += 1
            print("FAIL:", msg)
        elif verbose:
            print("ok:  ", msg)

    # global apply_diffusion_to_vn with zero nabla inputs leaves vn unchanged
    a = random_args("apply_diffusion_to_vn", conn, sizes, nlev, rng, limited_area=False,
                    start_2nd_nudge_line_idx_e=0, h_start=0, h_end=ne)
    for pn in ("u_vert", "v_vert", "z_nabla2_e"):
        a[pn] = np.zeros_like(a[pn])
    check(np.array_equal(apply_diffusion_to_vn(conn, a)["vn"], a["vn"]),
          "global apply_diffusion_to_vn with zero nabla2/u/v leaves vn unchanged")
    # LAM fused vn == 04 then 05 / 06 on the two index ranges
    a = random_args("apply_diffusion_to_vn", conn, sizes, nlev, rng, limited_area=True,
                    h_start=0, h_end=ne)
    s2 = a["start_2nd_nudge_line_idx_e"]
    z4 = calculate_nabla4(conn, dict(a, z_nabla4_e2=np.zeros((ne, nlev), VP)))["z_nabla4_e2"]
    r05 = apply_nabla2_and_nabla4_to_vn(conn, dict(a, z_nabla4_e2=z4, h_start=s2))["vn"]
    r06 = apply_nabla2_to_vn_in_lateral_boundary(conn, dict(a, h_end=s2))["vn"]
    fused = apply_diffusion_to_vn(conn, a)["vn"]
    check(np.allclose(fused[s2:], r05[s2:], rtol=1e-14, atol=0)
          and np.allclose(fused[:s2], r06[:s2], rtol=1e-14, atol=0),
          "apply_diffusion_to_vn (LAM) == calculate_nabla4 + 05 / 06 split at the nudge line")
    # 02+03 fused == components
    a = random_args("calculate_diagnostic_quantities_for_turbulence", conn, sizes, nlev, rng)
    b = dict(a, kh_c=np.zeros((nc, nlev), VP), div=np.zeros((nc, nlev), VP), h_start=0,
             h_end=nc, v_start=0)
    t = temporary_fields_for_turbulence_diagnostics(conn, b)
    c = calculate_diagnostics_for_turbulence(conn, dict(a, kh_c=t["kh_c"], div=t["div"]))
    f = calculate_diagnostic_quantities_for_turbulence(conn, a)
    check(np.array_equal(c["div_ic"], f["div_ic"]) and np.array_equal(c["hdef_ic"], f["hdef_ic"]),
          "calculate_diagnostic_quantities_for_turbulence == 02 then 03")
    # RBF is linear in p_e_in
    a = random_args("mo_intp_rbf_rbf_vec_interpol_vertex", conn, sizes, nlev, rng)
    r1 = mo_intp_rbf_rbf_vec_interpol_vertex(conn, a)
    r2 = mo_intp_rbf_rbf_vec_interpol_vertex(conn, dict(a, p_e_in=2.0 * a["p_e_in"]))
    h0, h1 = a["h_start"], a["h_end"]
    check(np.allclose(r2["p_u_out"][h0:h1], 2.0 * r1["p_u_out"][h0:h1], rtol=1e-13),
          "RBF interpolation is linear")
    # stencil 01: 0 <= kh_smag_e <= smag_limit; zero wind -> zero outputs
    a = random_args("calculate_nabla2_and_smag_coefficients_for_vn", conn, sizes, nlev, rng,
                    h_start=0, h_end=ne)
    r = calculate_nabla2_and_smag_coefficients_for_vn(conn, a)
    check(np.all(r["kh_smag_e"] >= 0) and np.all(r["kh_smag_e"] <= a["smag_limit"][None, :]),
          "0 <= kh_smag_e <= smag_limit")
    z = dict(a, u_vert=np.zeros_like(a["u_vert"]), v_vert=np.zeros_like(a["v_vert"]),
             vn=np.zeros_like(a["vn"]))
    r = calculate_nabla2_and_smag_coefficients_for_vn(conn, z)
    check(not r["z_nabla2_e"].any() and not r["kh_smag_ec"].any(),
          "stencil 01 with zero wind gives zero nabla2 and kh")
    # w program: zero geofac_n2s -> w = w_old in the domain; gradients only for k > 0
    a = random_args("apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence",
                    conn, sizes, nlev, rng, h_start=0, h_end=nc)
    r = apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
        conn, dict(a, geofac_n2s=np.zeros_like(a["geofac_n2s"])))
    check(np.array_equal(r["w"][:, :nlev], a["w_old"][:, :nlev])
          and np.array_equal(r["w"][:, nlev], a["w"][:, nlev]),
          "w program with zero geofac_n2s writes w = w_old (level nlev untouched)")
    check(np.array_equal(r["dwdx"][:, 0], a["dwdx"][:, 0]), "dwdx level 0 passes through")
    r = apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
        conn, dict(a, type_shear=0))
    check(np.array_equal(r["dwdx"], a["dwdx"]), "type_shear != 2 leaves dwdx unchanged")
    # cold pools never decrease kh_smag_e
    a = random_args("calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools",
                    conn, sizes, nlev, rng)
    r = calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools(conn, a)
    check(np.all(r["kh_smag_e"] >= a["kh_smag_e"]), "cold pools never decrease kh_smag_e")
    # theta: zero kh_smag_e and zero zd_diffcoef leave theta and exner unchanged
    a = random_args("apply_diffusion_to_theta_and_exner", conn, sizes, nlev, rng,
                    h_start=0, h_end=nc)
    a["kh_smag_e"] = np.zeros_like(a["kh_smag_e"])
    a["zd_diffcoef"] = np.zeros_like(a["zd_diffcoef"])
    r = apply_diffusion_to_theta_and_exner(conn, a)
    check(np.array_equal(r["theta_v"], a["theta_v_in"]) and np.allclose(r["exner"], a["exner"],
                                                                         rtol=1e-15, atol=0),
          "theta program with zero kh and zd_diffcoef: theta_v = theta_v_in, exner unchanged")
    # 15 with zero zd_diffcoef leaves z_temp unchanged
    a = random_args("truly_horizontal_diffusion_nabla_of_theta_over_steep_points", conn, sizes,
                    nlev, rng)
    r = truly_horizontal_diffusion_nabla_of_theta_over_steep_points(
        conn, dict(a, zd_diffcoef=np.zeros_like(a["zd_diffcoef"])))
    check(np.array_equal(r["z_temp"], a["z_temp"]), "stencil 15 with zd_diffcoef = 0 is identity")
    # sponge factor: 1/12 at k = 1, 0 at k = nrd + 1, untouched outside [1, nrd]
    a = random_args("init_nabla2_factor_in_upper_damping_zone", conn, sizes, nlev, rng,
                    end_index_of_damping_layer=nlev // 2,
                    diff_multfac_n2w=np.zeros(nlev))
    r = init_nabla2_factor_in_upper_damping_zone(conn, a)["diff_multfac_n2w"]
    check(abs(r[1] - 1.0 / 12.0) < 1e-15 and r[0] == 0 and not r[nlev // 2 + 1:].any(),
          "diff_multfac_n2w: 1/12 at k=1, 0 outside [1, nrd]")
    # enh_smag_fac = hdiff_smag_fac below hdiff_smag_z
    zf = np.linspace(1000.0, 0.0, nlev + 1)
    e = en_smag_fac_math(zf, 0.015, 0.0713725, 0.0, 1.0, 32500.0, 60686.3, 50000.0, 90000.0)
    check(np.allclose(e, 0.015), "enh_smag_fac == hdiff_smag_fac below hdiff_smag_z")
    # the step's random data exercises the cold-pool enhancement
    a = random_step_args(conn, sizes, nlev, rng)
    enh = cold_pool_temporary_math(conn, a["theta_v"], a["theta_ref_mc"], a["thresh_tdiff"],
                                   a["smallest_vpfloat"])
    check(np.any(enh > DBL_EPS), "random_step_args triggers the cold-pool condition")
    # whole step: apply_to_temperature = False leaves theta/exner unchanged
    a = random_step_args(conn, sizes, nlev, rng, apply_to_temperature=False)
    r = diffusion_step(conn, a)
    check(np.array_equal(r["theta_v"], a["theta_v"]) and np.array_equal(r["exner"], a["exner"]),
          "diffusion_step without temperature diffusion leaves theta_v / exner unchanged")
    check(np.array_equal(r["div_ic"][:, 0], a["div_ic"][:, 0]), "div_ic level 0 never written")

    print(f"selftest: {len(PROGRAMS)} programs, {failures} failure(s)")
    return 1 if failures else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--selftest", action="store_true", help="run the self-test")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.selftest:
        return selftest(verbose=not args.quiet)
    ap.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
