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
        Grid centre on the surface, m, and grid direction, mesh frame. On a solid the centre and grid
        points move to the nearest point of the meshed surface (at most 0.25 × the local face size).
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


def gauge_header(gauge, first_row, placed=None):
    """The header entry of a :class:`ComponentGauge`: grid rows from ``first_row``, centre ``placed`` on the surface."""
    points, weights, d = gauge.places()
    entry = {"name": gauge.name, "point": [float(x) for x in gauge.point], "direction": d.tolist(),
             "grid_length": float(gauge.grid_length), "rows": list(range(first_row, first_row + len(points))),
             "weights": weights.tolist()}
    if placed is not None:                        # moved onto the meshed surface: given point = point − offset
        entry["point"] = [float(x) for x in placed]
        entry["offset"] = (np.asarray(placed, float) - np.asarray(gauge.point, float)).tolist()
    return entry


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


def mesh_stress(component, eta):
    """Strains and stresses (n_mesh, 10) at the mesh nodes for modal coordinates η (NaN off the stress nodes), or None."""
    a = component.arrays
    if "stress_nodes" not in a or "mesh_points" not in a:
        return None
    out = np.full((len(a["mesh_points"]), 10), np.nan)
    out[a["stress_nodes"]] = stress_state(component, a["stress_strain_modes"] @ np.asarray(eta, float))
    return out


