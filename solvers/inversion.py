"""TEMPORARY stub (replaced by the inversion branch)."""
import numpy as np, scipy.linalg as sla
from femdyn.sparse import Pattern
class _Z:
    def __init__(self, z): self.z = z
    def summary(self, h):
        low = self.z[np.abs(self.z.real) <= 1e-6 * np.abs(self.z)]
        return {"statement": "stub", "lowest_hz": float(np.abs(low).min() / 2 / np.pi), "max_real_part": float(self.z.real.max()),
                "classification": "non-minimum phase"}
def zero_dynamics(s, q, lam, t=0.0):
    n, m = s.n, s.m; v = np.zeros(n)
    kv, cv = s.tangent_values(q, v, 0.0)
    K = Pattern(s.k_rows, s.k_cols, (n, n)).assemble(kv).toarray()
    C = Pattern(s.c_rows, s.c_cols, (n, n)).assemble(cv).toarray() if len(cv) else np.zeros((n,n))
    H = Pattern(s.hess_rows, s.hess_cols, (n, n)).assemble(s.hessian_values(q, lam)).toarray()
    M = s.mass(q).toarray(); phi, jac = s.constraints.evaluate(q, 0.0)
    J = s.constraints.jac_pattern.assemble(jac).toarray()
    G = Pattern(s.g_rows, s.g_cols, (m, n)).assemble(s.force_transpose_values(q, jac)).toarray()
    Z = np.zeros
    A = np.block([[Z((n,n)), np.eye(n), Z((n,m))], [-(K+H), -C, -G.T], [J, Z((m,n)), Z((m,m))]])
    E = np.block([[np.eye(n), Z((n,n)), Z((n,m))], [Z((n,n)), M, Z((n,m))], [Z((m,n)), Z((m,n)), Z((m,m))]])
    al, be = sla.eig(A, E, right=False, homogeneous_eigvals=True)
    fin = np.abs(be) > 1e-8 * np.abs(al); z = al[fin]/be[fin]
    return _Z(z[np.abs(z) < 1e6])
