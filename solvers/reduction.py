"""Craig–Bampton reduction of a solid body to interface frames and modal coordinates.

Interfaces: a node set coupled to a frame ξ = (t, θ) [m, rad], ``'rigid'`` (RBE2-like) or
``'average'`` (RBE3-like, least-squares rigid fit), as linear constraints G [u; ξ] = 0.
Reduction (Craig & Bampton 1968, AIAA J. 6:1313–1319), ξ the boundary:

    u_i = Ψ ξ + Φ η,   Ψ = −K_ii⁻¹ K_ib,   K_ii Φ = M_ii Φ Ω²,

plus optional static modes; the reduced pair is diagonalized and its rigid motions dropped
(linear mean-axis condition, Agrawal & Shabana 1985). Modal damping D = diag(2 ζ ω).
Steps and options: docs/components.md.
"""
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from femdyn.component import modal_invariants, new_component
from femdyn.errors import ModelError, SolverError
from femdyn.geometry import skew
from femdyn.solvers.eigen import Factorization, choose_eigensolver, constraint_basis, sparse_eigenmodes
from femdyn.solvers.multigrid import FactorFreeInterior, InteriorOperators


@dataclass
class Interface:
    """A node set coupled to an interface frame."""
    name: str
    nodes: np.ndarray
    coupling: str = "rigid"
    origin: np.ndarray = None


@dataclass
class Reduction:
    """Result of :func:`craig_bampton`: a reduced flexible component."""
    body: object
    interfaces: list
    basis: np.ndarray
    K_cb: np.ndarray
    M_cb: np.ndarray
    omega_fixed: np.ndarray
    omega: np.ndarray
    modes: np.ndarray
    n_rigid: int
    damping_ratio: np.ndarray = field(default=None)
    eigensolver: str = None

    @property
    def ndof(self):
        return self.body.ndof

    @property
    def shapes(self):
        """Elastic mode shapes on the mesh (ndof, n_q) [m per unit modal coordinate]."""
        return self.modes[:self.ndof]

    def frame_rows(self):
        """(n_if, 6, n_q) motion (t, θ) of each interface frame per unit modal coordinate."""
        return self.modes[self.ndof:].reshape(len(self.interfaces), 6, -1)

    @property
    def modal_stiffness(self):
        """Diagonal modal stiffness diag(ω²) [kg/s²] (modes at unit modal mass, 1 kg)."""
        return np.diag(self.omega ** 2)

    @property
    def modal_damping(self):
        """Diagonal modal damping diag(2 ζ ω) [kg/s] (modes at unit modal mass, 1 kg)."""
        return np.diag(2 * self.damping_ratio * self.omega)


def interface_constraints(body, interfaces):
    """Constraint matrix G of the interface couplings, G [u; ξ] = 0; fills in the interface origins."""
    X, n = body.mesh.points, body.ndof
    rows, cols, vals, row = [], [], [], 0
    seen = {}
    for k, itf in enumerate(interfaces):
        nodes = np.unique(np.asarray(itf.nodes, np.int64))
        if nodes.size == 0:
            raise ModelError(f"interface '{itf.name}': empty node set")
        itf.nodes = nodes
        itf.origin = X[nodes].mean(0) if itf.origin is None else np.asarray(itf.origin, float)
        for a in nodes:
            if a in seen:
                raise ModelError(f"interfaces '{seen[a]}' and '{itf.name}' share node {a}; give disjoint node sets")
            seen[a] = itf.name
        R = np.zeros((len(nodes), 3, 6))                  # u_s = R_s ξ for a rigid motion of the frame
        R[:, :, :3] = np.eye(3)
        R[:, :, 3:] = -skew(X[nodes] - itf.origin)
        frame = n + 6 * k + np.arange(6)
        udof = 3 * nodes[:, None] + np.arange(3)          # (s, 3)
        if itf.coupling == "rigid" and np.linalg.cond(np.einsum("sik,sil->kl", R, R)) > 1e12:
            raise ModelError(f"interface '{itf.name}': a rigid coupling of {len(nodes)} node"
                             f"{'' if len(nodes) == 1 else 's on one line'} leaves the frame's rotation free (the "
                             "solid's nodes carry no rotation); select at least 3 nodes not on one line, e.g. a "
                             "face by group:, box: or cylinder:")
        if itf.coupling == "rigid":                       # u_s − R_s ξ = 0, 3 rows per node
            r = row + np.arange(3 * len(nodes)).reshape(-1, 3)
            rows += [r.ravel(), np.repeat(r.ravel(), 6)]
            cols += [udof.ravel(), np.tile(frame, 3 * len(nodes))]
            vals += [np.ones(r.size), -R.reshape(-1)]
            row += r.size
        elif itf.coupling == "average":                   # ξ − A u_S = 0, 6 rows
            A_n = np.einsum("sik,sil->kl", R, R)
            if np.linalg.cond(A_n) > 1e12:
                raise ModelError(f"interface '{itf.name}': an averaging coupling needs at least 3 nodes not "
                                 "on one line; select more nodes")
            A = np.linalg.solve(A_n, R.reshape(-1, 6).T)  # (6, 3s)
            r = row + np.arange(6)
            rows += [r, np.repeat(r, A.shape[1])]
            cols += [frame, np.tile(udof.ravel(), 6)]
            vals += [np.ones(6), -A.ravel()]
            row += 6
        else:
            raise ModelError(f"interface '{itf.name}': coupling '{itf.coupling}' unknown; use 'rigid' or 'average'")
    return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                         shape=(row, n + 6 * len(interfaces)))


