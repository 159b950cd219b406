"""Factor-free fixed-interface modes of Tet10 solids: a two-level p-multigrid preconditioner, LOBPCG and PCG.

The interior operators K_ii, M_ii act on full-length blocks whose held rows are zero (no slices of K, M),
by the compiled two-thread products of :mod:`.multigrid_compiled`. Coarse space: the corner (Tet4) mesh
of the same elements, ~1/8 of the dofs; its P1 functions interpolate exactly into P2 (mid-edge node =
mean of the edge's corners). Preconditioner x = S(b); x += P K_c⁻¹ Pᵀ (b − K x); x = S(b, x) with S a
Chebyshev smoother on (block Jacobi)⁻¹K; only K_c is factored (CHOLMOD). Modes: LOBPCG (Knyazev 2001,
SIAM J. Sci. Comput. 23:517–541) with soft locking, started from the coarse modes; solves by block PCG
started from the modes' part of the solution. Details: docs/solvers.md.
"""
import os
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from threadpoolctl import threadpool_limits

from femdyn.errors import SolverError
from femdyn.elements.solid import TET4, TET10
from femdyn.mesh.solid import SolidMesh

from . import multigrid_compiled as mc

_CORES = os.cpu_count() or 1

__all__ = ["InteriorOperators", "CoarseSpace", "TwoLevel", "Deflated", "FactorFreeInterior", "Ritz", "block_pcg",
           "lobpcg_modes"]


class InteriorOperators:
    """K_ii and M_ii of a solid body as products on full-length (ndof, m) blocks (held rows zero).

    Parameters
    ----------
    body : SolidBody
        The assembled body (its compiled node-block layout is read, not copied).
    free_nodes : (n_nodes,) bool ndarray
        Nodes not held by an interface (their 3 dofs are the interior).

    Example
    -------
    >>> from femdyn.mesh.generate import box_mesh
    >>> from femdyn.elements.solid_body import SolidBody
    >>> body = SolidBody(box_mesh((0.2, 0.02, 0.02), (4, 1, 1), element="tet10"), 2.1e11, 0.3, 7800.0)
    >>> ops = InteriorOperators(body, np.ones(body.mesh.n_nodes, bool))
    >>> X = np.random.default_rng(0).random((body.ndof, 3))
    >>> bool(np.allclose(ops.stiffness(X), body.stiffness() @ X))
    True
    """

    def __init__(self, body, free_nodes):
        pattern, K, Ms = body.pattern, body.stiffness(), body.scalar_mass()
        if not np.array_equal(K.indptr[::3], 9 * pattern.indptr):
            raise SolverError(f"p-multigrid: the stiffness of '{body.name}' is not in the compiled node-block "
                              "layout (was it modified after assembly?); use eigensolver='shift-invert'")
        self.indptr, self.indices, self.kdata, self.mdata = pattern.indptr, pattern.indices, K.data, Ms.data
        self.free = np.ascontiguousarray(free_nodes, bool)
        self.ndof = body.ndof
        self.held = ~np.repeat(self.free, 3)

    def stiffness(self, X):
        """K_ii X, (ndof, m) [N].

        Parameters
        ----------
        X : (ndof, m) ndarray
            Displacement blocks on every dof [m], held rows ignored.

        Returns
        -------
        (ndof, m) ndarray
            Forces on the free dofs [N] (held rows 0).
        """
        X = np.ascontiguousarray(X)
        Y = np.empty_like(X)
        mc.stiffness_product(self.indptr, self.indices, self.kdata, self.free, X, Y)
        return Y

    def mass(self, X):
        """M_ii X, (ndof, m) [kg × the unit of X].

        Parameters
        ----------
        X : (ndof, m) ndarray
            Blocks on every dof (x, y, z of each node), held rows ignored.

        Returns
        -------
        (ndof, m) ndarray
            M_ii X [kg × the unit of X] (held rows 0).
        """
        X = np.ascontiguousarray(X)
        Y = np.empty_like(X)
        m = X.shape[1]
        mc.mass_product(self.indptr, self.indices, self.mdata, self.free, X.reshape(-1, 3 * m), Y.reshape(-1, 3 * m))
        return Y

    def full(self, interior_rows, X_i):
        """The full-length block of interior rows ``X_i`` (held rows 0).

        Parameters
        ----------
        interior_rows : (n_i,) ndarray of int
            The dofs the rows of ``X_i`` belong to.
        X_i : (n_i, m) ndarray
            Values on those dofs.

        Returns
        -------
        (ndof, m) ndarray
        """
        X = np.zeros((self.ndof, X_i.shape[1]))
        X[interior_rows] = X_i
        return X


