"""Consistent initial conditions of the index-3 DAE.

1. Positions: the closest configuration to the user's guess in the mass-weighted sense
   (plus identity weight for massless coordinates) that satisfies Φ(q, t₀) = 0, by Newton
   on the optimality system [[W, Φ_qᵀ], [Φ_q, 0]].
2. Velocities: the minimal-change projection onto Φ_q v = −Φ_t.
3. Accelerations and multipliers: [[M, Φ_qᵀ], [Φ_q, 0]] [q̈; λ] = [Q; γ].
A guess farther than ``max_correction`` (m, in any coordinate) from a consistent
configuration is reported as an inconsistent model rather than silently moved.
"""
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from femdyn.errors import ConstraintError, SingularMatrixError

from .diagnosis import singular_saddle


def _weight(system):
    d = system.M.diagonal()
    scale = d.max() if d.size and d.max() > 0 else 1.0
    return (system.M + sp.diags(np.where(d > 0, 0.0, scale) + 1e-9 * scale)).tocsc()


def _saddle(W, Phi_q):
    return sp.bmat([[W, Phi_q.T], [Phi_q, None]], format="csc")


def _factor(matrix, system, q, t, what):
    try:
        return spla.splu(matrix)
    except RuntimeError:
        A = matrix[:system.n, :system.n]
        raise SingularMatrixError(f"{what} at t = {t:g} s: singular matrix; {singular_saddle(system, A, q, t)}") \
            from None


def consistent_positions(system, q, t=0.0, tol=1e-12, max_iter=30, max_correction=1e-3):
    c = system.constraints
    W = _weight(system)
    q = q.copy()
    target = q.copy()
    lam = np.zeros(system.m)
    for _ in range(max_iter):
        phi, jac = c.evaluate(q, t)
        Phi_q = c.jac_pattern.assemble(jac)
        if np.linalg.norm(phi, np.inf) <= tol:
            break
        rhs = -np.concatenate([W @ (q - target) + Phi_q.T @ lam, phi])
        x = _factor(_saddle(W, Phi_q), system, q, t, "initial position projection").solve(rhs)
        q += x[:system.n]
        lam += x[system.n:]
    else:
        worst = np.argsort(-np.abs(phi))[:5]
        raise ConstraintError(f"cannot satisfy the constraints at t = {t:g} s (|Φ| = {np.abs(phi).max():.3g}); "
                              f"conflicting or unsatisfiable rows: {[c.labels[i] for i in worst]}")
    moved = np.abs(q - target).max() if q.size else 0.0
    if moved > max_correction:
        i = int(np.argmax(np.abs(q - target)))
        raise ConstraintError(f"the initial configuration violates the constraints: coordinate "
                              f"'{system.labels[i]}' had to move by {moved:.3g} m (> {max_correction:g}); "
                              "fix the node positions or the joint geometry")
    return q


def consistent_velocities(system, q, v, t=0.0):
    c = system.constraints
    Phi_q = c.jacobian(q, t)
    phi_t, _ = c.acceleration_terms(q, v, t)
    W = _weight(system)
    rhs = np.concatenate([np.zeros(system.n), -phi_t - Phi_q @ v])
    x = _factor(_saddle(W, Phi_q), system, q, t, "initial velocity projection").solve(rhs)
    return v + x[:system.n]


def accelerations_and_multipliers(system, q, v, t=0.0):
    c = system.constraints
    Phi_q = c.jacobian(q, t)
    _, gamma = c.acceleration_terms(q, v, t)
    rhs = np.concatenate([system.forces(q, v, t), gamma])
    x = _factor(_saddle(system.M.tocsc(), Phi_q), system, q, t, "initial accelerations").solve(rhs)
    return x[:system.n], x[system.n:]


def check_redundancy(system, q, t=0.0, dense_limit=1000):
    """Raise ConstraintError naming linearly dependent constraint rows (dense SVD, so only
    for m ≤ ``dense_limit``; larger models rely on the factorization's own check)."""
    if system.m > dense_limit:
        return
    redundant = system.redundant_constraints(q, t)
    if redundant:
        raise ConstraintError(f"model '{system.model.name}': redundant constraints; these rows are linearly "
                              f"dependent: {redundant}. Remove a joint that repeats another (e.g. a fix and a "
                              "joint to ground at the same point) or use a joint with fewer equations")


def consistent_state(system, q=None, v=None, t=0.0, max_correction=1e-3):
    """(q, v, q̈, λ) consistent at position, velocity and acceleration level."""
    q = consistent_positions(system, system.q0 if q is None else q, t, max_correction=max_correction)
    check_redundancy(system, q, t)
    v = consistent_velocities(system, q, system.v0 if v is None else v, t)
    a, lam = accelerations_and_multipliers(system, q, v, t)
    return q, v, a, lam