def craig_bampton(body, interfaces, n_modes=20, static_loads=None, damping_ratio=0.0, progress=None,
                  blas_threads=1, eigensolver=None):
    """Reduce ``body`` to its interface frames plus ``n_modes`` fixed-interface modes."""
    with threadpool_limits(limits=blas_threads, user_api="blas"):
        return _craig_bampton(body, interfaces, n_modes, static_loads, damping_ratio, progress, eigensolver)


def _craig_bampton(body, interfaces, n_modes, static_loads, damping_ratio, progress, eigensolver):
    """:func:`craig_bampton` inside its BLAS thread limit: interface constraints, then the shared reduction."""
    if not interfaces:
        raise ModelError("craig_bampton: give at least one interface")
    names = [i.name for i in interfaces]
    if len(set(names)) != len(names):
        raise ModelError(f"craig_bampton: interface names {names} repeat; name each interface once")
    tell = progress or (lambda stage: None)
    n, n_b = body.ndof, 6 * len(interfaces)
    G = interface_constraints(body, interfaces)
    rigid = all(i.coupling == "rigid" for i in interfaces)
    tet10 = all(e.name == "tet10" for e, _ in body.mesh.blocks)
    held = 3 * sum(len(i.nodes) for i in interfaces)
    method = choose_eigensolver(n - held, eigensolver, True, rigid and tet10) if rigid else eigensolver
    if method == "p-multigrid":
        r = _renumbered_reduction(body, G, static_loads, n_modes, tell)
        basis = r.basis
    else:
        tell("assembly")
        K, M = body.stiffness(), body.mass()
        T, independent = constraint_basis(G, n + n_b, keep=np.arange(n, n + n_b))
        b = np.searchsorted(independent, np.arange(n, n + n_b))
        loads = _load_columns(body, static_loads, independent) if static_loads else None
        if rigid:
            r = _rigid_reduction(body, K, M, T.tocsr(), independent, loads, n_modes, tell, method)
            basis = r.basis
        else:
            T = T.tocsc()
            Kt = (T.T @ sp.block_diag([K, sp.csr_matrix((n_b, n_b))]) @ T).tocsc()
            Mt = (T.T @ sp.block_diag([M, sp.csr_matrix((n_b, n_b))]) @ T).tocsc()
            r = craig_bampton_matrices(Kt, Mt, b, n_modes, loads=loads, progress=tell, eigensolver=eigensolver)
            basis = T @ r.basis
            r.modes = T @ r.modes
    omega = r.omega
    zeta = np.broadcast_to(np.asarray(damping_ratio, float), omega.shape).copy()
    if np.any(zeta < 0):
        raise ModelError(f"craig_bampton: damping ratio must be ≥ 0, got {damping_ratio}")
    return Reduction(body, interfaces, basis, r.K_cb, r.M_cb, r.omega_fixed, omega, r.modes, r.n_rigid, zeta,
                     r.eigensolver)


@dataclass
class ReducedMatrices:
    """What :func:`craig_bampton_matrices` returns (coordinates of its K, M; ω in rad/s)."""
    basis: np.ndarray
    K_cb: np.ndarray
    M_cb: np.ndarray
    modes: np.ndarray
    omega: np.ndarray
    omega_fixed: np.ndarray
    n_rigid: int
    eigensolver: str = "dense"


