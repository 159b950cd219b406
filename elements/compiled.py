"""Compiled loops shared by every ANCF element (numba, ``cache=True``): the invariant
quadrature of :mod:`femdyn.elements.quadrature` (gradient vectors, invariants, force,
tangent, projection) and the helpers of energy densities (output arrays, the axial
strain of the axis). Each element's own density (strain measures and their invariant
derivatives) is compiled in the element's module, so that a new element adds its
density next to its class and never edits this file.

Why compiled loops: a multibody model evaluates each beam's kernels several times per
Newton iteration on small batches (8–32 elements). Written with numpy, one call cost
dozens of array operations on (n_el, n_g, …) temporaries plus einsum path planning,
a fixed cost far above the arithmetic; here each stage (kinematics, density, force or
tangent) is one dispatch whose loops keep the per-point data in a few scratch arrays.

Notation (SI units): nodal vectors q_α (dimension d) of an element, gradient vectors
z_k = Σ_α c_kα q_α with per-element coefficients c_kα = g_kα L^(o_α − p_k) (shape
coefficients g, nodal and vector orders o, p), invariants I_m = z_k · R_m z_l with

    ∂I_m/∂z = D_m (R_m z_l on vector k, R_mᵀ z_k on vector l),
    ∂²I_m/∂z² = E_kl ⊗ R_m + E_lk ⊗ R_mᵀ (constant),

and F = Σ_g w_g L J Gᵀ Σ_m W_I,m D_m, K = Σ_g w_g L J Gᵀ H G with
H = Σ_mn W_II,mn D_m D_nᵀ + Σ_m W_I,m ∂²I_m/∂z², G = c ⊗ 1 (Gerstmayr & Shabana 2006;
Nachbagauer, Gruber & Gerstmayr 2013). The tangent is evaluated in the scaled
coordinates q̃ = L^o q, where G is the same for every element and sparse (its nonzero
entries are passed as lists), on chunks of elements with the element index innermost
so that the short loops over vector components vectorize across elements.
"""
import numpy as np
from numba import njit


@njit(cache=True)
def gradient_vectors(coef, q, dim):
    """z (n_el, n_g, n_vec, d) from coef (n_el, n_g, n_vec, n_nodal) and q (n_el, n_nodal·d)."""
    n_el, n_g, n_vec, n_nodal = coef.shape
    z = np.zeros((n_el, n_g, n_vec, dim))
    for e in range(n_el):
        for g in range(n_g):
            for k in range(n_vec):
                for a in range(n_nodal):
                    c = coef[e, g, k, a]
                    if c != 0.0:
                        for i in range(dim):
                            z[e, g, k, i] += c * q[e, a * dim + i]
    return z


@njit(cache=True)
def invariants(z, k_idx, l_idx, R):
    """I_m = z_k · R_m z_l, shape (n_el, n_g, n_inv)."""
    n_el, n_g, _, dim = z.shape
    n_inv = len(k_idx)
    out = np.zeros((n_el, n_g, n_inv))
    for e in range(n_el):
        for g in range(n_g):
            for m in range(n_inv):
                k, l = k_idx[m], l_idx[m]
                s = 0.0
                for i in range(dim):
                    for j in range(dim):
                        s += z[e, g, k, i] * R[m, i, j] * z[e, g, l, j]
                out[e, g, m] = s
    return out


@njit(cache=True)
def kinematics(coef, q, k_idx, l_idx, R):
    """(z, I): gradient vectors and their invariants in one call."""
    z = gradient_vectors(coef, q, R.shape[1])
    return z, invariants(z, k_idx, l_idx, R)


@njit(cache=True)
def _vector_force(zg, k_idx, l_idx, R, w, f, fz):
    """fz = f Σ_m w_m ∂I_m/∂z (n_vec, d) at one point: R_m z_l on vector k, R_mᵀ z_k on vector l."""
    fz[:] = 0.0
    dim = zg.shape[1]
    for m in range(len(k_idx)):
        k, l = k_idx[m], l_idx[m]
        for i in range(dim):
            for j in range(dim):
                r = f * w[m] * R[m, i, j]
                fz[k, i] += r * zg[l, j]
                fz[l, j] += r * zg[k, i]


@njit(cache=True)
def force(coef, z, k_idx, l_idx, R, W_I, factor):
    """F_α = Σ_g factor_g Σ_k c_kα Σ_m W_I,m ∂I_m/∂z_k, shape (n_el, n_nodal·d);
    ``factor`` (n_el, n_g) = w_g L J."""
    n_el, n_g, n_vec, n_nodal = coef.shape
    dim = z.shape[3]
    F = np.zeros((n_el, n_nodal * dim))
    fz = np.empty((n_vec, dim))
    for e in range(n_el):
        for g in range(n_g):
            _vector_force(z[e, g], k_idx, l_idx, R, W_I[e, g], factor[e, g], fz)
            for k in range(n_vec):
                for a in range(n_nodal):
                    c = coef[e, g, k, a]
                    if c != 0.0:
                        for i in range(dim):
                            F[e, a * dim + i] += c * fz[k, i]
    return F


