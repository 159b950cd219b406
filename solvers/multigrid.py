"""Factor-free fixed-interface modes of Tet10 solids: a two-level p-multigrid preconditioner and LOBPCG.

Coarse space: the corner (Tet4) mesh of the same elements, ~1/8 of the dofs; its P1 functions
interpolate exactly into P2 (mid-edge node = mean of the edge's corners). The preconditioner is
x = S(b); x += P K_c⁻¹ Pᵀ (b − K x); x = S(b, x) with S a Chebyshev–Jacobi smoother; only the
coarse K_c is factored (CHOLMOD). Modes: LOBPCG (Knyazev 2001, SIAM J. Sci. Comput. 23:517–541)
started from the coarse modes; constraint modes by block PCG. Details: docs/solvers.md.
"""
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from threadpoolctl import threadpool_limits

from femdyn.errors import SolverError
from femdyn.elements.solid import TET4, _TET10_EDGES
from femdyn.mesh.solid import SolidMesh

__all__ = ["TwoLevel", "coarse_space", "lobpcg_modes", "block_pcg", "multigrid_modes"]


def coarse_space(body, free_nodes):
    """Prolongation P (free fine dofs × free corner dofs) and the corner (Tet4) K_c, M_c of a Tet10 ``body``.

    Parameters
    ----------
    body : SolidBody
        A body meshed with Tet10 elements only.
    free_nodes : (n_nodes,) bool ndarray
        Nodes not held by an interface (their 3 dofs are the interior).

    Returns
    -------
    P : sparse (3 n_free, 3 n_free_corners)
        Mid-edge rows ½ (corner a + corner b), corner rows the identity [-].
    K_c, M_c : sparse
        Stiffness [N/m] and mass [kg] of the corner mesh on its free dofs.

    Raises
    ------
    SolverError
        If the mesh has other elements than Tet10.
    """
    mesh = body.mesh
    if any(e.name != "tet10" for e, _ in mesh.blocks):
        raise SolverError(f"p-multigrid: mesh '{mesh.name}' has {mesh.element_types} elements; the corner coarse "
                          "space needs Tet10 only (use eigensolver='shift-invert')")
    conn = np.vstack([c for _, c in mesh.blocks])
    corners = np.unique(conn[:, :4])
    slot = np.full(mesh.n_nodes, -1)
    slot[corners] = np.arange(len(corners))
    mid, first = np.unique(conn[:, 4:10].ravel(), return_index=True)
    a, b = conn[:, _TET10_EDGES[:, 0]].ravel()[first], conn[:, _TET10_EDGES[:, 1]].ravel()[first]
    Pn = sp.csr_matrix((np.r_[np.ones(len(corners)), np.full(2 * len(mid), 0.5)],
                        (np.r_[corners, mid, mid], np.r_[slot[corners], slot[a], slot[b]])),
                       shape=(mesh.n_nodes, len(corners)))
    fine = np.flatnonzero(np.repeat(free_nodes, 3))
    coarse = np.flatnonzero(np.repeat(free_nodes[corners], 3))
    P = sp.kron(Pn, sp.identity(3), format="csr")[fine][:, coarse].tocsr()
    cbody = type(body)(SolidMesh(mesh.points[corners], [(TET4, slot[conn[:, :4]])], name=mesh.name + " corners",
                                 check=False), body.E, body.nu, body.rho, check_units=False)
    return P, cbody.stiffness()[coarse][:, coarse].tocsc(), cbody.mass()[coarse][:, coarse].tocsc()