def craig_bampton_matrices(K, M, boundary, n_modes, loads=None, rigid=None, held=0, progress=None, eigensolver=None):
    """Craig–Bampton reduction of the pair (K, M) to its ``boundary`` coordinates (module docstring)."""
    tell = progress or (lambda stage: None)
    b = np.asarray(boundary)
    i = np.setdiff1d(np.arange(K.shape[0]), b)
    n_b = len(b)
    count = len(i) if n_modes is None else int(n_modes)
    if sp.issparse(K):
        Kii, Kib, Mii = K[i][:, i], K[i][:, b], M[i][:, i]
        solve, Psi, Phi, omega_fixed, method = _interior(Kii, Kib, Mii, count, tell, eigensolver)
    else:
        Kii, Kib, Mii = K[np.ix_(i, i)], K[np.ix_(i, b)], M[np.ix_(i, i)]
        if not 0 <= count <= len(i):
            raise ModelError(f"craig_bampton: n_modes must be between 0 and {len(i)}, got {n_modes}")
        solve = lambda rhs: np.linalg.solve(Kii, rhs)
        Psi = -solve(Kib)
        lam, Phi = (sla.eigh(Kii, Mii, subset_by_index=(0, count - 1)) if count
                    else (np.zeros(0), np.zeros((len(i), 0))))
        omega_fixed = np.sqrt(np.maximum(lam, 0.0))
    columns = [Psi, Phi]
    if loads is not None:
        columns.append(_static_modes(solve, np.asarray(loads, float)[i], lambda X: Mii @ X, Phi))
    Vi = np.hstack(columns)
    V = np.zeros((K.shape[0], Vi.shape[1]))
    V[i] = Vi
    V[b, np.arange(n_b)] = 1.0
    V = V[:, held:]
    tell("orthonormalization")
    return _diagonalized(V, lambda U: K @ U, lambda U: M @ U, V, rigid, omega_fixed,
                         method if sp.issparse(K) else "dense")


def _diagonalized(V, stiffness, mass, U, rigid, omega_fixed, method):
    """ReducedMatrices of the basis V, with K_cb = UᵀKU, M_cb = UᵀMU (U: V's rows in K's coordinates;
    ``stiffness``, ``mass``: U ↦ K U, M U)."""
    K_cb, M_cb = U.T @ stiffness(U), U.T @ mass(U)
    K_cb, M_cb = 0.5 * (K_cb + K_cb.T), 0.5 * (M_cb + M_cb.T)
    lam, Z = sla.eigh(K_cb, M_cb)
    if rigid is None:
        rigid = int(np.sum(lam <= 1e-10 * max(np.abs(lam).max(), 1.0)))
    return ReducedMatrices(V, K_cb, M_cb, V @ Z[:, rigid:], np.sqrt(np.maximum(lam[rigid:], 0.0)), omega_fixed,
                           rigid, method)


def _interior(Kii, Kib, Mii, count, tell, eigensolver):
    """Interior solve, constraint modes Ψ and ``count`` fixed-interface modes from a CHOLMOD factor of K_ii.
    (solve, Ψ, Φ, ω, method)."""
    n_i = Kii.shape[0]
    count = min(count, n_i - 1)
    method = choose_eigensolver(n_i, eigensolver, True)
    tell("factorization")
    factor = Factorization(Kii, definite=True)
    if factor.kind != "cholmod":
        raise SolverError("craig_bampton: the interior stiffness is not positive definite: the interfaces do "
                          "not hold the body (one rigid interface, or an averaging one with 3 non-collinear "
                          "nodes, is needed)")
    Psi = -factor.solve(Kib.toarray()) if Kib is not None else None
    tell(f"normal modes: {method}")       # the choice, shown by progress bars
    fixed = (sparse_eigenmodes(Kii, Mii, count, sigma=0.0, factorization=factor, method=method, zero_tol=0.0)
             if count > 0 else None)            # K_ii factored as definite: no zero modes (a relative threshold
                                                # would call the lowest modes of a fine, slender mesh rigid)
    if fixed is None:
        return factor.solve, Psi, np.zeros((n_i, 0)), np.zeros(0), method
    return factor.solve, Psi, fixed.modes, fixed.omega, fixed.method


