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

from femdyn.errors import ConstraintError, SingularMatrixError
from femdyn.model.checks import check_finite_state

from .blocks import TangentValues
from .kkt import KKTMatrix


def projection_diagonal(system, q):
    """Diagonal D of the minimum-change weight W = M(q) + D.

    A unit entry (relative to the largest mass entry) on massless coordinates, and 1e-9 of
    it everywhere, so that W is definite (used by the initial projections and the rigid-body
    correction).

    Parameters
    ----------
    system : System
        The assembled model.
    q : (n,) ndarray
        Coordinates (for a configuration-dependent mass).

    Returns
    -------
    (n,) ndarray
        D, in the units of the mass diagonal.
    """
    d = system.mass(q).diagonal()
    scale = d.max() if d.size and d.max() > 0 else 1.0
    return np.where(d > 0, 0.0, scale) + 1e-9 * scale


def _projection_weight(system, q, jac):
    """TangentValues of [[W, Φ_qᵀ], [Φ_q, 0]], W = M(q) + D (:func:`projection_diagonal`)."""
    return TangentValues(system.mass_values(q), jac, diagonal=projection_diagonal(system, q))


def _solve(kkt, values, rhs, q, t, what):
    try:
        kkt.factorize(kkt.assemble(values), q, t)
    except SingularMatrixError as err:
        raise SingularMatrixError(f"{what} at t = {t:g} s: {err}") from None
    return kkt.solve(rhs)


def consistent_positions(system, q, t=0.0, tol=1e-12, max_iter=30, max_correction=1e-3, kkt=None):
    """The configuration closest to ``q`` (mass-weighted) with Φ(q, t) = 0.

    Parameters
    ----------
    system : System
    q : ndarray (n,)
        Guess (m for positions).
    t : float
        Time (s).
    tol : float
        Largest ‖Φ‖ accepted (m).
    max_correction : float
        Largest move of any coordinate accepted (m); beyond it the model is inconsistent.

    Returns
    -------
    ndarray (n,)

    Raises
    ------
    ConstraintError
        Unsatisfiable constraints, or a guess farther than ``max_correction``.
    """
    c = system.constraints
    kkt = kkt or KKTMatrix(system)
    q = q.copy()
    target = q.copy()
    lam = np.zeros(system.m)
    for _ in range(max_iter):
        phi, jac = c.evaluate(q, t)
        if np.linalg.norm(phi, np.inf) <= tol:
            break
        values = _projection_weight(system, q, jac)
        dq = q - target
        rhs = -np.concatenate([system.mass(q) @ dq + values.diagonal * dq + c.transpose_product(jac, lam), phi])
        x = _solve(kkt, values, rhs, q, t, "initial position projection")
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


def consistent_velocities(system, q, v, t=0.0, kkt=None):
    """The velocity closest to a guess (mass-weighted) with Φ_q v + Φ_t = 0.

    Minimum-change projection: minimize ½ (v − v₀)ᵀ W (v − v₀) subject to the velocity
    constraints, W = M + D (:func:`projection_diagonal`).

    Parameters
    ----------
    system : System
        The assembled model.
    q : (n,) ndarray
        Consistent coordinates.
    v : (n,) ndarray
        Velocity guess [m/s for position coordinates].
    t : float, optional
        Time [s] (rheonomic constraints give Φ_t ≠ 0).
    kkt : KKTMatrix, optional
        A KKT matrix of the system to reuse.

    Returns
    -------
    (n,) ndarray
        Consistent velocity.

    Raises
    ------
    SingularMatrixError
        If the projection matrix is singular (redundant constraints).
    """
    c = system.constraints
    kkt = kkt or KKTMatrix(system)
    _, jac = c.evaluate(q, t)
    phi_t, _ = c.acceleration_terms(q, v, t)
    rhs = np.concatenate([np.zeros(system.n), -phi_t - c.jac_pattern.assemble(jac) @ v])
    x = _solve(kkt, _projection_weight(system, q, jac), rhs, q, t, "initial velocity projection")
    return v + x[:system.n]


