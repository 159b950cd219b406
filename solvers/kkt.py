"""Sparse KKT iteration matrix with a fixed pattern and factorization reuse.

S = [[A, Φ_qᵀ], [Φ_q, 0]], A = w_M M + w_C C + w_K (K + H(λ)), assembled by
:class:`~femdyn.solvers.blocks.SaddlePattern`; the weights come from the integrator
(w_M = (1−α_m)/(1−α_f), w_C = γh, w_K = βh²; Bottasso, Bauchau & Cardona 2007), statics,
the initial conditions or the eigenmodes. S is quasi-definite for a positive definite A, so
CHOLMOD's LDLᵀ exists for any symmetric ordering (Vanderbei 1995, SIAM J. Optim. 5:100–113);
regularization −δI, Ruiz (2001) equilibration and iterative refinement, SuperLU as the
fallback. Tolerances and their measurements: docs/solvers.md ("The saddle (KKT) matrix").
"""
import math

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from femdyn.errors import SingularMatrixError
from femdyn.sparse import product

from .blocks import BlockLayout, SaddlePattern, TangentValues
from .diagnosis import singular_saddle

try:
    from sksparse.cholmod import CholmodError, analyze
except ImportError:  # pragma: no cover - scikit-sparse is a dependency; keep SuperLU usable without it
    analyze = None
    CholmodError = RuntimeError

MASSLESS, MULTIPLIER = 1e-8, 1e-10
SINGULAR, CONDITION = 1e-6, 1e10    # regularization of a rank-deficient Φ_q; largest |Ŝ⁻¹ probe| taken as regular
REFINEMENTS, ACCEPT, PLAIN = 6, 1e-8, 1e-4


class SymbolicAnalysis:
    """The saddle pattern of a System and its one AMD ordering and CHOLMOD symbolic factor, shared by KKT matrices."""

    def __init__(self, system):
        self.saddle = SaddlePattern(system)
        self.symbolic = None
        self.analyses = 0          # how often a pattern was analysed (one per run when shared)

    def factor(self, R):
        """A numeric factor holder for R: a copy of the symbolic factor of R's pattern, analysed only when new."""
        if self.symbolic is None or not _same_pattern(self.shape, R):
            self.symbolic = analyze(R, mode="simplicial", ordering_method="amd")
            self.shape = _pattern_key(R)
            self.analyses += 1
        return self.symbolic.copy()


