"""Compiled assembly of solid bodies (numba, ``cache=True``): the node-pair CSR pattern built
row by row from the node–element incidence (no sort of the element entries), each element
entry's slot in it, and one pass over the elements that writes the stiffness K (dof-level
CSR, 3×3 node blocks) and the scalar consistent mass M_s together, the elements grouped in colours
that share no node so that each colour adds in parallel. The element formulas are
those of :func:`femdyn.elements.solid.stiffness_matrices` and ``scalar_mass_matrices``
(the reference implementations, checked against these to round-off in the tests).
"""
import numpy as np
from numba import njit, prange


@njit(cache=True)
def node_pattern(conn, n_nodes):
    """(indptr, indices, slots) of the node-pair pattern of ``conn`` (n_el, n; −1 pads) and each
    element entry's position slots[e, a, b] in it."""
    n_el, n = conn.shape
    count = np.zeros(n_nodes + 1, np.int64)
    for e in range(n_el):
        for a in range(n):
            if conn[e, a] >= 0:
                count[conn[e, a] + 1] += 1
    eptr = np.cumsum(count)
    elems = np.empty(eptr[-1], np.int64)
    fill = eptr[:-1].copy()
    for e in range(n_el):
        for a in range(n):
            if conn[e, a] >= 0:
                elems[fill[conn[e, a]]] = e
                fill[conn[e, a]] += 1
    mark = np.full(n_nodes, -1, np.int64)
    indptr = np.zeros(n_nodes + 1, np.int64)
    for node in range(n_nodes):                      # pass 1: row lengths
        deg = 0
        for k in range(eptr[node], eptr[node + 1]):
            for b in range(n):
                c = conn[elems[k], b]
                if c >= 0 and mark[c] != node:
                    mark[c] = node
                    deg += 1
        indptr[node + 1] = indptr[node] + deg
    indices = np.empty(indptr[-1], np.int32)
    slots = np.full((n_el, n, n), -1, np.int64)
    mark[:] = -1
    pos = np.empty(n_nodes, np.int64)
    for node in range(n_nodes):                      # pass 2: sorted columns, then the slots of the row
        p = indptr[node]
        for k in range(eptr[node], eptr[node + 1]):
            for b in range(n):
                c = conn[elems[k], b]
                if c >= 0 and mark[c] != node:
                    mark[c] = node
                    indices[p] = c
                    p += 1
        row = np.sort(indices[indptr[node]:indptr[node + 1]])
        indices[indptr[node]:indptr[node + 1]] = row
        for k in range(row.size):
            pos[row[k]] = indptr[node] + k
        for k in range(eptr[node], eptr[node + 1]):
            e = elems[k]
            for a in range(n):
                if conn[e, a] == node:
                    for b in range(n):
                        if conn[e, b] >= 0:
                            slots[e, a, b] = pos[conn[e, b]]
    return indptr, indices, slots


@njit(cache=True)
def dof_pattern(indptr, indices):
    """(indptr, indices) of the dof-level CSR with 3×3 blocks on the node pattern: row 3a+i holds
    3·deg(a) entries, the block of node column k at 3k..3k+2."""
    n_nodes = indptr.size - 1
    dptr = np.zeros(3 * n_nodes + 1, np.int64)
    dind = np.empty(9 * indices.size, np.int32)
    for a in range(n_nodes):
        deg = indptr[a + 1] - indptr[a]
        for i in range(3):
            r = 3 * a + i
            start = 9 * indptr[a] + 3 * i * deg
            dptr[r + 1] = start + 3 * deg
            for k in range(deg):
                for j in range(3):
                    dind[start + 3 * k + j] = 3 * indices[indptr[a] + k] + j
    return dptr, dind


@njit(cache=True)
def mass_pattern(indptr, indices, ms):
    """(indptr, indices, data) of M = M_s ⊗ I₃ from the node-level CSR of M_s."""
    n_nodes = indptr.size - 1
    mptr = np.zeros(3 * n_nodes + 1, np.int64)
    mind = np.empty(3 * indices.size, np.int32)
    mdat = np.empty(3 * indices.size)
    for a in range(n_nodes):
        deg = indptr[a + 1] - indptr[a]
        for i in range(3):
            start = 3 * indptr[a] + i * deg
            mptr[3 * a + i + 1] = start + deg
            for k in range(deg):
                mind[start + k] = 3 * indices[indptr[a] + k] + i
                mdat[start + k] = ms[indptr[a] + k]
    return mptr, mind, mdat


