"""Free vibration and generalized eigenproblems K x = ω² M x, G x = 0: one stack for both constraint treatments.

:func:`eigenmodes` solves K_t x = ω² M x, Φ_q x = 0 for a System about (q, λ)
(K_t = −∂Q/∂q + ∂(Φ_qᵀλ)/∂q) in saddle form, one KKT solve per shift-invert step;
:func:`sparse_eigenmodes` solves matrices K, M with optional G x = 0 on a null-space basis
(:func:`constraint_basis`). Both use shift-invert Lanczos (ARPACK ``eigsh`` mode 3; Ericsson &
Ruhe 1980, Math. Comp. 35:1251–1268; Grimes, Lewis & Simon 1994); rigid-body modes
(|ω²| ≤ ``zero_tol``·s) are reported as zero, M-orthonormal. ω in rad/s.
Details: docs/solvers.md ("Eigenmodes").
"""
import logging
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from threadpoolctl import threadpool_limits

from femdyn.errors import SingularMatrixError, SolverError
from femdyn.linalg import pivoted_qr
from femdyn.sparse import Pattern

from .blocks import TangentValues
from .kkt import KKTMatrix

DENSE_LIMIT = 400      # below this many coordinates a dense solve is faster and exact
EIGENSOLVERS = ("dense", "shift-invert", "p-multigrid")
MULTIGRID_LIMIT = 100_000   # from here a Tet10 rigid reduction skips the fine factor: faster (137k: 8.8 s against 11.7 s), half the memory
_log = logging.getLogger("femdyn.solvers.eigen")


@dataclass
class Eigenmodes:
    """Result of :func:`sparse_eigenmodes`.

    Parameters
    ----------
    eigenvalues : (k,) ndarray
        λ = ω² [rad²/s²], ascending.
    modes : (n, k) ndarray
        M-orthonormal mode shapes (xᵀ M x = 1) in the original coordinates.
    n_zero : int
        Number of leading zero (rigid-body) modes.
    method : str
        The eigensolver used, one of ``EIGENSOLVERS``.
    """
    eigenvalues: np.ndarray
    modes: np.ndarray
    n_zero: int
    method: str = "shift-invert"

    @property
    def omega(self):
        """Circular frequencies ω [rad/s] (0 for zero modes)."""
        w = np.sqrt(np.clip(self.eigenvalues, 0.0, None))
        w[:self.n_zero] = 0.0
        return w

    @property
    def frequencies(self):
        """Frequencies f = ω/2π [Hz]."""
        return self.omega / (2 * np.pi)

    @property
    def elastic(self):
        """(ω [rad/s], modes) of the non-zero modes only."""
        return self.omega[self.n_zero:], self.modes[:, self.n_zero:]


class _Inverse:
    """A factorized operator with ``solve(b)``; :meth:`operator` makes it a LinearOperator for ARPACK."""

    def operator(self):
        """The inverse as a :class:`scipy.sparse.linalg.LinearOperator`."""
        return spla.LinearOperator(self.shape, matvec=self.solve, dtype=float)


class Factorization(_Inverse):
    """Sparse factorization of a symmetric A with ``solve(b)``: CHOLMOD LLᵀ if positive definite, else SuperLU."""

    def __init__(self, A, definite=True):
        A = sp.csc_matrix(A)
        self.shape = A.shape
        self.kind = None
        if definite:
            try:
                from sksparse.cholmod import CholmodNotPositiveDefiniteError, cholesky
                try:
                    self._factor = cholesky(A)
                    self.kind = "cholmod"
                except CholmodNotPositiveDefiniteError:
                    pass
            except ImportError:       # scikit-sparse missing: SuperLU still works
                pass
        if self.kind is None:
            try:
                self._factor = spla.splu(A)
            except RuntimeError as err:
                raise SolverError(f"the matrix ({A.shape[0]} × {A.shape[1]}) is singular ({err}); a structure "
                                  "without supports has rigid modes: use a negative shift or add constraints") from None
            self.kind = "superlu"

    def solve(self, b):
        """Solve A x = b with the factors."""
        return self._factor(b) if self.kind == "cholmod" else self._factor.solve(b)


