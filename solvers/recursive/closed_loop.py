"""Closed loops: a spanning tree plus cut-joint constraints solved with Lagrange multipliers.

Each cut joint gives point and perpendicularity rows Φ(q) = 0 between its frames on two
bodies (García de Jalón & Bayo 1994, ch. 3); the dynamics

    H q̈ + C = τ + Jᵀ λ,      J q̈ = −J̇ q̇ − 2α Φ̇ − β² Φ        (RBDA ch. 8; Baumgarte 1972)

is solved multipliers first (Wang et al.): λ = (J H⁻¹ Jᵀ)⁻¹ (…), one ABA per row.
:func:`independent_rows` keeps independent rows (pivoted QR, Golub & Van Loan 2013, §5.4.2);
:func:`project` restores Φ = 0, J v = 0 (Bayo & Ledesma 1996); :func:`close_loops` does both.
Row table and derivation: docs/solvers.md ("Recursive trees").
"""
from dataclasses import dataclass, replace

import numpy as np

from femdyn.errors import ConstraintError, ConvergenceError, ModelError
from femdyn.linalg import independent_rows as _independent
from femdyn.input_checks import finite

from .dynamics import forward_dynamics, inverse_dynamics, kinematics
from .model import proper_rotation
from femdyn.geometry import skew

POINT_ROWS = {"spherical": 3, "revolute": 3, "prismatic": 2, "fixed": 3}        # prismatic: along n1, n2 of A
ORIENTATION_ROWS = {"spherical": (), "revolute": ((0, 2), (1, 2)),      # (axis of A, axis of B): 0 n1, 1 n2, 2 u
                    "prismatic": ((0, 1), (1, 2), (2, 0)), "fixed": ((0, 1), (1, 2), (2, 0))}


def _joint_triad(axis):
    """Right-handed orthonormal triad (n1, n2, u) of a joint axis."""
    u = np.asarray(axis, float) / np.linalg.norm(axis)
    e = np.eye(3)[np.argmin(np.abs(u))]
    n1 = e - (e @ u) * u
    n1 /= np.linalg.norm(n1)
    return np.column_stack([n1, np.cross(u, n1), u])


def cross(a, b):
    """Cross product a × b over the last axis of 3-vectors or stacks of them."""
    a1, a2, a3 = a[..., 0], a[..., 1], a[..., 2]
    b1, b2, b3 = b[..., 0], b[..., 1], b[..., 2]
    return np.stack([a2 * b3 - a3 * b2, a3 * b1 - a1 * b3, a1 * b2 - a2 * b1], axis=-1)


def _frame(frame, what):
    """(R, p) of a joint frame as nested tuples, checked: R a rotation, p (m) a finite 3-vector."""
    try:
        R, p = frame
    except (TypeError, ValueError):
        raise ModelError(f"{what}: expected a pair (R, p) — rotation 3×3 and origin (m) in body coordinates") from None
    R, p = proper_rotation(R, f"{what}: R"), finite(p, f"{what}: p (m)", (3,))
    return tuple(map(tuple, R)), tuple(p)


