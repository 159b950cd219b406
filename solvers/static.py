"""Static equilibrium Q(q) − Φ_qᵀλ = 0, Φ(q) = 0 by a globalized Newton method with adaptive load steps.

Applied loads scaled by a load factor s; tangent [[K + H(λ), Φ_qᵀ], [Φ_q, 0]]. One corrector serves
the load levels here and the arc-length path of :mod:`.continuation` (merit, sources: docs/solvers.md).
"""
import numpy as np
from scipy.sparse.linalg import lsqr

from femdyn.errors import ConvergenceError, ModelError
from femdyn.model.checks import check_finite_state

from .blocks import TangentValues
from .initial import check_redundancy, consistent_positions
from .kkt import KKTMatrix

ARMIJO = 1e-4           # sufficient decrease c of the merit: m(x + α d) ≤ (1 − 2cα) m(x)
SHORTEST_STEP = 2.0 ** -10      # the line search gives up below this fraction of the Newton step
EASY = 4                # a level converged in at most this many iterations lets the next increment grow
SHIFTS = 10.0 ** -np.arange(8.0, -1.0, -2.0)   # mass shifts μ/(max|K|/max|M|) tried when Newton finds no descent
CUTS = 12               # halvings of the initial increment before the load stepping gives up


def static_equilibrium(system, load_steps=1, t=0.0, q0=None, tol=1e-10, max_iterations=50, max_correction=1e-3):
    """Static equilibrium Q(q) − Φ_qᵀλ = 0, Φ(q) = 0 under the full loads, by Newton with line search and adaptive load steps.

    Loads rise in increments of 1/N (N = ``load_steps``), halved where a level fails, grown back after
    easy levels; Newton with a line search on each (docs/solvers.md, "Statics"). Converged when ‖Q − Φ_qᵀλ‖₂ ≤ tol·max(1 N, ‖Q‖₂) and ‖Φ‖₂ ≤ tol, or when the
    correction falls below 1e-13 of the coordinates (round-off floor of stiff structures).

    Parameters
    ----------
    system : System
        The assembled model.
    load_steps : int, optional
        Initial number N of load levels (the increments adapt from 1/N).
    t : float, optional
        Time [s] at which constraints and loads are evaluated.
    q0 : (n,) array_like, optional
        Start configuration (default: the model's).
    tol : float, optional
        Relative force tolerance and constraint tolerance [m].
    max_iterations : int, optional
        Newton iterations per load level.
    max_correction : float, optional
        Largest move [m] accepted to make the start consistent.

    Returns
    -------
    q : (n,) ndarray
        Equilibrium coordinates.
    lam : (m,) ndarray
        Lagrange multipliers (constraint forces −Φ_qᵀλ).

    Raises
    ------
    ConvergenceError
        No convergence with the increment halved 12 times (past a limit point: ``equilibrium_path``).
    ConstraintError
        Inconsistent start or redundant constraints.
    SingularMatrixError
        Singular tangent (e.g. an unsupported structure), with a diagnosis.

    Examples
    --------
    A cantilever with a transverse tip load (Euler–Bernoulli δ = P L³/(3EI)):

    >>> import numpy as np, femdyn
    >>> from femdyn.elements import sections
    >>> m = femdyn.Model("cantilever", gravity=(0, 0, 0))
    >>> beam = m.straight_beam("beam", (0, 0, 0), (1.0, 0, 0), 4, E=2.1e11, rho=7800,
    ...                        section=sections.circular(0.01), element="cable")
    >>> clamp = m.clamp("root", "beam.0")
    >>> tip = m.beam_force("tip", "beam", 3, 1.0, (0, 0, -10.0))
    >>> q, lam = static_equilibrium(m.assemble())
    >>> EI = 2.1e11 * np.pi * 0.01**4 / 4
    >>> round(float(q[-4]) / (-10.0 / (3 * EI)), 4)       # tip z over the linear value
    1.0
    """
    if not (isinstance(load_steps, (int, np.integer)) and load_steps >= 1):
        raise ModelError(f"static equilibrium of model '{system.name}': load_steps must be an integer ≥ 1, "
                         f"got {load_steps!r}")
    q, lam, kkt = _start_point(system, q0, t, max_correction)
    s, step = 0.0, 1.0 / load_steps
    longest, shortest = step, step * 2.0 ** -CUTS
    while s < 1.0:
        level = min(1.0, s + step)
        solution = _correct(system, kkt, q, lam, level, t, tol, max_iterations)
        if solution is None:
            step *= 0.5
            if step < shortest:
                raise ConvergenceError(
                    f"static equilibrium of model '{system.name}': no convergence beyond load level {s:.4g} (the "
                    f"increment was halved {CUTS} times to {step:.3g}); the structure may have a limit point there "
                    "(snap-through): trace its path with femdyn.solvers.equilibrium_path")
            continue
        q, lam, _, iterations = solution
        s = level
        if iterations <= EASY:
            step = min(2.0 * step, longest)     # recovers after a cut, never beyond the user's 1/N
    return q, lam


