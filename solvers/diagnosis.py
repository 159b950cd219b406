"""Why a saddle-point matrix [[A, Φ_qᵀ], [Φ_q, 0]] is singular, in the model's words.

Two causes exist (the matrix is regular exactly when Φ_q has full row rank and A is
positive definite on the null space of Φ_q):

1. Φ_q is rank deficient: some constraint rows are linearly dependent (redundant or
   conflicting joints) — named by :meth:`~femdyn.model.system.System.redundant_constraints`.
2. Some motion allowed by the constraints has no inertia (and no stiffness): an unused
   node, or the spin of a rigid beam carrying an axis vector that no joint fixes. The
   null vectors of the matrix then point at the coordinates involved, which are named.

Both tests use dense SVDs and are meant for diagnosis after a failure, not for inner
loops; above ``dense_limit`` coordinates + constraints they are skipped.
"""
import numpy as np
import scipy.sparse


def singular_saddle(system, S, q, t, dense_limit=4000, count=6):
    """A sentence naming the redundant constraint rows or the coordinates of a massless free motion."""
    n, m = system.n, system.m
    if n + m > dense_limit:
        return (f"the model is too large ({n} coordinates, {m} constraints) for a dense diagnosis; look for "
                "redundant joints, unused nodes or unfixed massless motions")
    redundant = system.redundant_constraints(q, t, count)
    if redundant:
        return ("the constraint Jacobian is rank deficient; these rows are linearly dependent (remove redundant "
                f"joints or use joints with fewer equations): {redundant}")
    free = _free_massless_coordinates(system, S, count)
    return ("Φ_q has full rank, but a motion allowed by the constraints has no inertia or stiffness; it moves the "
            f"coordinates {free}: connect these nodes to a body or a joint, give them mass, or fix them (an unused "
            "node, or the spin of a rigid beam carrying an axis vector that no joint fixes, does this)")


def _free_massless_coordinates(system, S, count=6):
    """Labels of the coordinates that take part in a null vector of the saddle matrix."""
    _, s, Vt = np.linalg.svd(S.toarray() if scipy.sparse.issparse(S) else np.asarray(S))
    null = Vt[s <= 1e-10 * max(s[0], 1e-300), :system.n]
    if not null.size:
        return []
    weight = np.abs(null).max(axis=0)
    return [system.labels[i] for i in np.argsort(-weight)[:count] if weight[i] > 1e-6]
