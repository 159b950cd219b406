"""Rank and redundancy screening of constraint rows: which joint rows to keep, the rank of Φ_q, the dependent rows.

A model may state a joint row that others imply (a planar linkage closed by revolutes, a weld
beside a clamp). At assembly :func:`independent_joint_rows` keeps, in model order, the joint
rows independent at q0 of those before them; it looks only into the linkages (connected blocks
of the row–column incidence, :func:`linkages`) that hold auxiliary rows or a row CHOLMOD finds
deficient, so a model without redundancy costs one sparse factorization. :func:`jacobian_rank`
and :func:`dependent_rows` diagnose a Jacobian at any state (dense SVD). Notes:
docs/solvers.md ("Redundant constraints and singular positions").
"""
import numpy as np
import scipy.sparse
import scipy.sparse.csgraph

from ..linalg import independent_rows
from .constraints import ConstraintSet

RANK_TOL = 1e-9          # singular values above RANK_TOL × the largest count towards the rank


def linkages(rows):
    """Connected-block label of every row, then every column, of a sparse matrix (its row–column incidence graph)."""
    incidence = scipy.sparse.bmat([[None, rows != 0], [(rows != 0).T, None]], format="csr")
    return scipy.sparse.csgraph.connected_components(incidence, directed=False)[1]


def independent_joint_rows(primary, candidates, n, q0, tol=1e-9, auxiliary=0):
    """Whether to keep each candidate row: independent at q0 of those before it, in the blocks with auxiliary or screened rows.

    ``primary`` are the equations always kept (unit lengths, parts' own rows), ``candidates`` the
    joint rows in model order, the last ``auxiliary`` of them the model's own auxiliary rows.
    """
    if not candidates:
        return []
    rows = ConstraintSet(primary + candidates, n).jacobian(q0, 0.0).tocsr()
    rows.eliminate_zeros()
    m = rows.shape[0]
    label = linkages(rows)
    keep = np.ones(len(candidates), bool)
    first = len(primary)
    suspect = np.concatenate([label[m - auxiliary:m], label[:m][_deficient(rows)]])
    for block in np.unique(suspect):
        members = np.flatnonzero(label[:m] == block)
        cols = np.flatnonzero(label[m:] == block)
        dense = rows[members][:, cols].toarray()
        given = int(np.sum(members < first))            # members ascending: the primary rows come first
        keep[members[given:] - first] = False
        keep[members[independent_rows(dense, tol, ordered=True, given=given)] - first] = True
    return keep.tolist()


def _deficient(rows, shift=1e-14, small=1e-10):
    """Rows whose pivot in LDLᵀ of R Rᵀ + shift·I (R: unit rows) is below ``small`` (all when CHOLMOD fails)."""
    norms = np.sqrt(np.asarray(rows.multiply(rows).sum(axis=1)).ravel())
    R = scipy.sparse.diags(1.0 / np.where(norms > 0, norms, 1.0)) @ rows
    try:
        from sksparse.cholmod import cholesky_AAt
        factor = cholesky_AAt(R.tocsc(), beta=shift, mode="simplicial")
    except Exception:                   # noqa: BLE001 - any CHOLMOD failure falls back to the dense decision
        return np.ones(rows.shape[0], bool)
    mask = np.zeros(rows.shape[0], bool)
    mask[factor.P()[factor.D() < small]] = True
    return mask


def equation_rows(rows, kept, name, aside, m):
    """A joint's rows among all equations: its kept rows, and its set-aside ones after the m kept rows of the model."""
    later = iter(m + i for i, (owner, _) in enumerate(aside) if owner == name)
    kept_rows = iter(rows)
    return np.array([next(kept_rows) if k else next(later) for k in kept], np.int64)


def _compressed(jacobian):
    """Dense Φ_q (m × n), or for m < n the m × m Rᵀ of Φ_qᵀ = Q R: the same U and σ, its SVD far cheaper."""
    Phi_q = jacobian.toarray()
    m, n = Phi_q.shape
    return np.linalg.qr(Phi_q.T, mode="r").T if m < n else Phi_q


def jacobian_rank(jacobian):
    """(rank, singular values) of a sparse Φ_q, rank counted above RANK_TOL × the largest (dense SVD)."""
    if jacobian.shape[0] == 0:
        return 0, np.zeros(0)
    s = np.linalg.svd(_compressed(jacobian), compute_uv=False)
    return int(np.sum(s > RANK_TOL * max(s[0], 1e-300))), s


def dependent_rows(jacobian, labels, count=6):
    """Labels of the rows of a sparse Φ_q in a linear dependency (empty at full row rank), the most involved first."""
    m, n = jacobian.shape
    U, s, _ = np.linalg.svd(_compressed(jacobian), full_matrices=m > n)   # full U when m > n
    tol = RANK_TOL * max(s[0], 1e-300) if s.size else 0.0
    rank = int(np.sum(s > tol))
    if rank == m:
        return []
    weight = np.abs(U[:, rank:]).max(axis=1)
    return [labels[i] for i in np.argsort(-weight)[:count] if weight[i] > 1e-6]