@njit(cache=True)
def _physical_gradients(X, dN, G):
    """G (n, 3) = ∂N/∂x at one point from the element nodes X (n, 3) and ∂N/∂ξ (n, 3); returns det J."""
    n = X.shape[0]
    J = np.zeros((3, 3))
    for a in range(n):
        for i in range(3):
            for j in range(3):
                J[i, j] += X[a, i] * dN[a, j]
    c00 = J[1, 1] * J[2, 2] - J[1, 2] * J[2, 1]
    c01 = J[1, 2] * J[2, 0] - J[1, 0] * J[2, 2]
    c02 = J[1, 0] * J[2, 1] - J[1, 1] * J[2, 0]
    det = J[0, 0] * c00 + J[0, 1] * c01 + J[0, 2] * c02
    inv = np.empty((3, 3))                           # J⁻¹ by cofactors
    inv[0, 0], inv[1, 0], inv[2, 0] = c00 / det, c01 / det, c02 / det
    inv[0, 1] = (J[0, 2] * J[2, 1] - J[0, 1] * J[2, 2]) / det
    inv[1, 1] = (J[0, 0] * J[2, 2] - J[0, 2] * J[2, 0]) / det
    inv[2, 1] = (J[0, 1] * J[2, 0] - J[0, 0] * J[2, 1]) / det
    inv[0, 2] = (J[0, 1] * J[1, 2] - J[0, 2] * J[1, 1]) / det
    inv[1, 2] = (J[0, 2] * J[1, 0] - J[0, 0] * J[1, 2]) / det
    inv[2, 2] = (J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0]) / det
    for a in range(n):                               # G_a = J⁻ᵀ ∂N_a/∂ξ
        for i in range(3):
            G[a, i] = dN[a, 0] * inv[0, i] + dN[a, 1] * inv[1, i] + dN[a, 2] * inv[2, i]
    return det


@njit(cache=True)
def element_colors(conn, n_nodes):
    """(order, cptr): the elements grouped by colour, colour c = order[cptr[c]:cptr[c + 1]], no two elements of a
    colour sharing a node (greedy, in element order), so that one colour's elements add into K in parallel."""
    n_el, n = conn.shape
    color = np.empty(n_el, np.int64)
    used = np.zeros((n_nodes, 4), np.uint64)           # colour bitmask per node, up to 256 colours
    n_colors = 0
    for e in range(n_el):
        mask = np.zeros(4, np.uint64)
        for a in range(n):
            if conn[e, a] >= 0:
                for w in range(4):
                    mask[w] |= used[conn[e, a], w]
        c = 0
        while c < 256 and (mask[c // 64] >> np.uint64(c % 64)) & np.uint64(1):
            c += 1
        if c == 256:
            raise ValueError("more than 256 element colours: a node is shared by too many elements")
        color[e] = c
        n_colors = max(n_colors, c + 1)
        for a in range(n):
            if conn[e, a] >= 0:
                used[conn[e, a], c // 64] |= np.uint64(1) << np.uint64(c % 64)
    cptr = np.zeros(n_colors + 1, np.int64)
    for e in range(n_el):
        cptr[color[e] + 1] += 1
    cptr = np.cumsum(cptr)
    fill = cptr[:-1].copy()
    order = np.empty(n_el, np.int64)
    for e in range(n_el):
        order[fill[color[e]]] = e
        fill[color[e]] += 1
    return order, cptr


@njit(inline="always")
def _add_element(e, points, conn, slots, indptr, dk, wk, dm, Nm, wm, lam, mu, rho, K, Ms):
    """Add element e's stiffness into K and its scalar mass into Ms (see :func:`stiffness_and_mass`)."""
    n = dk.shape[1]
    X = np.empty((n, 3))
    G = np.empty((n, 3))
    for a in range(n):
        for i in range(3):
            X[a, i] = points[conn[e, a], i]
    for q in range(wk.size):
        w = _physical_gradients(X, dk[q], G) * wk[q]
        for a in range(n):
            na = conn[e, a]
            deg = indptr[na + 1] - indptr[na]
            base = 9 * indptr[na]
            for b in range(n):
                k = slots[e, a, b] - indptr[na]
                dot = G[a, 0] * G[b, 0] + G[a, 1] * G[b, 1] + G[a, 2] * G[b, 2]
                for i in range(3):
                    row = base + 3 * i * deg + 3 * k
                    for j in range(3):
                        v = lam * G[a, i] * G[b, j] + mu * G[a, j] * G[b, i]
                        if i == j:
                            v += mu * dot
                        K[row + j] += w * v
    for q in range(wm.size):
        w = _physical_gradients(X, dm[q], G) * wm[q] * rho
        for a in range(n):
            for b in range(n):
                Ms[slots[e, a, b]] += w * Nm[q, a] * Nm[q, b]


@njit(parallel=True, cache=True)
def stiffness_and_mass(points, conn, slots, indptr, order, cptr, dk, wk, dm, Nm, wm, lam, mu, rho, K, Ms):
    """Add every element's stiffness into K (dof-level CSR data on :func:`dof_pattern`) and its scalar
    mass into Ms (node-level CSR data); dk, wk: ∂N/∂ξ (n_q, n, 3) and weights of the stiffness rule,
    dm, Nm, wm: ∂N/∂ξ, N and weights of the mass rule. Colour by colour (:func:`element_colors`), the
    elements of one colour on all threads."""
    for c in range(cptr.size - 1):
        for t in prange(cptr[c], cptr[c + 1]):
            _add_element(order[t], points, conn, slots, indptr, dk, wk, dm, Nm, wm, lam, mu, rho, K, Ms)
