"""Consistent initial conditions of the index-3 DAE.

1. Positions: the closest configuration to the user's guess in the mass-weighted sense
   (plus identity weight for massless coordinates) that satisfies Φ(q, t₀) = 0, by Newton
   on the optimality system [[W, Φ_qᵀ], [Φ_q, 0]].
2. Velocities: the minimal-change projection onto Φ_q v = −Φ_t.
3. Accelerations and multipliers: [[M, Φ_qᵀ], [Φ_q, 0]] [q̈; λ] = [Q; γ]. For a
   non-collocated servo (inverse dynamics of relative degree > 2, see
   :mod:`femdyn.solvers.servo`) that matrix is singular by structure; its equations are
   then solved in the least-squares sense for the solution of least acceleration energy
   (:func:`servo_least_squares`), and an inconsistent start is refused by name.

A guess farther than ``max_correction`` (m, in any coordinate) from a consistent
configuration is reported as an inconsistent model rather than silently moved.
"""
import numpy as np

from femdyn.errors import ConstraintError, SingularMatrixError
from femdyn.model.checks import check_finite_state

from .blocks import TangentValues
from .kkt import KKTMatrix
from .servo import servo_realization

RANK = 1e-10          # singular values of the equilibrated singular servo matrix below RANK·σ_max are zero
CONSISTENT = 1e-8     # relative least-squares residual accepted as round-off (servo_least_squares)
ABSOLUTE = 1e-12      # its absolute floor (equilibrated units) for right-hand sides at round-off themselves


def projection_diagonal(system, q):
    """Diagonal D of the minimum-change weight W = M(q) + D."""
    d = system.mass(q).diagonal()
    scale = d.max() if d.size and d.max() > 0 else 1.0
    return np.where(d > 0, 0.0, scale) + 1e-9 * scale


def _projection_weight(system, q, jac):
    """TangentValues of [[W, Φ_qᵀ], [Φ_q, 0]], W = M(q) + D (:func:`projection_diagonal`)."""
    return TangentValues(system.mass_values(q), jac, diagonal=projection_diagonal(system, q))


def _solve(kkt, values, rhs, q, t, what):
    """Factorize the saddle matrix of ``values`` and solve; a singular one is reported as ``what``."""
    try:
        kkt.factorize(kkt.saddle_matrix(values), q, t)
    except SingularMatrixError as err:
        raise SingularMatrixError(f"{what} at t = {t:g} s: {err}") from None
    return kkt.solve(rhs)


def consistent_positions(system, q, t=0.0, tol=1e-12, max_iter=30, max_correction=1e-3, kkt=None):
    """The configuration closest to ``q`` (mass-weighted) with Φ(q, t) = 0."""
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
    """The velocity closest to a guess (mass-weighted) with Φ_q v + Φ_t = 0."""
    c = system.constraints
    kkt = kkt or KKTMatrix(system)
    _, jac = c.evaluate(q, t)
    phi_t, _ = c.acceleration_terms(q, v, t)
    rhs = np.concatenate([np.zeros(system.n), -phi_t - c.jac_pattern.matrix(jac) @ v])
    x = _solve(kkt, _projection_weight(system, q, jac), rhs, q, t, "initial velocity projection")
    return v + x[:system.n]


def accelerations_and_multipliers(system, q, v, t=0.0, kkt=None):
    """Accelerations q̈ and multipliers λ from [[M, Φ_qᵀ], [Φ_q, 0]] [q̈; λ] = [Q; γ]."""
    c = system.constraints
    kkt = kkt or KKTMatrix(system)
    r, Q, _, jac = system.residual(q, v, None, np.zeros(system.m), t)
    _, gamma = c.acceleration_terms(q, v, t)
    transpose = system.force_transpose_values(q, jac) if system.servo else None
    values, rhs = TangentValues(system.mass_values(q), jac, transpose=transpose), np.concatenate([-r, gamma])
    try:
        x = _solve(kkt, values, rhs, q, t, "initial accelerations")
    except SingularMatrixError:
        if not _noncollocated(system, q, t):
            raise
        x = servo_least_squares(system, kkt.saddle_matrix(values).toarray(), rhs, q, t)
    return x[:system.n], x[system.n:]


def _noncollocated(system, q, t):
    """Whether a singular acceleration matrix is that of a non-collocated servo (P singular)."""
    if not system.input_rows.size:
        return False
    try:
        realization = servo_realization(system, q, t)
    except SingularMatrixError:
        return False
    return realization is not None and not realization.collocated