@dataclass(frozen=True)
class LoopClosure:
    """The constraint rows of one cut joint (rows: docs/solvers.md, "Closed loops").

    Frames A (body a) and B (body b) coincide at zero; the forces Jᵀλ act on a, reactions on b.

    Parameters
    ----------
    kind : {"spherical", "revolute", "prismatic", "fixed"}
        Kind of the cut joint.
    a : int
        Tree index of body a.
    frame_a : tuple
        (R, p) of the joint frame in body-a coordinates: R's columns are the frame axes, p the origin [m].
    b : int
        Tree index of body b (≠ a).
    frame_b : tuple
        (R, p) of the joint frame in body-b coordinates.
    axis : (3,) tuple, optional
        Joint axis in joint-frame coordinates (revolute, prismatic).
    rows : tuple of int, optional
        Imposed candidate rows (point rows first); all by default, see :func:`independent_rows`.

    Raises
    ------
    ModelError
        For an unknown kind, equal or negative body indices, a zero axis, bad frames or row indices out of range.
    """
    kind: str
    a: int
    frame_a: tuple
    b: int
    frame_b: tuple
    axis: tuple = (0.0, 0.0, 1.0)
    rows: tuple = None

    def __post_init__(self):
        name = f"cut joint ({self.kind}) between bodies {self.a} and {self.b}"
        if self.kind not in POINT_ROWS:
            raise ModelError(f"{name}: unknown kind; a cut joint is one of {sorted(POINT_ROWS)}")
        bodies = (self.a, self.b)
        if not all(isinstance(i, (int, np.integer)) and i >= 0 for i in bodies) or self.a == self.b:
            raise ModelError(f"{name}: a and b must be two different tree body indices (≥ 0)")
        axis = finite(self.axis, f"{name}: axis", (3,))
        if not np.linalg.norm(axis) > 0:
            raise ModelError(f"{name}: axis {self.axis!r} must be a nonzero 3-vector")
        count = POINT_ROWS[self.kind] + len(ORIENTATION_ROWS[self.kind])
        rows = tuple(range(count)) if self.rows is None else self.rows
        if not all(isinstance(k, (int, np.integer)) and 0 <= k < count for k in rows):
            raise ModelError(f"{name}: rows {self.rows!r} must be indices below {count} (its candidate rows)")
        rows = tuple(sorted({int(k) for k in rows}))
        self._set(a=int(self.a), b=int(self.b), axis=tuple(axis), rows=rows,
                  frame_a=_frame(self.frame_a, f"{name}: frame_a"), frame_b=_frame(self.frame_b, f"{name}: frame_b"))
        triad = _joint_triad(axis)
        on_a = np.asarray(self.frame_a[0]) @ triad                  # the triad in body-a coordinates (columns)
        on_b = np.asarray(self.frame_b[0]) @ triad
        on_a_normals = self.kind == "prismatic"
        points = on_a.T[:2] if on_a_normals else np.eye(3)
        pairs = [(on_a[:, i], on_b[:, j]) for i, j in ORIENTATION_ROWS[self.kind]]
        kept_pairs = [pairs[k - len(points)] for k in rows if k >= len(points)]
        self._set(_normals=np.array([points[k] for k in rows if k < len(points)]).reshape(-1, 3),
                  _normals_on_a=on_a_normals,                                      # else world axes
                  _pair_a=np.array([c for c, _ in kept_pairs]).reshape(-1, 3),      # body-a coordinates
                  _pair_b=np.array([d for _, d in kept_pairs]).reshape(-1, 3))      # body-b coordinates

    def _set(self, **fields):
        for key, value in fields.items():
            object.__setattr__(self, key, value)

    @property
    def size(self):
        """Number of imposed rows."""
        return len(self.rows)


def _checked(model, closures):
    """The closures as a tuple, each a LoopClosure of this model's bodies."""
    closures = tuple(closures)
    for c in closures:
        if not isinstance(c, LoopClosure) or max(c.a, c.b) >= model.n:
            raise ModelError(f"closure {c!r} is not a LoopClosure of this model's bodies (0 … {model.n - 1}); "
                             "build the closures from this model's topology")
    return closures


def _joint_frames(data, c):
    """World rotations of bodies a and b and the world origins x_A, x_B of the two joint frames."""
    Ra, Rb = data.R_world[c.a], data.R_world[c.b]
    return Ra, Rb, data.p_world[c.a] + Ra @ c.frame_a[1], data.p_world[c.b] + Rb @ c.frame_b[1]


def _normals(c, Ra):
    """World directions (rows) of the point rows: fixed in A (prismatic) or the world axes."""
    return c._normals @ Ra.T if c._normals_on_a else c._normals


def _closure_residual(data, c):
    """Φ of one closure from the kinematics in ``data``."""
    Ra, Rb, xa, xb = _joint_frames(data, c)
    return np.r_[_normals(c, Ra) @ (xa - xb), np.einsum("ij,ij->i", c._pair_a @ Ra.T, c._pair_b @ Rb.T)]


def residual(model, data, q, closures):
    """Closure residual Φ(q) stacked over the closures."""
    closures = _checked(model, closures)
    kinematics(model, data, q)
    return np.concatenate([_closure_residual(data, c) for c in closures] + [np.zeros(0)])


def _body_jacobian(model, data, body, x):
    """(J_ω, J_x), 3 × nv each: world angular velocity of ``body`` and velocity of the world point x fixed to it."""
    Jw, Jx = np.zeros((3, model.nv)), np.zeros((3, model.nv))
    i = body
    while i >= 0:
        cols = slice(model.v_index[i], model.v_index[i] + model.joint_nv[i])
        R, S = data.R_world[i], model.S[i, :, :model.joint_nv[i]]
        Jw[:, cols] = R @ S[:3]
        Jx[:, cols] = R @ S[3:] - skew(x - data.p_world[i]) @ Jw[:, cols]
        i = model.parent[i]
    return Jw, Jx


