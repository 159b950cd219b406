"""Compiled loops of the factor-free solid eigensolver (numba, ``cache=True``, two threads by rows).

They read the solid's matrices in the layout of :mod:`femdyn.elements.solid_compiled`: the node-pair
CSR pattern (indptr, indices) and the stiffness data of its dof-level CSR, whose node row a keeps
the 3×3 block of node column k at ``9 indptr[a] + 3 i deg(a) + 3 k + j``. Blocks X (3 n_nodes, m) are
C-ordered; rows of nodes not marked ``free`` are written as zero (the interior operator K_ii, M_ii
acting on full-length arrays whose held rows are zero). Each loop runs in the precision of its
arrays (float64, or float32 inside the preconditioner).
"""
import numpy as np
from numba import njit, prange


@njit(inline="always")
def _block_row(indptr, indices, kdata, X, a, acc):
    """acc (3, m) = rows 3a..3a+2 of K X."""
    start, deg = indptr[a], indptr[a + 1] - indptr[a]
    base = 9 * start
    acc[:] = 0.0
    for k in range(deg):
        c = 3 * indices[start + k]
        p = base + 3 * k
        q = p + 3 * deg
        r = q + 3 * deg
        b00, b01, b02 = kdata[p], kdata[p + 1], kdata[p + 2]
        b10, b11, b12 = kdata[q], kdata[q + 1], kdata[q + 2]
        b20, b21, b22 = kdata[r], kdata[r + 1], kdata[r + 2]
        for j in range(X.shape[1]):
            x0, x1, x2 = X[c, j], X[c + 1, j], X[c + 2, j]
            acc[0, j] += b00 * x0 + b01 * x1 + b02 * x2
            acc[1, j] += b10 * x0 + b11 * x1 + b12 * x2
            acc[2, j] += b20 * x0 + b21 * x1 + b22 * x2


@njit(parallel=True, cache=True, fastmath=True)
def stiffness_product(indptr, indices, kdata, free, X, Y):
    """Y = K X on the free node rows (held rows 0)."""
    for a in prange(indptr.size - 1):
        acc = np.empty((3, X.shape[1]), X.dtype)
        if free[a]:
            _block_row(indptr, indices, kdata, X, a, acc)
        else:
            acc[:] = 0.0
        for i in range(3):
            for j in range(X.shape[1]):
                Y[3 * a + i, j] = acc[i, j]


@njit(parallel=True, cache=True, fastmath=True)
def mass_product(indptr, indices, mdata, free, X, Y):
    """Y = (M_s ⊗ I₃) X on the free node rows, X and Y viewed as (n_nodes, 3m)."""
    for a in prange(indptr.size - 1):
        acc = np.zeros(X.shape[1], X.dtype)
        if free[a]:
            for p in range(indptr[a], indptr[a + 1]):
                v, c = mdata[p], indices[p]
                for j in range(X.shape[1]):
                    acc[j] += v * X[c, j]
        for j in range(X.shape[1]):
            Y[a, j] = acc[j]


@njit(parallel=True, cache=True, fastmath=True)
def residual(indptr, indices, kdata, free, B, X, R):
    """R = B − K X on the free node rows (held rows 0)."""
    for a in prange(indptr.size - 1):
        acc = np.empty((3, X.shape[1]), X.dtype)
        _block_row(indptr, indices, kdata, X, a, acc)
        for i in range(3):
            for j in range(X.shape[1]):
                R[3 * a + i, j] = B[3 * a + i, j] - acc[i, j] if free[a] else 0.0


@njit(parallel=True, cache=True, fastmath=True)
def chebyshev_step(indptr, indices, kdata, free, dinv, D, R, X, D_next, c_old, c_new):
    """One Chebyshev step on D⁻¹K: X += D, R −= K D, D_next = c_old D + c_new D⁻¹R (block Jacobi D)."""
    for a in prange(indptr.size - 1):
        acc = np.empty((3, D.shape[1]), D.dtype)
        if not free[a]:
            for i in range(3):
                for j in range(D.shape[1]):
                    D_next[3 * a + i, j] = 0.0
            continue
        _block_row(indptr, indices, kdata, D, a, acc)
        for i in range(3):
            for j in range(D.shape[1]):
                X[3 * a + i, j] += D[3 * a + i, j]
                R[3 * a + i, j] -= acc[i, j]
        for i in range(3):
            for j in range(D.shape[1]):
                s = dinv[a, i, 0] * R[3 * a, j] + dinv[a, i, 1] * R[3 * a + 1, j] + dinv[a, i, 2] * R[3 * a + 2, j]
                D_next[3 * a + i, j] = c_old * D[3 * a + i, j] + c_new * s


@njit(parallel=True, cache=True)
def block_jacobi(indptr, indices, kdata, free):
    """(n_nodes, 3, 3) inverses of K's diagonal node blocks (zero on held nodes)."""
    n = indptr.size - 1
    out = np.zeros((n, 3, 3))
    for a in prange(n):
        if not free[a]:
            continue
        start, deg = indptr[a], indptr[a + 1] - indptr[a]
        k = 0
        while indices[start + k] != a:
            k += 1
        B = np.empty((3, 3))
        for i in range(3):
            for j in range(3):
                B[i, j] = kdata[9 * start + 3 * i * deg + 3 * k + j]
        out[a] = np.linalg.inv(B)
    return out


@njit(parallel=True, cache=True, fastmath=True)
def apply_blocks(dinv, R, Y):
    """Y = D⁻¹ R with the node blocks ``dinv``."""
    for a in prange(dinv.shape[0]):
        for i in range(3):
            for j in range(R.shape[1]):
                Y[3 * a + i, j] = (dinv[a, i, 0] * R[3 * a, j] + dinv[a, i, 1] * R[3 * a + 1, j]
                                   + dinv[a, i, 2] * R[3 * a + 2, j])


@njit(parallel=True, cache=True, fastmath=True)
def combine(blocks, Y, Yp, X, P):
    """X = Σ_b blocks_b Y_b and P = Σ_b blocks_b Yp_b (Y's, Yp's rows split as the blocks' columns) in one pass
    over the rows: each block is read once for both."""
    for r in prange(X.shape[0]):
        x = np.zeros(X.shape[1])
        p = np.zeros(P.shape[1])
        off = 0
        for B in blocks:
            for i in range(B.shape[1]):
                v = B[r, i]
                for j in range(X.shape[1]):
                    x[j] += v * Y[off + i, j]
                for j in range(P.shape[1]):
                    p[j] += v * Yp[off + i, j]
            off += B.shape[1]
        for j in range(X.shape[1]):
            X[r, j] = x[j]
        for j in range(P.shape[1]):
            P[r, j] = p[j]
