"""Reference transformations of a component: its reference frame moved to an interface
(modes clamped there) and its modes truncated."""
import json

import numpy as np
import scipy.linalg as sla

from femdyn.geometry import LEVI_CIVITA

from .file import (FIELDS, INTEGER_FIELDS, Component, ComponentDefinitenessError, ComponentShapeError, interface_index,
                   validate)


def _rigid_field(t, theta, points):
    """Linearized rigid displacement t + θ × x at ``points`` (p, 3), per mode: (p, 3, q)."""
    return t[None] + np.cross(theta.T[None], points[:, None, :]).transpose(0, 2, 1)


def reference_to_interface(component, interface):
    """The same body with its reference frame moved to interface ``interface`` and the modes clamped there.

    Φ'(x') = Φ(x) − (t_k + θ_k × x'), x' = x − o_k (Tian et al. 2010); invariants recomputed
    exactly (Shabana 2005, §5.5), then re-diagonalized into clamped Ritz modes of unit modal
    mass (docs/components.md). Header key ``reference_interface`` set.

    Parameters
    ----------
    component : Component
    interface : str or int
        Name or index of the interface frame that becomes the reference frame.

    Raises
    ------
    ComponentShapeError
        Unknown interface.
    ComponentDefinitenessError
        Singular clamped modal mass (a mode is a rigid motion of the interface).
    """
    k = interface_index(component, interface)
    a = component.arrays
    m, o = float(a["mass"]), a["interface_origins"][k].copy()
    t, th = a["interface_shapes"][k, :3], a["interface_shapes"][k, 3:]
    eps = LEVI_CIVITA
    fm = a["first_moment"] - m * o                                        # ∫ρ x'
    S2 = a["second_moment"] - np.outer(fm + m * o, o) - np.outer(o, fm + m * o) + m * np.outer(o, o)
    Cxo = a["Cx"] - o[:, None, None] * a["Ct"][None]                      # ∫ρ x'_d Φ_ak  (d, a, k)
    # rigid field r_k(x') = t_k + θ_k × x': its moments
    Ct_r = m * t + np.cross(th.T, fm).T                                    # ∫ρ r_k
    Cx_r = fm[:, None, None] * t[None] + np.einsum("bcd,ck,ad->abk", eps, th, S2)   # ∫ρ x'_a r_bk
    cross_PR = (a["Ct"][:, None, :, None] * t[None, :, None, :]
                + np.einsum("bcd,cl,daj->abjl", eps, th, Cxo))             # ∫ρ Φ_aj r_bl
    rr = (m * np.einsum("aj,bl->abjl", t, t) + np.einsum("aj,bcd,cl,d->abjl", t, eps, th, fm)
          + np.einsum("ace,cj,e,bl->abjl", eps, th, fm, t)
          + np.einsum("ace,cj,bdf,dl,ef->abjl", eps, th, eps, th, S2))       # ∫ρ r_aj r_bl
    Ct = a["Ct"] - Ct_r
    Cx = Cxo - Cx_r
    Cpp = a["Cpp"] - cross_PR - cross_PR.transpose(1, 0, 3, 2) + rr
    Mq = np.einsum("aakl->kl", Cpp)
    Mq = 0.5 * (Mq + Mq.T)
    K = a["modal_stiffness"]
    try:
        lam, Z = _clamped_modes(K, Mq)
    except np.linalg.LinAlgError:
        raise ComponentDefinitenessError(
            f"component '{component.header.get('name')}': with interface '{interface}' clamped the modal mass is "
            "singular (a mode is a rigid motion of that interface); reduce with that interface as a boundary "
            "frame (Craig–Bampton constraint modes) so its modes stay independent") from None
    out = dict(a)
    out.update(first_moment=fm, com=a["com"] - o, second_moment=0.5 * (S2 + S2.T))
    out["Ct"] = Ct @ Z
    out["Cx"] = Cx @ Z
    Cpp = np.einsum("abkl,kr,ls->abrs", Cpp, Z, Z)
    out["Cpp"] = 0.5 * (Cpp + Cpp.transpose(1, 0, 3, 2))
    out["Cr"] = np.einsum("abc,bck->ak", eps, out["Cx"])
    out["frequencies"] = np.sqrt(np.maximum(lam, 0.0)) / (2 * np.pi)
    out["modal_mass"] = np.eye(len(lam))
    out["modal_stiffness"] = np.diag(lam)
    D = Z.T @ a["modal_damping"] @ Z
    out["modal_damping"] = 0.5 * (D + D.T)
    origins = a["interface_origins"] - o
    itf = a["interface_shapes"].copy()
    itf[:, :3] -= _rigid_field(t, th, origins)
    itf[:, 3:] -= th[None]
    itf[k] = 0.0
    out["interface_origins"] = origins
    out["interface_shapes"] = itf @ Z
    out["output_points"] = a["output_points"] - o
    out["output_shapes"] = (a["output_shapes"] - _rigid_field(t, th, out["output_points"])) @ Z
    out["gauge_points"] = a["gauge_points"] - o
    out["gauge_strain_modes"] = a["gauge_strain_modes"] @ Z
    if "stress_strain_modes" in a:
        out["stress_strain_modes"] = a["stress_strain_modes"] @ Z
    if "mesh_points" in a:
        out["mesh_points"] = a["mesh_points"] - o
    if "mesh_shapes" in a:
        out["mesh_shapes"] = (a["mesh_shapes"] - _rigid_field(t, th, out["mesh_points"])) @ Z
    out = {name: np.array(v, np.int64 if name in INTEGER_FIELDS else np.float64, order="C")
           for name, v in out.items()}
    header = json.loads(json.dumps(component.header))
    for gauge in header.get("gauges", []):                               # the grid centre moves with gauge_points
        gauge["point"] = (np.asarray(gauge["point"], float) - o).tolist()
    name = header.get("interfaces", [{}] * (k + 1))[k].get("name", str(k))
    header["reference_frame"] = (f"interface '{name}' (origin at its frame origin, axes of the mesh frame); modes "
                                 f"clamped there: interface '{name}' has zero rows")
    header["reference_interface"] = name
    header["reference_origin_in_mesh_frame"] = (o + np.asarray(component.header.get("reference_origin_in_mesh_frame",
                                                                                      np.zeros(3)))).tolist()
    result = Component(header, out)
    validate(result, f"component '{header.get('name')}' referenced to interface '{name}'")
    return result