class SaddleInverse(_Inverse):
    """A⁻¹ on Φ_q x = 0 from the factorized saddle [[A, Φ_qᵀ], [Φ_q, 0]] of a KKTMatrix (A = K − σM, or M)."""

    def __init__(self, kkt):
        self.kkt, self.n, self.m = kkt, kkt.system.n, kkt.system.m
        self.shape = (self.n, self.n)

    def solve(self, y):
        """x with A x + Φ_qᵀμ = y, Φ_q x = 0."""
        return self.kkt.solve(np.concatenate([y, np.zeros(self.m)]))[:self.n]

    @classmethod
    def factorized(cls, kkt, values, q, t):
        """Factorize the saddle matrix of ``values`` for accurate solves; None when it is (numerically) singular."""
        try:
            kkt.factorize(kkt.saddle_matrix(values), q, t)
        except SingularMatrixError:
            return None
        kkt.refine = True            # Lanczos needs accurate solves, not the 1e-4 a Newton correction tolerates
        S = kkt.matrix
        probe = np.cos(np.arange(S.shape[0]))
        x = kkt.solve(probe, check=False)
        scale = abs(S).sum(axis=1).max() * np.abs(x).max() + 1.0          # ‖S‖∞‖x‖∞ + ‖b‖∞
        accurate = np.all(np.isfinite(x)) and np.abs(S @ x - probe).max() <= 1e-8 * scale
        return cls(kkt) if accurate else None


def _lanczos(K, M, count, sigma, inverse, tol=0.0, v0=None):
    """The ``count`` eigenpairs (ω² ascending, X) of K x = ω² M x nearest σ, shift-invert with ``inverse`` of K − σM."""
    try:
        with threadpool_limits(limits=1, user_api="blas"):   # ARPACK's level-2 BLAS: threads only cost
            w2, X = spla.eigsh(K, k=count, M=M, sigma=sigma, which="LM", OPinv=inverse.operator(), tol=tol, v0=v0)
    except spla.ArpackNoConvergence as err:
        raise SolverError(f"eigenmodes: ARPACK did not converge ({err}); raise count or move the shift "
                          "closer to the wanted eigenvalues") from None
    order = np.argsort(w2)
    return w2[order], X[:, order]


def dense_modes(K, M, N=None, count=None, vectors=True):
    """Dense eigh of Nᵀ K N y = ω² Nᵀ M N y (symmetrized; N = I by default): (ω² ascending, N y), the lowest ``count``."""
    K, M = (np.asarray(x.toarray() if sp.issparse(x) else x) for x in (K, M))
    if N is not None:
        K, M = N.T @ K @ N, N.T @ M @ N
    subset = None if count is None else (0, count - 1)
    if not vectors:
        return sla.eigh(0.5 * (K + K.T), 0.5 * (M + M.T), eigvals_only=True, subset_by_index=subset)
    w2, Z = sla.eigh(0.5 * (K + K.T), 0.5 * (M + M.T), subset_by_index=subset)
    return w2, (Z if N is None else N @ Z)


def null_space_basis(system, q, t):
    """Orthonormal basis N (SVD) of the null space of Φ_q at (q, t); the identity without constraints."""
    return sla.null_space(system.constraints.jacobian(q, t).toarray()) if system.m else np.eye(system.n)


def constraint_basis(G, n=None, keep=()):
    """Sparse null-space basis T of G (G T = 0) and the independent coordinates (x = T y, y = x[independent])."""
    G = sp.csr_matrix(G)
    n = G.shape[1] if n is None else n
    touched = np.unique(G.indices)
    keep = np.asarray(keep, np.int64)
    cand = np.setdiff1d(touched, keep)
    Gc = G[:, cand].tocsr()
    Gc.eliminate_zeros()
    if Gc.shape[0] == len(cand) and np.all(np.diff(Gc.indptr) == 1) and len(np.unique(Gc.indices)) == len(cand):
        return _explicit_basis(G, n, cand[Gc.indices], Gc.data, touched)
    Q, _, piv, r = pivoted_qr(Gc.toarray(), 1e-10)
    if r == 0:
        return sp.identity(n, format="csr"), np.arange(n)
    Gt = G[:, touched].toarray()
    Gr = Q[:, :r].T @ Gt                                 # r independent rows on the touched columns
    if r < Q.shape[1] and np.abs(Q[:, r:].T @ Gt).max() > 1e-10 * np.abs(Gt).max():
        raise SolverError("constraints: some rows fix the kept coordinates among themselves; the interface "
                          "frames must stay free")
    dependent = cand[piv[:r]]
    independent = np.setdiff1d(np.arange(n), dependent)
    pos = np.searchsorted(touched, dependent)
    rest = np.setdiff1d(np.arange(len(touched)), pos)
    block = -np.linalg.solve(Gr[:, pos], Gr[:, rest])   # x_D = block @ x_rest (touched, independent)
    col_of = np.full(n, -1, np.int64)
    col_of[independent] = np.arange(len(independent))
    rows = [independent, np.repeat(dependent, len(rest))]
    cols = [np.arange(len(independent)), np.tile(col_of[touched[rest]], r)]
    vals = [np.ones(len(independent)), block.ravel()]
    T = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                      shape=(n, len(independent)))
    T.eliminate_zeros()
    return T, independent