def _start_point(system, q0, t, max_correction):
    """(q, λ, KKTMatrix) at a consistent start: positions projected onto Φ = 0, least-squares multipliers."""
    check_finite_state(system, f"static equilibrium of model '{system.name}'", q0=q0)
    q = consistent_positions(system, system.q0 if q0 is None else q0, t, max_correction=max_correction)
    check_redundancy(system, q, t)
    return q, _least_squares_multipliers(system, q, t), KKTMatrix(system)


def _load_direction(system, q, t):
    """∂Q/∂s (n,): the applied loads at full scale (Q is affine in the load factor s)."""
    v = np.zeros(system.n)
    return system.forces(q, v, t, load_factor=1.0) - system.forces(q, v, t, load_factor=0.0)


def _factorize(system, kkt, q, lam, s, t, shift=0.0):
    """Factorize the KKT tangent at (q, λ, s), its K shifted by ``shift``·M [1/s²], into ``kkt``; max|K|/max|M| [1/s²]."""
    v = np.zeros(system.n)
    _, jac = system.constraints.evaluate(q, t)
    k_vals, c_vals = system.tangent_values(q, v, t, load_factor=s)
    m_vals = system.mass_values(q)
    transpose = system.force_transpose_values(q, jac) if system.servo else None
    kkt.factorize(kkt.assemble(TangentValues(m_vals, jac, c_vals, k_vals, hessian=system.hessian_values(q, lam),
                                             weights=(shift, 0.0, 1.0), transpose=transpose)), q, t)
    return np.abs(k_vals).max(initial=0.0) / max(np.abs(m_vals).max(initial=0.0), 1e-300)


def _correct(system, kkt, q, lam, s, t, tol, max_iterations, arc=None):
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
        ratio = _factorize(system, kkt, q, lam, s, t)
        dx, ds = _direction(system, kkt, q, t, rhs, g, arc)
        if not search or np.abs(dx[:n]).max() <= 1e-13 * max(1.0, np.abs(q).max()):
            q, lam, s = q + dx[:n], lam + dx[n:], s + ds
            if (np.abs(dx[:n]).max() <= 1e-13 * max(1.0, np.abs(q).max())   # at round-off: stiff structures
                    and np.linalg.norm(system.constraints.evaluate(q, t)[0]) <= tol):   # reach no smaller residual
                return q, lam, s, iteration + 1
            continue
        trial = _search(system, q, lam, s, t, tol, arc, scale, merit, dx, ds, SHORTEST_STEP)
        for shift in ratio * SHIFTS if trial is None else ():
            _factorize(system, kkt, q, lam, s, t, shift)     # a shorter, mass-weighted step (pseudo-transient)
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
    db = kkt.solve(np.concatenate([_load_direction(system, q, t), np.zeros(system.m)]))
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
    G = system.patterns.transpose.assemble(system.force_transpose_values(q, jac))
    Q = system.forces(q, np.zeros(system.n), t)
    return lsqr(G.T, Q, atol=1e-14, btol=1e-14)[0]
