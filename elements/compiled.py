"""Compiled loops shared by every ANCF element (numba, ``cache=True``): gradient vectors,
invariants, force, tangent and projection of :mod:`femdyn.elements.quadrature`, and
helpers of energy densities. Each element compiles its own density in its module.

Tangent in scaled coordinates q̃ = L^o q, where G = c ⊗ 1 is the same sparse matrix for
every element, on chunks with the element index innermost. Notation and the reason for
compiled loops: docs/elements.md.
"""
import numpy as np
from numba import njit


@njit(cache=True)
def gradient_vectors(coef, q, dim):
    """z (n_el, n_g, n_vec, d) from coef (n_el, n_g, n_vec, n_nodal) and q (n_el, n_nodal·d)."""
    n_el, n_g, n_vec, _ = coef.shape
    z = np.empty((n_el, n_g, n_vec, dim))
    _vectors_into(coef, q.reshape(q.size), _identity_map(q.shape[0], q.shape[1]), z)
    return z


@njit(cache=True)
def invariants(z, k_idx, l_idx, R):
    """I_m = z_k · R_m z_l, shape (n_el, n_g, n_inv)."""
    out = np.empty(z.shape[:2] + (len(k_idx),))
    _invariants_into(z, k_idx, l_idx, R, out)
    return out


@njit(cache=True)
def _identity_map(n_el, ndof):
    """The index map (n_el, ndof) of element coordinates stored one element after the other."""
    return np.arange(n_el * ndof).reshape(n_el, ndof)


@njit(cache=True)
def _vectors_into(coef, q, dofs, z):
    """z[e, g, k] = Σ_α coef[e, g, k, α] q_α, the coordinates q_α gathered from the global ``q``
    through ``dofs`` (n_el, n_nodal·d)."""
    qe = np.empty(dofs.shape[1])
    for e in range(coef.shape[0]):
        gather(q, dofs, e, qe)
        for g in range(coef.shape[1]):
            point_vectors(coef, e, g, qe, z[e, g])


@njit(cache=True)
def _invariants_into(z, k_idx, l_idx, R, out):
    """out[e, g, m] = z_k · R_m z_l."""
    eye = identities(R)
    for e in range(z.shape[0]):
        for g in range(z.shape[1]):
            point_invariants(k_idx, l_idx, R, eye, z[e, g], out[e, g])


@njit(cache=True, inline='always')
def gather(q, dofs, e, qe):
    """qe = q[dofs[e]], the coordinates of element e."""
    for x in range(dofs.shape[1]):
        qe[x] = q[dofs[e, x]]


@njit(cache=True, inline='always')
def scatter(Fe, dofs, e, out):
    """out[dofs[e]] += Fe, the force of element e."""
    for x in range(dofs.shape[1]):
        out[dofs[e, x]] += Fe[x]


@njit(cache=True, inline='always')
def point_vectors(coef, e, g, qe, zg):
    """zg[k] = Σ_α coef[e, g, k, α] q_α at point g of element e, from its coordinates qe."""
    n_vec, n_nodal = coef.shape[2], coef.shape[3]
    dim = zg.shape[1]
    for k in range(n_vec):
        for i in range(dim):
            s = 0.0
            for a in range(n_nodal):
                c = coef[e, g, k, a]
                if c != 0.0:
                    s += c * qe[a * dim + i]
            zg[k, i] = s


@njit(cache=True, inline='always')
def point_invariants(k_idx, l_idx, R, eye, zg, Ig):
    """Ig[m] = z_k · R_m z_l at one point (a dot product where ``eye[m]``, R_m the identity)."""
    dim = zg.shape[1]
    for m in range(len(k_idx)):
        k, l = k_idx[m], l_idx[m]
        s = 0.0
        if eye[m]:
            for i in range(dim):
                s += zg[k, i] * zg[l, i]
        else:
            for i in range(dim):
                for j in range(dim):
                    s += zg[k, i] * R[m, i, j] * zg[l, j]
        Ig[m] = s


@njit(cache=True)
def identities(R):
    """Which R_m (n_inv, d, d) are the identity matrix."""
    n_inv, dim = R.shape[0], R.shape[1]
    eye = np.ones(n_inv, dtype=np.bool_)
    for m in range(n_inv):
        for i in range(dim):
            for j in range(dim):
                if R[m, i, j] != (1.0 if i == j else 0.0):
                    eye[m] = False
    return eye


@njit(cache=True)
def kinematics(coef, q, k_idx, l_idx, R):
    """(z, I): gradient vectors and their invariants in one call."""
    z = gradient_vectors(coef, q, R.shape[1])
    return z, invariants(z, k_idx, l_idx, R)