def stress_rows(component, point):
    """The (6, q) strain modes (1 per unit η, engineering Voigt) at a surface point: ε = rows · η.

    A stress node or gauge point reads its own modes; any other point on a face of the stored mesh
    cells whose nodes are stress nodes reads the nodal modes interpolated by the cell's shape
    functions: quadratic Tet10 on ``mesh_tetra10`` (file 1.2), else linear over the corners of
    ``mesh_tetra``; trilinear on ``mesh_hexahedron``.

    Parameters
    ----------
    component : Component
    point : int or (3,) array_like
        Stress-node index, or position (m, reference frame) of a stress node, a gauge point or a
        point on (or just inside) a face of the stress nodes.

    Raises
    ------
    ComponentShapeError
        ``point`` is neither a stress node, a gauge point nor on a face of the stress nodes.
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
    if len(nodes) and "mesh_points" in a:
        row = np.full(len(a["mesh_points"]), -1)
        row[nodes] = np.arange(len(nodes))
        for cell, w in _holding_cells(a, x):
            w = np.where(np.abs(w) > _INSIDE, w, 0.0)
            if np.all(row[cell[w != 0]] >= 0):
                return np.einsum("n,nvq->vq", w / w.sum(), a["stress_strain_modes"][row[cell]])
    raise ComponentShapeError(f"component '{name}': {x.tolist()} m is neither a stress node, a gauge point nor on a "
                              "face of its stress nodes; give a point on the meshed surface (m, reference frame), or "
                              "reduce it with stress nodes that include it (femdyn reduce --stress surface) or with "
                              "this point among its gauge points")


_INSIDE = 1e-8                                         # shape-function tolerance of "on the face / in the cell"
_HEX = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], float)
_EDGES = ((0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3))     # Tet10 mid-edge nodes 4 … 9 (VTK order)
_TET_FACES = ((1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2))
_HEX_FACES = ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))


def _tet10(lam):
    """Tet10 shape functions (10,) at barycentric coordinates λ (4,): corners λ(2λ − 1), mid-edges 4 λ_a λ_b."""
    a, b = np.array(_EDGES).T
    return np.concatenate([lam * (2 * lam - 1), 4 * lam[a] * lam[b]])


def _trilinear(xi):
    """Trilinear hexahedron shape functions (8,) and their ξ-derivatives (8, 3) at ξ (VTK corner order)."""
    f = 1.0 + _HEX * xi
    N = f.prod(1) / 8
    dN = np.stack([_HEX[:, j] * np.prod(np.delete(f, j, axis=1), axis=1) / 8 for j in range(3)], axis=1)
    return N, dN


def _holding_cells(a, x):
    """(nodes, shape-function values at x) of every stored cell holding x, faces included (Tet10 cells if stored)."""
    P = a["mesh_points"]
    if "mesh_tetra" in a:
        T = a["mesh_tetra"]
        X0 = P[T[:, 0]]
        xi = np.linalg.solve((P[T[:, 1:]] - X0[:, None]).transpose(0, 2, 1), (x - X0)[..., None])[..., 0]
        lam = np.column_stack([1.0 - xi.sum(1), xi])
        quadratic = a.get("mesh_tetra10")
        for c in np.flatnonzero(lam.min(1) >= -_INSIDE):
            yield (T[c], lam[c]) if quadratic is None else (quadratic[c], _tet10(lam[c]))
    if "mesh_hexahedron" in a:
        C = a["mesh_hexahedron"]
        X = P[C]
        pad = _INSIDE * np.ptp(X, axis=1)
        for c in np.flatnonzero(np.all((X.min(1) - pad <= x) & (x <= X.max(1) + pad), axis=1)):
            xi = np.zeros(3)
            for _ in range(25):                                     # Newton on N(ξ)·X = x
                N, dN = _trilinear(xi)
                step = np.linalg.solve(X[c].T @ dN, N @ X[c] - x)
                xi -= step
                if np.abs(step).max() < 1e-14:
                    break
            if np.abs(xi).max() <= 1.0 + _INSIDE:
                yield C[c], _trilinear(xi)[0]


def boundary_faces(cells):
    """Faces of one cell only of cell blocks (t, 4 | 10 | 8): one node array (m, 3 | 6 | 4) per block, corners first."""
    local = []
    for c in cells:
        if c.shape[1] == 8:
            local.append([list(f) for f in _HEX_FACES])
        else:
            mid = {frozenset(e): 4 + k for k, e in enumerate(_EDGES)}
            local.append([list(f) + ([mid[frozenset(e)] for e in ((f[0], f[1]), (f[1], f[2]), (f[2], f[0]))]
                                     if c.shape[1] == 10 else []) for f in _TET_FACES])
    keys = [np.sort(c[:, f[:4 if c.shape[1] == 8 else 3]], axis=1) for c, fs in zip(cells, local) for f in fs]
    if not keys:
        return []
    width = max(k.shape[1] for k in keys)
    padded = np.vstack([np.pad(k, ((0, 0), (0, width - k.shape[1])), constant_values=-1) for k in keys])
    _, inverse, counts = np.unique(padded, axis=0, return_inverse=True, return_counts=True)
    once, start, faces = counts[inverse.ravel()] == 1, 0, []
    for c, fs in zip(cells, local):
        block = np.vstack([c[:, f] for f in fs])
        faces.append(block[once[start:start + len(block)]])
        start += len(block)
    return faces


def _nearest_on_faces(P, faces, x):
    """Nearest point to x on boundary faces (6-node faces refined from the flat facets) and its face's longest edge."""
    tri = [(f[:, :3], f if f.shape[1] == 6 else None) for f in faces]
    tri += [(f[:, [0, 2, 3]], None) for f in faces if f.shape[1] == 4]           # quadrilaterals as two triangles
    best = (np.inf, None, None)
    for corners, full in tri:
        if not len(corners):
            continue
        A, B, C = (P[corners[:, k]] for k in range(3))
        y, st = _nearest_on_triangles(A, B, C, x)
        d = np.linalg.norm(y - x, axis=1)
        for k in np.argpartition(d, min(3, len(d) - 1))[:4]:                # the four nearest flat facets
            p = y[k] if full is None else _nearest_on_quadratic(P[full[k]], st[k], x)
            size = max(np.linalg.norm(A[k] - B[k]), np.linalg.norm(B[k] - C[k]), np.linalg.norm(C[k] - A[k]))
            if np.linalg.norm(p - x) < best[0]:
                best = (np.linalg.norm(p - x), p, size)
    return best[1], best[2]