def _explicit_basis(G, n, dependent, diagonal, touched):
    """:func:`constraint_basis` when each row of G names its own dependent coordinate (a rigid coupling,
    u_s − R_s ξ = 0): x_D = −G_rest x_rest / diagonal, without a dense factorization."""
    independent = np.setdiff1d(np.arange(n), dependent)
    rest = np.setdiff1d(touched, dependent)
    C = (sp.diags(-1.0 / diagonal) @ G[:, rest]).tocoo()
    col_of = np.full(n, -1, np.int64)
    col_of[independent] = np.arange(len(independent))
    rows = np.concatenate([independent, dependent[C.row]])
    cols = np.concatenate([np.arange(len(independent)), col_of[rest[C.col]]])
    T = sp.csr_matrix((np.concatenate([np.ones(len(independent)), C.data]), (rows, cols)),
                      shape=(n, len(independent)))
    T.eliminate_zeros()
    return T, independent


def tangent_stiffness(system, q, lam, t=0.0):
    """Sparse tangent stiffness K_t = K + H(λ) at (q, λ), with K = −∂Q/∂q and H(λ) = ∂(Φ_qᵀλ)/∂q."""
    k_vals, _ = system.tangent_values(q, np.zeros(system.n), t)
    c, k = system.constraints, system.patterns.stiffness
    rows = np.concatenate([k.rows, c.hess_rows])
    cols = np.concatenate([k.cols, c.hess_cols])
    vals = np.concatenate([k_vals, c.hessian_values(q, lam)])
    return Pattern(rows, cols, (system.n, system.n)).matrix(vals)


def eigenmodes(system, q=None, lam=None, count=10, t=0.0, method="sparse", shift=None):
    """The ``count`` lowest eigenfrequencies and mode shapes about (q, λ).

    Parameters
    ----------
    system : System
    q, lam : ndarray, optional
        Configuration (m) and multipliers; default the initial configuration, unloaded.
    count : int
        Number of modes.
    t : float
        Time (s) of the constraints.
    method : {"sparse", "dense"}
        Shift-invert Lanczos on the saddle form (any size), or the dense null-space method (small models; a check).
    shift : float, optional
        σ in (rad/s)²; default 0, or slightly below zero for a structure with rigid-body modes.

    Returns
    -------
    omega : ndarray (count,)
        Circular frequencies (rad/s), ascending; negative ω² returned as 0.
    modes : ndarray (n, count)
        Mode shapes, M-orthonormal.

    Raises
    ------
    SolverError
        If the constraints leave no degree of freedom, or ``method`` is unknown.

    Examples
    --------
    First bending frequency of a clamped steel rod, 1 m long, 10 mm radius (Euler–Bernoulli
    ω₁ = 1.8751² √(EI/(ρA L⁴)) = 91.21 rad/s; twice, one per bending plane):

    >>> import numpy as np, femdyn
    >>> from femdyn.elements import sections
    >>> m = femdyn.Model("cantilever", gravity=(0, 0, 0))
    >>> beam = m.straight_beam("beam", (0, 0, 0), (1.0, 0, 0), 4, E=2.1e11, rho=7800,
    ...                        section=sections.circular(0.01), element="cable")
    >>> clamp = m.clamp("root", "beam.0")
    >>> omega, modes = eigenmodes(m.assemble(), count=2)
    >>> omega.round(1), modes.shape
    (array([91.2, 91.2]), (30, 2))
    """
    q = system.q0 if q is None else q
    lam = np.zeros(system.m) if lam is None else lam
    if system.servo:
        raise SolverError(f"eigenmodes: model '{system.name}' has servo constraints and actuators (an inverse "
                          "problem); linearize the forward model (joint torques as loads) instead")
    if method == "dense":
        return _dense(system, q, lam, count, t)
    if method != "sparse":
        raise SolverError(f"eigenmodes: method must be 'sparse' or 'dense', got {method!r}")
    return _sparse(system, q, lam, count, t, shift)