def servo_least_squares(system, S, rhs, q, t=0.0, tol=CONSISTENT):
    """The mass-weighted minimum-norm solution of a singular servo acceleration system.
    Rest-to-rest starts: Seifried & Blajer 2013, Mech. Sci. 4:113–129; Altmann & Heiland 2017."""
    n = system.n
    d = _equilibration(S)
    U, s, Vt = np.linalg.svd(d[:, None] * S * d[None, :])
    rank = int(np.sum(s > RANK * s[0])) if s.size and s[0] > 0 else 0
    b = d * rhs
    coefficients = U[:, :rank].T @ b
    y = Vt[:rank].T @ (coefficients / s[:rank])
    residual = np.linalg.norm(b - U[:, :rank] @ coefficients)
    if residual > tol * max(np.linalg.norm(b), s[0] * np.linalg.norm(y)) + ABSOLUTE:
        raise ConstraintError(_inconsistent_start(system, U[:, rank:] @ (U[:, rank:].T @ b), residual,
                                                  np.linalg.norm(b), t))
    null = d[:, None] * Vt[rank:].T          # solutions x + null·z, in the original units
    x = d * y
    L = np.linalg.cholesky(system.mass(q).toarray() + np.diag(projection_diagonal(system, q)))
    z = np.linalg.lstsq(L.T @ null[:n], -L.T @ x[:n], rcond=None)[0]
    return x + null @ z


def _equilibration(S):
    """d = 1/√(largest |entry| of each row and column) of a dense matrix (1 for empty ones)."""
    largest = np.maximum(np.abs(S).max(axis=0), np.abs(S).max(axis=1))
    return 1.0 / np.sqrt(np.where(largest > 0, largest, 1.0))


def _inconsistent_start(system, conflict, residual, size, t, count=6):
    """Message naming the rows of an inconsistent servo acceleration system."""
    n, weight = system.n, np.abs(conflict) / max(np.abs(conflict).max(), 1e-300)
    order = [i for i in np.argsort(-weight) if weight[i] > 1e-3][:2 * count]
    servo = set((system.input_rows + n).tolist())
    rows = [system.constraints.labels[i - n] for i in sorted((i for i in order if i >= n), key=lambda i: i not in servo)]
    rows = rows[:count]
    coordinates = [system.labels[i] for i in order if i < n][:count]
    return (f"model '{system.name}': inconsistent servo start at t = {t:g} s: the acceleration equations have no "
            f"solution (least-squares residual {residual:.3g}, {residual / max(size, 1e-300):.3g} of the right-hand "
            f"side); the conflict is between the constraint rows {rows} and the equations of motion of "
            f"{coordinates}. An actuator reaches these prescribed outputs only through other bodies or compliant "
            "elements (relative degree > 2), so at the start their acceleration is fixed by the forces, not by the "
            "inputs. Start the prescribed motion at rest in a configuration that matches it (springs and gravity in "
            "equilibrium), with its derivatives up to the relative degree vanishing at the start (a smoothstep "
            "polynomial of degree 2r + 1 for relative degree r), or start from the state the motion implies")


def check_redundancy(system, q, t=0.0, tol=1e-8):
    """Raise if a joint row set aside as redundant (``System.set_aside``) is violated at the consistent q: it conflicts."""
    phi = system.set_aside_residual(q, t)
    if phi.size and np.abs(phi).max() > tol:
        worst = [system.set_aside[i] for i in np.argsort(-np.abs(phi)) if abs(phi[i]) > tol][:5]
        raise ConstraintError(f"model '{system.name}': cannot satisfy the constraints at t = {t:g} s: the rows "
                              f"{[label for _, label in worst]} conflict with the others (dependent on them at the "
                              f"start, yet |Φ| = {np.abs(phi).max():.3g} where the others hold); fix the joint "
                              "geometry so the joints agree, or remove the joint that repeats another")


def consistent_state(system, q=None, v=None, t=0.0, max_correction=1e-3, kkt=None):
    """Initial state (q, v, q̈, λ) consistent at position, velocity and acceleration level.

    Parameters
    ----------
    system : System
        The assembled model.
    q, v : (n,) array_like, optional
        Position and velocity guesses (default ``system.q0``, ``system.v0``).
    t : float, optional
        Initial time [s].
    max_correction : float, optional
        Largest move [m] of any coordinate accepted when projecting the positions.
    kkt : KKTMatrix, optional
        KKT matrix to use; left holding the factorized [[M, Φ_qᵀ], [Φ_q, 0]].

    Returns
    -------
    q, v, a : (n,) ndarray
        Consistent coordinates, velocities and accelerations.
    lam : (m,) ndarray
        Lagrange multipliers.

    Raises
    ------
    NonFiniteError
        A NaN or infinite entry in ``q`` or ``v``.
    ConstraintError
        Unsatisfiable or conflicting constraints, a guess farther than ``max_correction``, or an
        inconsistent non-collocated servo start.
    SingularMatrixError
        Singular projection or acceleration matrix.

    Examples
    --------
    A rod released horizontally about one end: its free end starts to fall with 3g/2.

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
