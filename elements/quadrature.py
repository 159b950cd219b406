"""Quadrature of ANCF element energies written in dot-product invariants.

Every ANCF kernel in femdyn has the same structure (Gerstmayr & Shabana 2006;
Nachbagauer, Gruber & Gerstmayr 2013): at a Gauss point ξ_g along the axis, the
energy density per unit reference length depends on a few *gradient vectors* z_k
(r_x, r_xx for a cable; r_x, r_y, r_z and x-derivatives for the full beam), each of
them linear in the element coordinates, z_k = G_k q, with constant G_k. The strains
are functions of the invariants

    I_m = z_k · R_m z_l          (R_m = 1, or the 2-D rotation J for a signed cross product),

which makes them independent of rigid rotations. With W(I) the density per unit
reference length, W_I = ∂W/∂I and W_II = ∂²W/∂I² (supplied by the element) and
D_m = ∂I_m/∂z (R z_l on vector k, Rᵀ z_k on vector l), the chain rule reads

    U = Σ_g w_g W,     F = Σ_g w_g Gᵀ Σ_m W_I,m D_m,
    K = Σ_g w_g Gᵀ H G,   H = Σ_mn W_II,mn D_m D_nᵀ + Σ_m W_I,m ∂²I_m/∂z²,

∂²I_m/∂z² = E_kl ⊗ R + E_lk ⊗ Rᵀ constant. G = g ⊗ 1 (g the shape coefficients) is
never expanded: the projection Gᵀ H G is a single matrix product with the constant
tensor g_ka g_lb. Element length L enters only as a scaling: the kernels work in
ξ = x/L with slope coordinates multiplied by L, so one set of matrices serves a batch
of elements of different lengths. All arrays batch over elements (axis 0) and Gauss
points (axis 1); no Python loop over elements.
"""
import numpy as np


def gauss_legendre(n):
    """Gauss–Legendre points and weights on [0, 1] (weights sum to 1); exact for degree 2n−1."""
    x, w = np.polynomial.legendre.leggauss(n)
    return 0.5 * (x + 1.0), 0.5 * w


