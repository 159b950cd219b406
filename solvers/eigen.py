"""Sparse generalized symmetric eigenproblems K x = λ M x, optionally with linear
constraints G x = 0: the lowest modes of structures of up to millions of coordinates.

Method. Shift-invert Lanczos (ARPACK through :func:`scipy.sparse.linalg.eigsh`, Ericsson &
Ruhe 1980, "The spectral transformation Lanczos method", Math. Comp. 35:1251–1268): the
eigenvalues θ = 1/(λ − σ) of (K − σM)⁻¹M largest in magnitude are the λ nearest σ. The
operator (K − σM)⁻¹ is one sparse factorization, reused for every Lanczos step: CHOLMOD
(scikit-sparse) when K − σM is positive definite, SuperLU otherwise.

Zero modes. A structure that is not fixed (free-free, or held by fewer constraints than
its rigid motions) has λ = 0 modes; K is then singular and σ = 0 cannot be factorized. The
default shift σ = −10⁻⁶ s (s = mean diag K / mean diag M, the scale of the highest
eigenvalues) makes K − σM positive definite; the modes with ‖λ‖ ≤ ``zero_tol`` s are
reported as zero (rigid) modes, separated from the elastic ones and M-orthonormal to them.

Threads. ARPACK's Lanczos steps are level-2 BLAS on n × ncv arrays; threaded BLAS makes them
several times slower on a loaded machine, so they run with one BLAS thread (threadpoolctl).

Constraints. G x = 0 (m × n, sparse) is eliminated through a sparse null-space basis T
(G T = 0, x = T y): coordinates named in ``keep`` and those no row touches stay
independent, a pivoted QR of the touched columns picks the dependent ones, so T is the
identity plus a dense block on the few constrained coordinates. Then Tᵀ K T y = λ Tᵀ M T y.
"""
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from threadpoolctl import threadpool_limits

from femdyn.errors import SolverError
from femdyn.linalg import pivoted_qr

DENSE_LIMIT = 400      # below this many coordinates a dense solve is faster and exact


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

    Examples
    --------
    >>> import numpy as np
    >>> r = Eigenmodes(np.array([0.0, 4.0]), np.eye(2), 1)
    >>> r.omega.tolist(), r.elastic[0].tolist()
    ([0.0, 2.0], [2.0])
    """
    eigenvalues: np.ndarray
    modes: np.ndarray
    n_zero: int

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


class Factorization:
    """A sparse factorization of a symmetric matrix A with ``solve(b)``: CHOLMOD LLᵀ when A is
    positive definite, SuperLU otherwise (``kind`` says which).

    Parameters
    ----------
    A : sparse symmetric matrix
    definite : try CHOLMOD first (True), or go straight to SuperLU (False)
    """

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
        """Solve A x = b with the factors.

        Parameters
        ----------
        b : (n,) or (n, k) ndarray
            Right-hand side(s).

        Returns
        -------
        ndarray
            x, shaped as ``b``.
        """
        return self._factor(b) if self.kind == "cholmod" else self._factor.solve(b)

    def operator(self):
        """The inverse as a :class:`scipy.sparse.linalg.LinearOperator`."""
        return spla.LinearOperator(self.shape, matvec=self.solve, dtype=float)


def constraint_basis(G, n=None, keep=()):
    """A sparse basis T (n × (n − r)) of the null space of G (m × n), G T = 0, and the
    indices of the independent coordinates (x = T y, y = x[independent]).

    Parameters
    ----------
    G : sparse or dense (m, n) constraint matrix of G x = 0
    n : number of coordinates (default G.shape[1])
    keep : coordinates that must stay independent (e.g. interface frame coordinates)

    Raises
    ------
    SolverError
        when the rows constrain the ``keep`` coordinates among themselves.

    Example
    -------
    >>> T, free = constraint_basis(sp.csr_matrix([[1.0, -1.0, 0.0]]))   # x0 = x1
    >>> T.toarray().round(12).tolist(), free.tolist()
    ([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], [1, 2])
    """
    G = sp.csr_matrix(G)
    n = G.shape[1] if n is None else n
    touched = np.unique(G.indices)
    keep = np.asarray(keep, np.int64)
    cand = np.setdiff1d(touched, keep)
    Q, _, piv, r = pivoted_qr(G[:, cand].toarray(), 1e-10)
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


def sparse_eigenmodes(K, M, count, sigma=None, constraints=None, zero_tol=1e-8, rigid=None, tol=0.0,
                      factorization=None, fixed=None):
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
        reuse, e.g. the one a static condensation already computed; not with ``constraints``
        or ``fixed``
    fixed : optional indices of coordinates held at zero (supports: e.g. the dofs of a
        clamped node set), removed before solving; the modes are returned with zeros there

    Returns
    -------
    Eigenmodes (eigenvalues ascending, M-orthonormal modes, n_zero)

    Raises
    ------
    SolverError
        singular K − σM, ARPACK failing to converge, or a zero-mode count different from
        ``rigid``.

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
    K, M = 0.5 * (K + K.T), 0.5 * (M + M.T)
    dm = M.diagonal()
    if np.any(dm <= 0):
        raise SolverError(f"sparse_eigenmodes: the mass matrix has {np.sum(dm <= 0)} zero or negative diagonal "
                          "entries; every coordinate needs mass")
    scale = max(K.diagonal().mean() / dm.mean(), np.finfo(float).tiny)
    sigma = -1e-6 * scale if sigma is None else float(sigma)
    if n <= DENSE_LIMIT and factorization is None:
        lam, X = sla.eigh(K.toarray(), M.toarray(), subset_by_index=(0, count - 1))
    else:
        factor = factorization or Factorization(K - sigma * M, definite=True)
        try:
            with threadpool_limits(limits=1, user_api="blas"):   # ARPACK's level-2 BLAS: threads only cost
                lam, X = spla.eigsh(K, k=count, M=M, sigma=sigma, which="LM", OPinv=factor.operator(), tol=tol)
        except spla.ArpackNoConvergence as err:
            raise SolverError(f"sparse_eigenmodes: ARPACK did not converge ({err}); raise count or move sigma "
                              "closer to the wanted eigenvalues") from None
        order = np.argsort(lam)
        lam, X = lam[order], X[:, order]
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
    return Eigenmodes(lam, np.ascontiguousarray(X), n_zero)