@njit(cache=True, inline='always')
def _vector_force(zg, k_idx, l_idx, R, eye, w, f, fz):
    """fz = f Σ_m w_m ∂I_m/∂z (n_vec, d) at one point: R_m z_l on vector k, R_mᵀ z_k on vector l
    (z_l and z_k where ``eye[m]``, R_m the identity)."""
    dim = zg.shape[1]
    for k in range(zg.shape[0]):
        for i in range(dim):
            fz[k, i] = 0.0
    for m in range(len(k_idx)):
        k, l = k_idx[m], l_idx[m]
        if eye[m]:
            r = f * w[m]
            for i in range(dim):
                fz[k, i] += r * zg[l, i]
                fz[l, i] += r * zg[k, i]
            continue
        for i in range(dim):
            for j in range(dim):
                r = f * w[m] * R[m, i, j]
                fz[k, i] += r * zg[l, j]
                fz[l, j] += r * zg[k, i]


@njit(cache=True)
def force(coef, z, k_idx, l_idx, R, W_I, factor):
    """F_α = Σ_g factor_g Σ_k c_kα Σ_m W_I,m ∂I_m/∂z_k, shape (n_el, n_nodal·d);
    ``factor`` (n_el, n_g) = w_g L J."""
    n_el, _, _, n_nodal = coef.shape
    F = np.zeros((n_el, n_nodal * z.shape[3]))
    _force_into(coef, z, k_idx, l_idx, R, W_I, factor, _identity_map(n_el, F.shape[1]), 1.0, F.reshape(F.size))
    return F


@njit(cache=True)
def _force_into(coef, z, k_idx, l_idx, R, W_I, factor, dofs, scale, out):
    """out[dofs[e, α]] += scale F_α of every element (the force of :func:`force`, scattered)."""
    n_el, n_g, n_vec, n_nodal = coef.shape
    fz = np.empty((n_vec, z.shape[3]))
    Fe = np.empty(dofs.shape[1])
    eye = identities(R)
    for e in range(n_el):
        zero(Fe)
        for g in range(n_g):
            point_force(coef, k_idx, l_idx, R, eye, e, g, z[e, g], W_I[e, g], scale * factor[e, g], fz, Fe)
        scatter(Fe, dofs, e, out)


@njit(cache=True, inline='always')
def point_force(coef, k_idx, l_idx, R, eye, e, g, zg, w, f, fz, Fe):
    """Fe += f Σ_k c_kα Σ_m w_m ∂I_m/∂z_k at point g of element e; fz (n_vec, d) scratch."""
    n_vec, n_nodal = coef.shape[2], coef.shape[3]
    dim = zg.shape[1]
    _vector_force(zg, k_idx, l_idx, R, eye, w, f, fz)
    for k in range(n_vec):
        for a in range(n_nodal):
            c = coef[e, g, k, a]
            if c != 0.0:
                for i in range(dim):
                    Fe[a * dim + i] += c * fz[k, i]


# The tangent works on chunks of CHUNK elements with the element index last (innermost) in
# every scratch array, so that each of its short loops over vector components, invariants
# and coefficients carries a contiguous, vectorizable loop over the elements of the chunk
# (32 keeps the beam's scratch arrays, ~0.3 MB, in the L2 cache).
CHUNK = 32


@njit(cache=True, inline='always')
def zero(a):
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
    zero(D)
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
    zero(HD)
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
    zero(Hz)
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
    zero(HG)
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
    for a damping matrix (W_I is then not read)."""
    ndof = dof_scale.shape[1]
    K = np.zeros((z.shape[0], ndof, ndof))
    _tangent_into(G_nnz, G_row, G_col, G_val, vec_scale, inv_scale, dof_scale, z, k_idx, l_idx, R, W_I, W_II,
                  factor, geometric, np.arange(ndof), K.reshape(K.size))
    return K


@njit(cache=True)
def _tangent_into(G_nnz, G_row, G_col, G_val, vec_scale, inv_scale, dof_scale, z, k_idx, l_idx, R,
                  W_I, W_II, factor, geometric, loc, out):
    """Add the matrices of :func:`tangent` to ``out``, the flat (n_el, n, n) matrices of whole
    elements, at the rows and columns ``loc`` (ndof,) of the term's coordinates among the n."""
    n_el, n_g, n_vec, dim = z.shape
    ndof, n_inv, n_z = dof_scale.shape[1], len(k_idx), n_vec * dim
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
        zero(Kc)
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
        _store(Kc, nb, e0, dof_scale, loc, out)