def _clamped_modes(K, M):
    """Eigenpairs of K z = λ M z with Zᵀ M Z = 1, ascending (LinAlgError when M is not positive definite)."""
    L = np.linalg.cholesky(M)                       # raises LinAlgError for a singular modal mass
    if np.linalg.cond(L) > 1e7:
        raise np.linalg.LinAlgError("modal mass nearly singular")
    lam, Z = sla.eigh(0.5 * (K + K.T), M)
    return lam, Z


def keep_modes(component, count):
    """The component with only its first ``count`` modes (a Ritz projection; exact for diagonal modal matrices).

    Parameters
    ----------
    component : Component
    count : int
        0 ≤ count ≤ number of modes.

    Raises
    ------
    ComponentShapeError
        ``count`` out of range.
    """
    q = component.n_modes
    if not (isinstance(count, (int, np.integer)) and 0 <= count <= q):
        raise ComponentShapeError(f"component '{component.header.get('name')}': keep_modes({count!r}) needs an "
                                  f"integer between 0 and its {q} modes")
    a, out = component.arrays, {}
    for name, (shape, _, _) in FIELDS.items():
        if name not in a:
            continue
        v = a[name]
        index = tuple(slice(0, count) if s == "q" else slice(None) for s in shape)
        out[name] = np.array(v[index], order="C")
    header = json.loads(json.dumps(component.header))
    header.setdefault("reduction", {})["modes"] = int(count)
    result = Component(header, out)
    validate(result)
    return result