class TwoLevel:
    """Two-level preconditioner B ≈ K⁻¹ (symmetric): Chebyshev–Jacobi smoothing around a coarse-grid correction.

    Parameters
    ----------
    K : sparse SPD (n, n)
        Fine stiffness [N/m].
    P : sparse (n, n_c)
        Prolongation [-].
    coarse : callable
        K_c⁻¹ applied to (n_c, k) arrays (e.g. a CHOLMOD factor) [m/N].
    degree : int
        Chebyshev degree of each smoothing (pre and post).

    Example
    -------
    >>> K = sp.diags([2.0, 3.0, 4.0]).tocsr(); P = sp.csr_matrix(np.ones((3, 1)))
    >>> B = TwoLevel(K, P, lambda r: r / 9.0); np.allclose(K @ B(np.eye(3)), np.eye(3), atol=0.2)
    True
    """

    def __init__(self, K, P, coarse, degree=2):
        self.K, self.P, self.coarse, self.degree = K, P, coarse, degree
        self.dinv = 1.0 / K.diagonal()
        x = np.cos(np.arange(K.shape[0]) * 0.7) + 1.0
        for _ in range(12):                               # power iteration: λ_max of D⁻¹K, 10 % margin
            y = self.dinv * (K @ x)
            top = np.linalg.norm(y) / np.linalg.norm(x)
            x = y / np.linalg.norm(y)
        self.hi = 1.1 * top
        self.lo = self.hi / 30.0                           # the smoother's target: the upper 29/30 of the spectrum

    def _smooth(self, b, x):
        """Chebyshev iteration (Saad 2003, alg. 12.1) on D⁻¹K x = D⁻¹b from x (None: zero)."""
        dinv = self.dinv[:, None] if b.ndim == 2 else self.dinv
        theta, delta = (self.hi + self.lo) / 2, (self.hi - self.lo) / 2
        sigma = theta / delta
        rho = 1.0 / sigma
        r = b.copy() if x is None else b - self.K @ x
        x = np.zeros_like(b) if x is None else x
        d = dinv * r / theta
        for _ in range(self.degree):
            x = x + d
            r = r - self.K @ d
            rho_next = 1.0 / (2 * sigma - rho)
            d = rho_next * rho * d + 2 * rho_next / delta * (dinv * r)
            rho = rho_next
        return x + d

    def __call__(self, b):
        """B b for a vector or an (n, k) block."""
        x = self._smooth(b, None)
        x = x + self.P @ self.coarse(self.P.T @ (b - self.K @ x))
        return self._smooth(b, x)


@dataclass
class _Stats:
    """Iterations taken by an iterative solve."""
    iterations: int


def block_pcg(K, B, precondition, rtol=1e-10, maxiter=200):
    """X with K X = B by block-diagonal PCG (one CG per column, run together), relative residual ≤ ``rtol``.

    Parameters
    ----------
    K : sparse SPD (n, n) [N/m]
    B : (n, k) ndarray, right-hand sides [N]
    precondition : callable, (n, k) → (n, k), symmetric positive definite (e.g. :class:`TwoLevel`)
    rtol : float, ‖K x − b‖ / ‖b‖ per column
    maxiter : int

    Returns
    -------
    X : (n, k) ndarray [m]
    stats : iterations taken

    Raises
    ------
    SolverError
        If a column has not converged after ``maxiter`` iterations.
    """
    X = np.zeros_like(B)
    R = B.copy()
    bnorm = np.maximum(np.linalg.norm(B, axis=0), np.finfo(float).tiny)
    Z = precondition(R)
    D = Z.copy()
    rz = np.einsum("ij,ij->j", R, Z)
    for it in range(1, maxiter + 1):
        KD = K @ D
        alpha = rz / np.einsum("ij,ij->j", D, KD)
        X += D * alpha
        R -= KD * alpha
        res = np.linalg.norm(R, axis=0) / bnorm
        if res.max() <= rtol:
            return X, _Stats(it)
        Z = precondition(R)
        rz_next = np.einsum("ij,ij->j", R, Z)
        D = Z + D * (rz_next / rz)
        rz = rz_next
    raise SolverError(f"block PCG: relative residual {res.max():.2e} > {rtol:.0e} after {maxiter} iterations; "
                      "use eigensolver='shift-invert' (a factor) for this mesh")


def _orthonormal(S, MS, KS):
    """M-orthonormal basis of span S (SVQB, Stathopoulos & Wu 2002: drops directions below 1e-10 of the largest)."""
    G = S.T @ MS
    d = 1.0 / np.sqrt(np.maximum(np.diag(G), np.finfo(float).tiny))
    w, U = np.linalg.eigh(G * d[:, None] * d[None, :])
    keep = w > 1e-10 * w.max()
    C = (d[:, None] * U[:, keep]) / np.sqrt(w[keep])
    return C


