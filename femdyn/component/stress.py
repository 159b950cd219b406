"""Strains ε = E η at stress nodes, gauge points and strain gauges of a component; stresses σ = D ε."""
from dataclasses import dataclass

import numpy as np

from .file import ComponentShapeError

STRESS_COLUMNS = ("exx", "eyy", "ezz", "gyz", "gxz", "gxy", "s1", "s2", "s3", "von_mises")
STRESS_UNITS = ("1",) * 6 + ("Pa",) * 4
_VOIGT = ((0, 0), (1, 1), (2, 2), (1, 2), (0, 2), (0, 1))


@dataclass
class ComponentGauge:
    """A strain gauge on a component's surface (channel ``<name>.strain``, positive in tension).

    Parameters
    ----------
    name : str
    point, direction : (3,) array_like
        Grid centre on (or just inside) the meshed surface, m, and grid direction, mesh frame.
    grid_length, grid_points : float, int, optional
        Active grid length along ``direction``, m (0: a point gauge); Gauss–Legendre points over it.
    """

    name: str
    point: tuple
    direction: tuple = (1.0, 0.0, 0.0)
    grid_length: float = 0.0
    grid_points: int = 3

    def places(self):
        """Grid points (n, 3) [m], their weights (n,) summing to 1, and the unit direction (3,)."""
        d = np.asarray(self.direction, float)
        if d.shape != (3,) or not np.linalg.norm(d) > 0:
            raise ComponentShapeError(f"gauge '{self.name}': direction {self.direction!r} must be a non-zero "
                                      "3-vector along the grid")
        d = d / np.linalg.norm(d)
        if not float(self.grid_length) >= 0:
            raise ComponentShapeError(f"gauge '{self.name}': grid_length {self.grid_length!r} m must be ≥ 0")
        n = max(1, int(self.grid_points)) if self.grid_length > 0 else 1
        x, w = np.polynomial.legendre.leggauss(n)
        return np.asarray(self.point, float) + 0.5 * float(self.grid_length) * x[:, None] * d, w / w.sum(), d


def direction_row(d):
    """Voigt row n with n · ε = dᵀ ε d for engineering strains (ε_xx … γ_xy)."""
    return np.array([d[i] * d[j] for i, j in _VOIGT])


def gauge_header(gauge, first_row):
    """The header entry of one :class:`ComponentGauge` whose grid points start at gauge row ``first_row``."""
    points, weights, d = gauge.places()
    return {"name": gauge.name, "point": [float(x) for x in gauge.point], "direction": d.tolist(),
            "grid_length": float(gauge.grid_length), "rows": list(range(first_row, first_row + len(points))),
            "weights": weights.tolist()}


def gauge_modes(component):
    """Names and modal rows (n_gauges, q) of the component's strain gauges: reading = row · η.

    Parameters
    ----------
    component : Component

    Returns
    -------
    names, rows : list of str, ndarray (n_gauges, q)
        Rows Σ_k w_k n(d)·E_k over the grid points, n(d)·ε = dᵀ ε d: strain (1) per unit η.
    """
    a = component.arrays
    entries = component.header.get("gauges", [])
    rows = np.zeros((len(entries), len(a["frequencies"])))
    for k, g in enumerate(entries):
        n = direction_row(np.asarray(g["direction"], float))
        rows[k] = np.einsum("r,v,rvq->q", np.asarray(g["weights"]), n, a["gauge_strain_modes"][g["rows"]])
    return [g["name"] for g in entries], rows


def _elasticity(component):
    """Isotropic elasticity matrix D (6, 6) [Pa], σ = D ε, of the header's material E, nu."""
    material = component.header.get("material", {})
    if "E" not in material or "nu" not in material:
        raise ComponentShapeError(f"component '{component.header.get('name')}': its header gives no material E and "
                                  "nu; stresses need an isotropic material (reduce it again with this femdyn)")
    E, nu = float(material["E"]), float(material["nu"])
    lam, mu = E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
    D = np.zeros((6, 6))
    D[:3, :3] = lam
    D[range(3), range(3)] += 2 * mu
    D[range(3, 6), range(3, 6)] = mu
    return D


def stress_state(component, strain):
    """Strains, principal stresses σ₁ ≥ σ₂ ≥ σ₃ and von Mises stress by the component's isotropic material.

    Parameters
    ----------
    component : Component
    strain : (..., 6) array_like
        Engineering Voigt strains (ε_xx, ε_yy, ε_zz, γ_yz, γ_xz, γ_xy), 1.

    Returns
    -------
    ndarray (..., 10)
        The strains, σ₁, σ₂, σ₃ and σ_vM [Pa] (:data:`STRESS_COLUMNS`), σ = D ε by the header's E, nu.
    """
    eps = np.asarray(strain, float)
    s = eps @ _elasticity(component).T
    S = np.empty(eps.shape[:-1] + (3, 3))
    for k, (i, j) in enumerate(_VOIGT):
        S[..., i, j] = S[..., j, i] = s[..., k]
    p = np.linalg.eigvalsh(S)[..., ::-1]
    vm = np.sqrt(0.5 * ((p[..., 0] - p[..., 1]) ** 2 + (p[..., 1] - p[..., 2]) ** 2 + (p[..., 2] - p[..., 0]) ** 2))
    return np.concatenate([eps, p, vm[..., None]], axis=-1)


def stress_rows(component, point):
    """The (6, q) strain modes (1 per unit η, engineering Voigt) at a stress node or gauge point: ε = rows · η.

    Parameters
    ----------
    component : Component
    point : int or (3,) array_like
        Stress-node index, or position (m, reference frame) of a stress node or gauge point.

    Raises
    ------
    ComponentShapeError
        ``point`` is neither a stress node nor a gauge point.
    """
    a = component.arrays
    name = component.header.get("name")
    nodes = a.get("stress_nodes", np.zeros(0, np.int64))
    if np.ndim(point) == 0:
        k = int(point)
        if not 0 <= k < len(nodes):
            raise ComponentShapeError(f"component '{name}': stress node index {k} is out of range; it has "
                                      f"{len(nodes)} stress nodes")
        return a["stress_strain_modes"][k]
    x = np.asarray(point, float)
    tol = 1e-9 * max(1.0, float(np.linalg.norm(x)))
    if len(nodes) and "mesh_points" in a:
        d = np.linalg.norm(a["mesh_points"][nodes] - x, axis=1)
        if d.min() <= tol:
            return a["stress_strain_modes"][int(np.argmin(d))]
    if len(a["gauge_points"]):
        d = np.linalg.norm(a["gauge_points"] - x, axis=1)
        if d.min() <= tol:
            return a["gauge_strain_modes"][int(np.argmin(d))]
    raise ComponentShapeError(f"component '{name}': {x.tolist()} m is neither a stress node nor a gauge point; reduce "
                              "it with this point among its gauge points, or with stress nodes (femdyn reduce "
                              "--stress surface) that include it")
