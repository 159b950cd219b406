"""Quadrature of ANCF element energies written in dot-product invariants.

Gradient vectors z_k = G_k q, invariants I_m = z_k · R_m z_l, and the chain rule
U = Σ_g w_g W, F = Σ_g w_g Gᵀ Σ_m W_I,m ∂I_m/∂z, K = Σ_g w_g Gᵀ H G (Gerstmayr & Shabana
2006; Nachbagauer, Gruber & Gerstmayr 2013), evaluated by the compiled loops of
:mod:`femdyn.elements.compiled`. Derivation: docs/elements.md.
"""
import numpy as np

from femdyn.elements import compiled


def gauss_legendre(n):
    """Gauss–Legendre points and weights on [0, 1]."""
    x, w = np.polynomial.legendre.leggauss(n)
    return 0.5 * (x + 1.0), 0.5 * w


def _nonzero_entries(A):
    """Nonzero entries of each matrix A[g] as padded arrays (count (n,), row, col, value (n, max count))."""
    count = np.count_nonzero(A, axis=(1, 2))
    row, col = np.zeros((2, len(A), count.max()), dtype=np.int64)
    val = np.zeros((len(A), count.max()))
    for g, Ag in enumerate(A):
        r, c = np.nonzero(Ag)
        row[g, :len(r)], col[g, :len(r)], val[g, :len(r)] = r, c, Ag[r, c]
    return count, row, col, val


class InvariantQuadrature:
    """Integration of invariant-based energy densities over a batch of 1-D elements."""

    def __init__(self, coefficients, vector_order, nodal_order, invariants, weights, length, dim):
        self.dim = dim
        self.weights = np.asarray(weights, float)
        self.length = np.asarray(length, float)
        self.coef = np.ascontiguousarray(coefficients, float)                   # (n_g, n_vec, n_nodal)
        n_g, n_vec, n_nodal = self.coef.shape
        self.n_vec, self.n_nodal, self.ndof = n_vec, n_nodal, n_nodal * dim
        self.pairs = [(k, l, np.asarray(R, float)) for k, l, R in invariants]
        self.k_idx = np.array([k for k, _, _ in self.pairs], dtype=np.int64)
        self.l_idx = np.array([l for _, l, _ in self.pairs], dtype=np.int64)
        self.R = np.ascontiguousarray(np.stack([R for _, _, R in self.pairs]))   # (n_inv, dim, dim)
        self.vector_order = np.asarray(vector_order, float)
        nodal_scale = self.length[:, None] ** np.asarray(nodal_order, float)[None, :]
        self.dof_scale = np.repeat(nodal_scale, dim, axis=1)             # q̃ = L^o q
        self.vec_scale = self.length[:, None] ** self.vector_order[None, :]
        # physical coefficients c_kα = g_kα L^(o_α − p_k) of z_k = Σ_α c_kα q_α, per element
        self.coef_el = np.ascontiguousarray(
            self.coef[None] * nodal_scale[:, None, None, :] / self.vec_scale[:, None, :, None])
        self.inv_scale = self.vec_scale[:, self.k_idx] * self.vec_scale[:, self.l_idx]    # Ĩ = L^p I
        # G_g = g_g ⊗ 1 (n_vec·dim, ndof) with z̃ = G_g q̃, as lists of its nonzero entries
        G = np.einsum('gka,ij->gkiaj', self.coef, np.eye(dim)).reshape(n_g, n_vec * dim, self.ndof)
        self.G_nnz, self.G_row, self.G_col, self.G_val = _nonzero_entries(G)

    # ------------------------------------------------------------------ kinematics
    def vectors(self, qe):
        """Physical gradient vectors z_k at the Gauss points."""
        q = np.ascontiguousarray(qe, dtype=float).reshape(len(self.length), self.ndof)
        return compiled.gradient_vectors(self.coef_el, q, self.dim)

    def invariants(self, z):
        """Invariants I_m = z_k · R_m z_l at the Gauss points."""
        return compiled.invariants(np.ascontiguousarray(z), self.k_idx, self.l_idx, self.R)

    def kinematics(self, qe):
        """Gradient vectors and invariants in one compiled call."""
        q = np.ascontiguousarray(qe, dtype=float).reshape(len(self.length), self.ndof)
        return compiled.kinematics(self.coef_el, q, self.k_idx, self.l_idx, self.R)

    def packed(self, jac):
        """The constant arrays of one compiled set evaluation (:func:`compiled.term_result`), for ds/dx ``jac``."""
        return (self.coef_el, self.k_idx, self.l_idx, self.R, self._gauss_factor(jac), self.G_nnz, self.G_row,
                self.G_col, self.G_val, np.ascontiguousarray(self.vec_scale), np.ascontiguousarray(self.inv_scale),
                np.ascontiguousarray(self.dof_scale))

    def scratch(self):
        """Preallocated (z, I, W, W_I, W_II) of one compiled set evaluation."""
        n_el, n_g = len(self.length), len(self.weights)
        n_inv = len(self.k_idx)
        return (np.empty((n_el, n_g, self.n_vec, self.dim)), np.empty((n_el, n_g, n_inv)), np.empty((n_el, n_g)),
                np.zeros((n_el, n_g, n_inv)), np.zeros((n_el, n_g, n_inv, n_inv)))

    # ------------------------------------------------------------------ integration
    def energy(self, W, jac):
        """Element energies U = Σ_g w_g L j W."""
        return np.einsum('g,eg->e', self.weights, W * jac) * self.length

    def _gauss_factor(self, jac):
        """w_g L J (n_el, n_g), kept for the last ``jac`` (each element passes its constant one)."""
        cached = self.__dict__.get("_factor")
        if cached is None or cached[0] is not jac:
            self._factor = cached = (jac, np.ascontiguousarray(self.weights[None, :] * jac * self.length[:, None]))
        return cached[1]

    def force(self, W_I, jac, z):
        """Generalized force F = ∂U/∂q = Σ_g w_g L j Σ_m W_I,m ∂I_m/∂q."""
        return compiled.force(self.coef_el, z, self.k_idx, self.l_idx, self.R, np.ascontiguousarray(W_I),
                              self._gauss_factor(jac))

    def stiffness(self, W_I, W_II, jac, z):
        """Tangent stiffness K = ∂F/∂q, material and geometric parts."""
        return self._tangent(z, W_I, W_II, jac, True)

    def invariant_matrix(self, H_II, jac, z):
        """Matrix Σ_g w_g L j Σ_mn H_mn u_m u_nᵀ with u_m = ∂I_m/∂q (no geometric part)."""
        return self._tangent(z, np.zeros((0, 0, 0)), H_II, jac, False)

    def _tangent(self, z, W_I, W_II, jac, geometric):
        return compiled.tangent(self.G_nnz, self.G_row, self.G_col, self.G_val, self.vec_scale, self.inv_scale,
                                self.dof_scale, z, self.k_idx, self.l_idx, self.R, np.ascontiguousarray(W_I),
                                np.ascontiguousarray(W_II), self._gauss_factor(jac), geometric)

    def project(self, H_z, jac):
        """Matrix Σ_g w_g L j Gᵀ H_z G for a matrix acting on the gradient vectors."""
        return compiled.project(self.G_nnz, self.G_row, self.G_col, self.G_val, self.vec_scale, self.dof_scale,
                                np.ascontiguousarray(H_z), self._gauss_factor(jac))