def _rigid_reduction(body, K, M, T, independent, loads, n_modes, tell, method):
    """Craig–Bampton with rigid couplings only: T is the identity on the interior, so K_ii, M_ii are K, M on the
    free rows and K_ib = K_i· T_·b (no TᵀKT); the basis is returned in (u, ξ). 'p-multigrid' needs no K, M:
    its operators act on the body's compiled matrices."""
    n, n_b = body.ndof, T.shape[0] - body.ndof
    free = independent[:-n_b]
    Tb = T[:n, -n_b:]
    count = len(free) if n_modes is None else int(n_modes)
    if method == "p-multigrid":
        mask = np.zeros(n, bool)
        mask[free] = True
        tell(f"normal modes: {method}")
        interior = FactorFreeInterior(body, mask.reshape(-1, 3).all(1))
        lam, Phi = interior.modes(min(count, len(free) - 1))
        omega_fixed, solve = np.sqrt(np.maximum(lam, 0.0)), interior.solve
        tell("constraint modes")
        Kib = interior.ops.stiffness(Tb.toarray())[free]
        mass = interior.mass
        whole = InteriorOperators(body, np.ones(body.mesh.n_nodes, bool))
        stiffness_all, mass_all = whole.stiffness, whole.mass
    else:
        Kf = K[free]
        Kii, Mii, Kib = Kf[:, free], M[free][:, free], (Kf @ Tb).toarray()
        del Kf                                    # a third copy of K's rows at 1M dof: 1 GB
        solve, _, Phi, omega_fixed, method = _interior(Kii, None, Mii, count, tell, method)
        mass = lambda X: Mii @ X
        stiffness_all, mass_all = (lambda U: K @ U), (lambda U: M @ U)
    columns = [_rigid_constraint_modes(body, Tb, free, Kib, solve), Phi]
    if loads is not None:
        columns.append(_static_modes(solve, loads[:len(free)], mass, Phi))
    Vt = np.zeros((T.shape[1], sum(c.shape[1] for c in columns)))
    Vt[:len(free)] = np.hstack(columns)
    Vt[len(free) + np.arange(n_b), np.arange(n_b)] = 1.0
    V = T @ Vt
    tell("orthonormalization")
    return _diagonalized(V, stiffness_all, mass_all, V[:n], None, omega_fixed, method)


def _renumbered_reduction(body, G, static_loads, n_modes, tell):
    """The factor-free rigid reduction of a large Tet10 body, run on its Morton-renumbered copy (products
    find their entries in cache) and returned in the body's own node numbering; ``body`` is not assembled.
    G: the interface constraints of ``body``, whose displacement columns are permuted to the copy's."""
    mesh, order = body.mesh.renumbered()
    work = type(body)(mesh, body.E, body.nu, body.rho, body.name, check_units=False)
    n, n_b = body.ndof, G.shape[1] - body.ndof
    dofs = (3 * order[:, None] + np.arange(3)).ravel()    # new dof k is old dof dofs[k]
    tell("assembly")
    work.stiffness()                                      # K and M_s, one compiled pass
    T, independent = constraint_basis(G.tocsc()[:, np.r_[dofs, n + np.arange(n_b)]], n + n_b,
                                      keep=np.arange(n, n + n_b))
    loads = _load_columns(work, static_loads, independent) if static_loads else None
    r = _rigid_reduction(work, None, None, T.tocsr(), independent, loads, n_modes, tell, "p-multigrid")
    for name in ("basis", "modes"):
        A = getattr(r, name)
        B = np.empty_like(A)
        B[dofs], B[n:] = A[:n], A[n:]
        setattr(r, name, B)
    return r


def _rigid_constraint_modes(body, Tb, free, Kib, solve):
    """Ψ = −K_ii⁻¹ K_ib with the body's six rigid motions taken exactly: frame motions E_r that move every
    rigid interface with one rigid motion of the body give Ψ E_r = the rigid field on the interior, so only
    the n_b − 6 columns that move the other interfaces relative to the first need a solve."""
    n_b = Kib.shape[1]
    rigid = body.rigid_modes()                          # (ndof, 6) about the mesh origin
    E = np.zeros((n_b, n_b))
    held = np.flatnonzero(np.abs(Tb).sum(1).A1)
    E[:, :6] = np.linalg.lstsq(Tb[held].toarray(), rigid[held], rcond=None)[0]
    E[6:, 6:] = np.eye(n_b - 6)
    columns = [rigid[free]]
    if n_b > 6:
        columns.append(-solve(Kib[:, 6:]))
    return np.linalg.solve(E.T, np.hstack(columns).T).T