@njit(cache=True)
def _store(Kc, nb, e0, dof_scale, loc, out):
    """Add Kc[:, :, x], scaled back to physical coordinates (q̃ = L^o q), to the matrix of
    element e0 + x in the flat ``out`` (n_el, n, n), at the rows and columns ``loc``."""
    ndof = Kc.shape[0]
    n = int(np.sqrt(out.size // dof_scale.shape[0]) + 0.5)
    for x in range(nb):
        e = e0 + x
        for a in range(ndof):
            row = (e * n + loc[a]) * n
            for b in range(ndof):
                out[row + loc[b]] += Kc[a, b, x] * dof_scale[e, a] * dof_scale[e, b]


@njit(cache=True)
def project(G_nnz, G_row, G_col, G_val, vec_scale, dof_scale, H_z, factor):
    """Σ_g factor_g Gᵀ H_z G (n_el, ndof, ndof) for H_z (n_el, n_g, n_z, n_z) acting on the
    physical gradient vectors (n_z = n_vec·d), evaluated in scaled coordinates as :func:`tangent`."""
    n_el, n_g, n_z = H_z.shape[:3]
    ndof = dof_scale.shape[1]
    dim = n_z // vec_scale.shape[1]
    K = np.zeros((n_el, ndof, ndof))
    Hz = np.empty((n_z, n_z, CHUNK))
    HG = np.empty((n_z, ndof, CHUNK))
    Kc = np.empty((ndof, ndof, CHUNK))
    loc = np.arange(ndof)
    for e0 in range(0, n_el, CHUNK):
        nb = min(CHUNK, n_el - e0)
        zero(Kc)
        for g in range(n_g):
            for r in range(n_z):
                for c in range(n_z):
                    for x in range(nb):
                        e = e0 + x
                        Hz[r, c, x] = factor[e, g] * H_z[e, g, r, c] / (vec_scale[e, r // dim] * vec_scale[e, c // dim])
            _project(G_nnz[g], G_row[g], G_col[g], G_val[g], Hz, nb, HG, Kc)
        _store(Kc, nb, e0, dof_scale, loc, K.reshape(K.size))
    return K


# ---------------------------------------------------------------------- whole element sets
# One compiled call evaluates an element set: each element kind's entry point (next to its
# density) gathers the gradient vectors and invariants of an energy term from the global q
# (:func:`term_kinematics`), fills the term's density outputs in preallocated scratch, and
# :func:`term_result` integrates them into the energy, or scatters the force into the global
# vector, or adds the tangent to the element matrices. ``geo`` is the constant tuple of
# :meth:`femdyn.elements.quadrature.InvariantQuadrature.packed`; ``order`` 0, 1, 2 asks for
# the energy, the force or the tangent.

@njit(cache=True)
def term_kinematics(geo, q, dofs, z, I):
    """Gradient vectors z and invariants I of a term, its coordinates gathered from q through dofs."""
    _vectors_into(geo[0], q, dofs, z)
    _invariants_into(z, geo[1], geo[2], geo[3], I)


@njit(cache=True)
def term_result(geo, z, W, W_I, W_II, order, dofs, loc, scale, out):
    """Energy Σ_e,g w_g L j W (order 0, returned); scale·F added to out[dofs] (order 1); the
    tangent added to the flat element matrices ``out`` at ``loc`` (order 2). Returns the energy or 0."""
    coef, k_idx, l_idx, R, factor = geo[0], geo[1], geo[2], geo[3], geo[4]
    if order == 0:
        total = 0.0
        for e in range(W.shape[0]):
            for g in range(W.shape[1]):
                total += factor[e, g] * W[e, g]
        return scale * total
    if order == 1:
        _force_into(coef, z, k_idx, l_idx, R, W_I, factor, dofs, scale, out)
    else:
        _tangent_into(geo[5], geo[6], geo[7], geo[8], geo[9], geo[10], geo[11], z, k_idx, l_idx, R, W_I, W_II,
                      factor, True, loc, out)
    return 0.0


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


@njit(cache=True, inline='always')
def axial_strain(alpha, l0):
    """Engineering axial strain ε = √α/ℓ₀ − 1 of the axis (α = r_x·r_x, ℓ₀ = ‖r⁰_x‖) with
    ∂ε/∂α and ∂²ε/∂α²."""
    root = np.sqrt(alpha)
    return root / l0 - 1.0, 1.0 / (2.0 * l0 * root), -1.0 / (4.0 * l0 * alpha * root)