def _sparse(system, q, lam, count, t, shift):
    """The saddle treatment: shift-invert Lanczos with the factorized saddle matrix of K_t − σM."""
    n, m = system.n, system.m
    free = n - m
    if free <= 0:
        raise SolverError("eigenmodes: the constraints leave no degree of freedom")
    if count >= free - 1:        # ARPACK needs count < dimension − 1: small problems go dense
        return _dense(system, q, lam, count, t)
    _, jac = system.constraints.evaluate(q, t)
    k_vals, _ = system.tangent_values(q, np.zeros(n), t)
    h_vals = system.constraints.hessian_values(q, lam)
    M = system.mass(q).tocsr()
    kkt = KKTMatrix(system)
    for sigma in _shifts(shift, k_vals, h_vals, M):
        inverse = SaddleInverse.factorized(kkt, TangentValues(system.mass_values(q), jac, stiffness=k_vals,
                                                              hessian=h_vals, weights=(-sigma, 0.0, 1.0)), q, t)
        if inverse is not None:
            break
    else:
        raise SolverError("eigenmodes: the shifted stiffness K − σM is singular on the constraint space for "
                          "every shift tried; give a shift (rad²/s²) away from the eigenvalues")
    K = tangent_stiffness(system, q, lam, t)
    w2, X = _lanczos(K, M, count, sigma, inverse, v0=inverse.solve(M @ np.cos(np.arange(n))))
    X /= np.sqrt(np.einsum("ij,ij->j", X, M @ X))
    return np.sqrt(np.clip(w2, 0.0, None)), X


def _shifts(shift, k_vals, h_vals, M):
    """Shifts to try: the user's; else 0, then −10⁻¹⁰ and −10⁻⁶ of the stiffness-to-mass scale."""
    if shift is not None:
        return [float(shift)]
    scale = max(np.abs(k_vals).max(initial=0.0), np.abs(h_vals).max(initial=0.0), 1e-300) / \
        max(np.abs(M.data).max(initial=0.0), 1e-300)
    return [0.0, -1e-10 * scale, -1e-6 * scale]


def _dense(system, q, lam, count, t):
    """The dense null-space treatment (a check for small models)."""
    N = null_space_basis(system, q, t)
    if N.shape[1] == 0:
        raise SolverError("eigenmodes: the constraints leave no degree of freedom")
    w2, X = dense_modes(tangent_stiffness(system, q, lam, t), system.mass(q), N, min(count, N.shape[1]))
    return np.sqrt(np.clip(w2, 0.0, None)), X


def choose_eigensolver(n, method=None, factorization=None, multigrid=False):
    """The eigensolver for n coordinates: 'dense' up to DENSE_LIMIT without a factorization to reuse,
    'p-multigrid' from MULTIGRID_LIMIT when a coarse space exists (``multigrid``: Tet10 solids), else
    'shift-invert'; a given ``method`` overrides (SolverError if unknown); an automatic choice is logged."""
    if method is None:
        method = ("dense" if n <= DENSE_LIMIT and factorization is None else
                  "p-multigrid" if multigrid and n >= MULTIGRID_LIMIT else "shift-invert")
        _log.info("eigenmodes of %d coordinates: %s", n, method)
    if method not in EIGENSOLVERS or (method == "p-multigrid" and not multigrid):
        raise SolverError(f"eigensolver {method!r} unknown here; use one of {EIGENSOLVERS} (or None: by size); "
                          "'p-multigrid' only in a Craig–Bampton reduction of a Tet10 solid with rigid interfaces")
    return method