def _closure_jacobian(model, data, c):
    """Rows (f × g)ᵀ J_ω + fᵀ J_g of Φ = f·g (docs/solvers.md) for the point and orientation rows of ``c``."""
    Ra, Rb, xa, xb = _joint_frames(data, c)
    Jw_a, Jx_a = _body_jacobian(model, data, c.a, xa)
    Jw_b, Jx_b = _body_jacobian(model, data, c.b, xb)
    n = _normals(c, Ra)
    points = n @ (Jx_a - Jx_b) + (cross(n, xa - xb) @ Jw_a if c._normals_on_a else 0.0)
    return np.vstack([points, cross(c._pair_a @ Ra.T, c._pair_b @ Rb.T) @ (Jw_a - Jw_b)])


def jacobian(model, data, q, closures):
    """Closure Jacobian J in velocity coordinates, Φ̇ = J v."""
    closures = _checked(model, closures)
    kinematics(model, data, q)
    return np.vstack([_closure_jacobian(model, data, c) for c in closures] + [np.zeros((0, model.nv))])


def _frame_motion(data, body, r):
    """World angular velocity and acceleration of ``body``, and position, velocity and acceleration of its
    point r (body coordinates), from ``data.vel``/``data.acc`` of a gravity-free RNEA sweep at q̈ = 0."""
    R, (w, v_o), (alpha, a_o) = data.R_world[body], data.vel[body].reshape(2, 3), data.acc[body].reshape(2, 3)
    v_point = v_o + cross(w, r)
    a_point = a_o + cross(alpha, r) + cross(w, v_point)
    return R @ w, R @ alpha, data.p_world[body] + R @ r, R @ v_point, R @ a_point


def _spin(w, alpha, vectors):
    """First and second derivatives (q̈ = 0) of world vectors (rows) fixed in a body: ω × f, α × f + ω × (ω × f)."""
    rate = cross(w, vectors)
    return rate, cross(alpha, vectors) + cross(w, rate)


def _closure_bias(data, c):
    """J̇v = f̈·g + 2 ḟ·ġ + f·g̈ for every row of ``c`` (docs/solvers.md)."""
    wa, alpha_a, xa, va, acc_a = _frame_motion(data, c.a, np.asarray(c.frame_a[1]))
    wb, alpha_b, xb, vb, acc_b = _frame_motion(data, c.b, np.asarray(c.frame_b[1]))
    Ra, Rb = data.R_world[c.a], data.R_world[c.b]
    n = _normals(c, Ra)
    points = n @ (acc_a - acc_b)
    if c._normals_on_a:
        n_rate, n_acc = _spin(wa, alpha_a, n)
        points = points + n_acc @ (xa - xb) + 2 * n_rate @ (va - vb)
    f, g = c._pair_a @ Ra.T, c._pair_b @ Rb.T
    (f_rate, f_acc), (g_rate, g_acc) = _spin(wa, alpha_a, f), _spin(wb, alpha_b, g)
    return np.r_[points, np.einsum("ij,ij->i", f_acc, g) + 2 * np.einsum("ij,ij->i", f_rate, g_rate)
                 + np.einsum("ij,ij->i", f, g_acc)]


def bias(model, data, q, v, closures):
    """J̇ q̇: the closure rows' second derivative at q̈ = 0."""
    closures = _checked(model, closures)
    inverse_dynamics(model, data, q, v, np.zeros(model.nv), gravity=np.zeros(3))
    return np.concatenate([_closure_bias(data, c) for c in closures] + [np.zeros(0)])