# The tangent works on chunks of CHUNK elements with the element index last (innermost) in
# every scratch array, so that each of its short loops over vector components, invariants
# and coefficients carries a contiguous, vectorizable loop over the elements of the chunk
# (32 keeps the beam's scratch arrays, ~0.3 MB, in the L2 cache).
CHUNK = 32


@njit(cache=True)
def _zero(a):
    """Set every entry of ``a`` to zero in place."""
    flat = a.reshape(a.size)
    for x in range(flat.size):
        flat[x] = 0.0


@njit(cache=True)
def _vector_hessian(zt, k_idx, l_idx, R, H, w, geometric, nb, D, HD, Hz):
    """Hz (n_z, n_z, ·), n_z = n_vec·d: Dᵀ H D + Σ_m w_m ∂²I_m/∂z² for the nb elements of a
    chunk, with the rows D_m = ∂I_m/∂z (R_m z_l on vector k, R_mᵀ z_k on vector l) and the
    constant ∂²I_m/∂z² = E_kl ⊗ R_m + E_lk ⊗ R_mᵀ (only if ``geometric``).
    zt (n_vec, d, ·), H (n_inv, n_inv, ·), w (n_inv, ·); D, HD (n_inv, n_z, ·) scratch."""
    n_inv = len(k_idx)
    dim = zt.shape[1]
    n_z = Hz.shape[0]
    _zero(D)
    for m in range(n_inv):
        k, l = k_idx[m], l_idx[m]
        for i in range(dim):
            for j in range(dim):
                r1, r2 = R[m, i, j], R[m, j, i]
                if r1 != 0.0:
                    for x in range(nb):
                        D[m, k * dim + i, x] += r1 * zt[l, j, x]
                if r2 != 0.0:
                    for x in range(nb):
                        D[m, l * dim + i, x] += r2 * zt[k, j, x]
    _zero(HD)
    for m in range(n_inv):
        for n in range(n_inv):
            nonzero = False
            for x in range(nb):
                nonzero = nonzero or H[m, n, x] != 0.0
            if not nonzero:
                continue
            for s in range(2 if k_idx[n] != l_idx[n] else 1):       # the blocks of D_n
                p = k_idx[n] if s == 0 else l_idx[n]
                for r in range(p * dim, (p + 1) * dim):
                    for x in range(nb):
                        HD[m, r, x] += H[m, n, x] * D[n, r, x]
    _zero(Hz)
    for m in range(n_inv):
        for s in range(2 if k_idx[m] != l_idx[m] else 1):
            p = k_idx[m] if s == 0 else l_idx[m]
            for r in range(p * dim, (p + 1) * dim):
                for c in range(n_z):
                    for x in range(nb):
                        Hz[r, c, x] += D[m, r, x] * HD[m, c, x]
    if geometric:
        for m in range(n_inv):
            k, l = k_idx[m], l_idx[m]
            for i in range(dim):
                for j in range(dim):
                    rr = R[m, i, j]
                    if rr != 0.0:
                        for x in range(nb):
                            Hz[k * dim + i, l * dim + j, x] += rr * w[m, x]
                            Hz[l * dim + j, k * dim + i, x] += rr * w[m, x]


@njit(cache=True)
def _project(nnz, G_row, G_col, G_val, Hz, nb, HG, K):
    """K (ndof, ndof, ·) += Gᵀ Hz G for the sparse constant G (n_z, ndof) given by its nnz
    entries (G_row, G_col, G_val); HG (n_z, ndof, ·) scratch."""
    n_z, ndof = HG.shape[0], HG.shape[1]
    _zero(HG)
    for t in range(nnz):
        s, b, v = G_row[t], G_col[t], G_val[t]
        for r in range(n_z):
            for x in range(nb):
                HG[r, b, x] += v * Hz[r, s, x]
    for t in range(nnz):
        r, a, v = G_row[t], G_col[t], G_val[t]
        for b in range(ndof):
            for x in range(nb):
                K[a, b, x] += v * HG[r, b, x]


