"""The Newton–KKT corrector of statics and of the arc-length path: Q(q, s) − Φ_qᵀλ = 0, Φ(q) = 0.

The load factor s scales the applied loads; the tangent is [[K + H(λ), Φ_qᵀ], [Φ_q, 0]]. Plain Newton
first, then Armijo backtracking on a scaled merit with mass-shifted steps (sources: docs/solvers.md).
:func:`start_point` gives a consistent start, :func:`correct` the corrected point at a load level (or on
the Riks normal plane), :func:`load_direction` ∂Q/∂s and :func:`factorize` the tangent. Used by
:mod:`.static` (load stepping) and :mod:`.continuation` (the equilibrium path).
"""
import numpy as np
from scipy.sparse.linalg import lsqr

from femdyn.model.checks import check_finite_state

from .blocks import TangentValues
from .initial import check_redundancy, consistent_positions
from .kkt import KKTMatrix

ARMIJO = 1e-4           # sufficient decrease c of the merit: m(x + α d) ≤ (1 − 2cα) m(x)
SHORTEST_STEP = 2.0 ** -10      # the line search gives up below this fraction of the Newton step
SHIFTS = 10.0 ** -np.arange(8.0, -1.0, -2.0)   # mass shifts μ/(max|K|/max|M|) tried when Newton finds no descent


def start_point(system, q0, t, max_correction):
    """(q, λ, KKTMatrix) at a consistent start: positions projected onto Φ = 0, least-squares multipliers."""
    check_finite_state(system, f"static equilibrium of model '{system.name}'", q0=q0)
    q = consistent_positions(system, system.q0 if q0 is None else q0, t, max_correction=max_correction)
    check_redundancy(system, q, t)
    return q, _least_squares_multipliers(system, q, t), KKTMatrix(system)


def load_direction(system, q, t):
    """∂Q/∂s (n,): the applied loads at full scale (Q is affine in the load factor s)."""
    v = np.zeros(system.n)
    return system.forces(q, v, t, load_factor=1.0) - system.forces(q, v, t, load_factor=0.0)


def factorize(system, kkt, q, lam, s, t, shift=0.0):
    """Factorize the KKT tangent at (q, λ, s), its K shifted by ``shift``·M [1/s²], into ``kkt``; max|K|/max|M| [1/s²]."""
    v = np.zeros(system.n)
    _, jac = system.constraints.evaluate(q, t)
    k_vals, c_vals = system.tangent_values(q, v, t, load_factor=s)
    m_vals = system.mass_values(q)
    transpose = system.force_transpose_values(q, jac) if system.servo else None
    kkt.factorize(kkt.saddle_matrix(TangentValues(m_vals, jac, c_vals, k_vals, hessian=system.hessian_values(q, lam),
                                             weights=(shift, 0.0, 1.0), transpose=transpose)), q, t)
    return np.abs(k_vals).max(initial=0.0) / max(np.abs(m_vals).max(initial=0.0), 1e-300)


def correct(system, kkt, q, lam, s, t, tol, max_iterations, arc=None):
    """Newton–KKT corrector, plain and then (if that fails) globalized; (q, λ, s, iterations) or None."""
    # without ``arc`` the load factor s is fixed; with arc = (w, q_ref, length) s is an unknown and the
    # bordered equation g = w·(q − q_ref) − length = 0 (the Riks normal plane) closes the system. Plain
    # Newton first (the watchdog idea of Chamberlain et al. 1982: full steps may raise the merit on the
    # way), then from the same start with Armijo backtracking and mass-shifted steps.
    return (_newton(system, kkt, q, lam, s, t, tol, max_iterations, arc, False)
            or _newton(system, kkt, q, lam, s, t, tol, max_iterations, arc, True))