def constrained_forward_dynamics(model, data, q, v, tau, closures, alpha=0.0, beta=0.0):
    """Accelerations and multipliers of the closed-loop system: multipliers first, then the tree's ABA.

    λ = (J Y)⁻¹ (−J̇q̇ − 2αΦ̇ − β²Φ − J q̈₀), q̈₀ = ABA(τ), Y = H⁻¹ Jᵀ, q̈ = q̈₀ + Y λ (RBDA ch. 8; Baumgarte 1972).

    Parameters
    ----------
    model, data : TreeModel, Data
        The spanning tree and its workspace.
    q, v : (nq,), (nv,) array_like
        Joint coordinates and velocities.
    tau : (nv,) array_like
        Joint forces [N·m or N].
    closures : sequence of LoopClosure
        The cut joints, with independent rows (:func:`independent_rows`, :func:`close_loops`).
    alpha, beta : float, optional
        Baumgarte stabilisation gains [1/s] (0: none).

    Returns
    -------
    qdd : (nv,) ndarray
        Joint accelerations.
    lam : ndarray
        Multipliers of the imposed rows (N for point rows, N·m for orientation rows); the
        constraint forces Jᵀλ act on body a, their reactions on body b.

    Raises
    ------
    ConstraintError
        If J H⁻¹ Jᵀ is singular (dependent rows or a singular loop configuration).
    """
    J = jacobian(model, data, q, closures)
    phi = residual(model, data, q, closures)
    qdd0 = forward_dynamics(model, data, q, v, tau)
    if not len(J):
        return qdd0, np.zeros(0)
    rhs = -bias(model, data, q, v, closures) - 2 * alpha * (J @ v) - beta**2 * phi
    zero = np.zeros(model.nv)
    Y = np.column_stack([forward_dynamics(model, data, q, zero, row, gravity=np.zeros(3)) for row in J])
    A = J @ Y
    condition = np.linalg.cond(A)
    if not condition < 1e12:
        raise ConstraintError(f"closure rows are dependent, or the loop is singular here (J H⁻¹ Jᵀ has condition "
                              f"{condition:.2e}); keep independent rows with independent_rows() or close_loops() at "
                              "an assembled configuration")
    lam = np.linalg.solve(A, rhs - J @ qdd0)
    return qdd0 + Y @ lam, lam


def independent_rows(model, data, q, closures, tol=1e-9):
    """The closures with only a largest independent subset of their rows, chosen at q.
    Rank-revealing QR of Jᵀ (Golub & Van Loan 2013, §5.4.2)."""
    closures = _checked(model, closures)
    J = jacobian(model, data, q, closures)
    kept = set(_independent(J, tol).tolist())
    out, start = [], 0
    for c in closures:
        out.append(replace(c, rows=tuple(r for k, r in enumerate(c.rows) if start + k in kept)))
        start += c.size
    return tuple(out)


def project(model, data, q, v, closures, space, tol=1e-12, max_iter=20):
    """Restore Φ(q) = 0 and J v = 0 by minimum-norm corrections.

    Least-squares Gauss–Newton in q ⊕ δ, then the velocity projection (Bayo & Ledesma 1996).

    Parameters
    ----------
    model, data : TreeModel, Data
        The spanning tree and its workspace.
    q, v : (nq,), (nv,) array_like
        Joint coordinates and velocities.
    closures : sequence of LoopClosure
        The cut joints.
    space : TreeSpace or VectorSpace
        Configuration space (its ``integrate``).
    tol : float, optional
        Largest ‖Φ‖ accepted [m].
    max_iter : int, optional
        Gauss–Newton iterations.

    Returns
    -------
    q, v : ndarray
        Projected coordinates and velocities.

    Raises
    ------
    ConvergenceError
        If the loop cannot be assembled from this configuration.
    """
    for _ in range(max_iter):
        phi = residual(model, data, q, closures)
        if not phi.size or np.abs(phi).max() <= tol:
            break
        J = jacobian(model, data, q, closures)
        q = space.integrate(q, -np.linalg.lstsq(J, phi, rcond=None)[0])
    else:
        raise ConvergenceError(f"closure projection: residual {np.abs(phi).max():.3e} after {max_iter} "
                               "iterations; the loop cannot be assembled from this configuration")
    J = jacobian(model, data, q, closures)
    if len(J):
        v = v - np.linalg.lstsq(J, J @ v, rcond=None)[0]
    return q, v


def close_loops(model, data, q, v, closures, space, tol=1e-9):
    """Project onto Φ = 0, J v = 0 (:func:`project`), then keep independent rows (:func:`independent_rows`).

    Parameters
    ----------
    model, data : TreeModel, Data
        The spanning tree and its workspace.
    q, v : (nq,), (nv,) array_like
        Joint coordinates (near an assembled configuration) and velocities.
    closures : sequence of LoopClosure
        The cut joints, all rows.
    space : TreeSpace or VectorSpace
        Configuration space.
    tol : float, optional
        Row-selection threshold of :func:`independent_rows`.

    Returns
    -------
    q, v : ndarray
        Assembled state.
    closures : tuple of LoopClosure
        With independent rows.

    Raises
    ------
    ConvergenceError
        If the loop cannot be assembled.
    """
    q, v = project(model, data, q, v, closures, space)
    return q, v, independent_rows(model, data, q, closures, tol)