class CoarseSpace:
    """The corner (Tet4) mesh of a Tet10 body: prolongation P, its K_c, M_c on the free corner dofs, K_c's factor.

    Parameters
    ----------
    body : SolidBody
        A body meshed with Tet10 elements only.
    free_nodes : (n_nodes,) bool ndarray
        Nodes not held by an interface.

    Raises
    ------
    SolverError
        If the mesh has other elements than Tet10.
    """

    def __init__(self, body, free_nodes):
        from sksparse.cholmod import cholesky
        mesh = body.mesh
        if any(e.name != "tet10" for e, _ in mesh.blocks):
            raise SolverError(f"p-multigrid: mesh '{mesh.name}' has {mesh.element_types} elements; the corner coarse "
                              "space needs Tet10 only (use eigensolver='shift-invert')")
        conn = np.vstack([c for _, c in mesh.blocks])
        corners = np.unique(conn[:, :4])
        slot = np.full(mesh.n_nodes, -1)
        slot[corners] = np.arange(len(corners))
        mid, first = np.unique(conn[:, 4:10].ravel(), return_index=True)
        a, b = (conn[:, TET10.edges[:, k]].ravel()[first] for k in (0, 1))
        keep = np.r_[free_nodes[corners], free_nodes[mid], free_nodes[mid]]
        rows, cols = np.r_[corners, mid, mid], np.r_[slot[corners], slot[a], slot[b]]
        vals = np.r_[np.ones(len(corners)), np.full(2 * len(mid), 0.5)]
        self.P = sp.csr_matrix((vals[keep], (rows[keep], cols[keep])), shape=(mesh.n_nodes, len(corners)))
        self.PT = self.P.T.tocsr()
        self.n_corners = len(corners)
        self.dofs = np.flatnonzero(np.repeat(free_nodes[corners], 3))
        cbody = type(body)(SolidMesh(mesh.points[corners], [(TET4, slot[conn[:, :4]])], name=mesh.name + " corners",
                                     check=False), body.E, body.nu, body.rho, check_units=False)
        self.K = cbody.stiffness()[self.dofs][:, self.dofs].tocsc()
        self.M = cbody.mass()[self.dofs][:, self.dofs].tocsc()
        with threadpool_limits(limits=_CORES, user_api="blas"):
            self._factor = cholesky(self.K)

    def factor(self, R):
        """K_c⁻¹ R on the free corner dofs [m]; CHOLMOD's supernodal solve on every core (nothing else runs then).

        Parameters
        ----------
        R : (n_c, m) ndarray
            Coarse forces on the free corner dofs [N].

        Returns
        -------
        (n_c, m) ndarray
            Coarse displacements [m].
        """
        with threadpool_limits(limits=_CORES, user_api="blas"):
            return self._factor(R)

    def prolong(self, Xc):
        """P Xc: (3 n_nodes, m) from the free corner dofs' (n_c, m) [m].

        Parameters
        ----------
        Xc : (n_c, m) ndarray
            Displacements of the free corner dofs [m].

        Returns
        -------
        (3 n_nodes, m) ndarray
            Their interpolation on every node of the mesh [m].
        """
        m = Xc.shape[1]
        full = np.zeros((3 * self.n_corners, m))
        full[self.dofs] = Xc
        return (self.P @ full.reshape(self.n_corners, 3 * m)).reshape(-1, m)

    def restrict(self, R):
        """Pᵀ R on the free corner dofs, (n_c, m) [N].

        Parameters
        ----------
        R : (3 n_nodes, m) ndarray
            Forces on every node of the mesh [N].

        Returns
        -------
        (n_c, m) ndarray
            The coarse forces [N].
        """
        m = R.shape[1]
        return (self.PT @ R.reshape(-1, 3 * m)).reshape(-1, m)[self.dofs]

    def modes(self, count, rtol=1e-4):
        """The ``count`` lowest coarse modes, prolongated: (ndof, count) [m]. LOBPCG on K_c, M_c with the exact
        K_c⁻¹ as preconditioner, from one inverse-iteration step on seeded random vectors, to an estimated
        eigenvalue error of ``rtol`` (they only start the fine LOBPCG; the P1 modes are several % off anyway):
        its block solves use level-3 BLAS in CHOLMOD where single-vector Lanczos cannot.

        Parameters
        ----------
        count : int
            Number of modes.
        rtol : float, optional
            Estimated relative eigenvalue error at which LOBPCG stops.

        Returns
        -------
        (ndof, count) ndarray
            The prolongated coarse modes [m].
        """
        start = self.factor(self.M @ np.random.default_rng(0).standard_normal((self.K.shape[0], count)))
        ritz = lobpcg_modes(lambda X: self.K @ X, lambda X: self.M @ X, start, count, self.factor, rtol)
        return self.prolong(ritz.vectors)