def _load_columns(body, loads, independent):
    """Unit point forces at the nodes nearest the load points, in the independent coordinates."""
    position = np.full(body.ndof, -1)
    position[independent[independent < body.ndof]] = np.arange(np.sum(independent < body.ndof))
    F = np.zeros((len(independent), len(loads)))
    for k, (point, direction) in enumerate(loads):
        node = np.argmin(np.linalg.norm(body.mesh.points - np.asarray(point, float), axis=1))
        d = np.asarray(direction, float)
        d = d / np.linalg.norm(d)
        for comp in range(3):
            slot = position[3 * node + comp]
            if slot < 0:
                raise ModelError(f"static load at {list(point)}: node {node} belongs to an interface; "
                                 "interface loads are carried by the constraint modes already")
            F[slot, k] = d[comp]
    return F


def _static_modes(solve, F, mass, normal):
    """Static modes K_ii⁻¹ f of the load columns, M-orthonormal to ``normal`` and among themselves (``mass``:
    X ↦ M_ii X; Cholesky–QR, the Gram–Schmidt result in one product)."""
    S = solve(F)
    S -= normal @ (normal.T @ mass(S))                # M-orthogonal to the normal modes
    L = np.linalg.cholesky(S.T @ mass(S))
    return sla.solve_triangular(L, S.T, lower=True).T


def component_from_reduction(reduction, output_points=(), gauge_points=(), mesh_shapes=True, name="link"):
    """Collect a :class:`Reduction` of a solid body into a component (``.fdc``)."""
    body = reduction.body
    Phi = reduction.shapes
    q = Phi.shape[1]
    arrays = modal_invariants(body.mesh.points, body.scalar_mass(), Phi.reshape(-1, 3, q))
    arrays.update(frequencies=reduction.omega / (2 * np.pi), modal_mass=np.eye(q),
                  modal_stiffness=reduction.modal_stiffness, modal_damping=reduction.modal_damping)
    arrays["interface_origins"] = np.array([i.origin for i in reduction.interfaces], float).reshape(-1, 3)
    arrays["interface_shapes"] = reduction.frame_rows()
    P = np.asarray(output_points, float).reshape(-1, 3)
    Gp = np.asarray(gauge_points, float).reshape(-1, 3)
    arrays["output_points"] = P
    arrays["output_shapes"] = (body.interpolation(P) @ Phi).reshape(len(P), 3, q) if len(P) else np.zeros((0, 3, q))
    arrays["gauge_points"] = Gp
    arrays["gauge_strain_modes"] = ((body.strain_operator(Gp) @ Phi).reshape(len(Gp), 6, q) if len(Gp)
                                    else np.zeros((0, 6, q)))
    if mesh_shapes:
        arrays["mesh_points"] = body.mesh.points
        for etype, conn in body.mesh.blocks:
            key = "mesh_tetra" if etype.name.startswith("tet") else "mesh_hexahedron"
            cells = conn[:, etype.corners]
            arrays[key] = np.vstack([arrays[key], cells]) if key in arrays else cells
        tets = [(etype.name, conn) for etype, conn in body.mesh.blocks if etype.name.startswith("tet")]
        if tets and all(kind == "tet10" for kind, _ in tets):               # quadratic cells: stress interpolation
            arrays["mesh_tetra10"] = np.vstack([conn for _, conn in tets])
        arrays["mesh_shapes"] = Phi.reshape(-1, 3, q)
    return new_component(
        name, arrays,
        reference_frame="the mesh frame (origin and axes of the mesh coordinates, in m); elastic modes are "
                        "M-orthogonal to the rigid motions (linear mean-axis condition)",
        material={"E": body.E, "nu": body.nu, "rho": body.rho, "model": "isotropic linear elastic"},
        mesh={"name": body.mesh.name, "nodes": int(body.mesh.n_nodes),
              "elements": {e.name: int(len(c)) for e, c in body.mesh.blocks}},
        reduction={"method": "craig-bampton", "normal_modes": int(len(reduction.omega_fixed)),
                   "rigid_modes_removed": int(reduction.n_rigid), "modes": int(q),
                   "damping_ratio": reduction.damping_ratio.tolist()},
        interfaces=[{"name": i.name, "coupling": i.coupling, "nodes": int(len(i.nodes))}
                    for i in reduction.interfaces])