class KKTMatrix:
    """The iteration matrix of a :class:`~femdyn.model.system.System` and its factors.

    KKT matrices built with one ``analysis`` (e.g. one per step size of a run) share the
    saddle pattern and its symbolic factorization; each keeps its own numeric factor.
    """

    def __init__(self, system, analysis=None):
        self.system = system
        self.analysis = analysis or SymbolicAnalysis(system)
        self.saddle = self.analysis.saddle
        self.pattern, self.diagonal_slots = self.saddle.pattern, self.saddle.diagonal_slots
        self.massless = system.M.diagonal() <= 0
        n, slots = system.n, self.diagonal_slots      # data slots of the diagonal the regularization touches
        self._diagonal = (slots[:n], slots[:n][self.massless], slots[n:])
        self.solve_factor = None
        self.symbolic = None
        self.factorizations = 0
        self.backend = None
        self.refine = False

    def saddle_matrix(self, values):
        """The saddle matrix for given values, on the fixed pattern."""
        self.symmetric = values.symmetric
        return self.saddle.matrix(values)

    def stabilized(self, values, Phi_q):
        """Iteration matrix of the stabilized index-2 formulation (unknowns Δq, βh²Δλ, Δν).
        A = B + w_K (K + H(λ)) (Arnold, Cardona & Brüls 2016)."""
        s = self.system
        inertia = self.saddle.coordinate_block(TangentValues(values.mass, values.jacobian, values.damping,
                                                             weights=values.weights))
        A = self.saddle.coordinate_block(values)
        B = Phi_q.tocsc()
        layout = BlockLayout(q=s.n, lam=s.m, nu=s.m)
        return layout.bmat({("q", "q"): A, ("q", "lam"): B.T, ("q", "nu"): -(inertia @ B.T),
                            ("lam", "q"): B, ("nu", "q"): B, ("nu", "nu"): -(B @ B.T)})

    # --- factorization -------------------------------------------------------------
    def factorize(self, matrix, q, t, symmetric=None):
        """Factorize a saddle matrix for later :meth:`solve` calls.
        Symmetric equilibration Ŝ = D S D, D = diag(1/√max‖row‖) (Ruiz 2001, RAL-TR-2001-034)."""
        self.matrix = matrix
        self.factorizations += 1
        symmetric = getattr(self, "symmetric", True) if symmetric is None else symmetric
        fresh = self._equilibrate(matrix, symmetric, force=False)
        if symmetric and analyze is not None:
            if self._ldl(self.scaled) or (not fresh and self._equilibrate(matrix, symmetric, force=True)
                                          and self._ldl(self.scaled)):
                return
        try:
            self._lu(self.scaled, q, t)
            if not symmetric or analyze is None or np.abs(self.solve_factor(self._probe)).max() <= CONDITION \
                    or not self._rank_deficient(q, t):
                return
        except SingularMatrixError:
            if not symmetric or analyze is None or not self._rank_deficient(q, t):
                raise

    def _rank_deficient(self, q, t, dense_limit=4000):
        """Whether Φ_q is rank deficient (a singular position); if so S is factored with its multipliers regularized."""
        s = self.system
        if s.n + s.m <= dense_limit and not s.redundant_constraints(q, t, 1):
            return False
        lu = self.solve_factor, self.backend
        self._ldl(self.scaled, SINGULAR)
        if self.backend != "cholmod-ldl" or not np.isfinite(self.solve_factor(self._probe)).all():
            self.solve_factor, self.backend = lu
            return False
        self.backend, self.refine = "cholmod-ldl-regularized", True
        return True

    def _equilibrate(self, S, symmetric, force):
        """Set D and Ŝ = D S D in place (D recomputed when forced or for a new pattern); whether D changed."""
        new = force or getattr(self, "_scaled_of", None) is not S.indptr
        if new:
            self.d = _equilibration(S, symmetric)
            columns = np.repeat(np.arange(S.shape[1]), np.diff(S.indptr))
            self._entry_scale = self.d[S.indices] * self.d[columns]
            self._scaled_of = S.indptr
            self.scaled = sp.csc_matrix((S.data * self._entry_scale, S.indices, S.indptr), shape=S.shape)
            self._regularized = sp.csc_matrix((self.scaled.data.copy(), S.indices, S.indptr), shape=S.shape)
            self._scratch = np.empty(S.shape[0])
            self._probe = np.cos(np.arange(S.shape[0]))          # a fixed, generic right-hand side
        else:
            np.multiply(S.data, self._entry_scale, out=self.scaled.data)
        return new

    def _ldl(self, S, multiplier=None):
        """LDLᵀ of the equilibrated S regularized on its diagonal (S on ``self.pattern``)."""
        n = self.system.n
        coordinates, massless, multipliers = self._diagonal
        scale = max(np.abs(S.data[coordinates]).max(initial=0.0), 1e-300)
        R = self._regularized
        np.copyto(R.data, S.data)
        R.data[massless] += MASSLESS * scale
        R.data[multipliers] -= (MULTIPLIER if multiplier is None else multiplier) * scale
        try:
            if self.symbolic is None or not _same_pattern(self.symbolic_shape, R):
                self.symbolic = self.analysis.factor(R)
                self.symbolic_shape = _pattern_key(R)
            self.symbolic.cholesky_inplace(R)
        except CholmodError:
            self.backend = None
            return False
        self.solve_factor, self.backend = self.symbolic, "cholmod-ldl"
        probe = self._probe
        plain = self.solve_factor(probe)
        correction = self.solve_factor(probe - product(S, plain))
        refined = plain + correction
        self.refine = not (_small(correction[:n], refined[:n], PLAIN) and _small(correction[n:], refined[n:], PLAIN))
        return not self.refine or self._refined(probe, refined, ACCEPT)[1] <= ACCEPT   # (NaN fails)

    def _lu(self, S, q, t):
        try:
            lu = spla.splu(S.tocsc(), permc_spec="COLAMD")
        except RuntimeError as err:
            self.solve_factor = None
            raise SingularMatrixError(self.diagnose(q, t, str(err))) from None
        self.solve_factor, self.backend = lu.solve, "superlu"

    def solve(self, rhs, check=True, accuracy=0.0):
        """Solve S x = rhs with the factors of the last :meth:`factorize`."""
        x = self.d * self._solve_scaled(self.d * rhs, accuracy)
        if check and not math.isfinite(x.sum()) and not np.all(np.isfinite(x)):    # (a finite sum: all finite)
            raise SingularMatrixError("the KKT solve returned non-finite values: the iteration matrix is "
                                      "numerically singular")
        return x

    def _solve_scaled(self, rhs, accuracy=0.0):
        """Solve Ŝ y = rhs, refined against the exact Ŝ where the factors or the caller need it (see :meth:`solve`)."""
        y = self.solve_factor(rhs)
        if self.backend == "cholmod-ldl" and (self.refine or not accuracy):
            y = self._refined(rhs, y, accuracy)[0]
        return y

    def _refined(self, rhs, y, accuracy):
        """Refine y against the exact Ŝ to ``accuracy`` (≥ 1e-14) or until it stalls: (y, max|rhs − Ŝy|)."""
        residual = rhs - product(self.scaled, y, self._scratch)
        size = np.abs(residual).max(initial=0.0)
        target = max(accuracy, 1e-14) * np.abs(rhs).max(initial=0.0)
        for _ in range(REFINEMENTS):
            if size <= target:
                break
            step = y + self.solve_factor(residual)
            new_residual = rhs - product(self.scaled, step, self._scratch)
            new_size = np.abs(new_residual).max()
            if not new_size < size:
                break
            y, residual, size = step, new_residual, new_size
        return y, size

    def diagnose(self, q, t, reason):
        """Message for a singular KKT matrix, naming its cause in the model's words."""
        return f"singular KKT matrix ({reason}) at t = {t:.6g} s: {singular_saddle(self.system, self.matrix, q, t)}"