def lobpcg_modes(K, M, X, count, precondition, rtol=1e-7, maxiter=60):
    """The ``count`` lowest eigenpairs of K x = λ M x by LOBPCG from the start block X (extra columns are guards).

    Parameters
    ----------
    K, M : sparse SPD (n, n) stiffness [N/m] and mass [kg]
    X : (n, k) ndarray, k > count: start vectors (e.g. prolongated coarse modes)
    count : int, wanted modes
    precondition : callable, (n, k) → (n, k) ≈ K⁻¹
    rtol : float, stop when rᵀ B r / λ ≤ rtol for the wanted modes (r = K x − λ M x, B the preconditioner ≈ K⁻¹):
        an estimate of the relative eigenvalue error (ω to half of it)
    maxiter : int

    Returns
    -------
    lam : (count,) ndarray, λ = ω² [rad²/s²] ascending
    modes : (n, count) ndarray, M-orthonormal
    stats : iterations taken

    Raises
    ------
    SolverError
        If the wanted modes have not converged after ``maxiter`` iterations.
    """
    k = X.shape[1]
    KX, MX = K @ X, M @ X
    C = _orthonormal(X, MX, KX)
    X, KX, MX = X @ C, KX @ C, MX @ C
    lam, Z = sla.eigh(X.T @ KX)
    X, KX, MX = X @ Z, KX @ Z, MX @ Z
    P = KP = MP = None
    for it in range(1, maxiter + 1):
        R = KX - MX * lam
        W = precondition(R)
        error = np.einsum("ij,ij->j", R, W) / lam       # ≈ rᵀK⁻¹r / λ: the relative eigenvalue error
        if error[:count].max() <= rtol:
            return lam[:count], X[:, :count], _Stats(it - 1)
        for _ in range(2):                             # M-orthogonal to X, twice (the near-converged W cancels)
            W -= X @ (MX.T @ W)
        KW, MW = K @ W, M @ W
        blocks = [(X, KX, MX), (W, KW, MW)] + ([(P, KP, MP)] if P is not None else [])
        S, KS, MS = (np.hstack([b[j] for b in blocks]) for j in range(3))
        C = _orthonormal(S, MS, KS)
        Kr = C.T @ (S.T @ KS) @ C
        lam_all, Z = sla.eigh(0.5 * (Kr + Kr.T))
        Y = C @ Z[:, :k]                               # Ritz coefficients in [X, W, P]
        lam = lam_all[:k]
        Yp = Y.copy()
        Yp[:k] = 0.0                                   # the new direction: the W and P parts
        P, KP, MP = S @ Yp, KS @ Yp, MS @ Yp
        X, KX, MX = S @ Y, KS @ Y, MS @ Y
    raise SolverError(f"p-multigrid LOBPCG: eigenvalue error estimate {error[:count].max():.1e} > {rtol:.0e} after {maxiter} "
                      "iterations; use eigensolver='shift-invert' (a factor) for this mesh")


def multigrid_modes(body, free_nodes, Kii, Mii, count, guards=6, degree=2):
    """Fixed-interface modes and the interior solver of a Tet10 ``body`` without a fine-level factor.

    Parameters
    ----------
    body : SolidBody (Tet10)
    free_nodes : (n_nodes,) bool ndarray, the interior nodes (Kii, Mii are their dofs, node-major)
    Kii, Mii : sparse SPD interior stiffness [N/m] and mass [kg]
    count : int, modes wanted
    guards : int, extra LOBPCG columns (they speed up the last wanted modes)
    degree : int, Chebyshev degree of the smoother

    Returns
    -------
    lam : (count,) ndarray, ω² [rad²/s²]
    modes : (n_i, count) ndarray, M-orthonormal
    solve : callable, K_ii⁻¹ B by block PCG (relative residual 1e-10) for the constraint and static modes

    Raises
    ------
    SolverError
        Non-Tet10 mesh, or LOBPCG / PCG not converging.
    """
    from sksparse.cholmod import cholesky
    P, Kc, Mc = coarse_space(body, free_nodes)
    coarse = cholesky(Kc)
    k = min(count + guards, Kc.shape[0] - 2)
    _, Xc = spla.eigsh(Kc, k=k, M=Mc, sigma=0.0, OPinv=spla.LinearOperator(Kc.shape, matvec=coarse, dtype=float),
                       v0=coarse(Mc @ np.cos(np.arange(Kc.shape[0]))))
    B = TwoLevel(Kii, P, coarse, degree)
    with threadpool_limits(limits=1, user_api="blas"):    # thin dense blocks: BLAS threads cost more than they give
        lam, X, _ = lobpcg_modes(Kii, Mii, P @ Xc, count, B)
    return lam, X, lambda rhs: block_pcg(Kii, rhs, B)[0]