@njit(cache=True)
def tangent(G_nnz, G_row, G_col, G_val, vec_scale, inv_scale, dof_scale, z, k_idx, l_idx, R,
            W_I, W_II, factor, geometric):
    """K = Σ_g factor_g Gᵀ [Σ_mn W_II,mn D_m D_nᵀ + Σ_m W_I,m ∂²I_m/∂z²] G (n_el, ndof, ndof),
    ``factor`` (n_el, n_g) = w_g L J; without ``geometric`` only the first (Gram) term, e.g.
    for a damping matrix (W_I is then not read).

    Evaluated in the scaled coordinates q̃ = L^o q, z̃ = L^p z, Ĩ = L^(p_k+p_l) I, where
    G_g = g_g ⊗ 1 (the shape coefficients, sparse: G_nnz[g] entries G_row/G_col/G_val[g])
    is the same for every element; the result is scaled back with ``dof_scale`` (n_el, ndof)."""
    n_el, n_g, n_vec, dim = z.shape
    ndof, n_inv, n_z = dof_scale.shape[1], len(k_idx), n_vec * dim
    K = np.empty((n_el, ndof, ndof))
    zt = np.empty((n_vec, dim, CHUNK))
    H = np.empty((n_inv, n_inv, CHUNK))
    w = np.zeros((n_inv, CHUNK))
    D = np.empty((n_inv, n_z, CHUNK))
    HD = np.empty((n_inv, n_z, CHUNK))
    Hz = np.empty((n_z, n_z, CHUNK))
    HG = np.empty((n_z, ndof, CHUNK))
    Kc = np.empty((ndof, ndof, CHUNK))
    for e0 in range(0, n_el, CHUNK):
        nb = min(CHUNK, n_el - e0)
        _zero(Kc)
        for g in range(n_g):
            for x in range(nb):
                e = e0 + x
                f = factor[e, g]
                for k in range(n_vec):
                    for i in range(dim):
                        zt[k, i, x] = z[e, g, k, i] * vec_scale[e, k]
                for m in range(n_inv):
                    if geometric:
                        w[m, x] = f * W_I[e, g, m] / inv_scale[e, m]
                    for n in range(n_inv):
                        H[m, n, x] = f * W_II[e, g, m, n] / (inv_scale[e, m] * inv_scale[e, n])
            _vector_hessian(zt, k_idx, l_idx, R, H, w, geometric, nb, D, HD, Hz)
            _project(G_nnz[g], G_row[g], G_col[g], G_val[g], Hz, nb, HG, Kc)
        _store(Kc, nb, e0, dof_scale, K)
    return K


@njit(cache=True)
def _store(Kc, nb, e0, dof_scale, K):
    """K[e0 + x] = Kc[:, :, x] scaled back to physical coordinates (q̃ = L^o q)."""
    ndof = Kc.shape[0]
    for x in range(nb):
        e = e0 + x
        for a in range(ndof):
            for b in range(ndof):
                K[e, a, b] = Kc[a, b, x] * dof_scale[e, a] * dof_scale[e, b]


@njit(cache=True)
def project(G_nnz, G_row, G_col, G_val, vec_scale, dof_scale, H_z, factor):
    """Σ_g factor_g Gᵀ H_z G (n_el, ndof, ndof) for H_z (n_el, n_g, n_z, n_z) acting on the
    physical gradient vectors (n_z = n_vec·d), evaluated in scaled coordinates as :func:`tangent`."""
    n_el, n_g, n_z = H_z.shape[:3]
    ndof = dof_scale.shape[1]
    dim = n_z // vec_scale.shape[1]
    K = np.empty((n_el, ndof, ndof))
    Hz = np.empty((n_z, n_z, CHUNK))
    HG = np.empty((n_z, ndof, CHUNK))
    Kc = np.empty((ndof, ndof, CHUNK))
    for e0 in range(0, n_el, CHUNK):
        nb = min(CHUNK, n_el - e0)
        _zero(Kc)
        for g in range(n_g):
            for r in range(n_z):
                for c in range(n_z):
                    for x in range(nb):
                        e = e0 + x
                        Hz[r, c, x] = factor[e, g] * H_z[e, g, r, c] / (vec_scale[e, r // dim] * vec_scale[e, c // dim])
            _project(G_nnz[g], G_row[g], G_col[g], G_val[g], Hz, nb, HG, Kc)
        _store(Kc, nb, e0, dof_scale, K)
    return K


# ---------------------------------------------------------------------- energy densities
# W (n_el, n_g), W_I (n_el, n_g, n_inv), W_II (n_el, n_g, n_inv, n_inv) per unit reference
# length; W_II is empty (shape (0, 0, 0, 0)) for order < 2, W_I for order 0.

@njit(cache=True)
def density_outputs(n_el, n_g, n_inv, order):
    """Zeroed (W, W_I, W_II) of an energy density for ``order`` 0, 1 or 2 (see above)."""
    W = np.empty((n_el, n_g))
    W_I = np.zeros((n_el, n_g, n_inv) if order >= 1 else (0, 0, 0))
    W_II = np.zeros((n_el, n_g, n_inv, n_inv) if order >= 2 else (0, 0, 0, 0))
    return W, W_I, W_II


@njit(cache=True)
def axial_strain(alpha, l0):
    """Engineering axial strain ε = √α/ℓ₀ − 1 of the axis (α = r_x·r_x, ℓ₀ = ‖r⁰_x‖) with
    ∂ε/∂α and ∂²ε/∂α²."""
    root = np.sqrt(alpha)
    return root / l0 - 1.0, 1.0 / (2.0 * l0 * root), -1.0 / (4.0 * l0 * alpha * root)
