"""Closed loops: a spanning tree plus closure constraints solved with Lagrange multipliers.

A cut joint (seed 003; RBDA ch. 8, "closed-loop systems") makes two body points coincide,
Φ(q) = x_a(q) − x_b(q) = 0, along chosen world directions (x, y, z; a planar loop keeps
two). The dynamics is

    H q̈ + C = τ + Jᵀ λ,      J q̈ = −J̇ q̇ − 2α Φ̇ − β² Φ        (RBDA ch. 8; Baumgarte 1972)

and the multipliers are solved *first* (seed 003): with the tree's forward dynamics
q̈₀ = ABA(τ) and Y = H⁻¹ Jᵀ (one ABA per constraint row, zero velocity and gravity),
λ = (J Y)⁻¹ (−J̇q̇ − 2αΦ̇ − β²Φ − J q̈₀), then q̈ = q̈₀ + Y λ. :func:`project` restores
Φ = 0 and J v = 0 by minimum-norm Gauss–Newton steps (Bayo & Ledesma 1996 style
position/velocity projection) to hold the residual at round-off during a run.
"""
from dataclasses import dataclass

import numpy as np

from femdyn.errors import ConstraintError, ConvergenceError

from .dynamics import forward_dynamics, inverse_dynamics, kinematics


@dataclass(frozen=True)
class PointClosure:
    """Point ``point_a`` (m, body-a coordinates) of body ``a`` coincides with ``point_b`` of body ``b``
    along the world ``directions`` (rows); bodies are tree indices."""
    a: int
    point_a: tuple
    b: int
    point_b: tuple
    directions: tuple = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def _point(data, body, r):
    return data.p_world[body] + data.R_world[body] @ np.asarray(r, float)


def residual(model, data, q, closures):
    """Φ(q) (m), stacked over the closures."""
    kinematics(model, data, q)
    return np.concatenate([np.asarray(c.directions) @ (_point(data, c.a, c.point_a) - _point(data, c.b, c.point_b))
                           for c in closures])


def _point_jacobian(model, data, body, x):
    """3 × nv Jacobian of the world velocity of world point x fixed to ``body`` (kinematics already run)."""
    J = np.zeros((3, model.nv))
    i = body
    while i >= 0:
        R, p = data.R_world[i], data.p_world[i]
        for k in range(model.joint_nv[i]):
            w, v = R @ model.S[i, :3, k], R @ model.S[i, 3:, k]
            J[:, model.v_index[i] + k] = v + np.cross(w, x - p)
        i = model.parent[i]
    return J


def jacobian(model, data, q, closures):
    """J = ∂Φ/∂q in velocity coordinates (rows × nv)."""
    kinematics(model, data, q)
    rows = []
    for c in closures:
        D = np.asarray(c.directions)
        xa, xb = _point(data, c.a, c.point_a), _point(data, c.b, c.point_b)
        rows.append(D @ (_point_jacobian(model, data, c.a, xa) - _point_jacobian(model, data, c.b, xb)))
    return np.vstack(rows)


def _point_bias_acceleration(data, body, r):
    """World acceleration of body point r at q̈ = 0 from data.vel / data.acc (gravity-free sweep)."""
    v, a = data.vel[body], data.acc[body]
    r = np.asarray(r, float)
    v_point = v[3:] + np.cross(v[:3], r)
    return data.R_world[body] @ (a[3:] + np.cross(a[:3], r) + np.cross(v[:3], v_point))


def bias(model, data, q, v, closures):
    """J̇ q̇ (m/s²): the closure acceleration at q̈ = 0."""
    inverse_dynamics(model, data, q, v, np.zeros(model.nv), gravity=np.zeros(3))
    return np.concatenate([np.asarray(c.directions) @ (_point_bias_acceleration(data, c.a, c.point_a)
                                                       - _point_bias_acceleration(data, c.b, c.point_b))
                           for c in closures])


def constrained_forward_dynamics(model, data, q, v, tau, closures, alpha=0.0, beta=0.0):
    """(q̈, λ) of the closed-loop system: multipliers first, then the tree's ABA (see module doc).

    alpha (1/s), beta (1/s): Baumgarte stabilisation gains (0 = none). λ are the closure
    forces (N) along the closure directions, acting on body a (and −λ on body b).
    """
    J = jacobian(model, data, q, closures)
    phi = residual(model, data, q, closures)
    rhs = -bias(model, data, q, v, closures) - 2 * alpha * (J @ v) - beta**2 * phi
    qdd0 = forward_dynamics(model, data, q, v, tau)
    zero = np.zeros(model.nv)
    Y = np.column_stack([forward_dynamics(model, data, q, zero, row, gravity=np.zeros(3)) for row in J])
    A = J @ Y
    if np.linalg.cond(A) > 1e12:
        raise ConstraintError("closure constraints are redundant or the loop is singular here (J H⁻¹ Jᵀ has "
                              f"condition {np.linalg.cond(A):.2e}); drop dependent directions, e.g. keep x, y "
                              "for a planar loop")
    lam = np.linalg.solve(A, rhs - J @ qdd0)
    return qdd0 + Y @ lam, lam


def project(model, data, q, v, closures, space, tol=1e-12, max_iter=20):
    """(q, v) with Φ(q) = 0 and J v = 0 by minimum-norm corrections (Gauss–Newton in q ⊕ δ)."""
    for _ in range(max_iter):
        phi = residual(model, data, q, closures)
        if np.abs(phi).max() <= tol:
            break
        J = jacobian(model, data, q, closures)
        q = space.integrate(q, -np.linalg.lstsq(J, phi, rcond=None)[0])
    else:
        raise ConvergenceError(f"closure projection: residual {np.abs(phi).max():.3e} m after {max_iter} "
                               "iterations; the loop cannot be assembled from this configuration")
    J = jacobian(model, data, q, closures)
    return q, v - np.linalg.lstsq(J, J @ v, rcond=None)[0]