def sparse_eigenmodes(K, M, count, sigma=None, constraints=None, zero_tol=1e-8, rigid=None, tol=0.0,
                      factorization=None, fixed=None, method=None):
    """The ``count`` lowest eigenpairs of K x = λ M x (subject to G x = 0).

    Parameters
    ----------
    K, M : sparse symmetric (n, n) stiffness [N/m] and mass [kg] (any consistent units);
        M positive definite (on the constraint null space), K positive semi-definite
    count : number of modes (zero modes included)
    sigma : shift [rad²/s²]; default −10⁻⁶ s (see the module notes), which works for
        fixed and free structures alike
    constraints : optional sparse G (m, n) of linear constraints G x = 0
    zero_tol : ‖λ‖ ≤ zero_tol · s counts as a zero (rigid-body) mode
    rigid : expected number of zero modes (e.g. 6 free-free), checked when given
    tol : ARPACK's relative accuracy (0: machine precision)
    factorization : optional :class:`Factorization` of K − σM (with the given ``sigma``) to
        reuse, e.g. the one a static condensation already computed; not with ``constraints`` or ``fixed``
    fixed : optional indices of coordinates held at zero (supports: e.g. the dofs of a
        clamped node set), removed before solving; the modes are returned with zeros there
    method : eigensolver, one of ``EIGENSOLVERS``: 'dense' (eigh, exact, small problems) or
        'shift-invert' (Lanczos with a sparse Cholesky factor); default by size
        (:func:`choose_eigensolver`), the choice logged on ``femdyn.solvers.eigen`` and returned

    Returns
    -------
    Eigenmodes (eigenvalues ascending, M-orthonormal modes, n_zero)

    Raises
    ------
    SolverError
        singular K − σM, ARPACK failing to converge, or a zero-mode count different from ``rigid``.

    Example
    -------
    >>> K = sp.diags([2.0, 0.0, 8.0]); M = sp.identity(3)
    >>> r = sparse_eigenmodes(K, M, 2); r.n_zero, r.omega.round(6).tolist()
    (1, [0.0, 1.414214])
    """
    K, M = sp.csr_matrix(K), sp.csr_matrix(M)
    n_all, T, keep = K.shape[0], None, None
    if fixed is not None:
        keep = np.setdiff1d(np.arange(n_all), np.asarray(fixed, np.int64))
        K, M = K[keep][:, keep], M[keep][:, keep]
        if constraints is not None:
            constraints = sp.csr_matrix(constraints)[:, keep]
    if constraints is not None:
        T, _ = constraint_basis(constraints, K.shape[0])
        K, M = (T.T @ K @ T).tocsr(), (T.T @ M @ T).tocsr()
    n = K.shape[0]
    count = int(count)
    if not 1 <= count <= n:
        raise SolverError(f"sparse_eigenmodes: count = {count} must lie in 1..{n} (the free coordinates)")
    method = choose_eigensolver(n, method, factorization)
    K, M = 0.5 * (K + K.T), 0.5 * (M + M.T)
    dm = M.diagonal()
    if np.any(dm <= 0):
        raise SolverError(f"sparse_eigenmodes: the mass matrix has {np.sum(dm <= 0)} zero or negative diagonal "
                          "entries; every coordinate needs mass")
    scale = max(K.diagonal().mean() / dm.mean(), np.finfo(float).tiny)
    sigma = -1e-6 * scale if sigma is None else float(sigma)
    if method == "dense":
        lam, X = dense_modes(K, M, count=count)
    else:
        inverse = factorization or Factorization(K - sigma * M, definite=True)
        start = inverse.solve(M @ np.cos(np.arange(n)))     # a fixed start: the same modes, signs included, every run
        lam, X = _lanczos(K, M, count, sigma, inverse, tol, v0=start)
    n_zero = int(np.sum(np.abs(lam) <= zero_tol * scale))
    if rigid is not None and n_zero != rigid:
        raise SolverError(f"sparse_eigenmodes: found {n_zero} zero modes, expected {rigid}: the supports or "
                          "constraints do not hold the structure as intended (or zero_tol is off)")
    if n_zero > 1:     # any basis of the zero space is valid: make it M-orthonormal explicitly
        Z = X[:, :n_zero]
        L = np.linalg.cholesky(Z.T @ (M @ Z))
        X[:, :n_zero] = np.linalg.solve(L, Z.T).T
        lam[:n_zero] = 0.0
    if T is not None:
        X = T @ X
    if keep is not None:
        full = np.zeros((n_all, X.shape[1]))
        full[keep] = X
        X = full
    return Eigenmodes(lam, np.ascontiguousarray(X), n_zero, method)