def _newton(system, kkt, q, lam, s, t, tol, max_iterations, arc, search):
    """Newton iterations from (q, λ, s), with line search if ``search``; (q, λ, s, iterations) or None."""
    q, lam = q.copy(), lam.copy()
    n = system.n
    for iteration in range(max_iterations + 1):
        merit, rhs, g, scale, done = _merit(system, q, lam, s, t, tol, arc, None)
        if done:
            return q, lam, s, iteration
        if iteration == max_iterations or not np.isfinite(merit):
            return None
        ratio = factorize(system, kkt, q, lam, s, t)
        dx, ds = _direction(system, kkt, q, t, rhs, g, arc)
        if not search or np.abs(dx[:n]).max() <= 1e-13 * max(1.0, np.abs(q).max()):
            q, lam, s = q + dx[:n], lam + dx[n:], s + ds
            if (np.abs(dx[:n]).max() <= 1e-13 * max(1.0, np.abs(q).max())   # at round-off: stiff structures
                    and np.linalg.norm(system.constraints.evaluate(q, t)[0]) <= tol):   # reach no smaller residual
                return q, lam, s, iteration + 1
            continue
        trial = _search(system, q, lam, s, t, tol, arc, scale, merit, dx, ds, SHORTEST_STEP)
        for shift in ratio * SHIFTS if trial is None else ():
            factorize(system, kkt, q, lam, s, t, shift)     # a shorter, mass-weighted step (pseudo-transient)
            trial = _search(system, q, lam, s, t, tol, arc, scale, merit,
                            *_direction(system, kkt, q, t, rhs, g, arc), 1.0 / 16)
            if trial is not None:
                break
        if trial is None:
            return None          # no descent: the caller shortens the increment
        q, lam, s = trial
    return None


def _direction(system, kkt, q, t, rhs, g, arc):
    """(dx, ds): the step of the factorized matrix, bordered by the arc equation when there is one."""
    dx = kkt.solve(rhs)
    if arc is None:
        return dx, 0.0
    w, n = arc[0], system.n          # bordering: dx = δa + ds δb with K δb = (∂Q/∂s, 0)
    db = kkt.solve(np.concatenate([load_direction(system, q, t), np.zeros(system.m)]))
    ds = -(g + w @ dx[:n]) / (w @ db[:n])
    return dx + ds * db, ds


def _search(system, q, lam, s, t, tol, arc, scale, merit, dx, ds, shortest):
    """The first point of α = 1, ½, … ≥ ``shortest`` along (dx, ds) with sufficient decrease, or None."""
    n, step = system.n, 1.0
    while step >= shortest:
        trial = (q + step * dx[:n], lam + step * dx[n:], s + step * ds)
        trial_merit = _merit(system, *trial, t, tol, arc, scale)[0]
        if trial_merit <= (1.0 - 2.0 * ARMIJO * step) * merit or trial_merit <= 0.5 * tol ** 2:
            return trial
        step *= 0.5
    return None


def _merit(system, q, lam, s, t, tol, arc, scale):
    """(½‖R‖², Newton right-hand side, g, force scale, converged) of the scaled residual R at (q, λ, s)."""
    with np.errstate(all="ignore"):
        residual, Q, phi, _ = system.residual(q, np.zeros(system.n), None, lam, t, load_factor=s)
    r = -residual
    scale = max(1.0, np.linalg.norm(Q)) if scale is None else scale
    g = 0.0 if arc is None else float(arc[0] @ (q - arc[1]) - arc[2])
    force, gap = np.linalg.norm(r), np.linalg.norm(phi)
    merit = 0.5 * ((force / scale) ** 2 + gap ** 2 + g ** 2)
    done = force <= tol * scale and gap <= tol and abs(g) <= tol * max(1.0, 0.0 if arc is None else arc[2])
    return (merit if np.isfinite(merit) else np.inf), np.concatenate([r, -phi]), g, scale, done


def _least_squares_multipliers(system, q, t):
    """Multipliers λ minimizing ‖Q − Φ_qᵀλ‖ at a configuration (LSQR)."""
    if system.m == 0:
        return np.zeros(0)
    _, jac = system.constraints.evaluate(q, t)
    G = system.patterns.transpose.matrix(system.force_transpose_values(q, jac))
    Q = system.forces(q, np.zeros(system.n), t)
    return lsqr(G.T, Q, atol=1e-14, btol=1e-14)[0]