def accelerations_and_multipliers(system, q, v, t=0.0, kkt=None):
    """Accelerations q̈ and multipliers λ from [[M, Φ_qᵀ], [Φ_q, 0]] [q̈; λ] = [Q; γ].

    γ = −(Φ_q q̇)_q q̇ − 2Φ_qt q̇ − Φ_tt are the acceleration terms of the constraints; the
    constraint forces on the coordinates are −Φ_qᵀλ. With servo constraints the actuator
    inputs take the place of λ (upper-right block Gᵀ).

    Parameters
    ----------
    system : System
        The assembled model.
    q : (n,) ndarray
        Consistent coordinates.
    v : (n,) ndarray
        Consistent velocities.
    t : float, optional
        Time [s].
    kkt : KKTMatrix, optional
        A KKT matrix of the system to reuse.

    Returns
    -------
    a : (n,) ndarray
        Accelerations q̈ [m/s² for position coordinates].
    lam : (m,) ndarray
        Lagrange multipliers (or actuator inputs).

    Raises
    ------
    SingularMatrixError
        If the matrix is singular (redundant constraints, massless free motions).
    """
    c = system.constraints
    kkt = kkt or KKTMatrix(system)
    r, Q, _, jac = system.residual(q, v, None, np.zeros(system.m), t)
    _, gamma = c.acceleration_terms(q, v, t)
    transpose = system.force_transpose_values(q, jac) if system.servo else None
    x = _solve(kkt, TangentValues(system.mass_values(q), jac, transpose=transpose), np.concatenate([-r, gamma]), q, t,
               "initial accelerations")
    return x[:system.n], x[system.n:]


def check_redundancy(system, q, t=0.0, dense_limit=1000):
    """Raise if constraint rows are linearly dependent at q.

    Dense SVD, so only for m ≤ ``dense_limit``; larger models rely on the factorization's
    own check.

    Parameters
    ----------
    system : System
        The assembled model.
    q : (n,) ndarray
        Coordinates.
    t : float, optional
        Time [s].
    dense_limit : int, optional
        Largest number of constraint rows tested.

    Raises
    ------
    ConstraintError
        Naming the linearly dependent rows.
    """
    if system.m > dense_limit:
        return
    redundant = system.redundant_constraints(q, t)
    if redundant:
        raise ConstraintError(f"model '{system.name}': redundant constraints; these rows are linearly "
                              f"dependent: {redundant}. Remove a joint that repeats another (e.g. a fix and a "
                              "joint to ground at the same point) or use a joint with fewer equations")


def consistent_state(system, q=None, v=None, t=0.0, max_correction=1e-3, kkt=None):
    """Initial state (q, v, q̈, λ) consistent at position, velocity and acceleration level.

    Positions by :func:`consistent_positions`, then :func:`check_redundancy`,
    :func:`consistent_velocities` and :func:`accelerations_and_multipliers`, all sharing one
    :class:`~femdyn.solvers.kkt.KKTMatrix`.

    Parameters
    ----------
    system : System
        The assembled model.
    q : (n,) array_like, optional
        Position guess (default: the model's initial configuration ``system.q0``).
    v : (n,) array_like, optional
        Velocity guess (default ``system.v0``).
    t : float, optional
        Initial time [s].
    max_correction : float, optional
        Largest move [m] of any coordinate accepted when projecting the positions.
    kkt : KKTMatrix, optional
        A KKT matrix of the system to use; it is left holding the factorized
        [[M, Φ_qᵀ], [Φ_q, 0]] of the accelerations (the step-size check reuses it).

    Returns
    -------
    q, v, a : (n,) ndarray
        Consistent coordinates, velocities and accelerations.
    lam : (m,) ndarray
        Lagrange multipliers (constraint forces −Φ_qᵀλ).

    Raises
    ------
    NonFiniteError
        A NaN or infinite entry in ``q`` or ``v`` (named by node and component).
    ConstraintError
        Unsatisfiable or redundant constraints, or a guess farther than ``max_correction``.
    SingularMatrixError
        Singular projection or acceleration matrix.

    Examples
    --------
    A uniform rod released horizontally about a pivot at one end: the free end starts to
    fall with 3g/2.

    >>> import femdyn
    >>> m = femdyn.Model("pendulum", gravity=(0, 0, -9.81))
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> m.revolute("pivot", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
    Revolute('pivot', ground → rod)
    >>> system = m.assemble()
    >>> q, v, a, lam = consistent_state(system)
    >>> system.labels[5], round(float(a[5]), 6)
    ('A.rz', -14.715)
    """
    check_finite_state(system, f"initial state of model '{system.name}' at t = {t:g} s", q0=q, v0=v)
    kkt = kkt or KKTMatrix(system)
    q = consistent_positions(system, system.q0 if q is None else q, t, max_correction=max_correction, kkt=kkt)
    check_redundancy(system, q, t)
    v = consistent_velocities(system, q, system.v0 if v is None else v, t, kkt=kkt)
    a, lam = accelerations_and_multipliers(system, q, v, t, kkt=kkt)
    return q, v, a, lam
