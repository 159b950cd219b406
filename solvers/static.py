"""Static equilibrium Q(q) − Φ_qᵀλ = 0, Φ(q) = 0 by a globalized Newton method with adaptive load steps.

Applied loads scaled by a load factor s, raised in steps; each level is corrected by the Newton–KKT
corrector of :mod:`.static_newton`, which also serves the arc-length path of :mod:`.continuation`.
"""
import numpy as np

from femdyn.errors import ConvergenceError, ModelError

from .static_newton import correct, start_point

EASY = 4                # a level converged in at most this many iterations lets the next increment grow
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
    q, lam, kkt = start_point(system, q0, t, max_correction)
    s, step = 0.0, 1.0 / load_steps
    longest, shortest = step, step * 2.0 ** -CUTS
    while s < 1.0:
        level = min(1.0, s + step)
        solution = correct(system, kkt, q, lam, level, t, tol, max_iterations)
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