class InvariantQuadrature:
    """Integration of invariant-based energy densities over a batch of 1-D elements.

    Parameters
    ----------
    coefficients : (n_g, n_vec, n_nodal) array
        Gradient vector k at Gauss point g is z̃_k = Σ_α coefficients[g, k, α] q̃_α, where
        q̃_α are the element's nodal vectors (dimension ``dim``) in scaled coordinates.
    vector_order : (n_vec,) ints
        Power p_k of L in z̃_k = L^p_k z_k (number of x-derivatives of vector k).
    nodal_order : (n_nodal,) ints
        Power of L in q̃_α = L^o_α q_α (1 for slope coordinates r_x, 0 otherwise).
    invariants : list of (k, l, R)
        I_m = z_k · R z_l with R a (dim, dim) matrix.
    weights : (n_g,) Gauss weights on [0, 1].
    length : (n_el,) element lengths L [m].
    """

    def __init__(self, coefficients, vector_order, nodal_order, invariants, weights, length, dim):
        self.dim = dim
        self.weights = np.asarray(weights, float)
        self.length = np.asarray(length, float)
        self.coef = np.asarray(coefficients, float)                     # (n_g, n_vec, n_nodal)
        n_g, n_vec, n_nodal = self.coef.shape
        self.n_vec, self.n_nodal, self.ndof = n_vec, n_nodal, n_nodal * dim
        self.pairs = [(k, l, np.asarray(R, float)) for k, l, R in invariants]
        self.k_idx = np.array([k for k, _, _ in self.pairs])
        self.l_idx = np.array([l for _, l, _ in self.pairs])
        self.identity = [np.array_equal(R, np.eye(dim)) for _, _, R in self.pairs]
        self.vector_order = np.asarray(vector_order, float)
        nodal_scale = self.length[:, None] ** np.asarray(nodal_order, float)[None, :]
        self.dof_scale = np.repeat(nodal_scale, dim, axis=1)             # q̃ = L^o q
        self.matrix_scale = self.dof_scale[:, :, None] * self.dof_scale[:, None, :]
        self.vec_scale = self.length[:, None] ** self.vector_order[None, :]
        # T[(g,k,l),(a,b)] = g_ka g_lb: projection of z-space matrices to nodal space
        self.T = np.einsum('gka,glb->gklab', self.coef, self.coef).reshape(n_g * n_vec**2, n_nodal**2)
        # C_m = ∂²Ĩ_m/∂q̃² = A_m ⊗ R + A_mᵀ ⊗ Rᵀ with A_m = g_kᵀ g_l, flattened (n_g·n_inv, ndof²)
        A = np.einsum('gma,gmb->gmab', self.coef[:, self.k_idx], self.coef[:, self.l_idx])
        R = np.stack([R for _, _, R in self.pairs])
        C = np.einsum('gmab,mij->gmaibj', A, R) + np.einsum('gmba,mji->gmaibj', A, R)
        self.C_flat = C.reshape(n_g * len(self.pairs), self.ndof**2)
        order = self.vector_order[self.k_idx] + self.vector_order[self.l_idx]
        self.inv_scale = self.length[:, None] ** order[None, :]           # Ĩ = L^p I

    # ------------------------------------------------------------------ kinematics
    def scaled_vectors(self, qe):
        """z̃ (n_el, n_g, n_vec, dim): ξ-derivatives from the scaled nodal vectors."""
        q_tilde = (np.asarray(qe, float) * self.dof_scale).reshape(len(self.length), self.n_nodal, self.dim)
        return np.einsum('gka,eai->egki', self.coef, q_tilde, optimize=True)

    def vectors(self, qe):
        """Physical gradient vectors z_k, shape (n_el, n_g, n_vec, dim)."""
        return self.scaled_vectors(qe) / self.vec_scale[:, None, :, None]

    def invariants(self, z):
        """I_m (n_el, n_g, n_inv) from physical vectors z (n_el, n_g, n_vec, dim)."""
        I = np.empty(z.shape[:2] + (len(self.pairs),))
        for m, (k, l, R) in enumerate(self.pairs):
            zl = z[:, :, l] if self.identity[m] else z[:, :, l] @ R.T
            I[..., m] = np.sum(z[:, :, k] * zl, -1)
        return I

    def invariant_gradients(self, qe):
        """ũ_m = ∂Ĩ_m/∂q̃ = g_kᵀ R z̃_l + g_lᵀ Rᵀ z̃_k, shape (n_el, n_g, n_inv, ndof).

        Built per Gauss point as one matrix product gᵀ ∂Ĩ/∂z̃ with the element index in
        the long (contiguous) dimension, which is what makes it fast in numpy. The result
        is a work array of this object, overwritten by the next call."""
        zt = self.scaled_vectors(qe).transpose(1, 2, 0, 3)               # (n_g, n_vec, n_el, dim)
        n_g, n_vec, n_el, d = zt.shape
        n_inv = len(self.pairs)
        Dz = self._buffer("Dz", (n_g, n_vec, n_el, n_inv, d))
        Dz[...] = 0.0
        for m, (k, l, R) in enumerate(self.pairs):
            Dz[:, k, :, m] = zt[:, l] @ R.T
            Dz[:, l, :, m] += zt[:, k] @ R
        u = self._buffer("u", (n_el, n_g, n_inv, self.n_nodal, d))
        for g in range(n_g):
            ug = self.coef[g].T @ Dz[g].reshape(n_vec, -1)               # (n_nodal, n_el·n_inv·dim)
            u[:, g] = ug.reshape(self.n_nodal, n_el, n_inv, d).transpose(1, 2, 0, 3)
        return u.reshape(n_el, n_g, n_inv, self.ndof)

    def _buffer(self, name, shape):
        """Work array reused between calls (the kernels never hand one to their callers):
        fresh large allocations cost page faults that dominate these memory-bound kernels."""
        buffers = self.__dict__.setdefault("_buffers", {})
        if name not in buffers or buffers[name].shape != shape:
            buffers[name] = np.empty(shape)
        return buffers[name]

    # ------------------------------------------------------------------ integration
    def energy(self, W, jac):
        """U = Σ_g w_g L J W; ``jac`` (n_el, n_g) is ds/dx of the reference curve."""
        return np.einsum('g,eg->e', self.weights, W * jac) * self.length

    def _gauss_factor(self, jac):
        return self.weights[None, :] * jac * self.length[:, None]

    def _scaled_first(self, W_I, jac):
        """w_g L J ∂W/∂Ĩ (n_el, n_g, n_inv)."""
        return W_I * (self._gauss_factor(jac)[..., None] / self.inv_scale[:, None, :])

    def _scaled_second(self, W_II, jac):
        s = self.inv_scale[:, None, :]
        return W_II * (self._gauss_factor(jac)[..., None, None] / (s[..., :, None] * s[..., None, :]))

    def _to_physical(self, K):
        K *= self.matrix_scale
        return K

    def force(self, W_I, jac, z):
        """F = ∂U/∂q (n_el, ndof) from W_I (n_el, n_g, n_inv) at the physical vectors z:
        ∂W/∂z_k = Σ_m W_I,m ∂I_m/∂z_k, projected with the shape coefficients."""
        wI = W_I * self._gauss_factor(jac)[..., None]
        f_z = np.zeros(z.shape)
        for m, (k, l, R) in enumerate(self.pairs):
            w = wI[..., m, None]
            f_z[:, :, k] += w * (z[:, :, l] if self.identity[m] else z[:, :, l] @ R.T)
            f_z[:, :, l] += w * (z[:, :, k] if self.identity[m] else z[:, :, k] @ R)
        f_z /= self.vec_scale[:, None, :, None]                          # ∂/∂z̃ = L^−p ∂/∂z
        F = np.einsum('gka,egki->eai', self.coef, f_z, optimize=True).reshape(len(self.length), self.ndof)
        return F * self.dof_scale

    def stiffness(self, W_I, W_II, jac, u):
        """K = ∂F/∂q (n_el, ndof, ndof) from W_I, W_II (n_el, n_g, n_inv, n_inv) and u."""
        n_el = u.shape[0]
        geometric = self._buffer("geometric", (n_el, self.ndof * self.ndof))
        np.matmul(self._scaled_first(W_I, jac).reshape(n_el, -1), self.C_flat, out=geometric)
        K = self.gram(self._scaled_second(W_II, jac), u, self._buffer("Hu", u.shape))
        K += geometric.reshape(n_el, self.ndof, self.ndof)
        return self._to_physical(K)

    def invariant_matrix(self, H_II, jac, u):
        """Σ_g w_g Σ_mn H_mn u_m u_nᵀ (n_el, ndof, ndof) for H (n_el, n_g, n_inv, n_inv) in invariant space."""
        return self._to_physical(self.gram(self._scaled_second(H_II, jac), u, self._buffer("Hu", u.shape)))

    @staticmethod
    def gram(H, u, work=None):
        """Σ_g uᵀ H u with H (n_el, n_g, n_inv, n_inv) and u (n_el, n_g, n_inv, ndof)."""
        n_el, ndof = u.shape[0], u.shape[-1]
        Hu = np.matmul(H, u, out=work).reshape(n_el, -1, ndof)
        return np.swapaxes(u.reshape(n_el, -1, ndof), 1, 2) @ Hu

    def project(self, H_z, jac):
        """Σ_g w_g Gᵀ H_z G (n_el, ndof, ndof) for H_z (n_el, n_g, n_z, n_z), n_z = n_vec·dim,
        a matrix acting on the physical gradient vectors (G = g ⊗ 1 is not expanded)."""
        n_el, n_g = H_z.shape[:2]
        nv, d, nn = self.n_vec, self.dim, self.n_nodal
        s = self.vec_scale[:, None, :, None, None, None] * self.vec_scale[:, None, None, None, :, None]
        Ht = H_z.reshape(n_el, n_g, nv, d, nv, d) * (self._gauss_factor(jac)[:, :, None, None, None, None] / s)
        X = Ht.transpose(0, 3, 5, 1, 2, 4).reshape(n_el * d * d, n_g * nv * nv)
        K = (X @ self.T).reshape(n_el, d, d, nn, nn).transpose(0, 3, 1, 4, 2).reshape(n_el, self.ndof, self.ndof)
        return K * self.dof_scale[:, :, None] * self.dof_scale[:, None, :]
