"""Sparse KKT iteration matrix with a fixed pattern and factorization reuse.

S = [[A, Φ_qᵀ], [Φ_q, 0]] with A = w_M M + w_C C + w_K (K + H(λ)), assembled by
:class:`~femdyn.solvers.blocks.SaddlePattern`; the weights come from the integrator
(generalized-α: w_M = (1−α_m)/(1−α_f), w_C = γh, w_K = βh²: the constraint rows scaled by
1/(βh²), Bottasso, Bauchau & Cardona 2007), from statics (w_M = w_C = 0, w_K = 1), from the
initial conditions (w_M = 1) or from the eigenmodes (w_M = −σ, w_K = 1).

Factorization. S is symmetric; with a positive definite A it is quasi-definite, and an
LDLᵀ factorization exists for any symmetric ordering (Vanderbei 1995, SIAM J. Optim.
5:100–113). CHOLMOD (scikit-sparse) computes it with an AMD ordering analysed once for the
fixed pattern; A is made definite by a tiny diagonal on massless coordinates and the zero
block by −δI (relative 1e-8 and 1e-10). δ trades the perturbation of the solution (∝ δ)
against the growth of the LDLᵀ's pivots without pivoting (∝ 1/δ): for the rigid chain of
benchmarks/bench_chain.py, whose joint-axis vectors are massless, a solve's relative
residual is 2e-4 at δ = 1e-12, 2e-6 at 1e-10, 2e-7 at 1e-9. Every user of these factors
is a Newton iteration, where an error ε in the correction only adds about ε to the
contraction factor (the integrator refactorizes above 0.1). So when one step of
iterative refinement changes a probe solution by less than 1e-4 relative, in the
coordinates and in the multipliers alike, the factors are accepted and a Newton
correction uses them as they are; otherwise a Newton correction is refined against the
exact S until its residual is below 1e-8 of its right-hand side (at most 6 steps), and
the factorization is accepted when the refined probe solve is accurate to 1e-8. Solves
that ask for full accuracy (statics, initial conditions, eigenmodes: ``accuracy=0``) are
always refined, until the residual stops falling. When the refined solution is not
accurate (an indefinite A, e.g. a statically unstable structure) or the matrix is not
symmetric, SuperLU with partial pivoting is used instead. Factors are kept and reused
until the caller asks for new ones.
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
REFINEMENTS, ACCEPT, PLAIN = 6, 1e-8, 1e-4


class KKTMatrix:
    """The iteration matrix of a :class:`~femdyn.model.system.System` and its factors."""

    def __init__(self, system):
        self.system = system
        self.saddle = SaddlePattern(system)
        self.pattern, self.diagonal_slots = self.saddle.pattern, self.saddle.diagonal_slots
        self.massless = system.M.diagonal() <= 0
        n, slots = system.n, self.diagonal_slots      # data slots of the diagonal the regularization touches
        self._diagonal = (slots[:n], slots[:n][self.massless], slots[n:])
        self.solve_factor = None
        self.symbolic = None
        self.factorizations = 0
        self.backend = None
        self.refine = False

    @property
    def lu(self):
        return self.solve_factor

    def assemble(self, values):
        """The saddle matrix for given values, on the fixed pattern.

        [[A, Φ_qᵀ], [Φ_q, 0]], or [[A, Gᵀ], [Φ_q, 0]] with actuator inputs (servo constraints);
        records whether it is symmetric for :meth:`factorize`.
        """
        self.symmetric = values.symmetric
        return self.saddle.assemble(values)

    def stabilized(self, values, Phi_q):
        """Iteration matrix of the stabilized index-2 formulation (unknowns Δq, βh²Δλ, Δν).

        [[A, Φ_qᵀ, −B Φ_qᵀ], [Φ_q, 0, 0], [Φ_q, 0, −Φ_q Φ_qᵀ]] with B = w_M M + w_C C and
        A = B + w_K (K + H(λ)) (Arnold, Cardona & Brüls 2016); the curvature terms of Φ_qᵀν
        and Φ_q q̇ are left out (they only slow the Newton contraction, the residuals stay
        exact). Not symmetric.
        """
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

        S is first equilibrated symmetrically, Ŝ = D S D with D = diag(1/√max‖row‖) (one Ruiz
        step: Ruiz 2001, RAL-TR-2001-034): the positions, the position gradients of ANCF nodes
        (whose entries scale with powers of the element length) and the multipliers then have
        entries of order one, so the regularization, the accuracy tests and the pivoting act on
        comparable numbers however fine the mesh. D depends on the orders of magnitude only,
        which a run does not change: it is computed at the first factorization on a pattern and
        again only when the LDLᵀ of Ŝ is rejected. CHOLMOD LDLᵀ is tried first for symmetric
        matrices, SuperLU otherwise (see the module docstring).

        Examples
        --------
        >>> import numpy as np, femdyn
        >>> from femdyn.solvers.blocks import TangentValues
        >>> m = femdyn.Model("pendulum", gravity=(0, 0, -9.81))
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> m.revolute("pivot", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
        Revolute('pivot', ground → rod)
        >>> system = m.assemble()
        >>> q = system.q0
        >>> _, jac = system.constraints.evaluate(q, 0.0)
        >>> kkt = KKTMatrix(system)
        >>> S = kkt.assemble(TangentValues(system.mass_values(q), jac))
        >>> kkt.factorize(S, q, 0.0)
        >>> b = np.cos(np.arange(S.shape[0]))
        >>> bool(np.abs(S @ kkt.solve(b) - b).max() < 1e-10)
        True
        """
        self.matrix = matrix
        self.factorizations += 1
        symmetric = getattr(self, "symmetric", True) if symmetric is None else symmetric
        fresh = self._equilibrate(matrix, symmetric, force=False)
        if symmetric and analyze is not None:
            if self._ldl(self.scaled) or (not fresh and self._equilibrate(matrix, symmetric, force=True)
                                          and self._ldl(self.scaled)):
                return
        self._lu(self.scaled, q, t)

    def _equilibrate(self, S, symmetric, force):
        """Set D (``self.d``) and Ŝ = D S D (``self.scaled``); D is recomputed when ``force``d or
        for a new pattern. Returns whether D was recomputed. Ŝ and the regularized copy the
        LDLᵀ factorizes keep their arrays for the pattern: the values are written in place."""
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

    def _ldl(self, S):
        """LDLᵀ of the equilibrated S regularized on its diagonal (S on ``self.pattern``)."""
        n = self.system.n
        coordinates, massless, multipliers = self._diagonal
        scale = max(np.abs(S.data[coordinates]).max(initial=0.0), 1e-300)
        R = self._regularized
        np.copyto(R.data, S.data)
        R.data[massless] += MASSLESS * scale
        R.data[multipliers] -= MULTIPLIER * scale
        try:
            if self.symbolic is None or not self._same_pattern(R):
                self.symbolic = analyze(R, mode="simplicial", ordering_method="amd")
                self.symbolic_shape = (R.indptr, R.indices, R.indptr.tobytes(), R.indices.tobytes())
            self.symbolic.cholesky_inplace(R)
        except CholmodError:
            return False
        self.solve_factor, self.backend = self.symbolic, "cholmod-ldl"
        probe = self._probe
        plain = self.solve_factor(probe)
        correction = self.solve_factor(probe - product(S, plain))
        refined = plain + correction
        self.refine = not (_small(correction[:n], refined[:n], PLAIN) and _small(correction[n:], refined[n:], PLAIN))
        return not self.refine or self._refined(probe, refined, ACCEPT)[1] <= ACCEPT   # (NaN fails)

    def _same_pattern(self, R):
        """Whether R has the pattern of the last symbolic analysis (the same arrays, or equal ones)."""
        indptr, indices, indptr_bytes, indices_bytes = self.symbolic_shape
        if indptr is R.indptr and indices is R.indices:
            return True
        return indptr_bytes == R.indptr.tobytes() and indices_bytes == R.indices.tobytes()

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
        """Solve Ŝ y = rhs, refined against the exact Ŝ where the factors or the caller need it
        (see :meth:`solve`)."""
        y = self.solve_factor(rhs)
        if self.backend == "cholmod-ldl" and (self.refine or not accuracy):
            y = self._refined(rhs, y, accuracy)[0]
        return y

    def _refined(self, rhs, y, accuracy):
        """Iterative refinement of y against the exact Ŝ until max|rhs − Ŝy| ≤ ``accuracy``·max|rhs|
        (at least 1e-14 of it) or it stops falling, at most REFINEMENTS steps: (y, max|rhs − Ŝy|)."""
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

