"""Which rows of a matrix are independent: the one rank decision of the model, the solvers and the identification.

Two orders of choice. *Pivoted* (default): rank-revealing QR with column pivoting of Aᵀ
(Businger & Golub 1965; Golub & Van Loan 2013, §5.4.2) keeps the rows that span the most,
largest first, while |R_kk| > tol·max|R_kk|. *Ordered*: row k is kept when its distance to the
span of the rows before it exceeds tol·‖row k‖ (and ``atol``), so earlier rows have priority.
"""
import numpy as np
import scipy.linalg as sla


def pivoted_qr(A, tol):
    """Rank-revealing QR with column pivoting of the columns of A, A[:, order] = Q R (economic):
    (Q, R, order, rank), rank = #{|R_kk| > tol·max|R_kk|} (0 for an empty or zero A).

    >>> _, _, order, rank = pivoted_qr([[1.0, 2.0, 0.0], [3.0, 6.0, 0.0]], 1e-9)
    >>> rank, sorted(order[:rank].tolist())
    (1, [1])
    """
    Q, R, order = sla.qr(np.asarray(A, float), mode="economic", pivoting=True)
    diagonal = np.abs(np.diag(R))
    top = diagonal.max(initial=0.0)
    rank = int(np.sum(diagonal > tol * top)) if top > 0 else 0
    return Q, R, order, rank


def independent_rows(A, tol=1e-9, ordered=False, given=0, atol=0.0, limit=None):
    """Ascending indices of a largest set of linearly independent rows of A (see the module notes).

    ``tol`` is relative (to max|R_kk| pivoted; to the row's norm ``ordered``). With ``ordered``: the
    first ``given`` rows span the start and are not returned, a kept row's distance must also
    exceed ``atol``, and at most ``limit`` rows are kept.

    >>> A = [[1.0, 0.0], [2.0, 0.0], [0.0, 1.0]]
    >>> independent_rows(A).tolist(), independent_rows(A, ordered=True).tolist()
    ([1, 2], [0, 2])
    """
    A = np.atleast_2d(np.asarray(A, float))
    if not ordered:
        if A.size == 0:
            return np.zeros(0, int)
        _, _, order, rank = pivoted_qr(A.T, tol)
        return np.sort(order[:rank])
    basis = _row_basis(A[:given], tol)
    kept = []
    for k in range(given, A.shape[0]):
        if limit is not None and len(kept) >= limit:
            break
        row = A[k]
        residual = row - basis.T @ (basis @ row)
        size = np.linalg.norm(residual)
        if size > tol * np.linalg.norm(row) and size > atol:
            kept.append(k)
            basis = np.vstack([basis, residual / size])
    return np.asarray(kept, int)


def _row_basis(A, tol):
    """Orthonormal basis (rows) of the row space of A (singular values > tol·max)."""
    if A.shape[0] == 0:
        return np.zeros((0, A.shape[1]))
    _, s, Vt = np.linalg.svd(A, full_matrices=False)
    return Vt[s > tol * max(s[0], 1e-300)]