class TwoLevel:
    """Two-level preconditioner B ≈ K_ii⁻¹ (symmetric): Chebyshev smoothing around the coarse-grid correction.

    Parameters
    ----------
    ops : InteriorOperators
    coarse : CoarseSpace
    degree : int
        Chebyshev degree of each smoothing (pre and post); each costs degree + 1 products with K.
    dtype : numpy float type
        Precision of the smoothing (float32 halves the memory traffic; B need not be exact).

    The smoother targets the upper 29/30 of the spectrum of D⁻¹K (D: K's 3×3 diagonal node blocks),
    λ_max by 12 power steps +10 % (Saad 2003, alg. 12.1).
    """

    def __init__(self, ops, coarse, degree=4, dtype=np.float32):
        self.ops, self.coarse, self.degree, self.dtype = ops, coarse, degree, dtype
        self.kdata = ops.kdata.astype(dtype)
        self.dinv = mc.block_jacobi(ops.indptr, ops.indices, ops.kdata, ops.free).astype(dtype)
        x = ((np.cos(np.arange(ops.ndof) * 0.7) + 1.0)[:, None] * ~ops.held[:, None]).astype(dtype)
        y, z = np.empty_like(x), np.empty_like(x)
        for _ in range(12):                               # power iteration: λ_max of D⁻¹K, 10 % margin
            mc.stiffness_product(ops.indptr, ops.indices, self.kdata, ops.free, x, z)
            mc.apply_blocks(self.dinv, z, y)
            top = np.linalg.norm(y) / np.linalg.norm(x)
            x = y / np.linalg.norm(y)
        self.hi = 1.1 * top
        self.lo = self.hi / 30.0

    def _smooth(self, R, X, steps):
        """``steps`` Chebyshev steps from X with residual R (both updated in place); returns the next direction
        (added to X by the caller when smoothing ends without a residual)."""
        theta, delta = (self.hi + self.lo) / 2, (self.hi - self.lo) / 2
        sigma = theta / delta
        rho = 1.0 / sigma
        D = np.empty_like(R)
        mc.apply_blocks(self.dinv, R, D)
        D /= self.dtype(theta)
        D_next = np.empty_like(R)
        o = self.ops
        for _ in range(steps):
            rho_next = 1.0 / (2 * sigma - rho)
            mc.chebyshev_step(o.indptr, o.indices, self.kdata, o.free, self.dinv, D, R, X, D_next,
                              self.dtype(rho_next * rho), self.dtype(2 * rho_next / delta))
            D, D_next = D_next, D
            rho = rho_next
        return D

    def __call__(self, B):
        """B b for an (ndof, m) block (held rows zero), in the precision ``dtype``; the columns are padded to a
        multiple of 8 inside (whole SIMD registers: 32 float32 columns smooth faster than 26)."""
        m = B.shape[1]
        B32 = np.zeros((B.shape[0], -(-m // 8) * 8), self.dtype)
        B32[:, :m] = B
        X, R = np.zeros_like(B32), B32.copy()
        self._smooth(R, X, self.degree + 1)               # X, R = S(b), b − K S(b)
        c = self.coarse
        X[:, :m] += c.prolong(c.factor(c.restrict(R[:, :m]).astype(float))).astype(self.dtype)
        mc.residual(self.ops.indptr, self.ops.indices, self.kdata, self.ops.free, B32, X, R)
        X += self._smooth(R, X, self.degree)
        return X[:, :m].astype(float)


@dataclass
class _Stats:
    """Iterations taken by an iterative solve."""
    iterations: int


@dataclass
class Ritz:
    """Ritz pairs of :func:`lobpcg_modes`: values λ [rad²/s²], M-orthonormal vectors X, K X, iterations taken.

    Parameters
    ----------
    values : (k,) ndarray
        λ = ω² [rad²/s²], ascending.
    vectors : (n, k) ndarray
        X, M-orthonormal.
    stiffness_vectors : (n, k) ndarray
        K X [N per unit modal amplitude].
    iterations : int
        LOBPCG iterations taken.
    """
    values: np.ndarray
    vectors: np.ndarray
    stiffness_vectors: np.ndarray
    iterations: int


class Deflated:
    """The balancing preconditioner (I − QK) B (I − KQ) + Q, Q = X Λ⁻¹ Xᵀ of K-orthogonal Ritz vectors X
    (Mandel 1993; Tang, Nabben, Vuik & Erlangga 2009, J. Sci. Comput. 39:340–370): CG works on the
    complement of span X, where the two-level B leaves the slow, low modes.

    Parameters
    ----------
    precondition : callable, (n, m) → (n, m) ≈ K⁻¹
    ritz : Ritz, the K-orthogonal vectors X (Xᵀ K X = Λ) and K X
    """

    def __init__(self, precondition, ritz):
        self.precondition, self.ritz = precondition, ritz

    def start(self, B):
        """Q B: the part of K⁻¹ B in span X [m].

        Parameters
        ----------
        B : (ndof, m) ndarray
            Right-hand sides [N].

        Returns
        -------
        (ndof, m) ndarray
            The start of the deflated CG [m].
        """
        return self.ritz.vectors @ ((self.ritz.vectors.T @ B) / self.ritz.values[:, None])

    def __call__(self, R):
        """The preconditioned residual."""
        X, KX, lam = self.ritz.vectors, self.ritz.stiffness_vectors, self.ritz.values[:, None]
        QR = (X.T @ R) / lam                              # Q R = X QR, used twice
        Z = self.precondition(R - KX @ QR)
        return Z + X @ (QR - (KX.T @ Z) / lam)


def block_pcg(operator, B, precondition, X=None, rtol=1e-10, maxiter=200):
    """X with K X = B by block-diagonal PCG (one CG per column, run together), relative residual ≤ ``rtol``.

    Parameters
    ----------
    operator : callable, (n, k) → K (n, k), SPD [N/m]
    B : (n, k) ndarray, right-hand sides [N]
    precondition : callable, (n, k) → (n, k), symmetric positive definite (e.g. :class:`TwoLevel`)
    X : (n, k) ndarray, optional start [m] (zero)
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
    X = np.zeros_like(B) if X is None else X.copy()
    R = B - operator(X) if X.any() else B.copy()
    bnorm = np.maximum(np.linalg.norm(B, axis=0), np.finfo(float).tiny)
    res = np.linalg.norm(R, axis=0) / bnorm
    if res.max() <= rtol:
        return X, _Stats(0)
    Z = precondition(R)
    D = Z.copy()
    rz = np.einsum("ij,ij->j", R, Z)
    for it in range(1, maxiter + 1):
        KD = operator(D)
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


def _orthonormal(G):
    """C with Cᵀ G C = I from the Gram matrix G (SVQB, Stathopoulos & Wu 2002: directions below 1e-10 dropped)."""
    d = 1.0 / np.sqrt(np.maximum(np.diag(G), np.finfo(float).tiny))
    w, U = np.linalg.eigh(G * d[:, None] * d[None, :])
    keep = w > 1e-10 * w.max()
    return (d[:, None] * U[:, keep]) / np.sqrt(w[keep])


def _gram(left, right):
    """The symmetric block matrix [Lᵢᵀ Rⱼ] of two lists of (n, mᵢ) blocks (Lᵢᵀ Rⱼ = (Lⱼᵀ Rᵢ)ᵀ: upper blocks only)."""
    blocks = [[None] * len(left) for _ in left]
    for i, a in enumerate(left):
        for j in range(i, len(right)):
            blocks[i][j] = a.T @ right[j]
            blocks[j][i] = blocks[i][j].T
    return np.block(blocks)


def _update(blocks, Y, Yp):
    """(Σ blocksᵢ Yᵢ, Σ blocksᵢ Ypᵢ) in one compiled pass; the list ``blocks`` is emptied (its arrays freed)."""
    X, P = np.empty((len(blocks[0]), Y.shape[1])), np.empty((len(blocks[0]), Yp.shape[1]))
    mc.combine(tuple(np.ascontiguousarray(b) for b in blocks), np.ascontiguousarray(Y), np.ascontiguousarray(Yp), X, P)
    blocks.clear()
    return X, P


def lobpcg_modes(stiffness, mass, X, count, precondition, rtol=1e-7, maxiter=60):
    """The ``count`` lowest eigenpairs of K x = λ M x by LOBPCG with soft locking from the start block X.

    Parameters
    ----------
    stiffness, mass : callable, (n, m) → K (n, m), M (n, m), SPD [N/m], [kg]
    X : (n, k) ndarray, k > count: start vectors (e.g. prolongated coarse modes); the extra columns are guards
    count : int, wanted modes
    precondition : callable, (n, m) → (n, m) ≈ K⁻¹
    rtol : float, a column is converged (and no longer given a search direction) when rᵀ B r / λ ≤ rtol
        (r = K x − λ M x, B the preconditioner ≈ K⁻¹): an estimate of the relative eigenvalue error
    maxiter : int

    Returns
    -------
    ritz : Ritz
        λ = ω² [rad²/s²] ascending (the first ``count`` converged), M-orthonormal vectors X, K X, iterations.

    Raises
    ------
    SolverError
        If the wanted modes have not converged after ``maxiter`` iterations.
    """
    k = X.shape[1]
    KX, MX = stiffness(X), mass(X)
    C = _orthonormal(X.T @ MX)
    lam, Z = sla.eigh(C.T @ (X.T @ KX) @ C)
    X, KX, MX = (A @ (C @ Z) for A in (X, KX, MX))
    P = KP = MP = None
    error = np.full(k, np.inf)
    for it in range(1, maxiter + 1):
        active = np.flatnonzero((error > rtol) | (np.arange(k) >= count))
        R = KX[:, active] - MX[:, active] * lam[active]
        W = precondition(R)
        error[active] = np.einsum("ij,ij->j", R, W) / lam[active]
        if error[:count].max() <= rtol:
            return Ritz(lam, X, KX, it - 1)
        for _ in range(2):                               # M-orthogonal to X, twice (the near-converged W cancels)
            W -= X @ (MX.T @ W)
        KW, MW = stiffness(W), mass(W)
        S, KS, MS = [X, W], [KX, KW], [MX, MW]
        if P is not None:
            S, KS, MS = S + [P], KS + [KP], MS + [MP]
        C = _orthonormal(_gram(S, MS))
        Kr = C.T @ _gram(S, KS) @ C
        lam_all, Z = sla.eigh(0.5 * (Kr + Kr.T))
        Y = C @ Z[:, :k]                                  # Ritz coefficients in [X, W, P]
        lam = lam_all[:k]
        Yp = Y[:, active].copy()
        Yp[:k] = 0.0                                      # the new directions: the W and P parts, active columns
        del W, KW, MW, X, KX, MX, P, KP, MP
        KS.clear()
        MS.clear()
        X, P = _update(S, Y, Yp)                          # K X, M X anew: 2 products cost less than 2 updates
        KX, KP, MX, MP = stiffness(X), stiffness(P), mass(X), mass(P)
    raise SolverError(f"p-multigrid LOBPCG: eigenvalue error estimate {error[:count].max():.1e} > {rtol:.0e} after "
                      f"{maxiter} iterations; use eigensolver='shift-invert' (a factor) for this mesh")


class FactorFreeInterior:
    """The interior problem of a Tet10 body held at its interface nodes, without a fine-level factor.

    Fixed-interface modes by :func:`lobpcg_modes` from the coarse modes; solves K_ii x = b by
    :func:`block_pcg` started from the modes' part X Λ⁻¹ Xᵀ b of the solution (X all LOBPCG columns).

    Parameters
    ----------
    body : SolidBody (Tet10)
    free_nodes : (n_nodes,) bool ndarray, the interior nodes
    degree : int, Chebyshev degree of the smoother
    guards : int, extra LOBPCG columns (they speed up the last wanted modes)

    Raises
    ------
    SolverError
        Non-Tet10 mesh, or LOBPCG / PCG not converging.
    """

    def __init__(self, body, free_nodes, degree=4, guards=6):
        self.ops = InteriorOperators(body, free_nodes)
        self.coarse = CoarseSpace(body, free_nodes)
        self.precondition = TwoLevel(self.ops, self.coarse, degree)
        self.interior = np.flatnonzero(~self.ops.held)
        self.guards = guards
        self.ritz = None

    def modes(self, count, rtol=1e-9):
        """(λ (count,) [rad²/s²], modes (n_i, count) M-orthonormal) of the ``count`` lowest fixed-interface modes.

        Parameters
        ----------
        count : int
            Number of modes wanted (LOBPCG iterates on ``guards`` more, started from the coarse modes).
        rtol : float, optional
            Estimated relative eigenvalue error of the wanted modes at which LOBPCG stops.

        Returns
        -------
        values : (count,) ndarray
            λ = ω² [rad²/s²], ascending.
        modes : (n_i, count) ndarray
            On the interior rows, M-orthonormal.
        """
        k = min(count + self.guards, self.coarse.K.shape[0] - 2)
        self.ritz = lobpcg_modes(self.ops.stiffness, self.ops.mass, self.coarse.modes(k), count, self.precondition,
                                 rtol)
        return self.ritz.values[:count], self.ritz.vectors[self.interior, :count]

    def solve_full(self, B, rtol=1e-9):
        """K_ii⁻¹ B on full-length blocks (held rows zero) [m], deflated by the modes once they are known.

        Parameters
        ----------
        B : (ndof, m) ndarray
            Forces [N], held rows zero.
        rtol : float, optional
            Relative residual at which the block CG stops.

        Returns
        -------
        (ndof, m) ndarray
            Displacements [m].
        """
        if self.ritz is None:
            return block_pcg(self.ops.stiffness, B, self.precondition, None, rtol)[0]
        deflated = Deflated(self.precondition, self.ritz)
        return block_pcg(self.ops.stiffness, B, deflated, deflated.start(B), rtol)[0]

    def solve(self, B_i, rtol=1e-9):
        """K_ii⁻¹ B_i on the interior rows [m].

        Parameters
        ----------
        B_i : (n_i, m) ndarray
            Forces on the interior rows [N].
        rtol : float, optional
            Relative residual at which the block CG stops.

        Returns
        -------
        (n_i, m) ndarray
            Displacements [m].
        """
        return self.solve_full(self.ops.full(self.interior, B_i), rtol)[self.interior]

    def mass(self, X_i):
        """M_ii X_i on the interior rows [kg × the unit of X_i].

        Parameters
        ----------
        X_i : (n_i, m) ndarray
            Blocks on the interior rows.

        Returns
        -------
        (n_i, m) ndarray
        """
        return self.ops.mass(self.ops.full(self.interior, X_i))[self.interior]