def _pattern_key(R):
    """What identifies R's pattern: its index arrays and their bytes."""
    return R.indptr, R.indices, R.indptr.tobytes(), R.indices.tobytes()


def _same_pattern(key, R):
    """Whether R has the pattern ``key`` was taken of (the same arrays, or equal ones)."""
    indptr, indices, indptr_bytes, indices_bytes = key
    if indptr is R.indptr and indices is R.indices:
        return True
    return indptr_bytes == R.indptr.tobytes() and indices_bytes == R.indices.tobytes()


def _equilibration(S, symmetric):
    """D = 1/√(largest ‖entry‖ of each row and column) of a CSC matrix (1 for empty ones)."""
    absolute = np.abs(S.data)
    counts = np.diff(S.indptr)
    largest = np.zeros(S.shape[1])
    filled = counts > 0
    largest[filled] = np.maximum.reduceat(absolute, S.indptr[:-1][filled])
    if not symmetric:
        rows = np.zeros(S.shape[0])
        np.maximum.at(rows, S.indices, absolute)
        largest = np.maximum(largest, rows)
    return 1.0 / np.sqrt(np.where(largest > 0, largest, 1.0))


def _small(dx, y, tol):
    """max|dx| ≤ tol·max|y| (true for empty blocks)."""
    return max(dx.max(initial=0.0), -dx.min(initial=0.0)) <= tol * max(y.max(initial=0.0), -y.min(initial=0.0))

