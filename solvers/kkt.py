"""Sparse KKT iteration matrix with a fixed pattern and factorization reuse.

S = [[A, Φ_qᵀ], [Φ_q, 0]] with A = w_M M + w_C C + w_K (K + H(λ)); the weights come from
the integrator (generalized-α: w_M = (1−α_m)/(1−α_f), w_C = γh, w_K = βh²: the
constraint rows scaled by 1/(βh²), Bottasso, Bauchau & Cardona 2007) or from statics
(w_M = w_C = 0, w_K = 1). Factorized by SuperLU (scipy.sparse.linalg.splu), which pivots
for the zero block; the factorization is kept and reused until the caller asks for a new one.
"""
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from femdyn.errors import SingularMatrixError
from femdyn.sparse import Pattern


class KKTMatrix:
    """The iteration matrix of a :class:`~femdyn.system.System` and its LU factors."""

    def __init__(self, system):
        self.system = system
        n, m = system.n, system.m
        c = system.constraints
        rows = [system.mass_rows, system.c_rows, system.k_rows, c.hess_rows, c.jac_rows + n, c.jac_cols]
        cols = [system.mass_cols, system.c_cols, system.k_cols, c.hess_cols, c.jac_cols, c.jac_rows + n]
        diag = np.arange(n + m)  # explicit diagonal keeps the pattern square even for massless rows
        self.pattern = Pattern(np.concatenate(rows + [diag]), np.concatenate(cols + [diag]), (n + m, n + m), "csc")
        self.block_pattern = Pattern(np.concatenate(rows[:4]), np.concatenate(cols[:4]), (n, n), "csc")
        self.lu = None
        self.factorizations = 0

    def assemble(self, w_mass, w_damp, w_stiff, c_values, k_values, h_values, jac_values):
        s = self.system
        values = np.concatenate([w_mass * s.mass_values, w_damp * c_values, w_stiff * k_values,
                                 w_stiff * h_values, jac_values, jac_values, np.zeros(s.n + s.m)])
        return self.pattern.assemble(values)

    def stabilized(self, w_mass, w_damp, w_stiff, c_values, k_values, h_values, Phi_q):
        """Iteration matrix of the stabilized index-2 formulation (unknowns Δq, βh²Δλ, Δν):
        [[A, Φ_qᵀ, −B Φ_qᵀ], [Φ_q, 0, 0], [Φ_q, 0, −Φ_q Φ_qᵀ]] with B = w_M M + w_C C and
        A = B + w_K (K + H(λ)); the curvature terms of Φ_qᵀν and Φ_q q̇ are left out
        (they only slow the Newton contraction, the residuals stay exact)."""
        s = self.system
        inertia = self.block_pattern.assemble(np.concatenate([w_mass * s.mass_values, w_damp * c_values,
                                                              np.zeros(len(k_values) + len(h_values))]))
        A = inertia + self.block_pattern.assemble(np.concatenate([np.zeros(len(s.mass_values) + len(c_values)),
                                                                  w_stiff * k_values, w_stiff * h_values]))
        B = Phi_q.tocsc()
        return sp.bmat([[A, B.T, -(inertia @ B.T)], [B, None, None], [B, None, -(B @ B.T)]], format="csc")

    def factorize(self, matrix, q, t):
        try:
            self.lu = spla.splu(matrix, permc_spec="COLAMD", options={"SymmetricMode": False})
        except RuntimeError as err:
            self.lu = None
            raise SingularMatrixError(self.diagnose(q, t, str(err))) from None
        self.factorizations += 1

    def solve(self, rhs):
        x = self.lu.solve(rhs)
        if not np.all(np.isfinite(x)):
            raise SingularMatrixError("the KKT solve returned non-finite values: the iteration matrix is "
                                      "numerically singular")
        return x

    def diagnose(self, q, t, reason):
        s = self.system
        redundant = s.redundant_constraints(q, t) if s.m <= 4000 else []
        if redundant:
            return (f"singular KKT matrix ({reason}) at t = {t:.6g} s: the constraint Jacobian is rank "
                    f"deficient; these rows are linearly dependent (remove redundant joints or use joints with "
                    f"fewer equations): {redundant}")
        return (f"singular KKT matrix ({reason}) at t = {t:.6g} s: Φ_q has full rank, so some motion allowed "
                "by the constraints has no inertia or stiffness (e.g. the spin of a rigid beam carrying an "
                "axis vector that no joint fixes); add a joint or mass for it")