def _nearest_on_triangles(A, B, C, x):
    """Nearest points (m, 3) to x on flat triangles ABC and their coordinates (s, t) along AB, AC."""
    u, v, w = B - A, C - A, x - A
    uu, uv, vv, wu, wv = (np.einsum("ij,ij->i", *p) for p in ((u, u), (u, v), (v, v), (w, u), (w, v)))
    det = np.where(uu * vv - uv ** 2 > 0, uu * vv - uv ** 2, np.inf)
    st = np.column_stack([(vv * wu - uv * wv) / det, (uu * wv - uv * wu) / det])
    inside = (st[:, 0] >= 0) & (st[:, 1] >= 0) & (st.sum(1) <= 1)
    best, out = np.full(len(A), np.inf), st.copy()
    for P0, P1, s0, s1 in ((A, B, (0, 0), (1, 0)), (B, C, (1, 0), (0, 1)), (C, A, (0, 1), (0, 0))):
        e = P1 - P0
        t = np.clip(np.einsum("ij,ij->i", x - P0, e) / np.maximum(np.einsum("ij,ij->i", e, e), 1e-300), 0.0, 1.0)
        d = np.linalg.norm(P0 + t[:, None] * e - x, axis=1)
        closer = ~inside & (d < best)
        best[closer] = d[closer]
        out[closer] = np.asarray(s0) + t[closer, None] * (np.asarray(s1) - np.asarray(s0))
    return A + out[:, :1] * u + out[:, 1:] * v, out


_DL2 = np.array([[-1.0, -1.0], [1.0, 0.0], [0.0, 1.0]])            # ∂(λ0, λ1, λ2)/∂(s, t) on a triangle
_NEXT = [1, 2, 0]


def _tri6(st):
    """6-node triangle shape functions (6,) and their (s, t)-derivatives (6, 2): corners, then mid-edges 01, 12, 20."""
    L = np.array([1.0 - st[0] - st[1], st[0], st[1]])
    N = np.concatenate([L * (2 * L - 1), 4 * L * L[_NEXT]])
    dN = np.vstack([(4 * L - 1)[:, None] * _DL2, 4 * (L[_NEXT, None] * _DL2 + L[:, None] * _DL2[_NEXT])])
    return N, dN


def _nearest_on_quadratic(X, st, x):
    """Nearest point to x on the 6-node triangle X by Gauss–Newton in (s, t) from ``st``, kept inside the triangle."""
    st = np.array(st, float)
    for _ in range(20):
        N, dN = _tri6(st)
        J = X.T @ dN
        new = np.clip(st + np.linalg.solve(J.T @ J, J.T @ (x - N @ X)), 0.0, 1.0)
        new /= max(1.0, new.sum())
        st, step = new, np.abs(new - st).max()
        if step < 1e-13:
            break
    return _tri6(st)[0] @ X


PLACE_TOLERANCE = 0.25        # a gauge point moves onto the surface by at most this × the longest edge of its face


def place_gauge(gauge, points, cells, faces=None):
    """The gauge's grid moved onto the nearest surface points: grid (n, 3) [m], weights, direction, centre (3,) [m]."""
    faces = boundary_faces(cells) if faces is None else faces
    grid, weights, d = gauge.places()

    def onto(x, what):
        """The surface point nearest to x, checked against the tolerance."""
        y, size = _nearest_on_faces(points, faces, x)
        moved = float(np.linalg.norm(y - x))
        if moved > PLACE_TOLERANCE * size:
            inside = any(True for _ in _holding_cells(_cell_arrays(points, cells), x))
            raise ComponentShapeError(
                f"gauge '{gauge.name}': its {what} {np.round(x, 9).tolist()} m lies {moved:.4g} m "
                f"{'inside the body, below' if inside else 'off'} the meshed surface (more than "
                f"{PLACE_TOLERANCE:g} × the local face size {size:.4g} m); give a point on the surface (the nearest "
                f"is {np.round(y, 9).tolist()} m, mesh frame)")
        return y
    centre = onto(np.asarray(gauge.point, float), "centre")
    grid = centre + (grid - np.asarray(gauge.point, float))
    return np.array([onto(p, "grid point") for p in grid]), weights, d, centre


def _cell_arrays(points, cells):
    """Component-style arrays (mesh_points, mesh_tetra, mesh_hexahedron) of cell blocks, for :func:`_holding_cells`."""
    out = {"mesh_points": points}
    for key, width in (("mesh_tetra", (4, 10)), ("mesh_hexahedron", (8,))):
        blocks = [c[:, :4] if c.shape[1] == 10 else c for c in cells if c.shape[1] in width]
        if blocks:
            out[key] = np.vstack(blocks)
    return out
