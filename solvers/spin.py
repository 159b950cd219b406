"""Fast spin against the index-3 form: is the multiplier mode of generalized-α stable at ρ∞ and h?

A unit vector or point pair turning at ω carries a centripetal multiplier λ ∝ ω², whose Hessian
term couples the index-3 form's multiplier mode (the defective eigenvalue −ρ∞, Arnold & Brüls
2007) to the motion: it grows by about ρ∞ + c ωh per step. :func:`multiplier_growth` measures
that growth on a point turning at ωh under the same scheme (λ is constant there, so any change
of λ is the mode); :func:`check_spin` applies it to the fastest turning rate of the initial
state and switches to the stabilized form (Arnold, Cardona & Brüls 2016) or refuses. Measured
against the heavy top: docs/solvers.md ("A failed step, fast spin").
"""
import functools
import warnings

import numpy as np

from femdyn.errors import SolverError, StepSizeWarning
from femdyn.model.protocol import Body

from .scheme import Parameters

__all__ = ["check_spin", "critical_turn", "fastest_turn", "multiplier_growth", "turning_rates"]

GROWTH_LIMIT = 1.0          # multiplier-mode growth per step above which index 3 is refused or switched
RUN_GROWTH_LIMIT = 1.023    # the same for a fixed-step run under way: tenfold in 100 steps (a swing through
# the critical turn, e.g. the rod pendulum at h = 10 ms, ωh = 0.052, growth 1.002, runs on in index 3)
SLOW = 0.02                 # ωh below which no check: the heavy top ran at every ρ∞ ≤ 0.95 there, and the short
# test run measures the Jordan block's k²ρᵏ transient rather than the growth (about 1 at ρ∞ ≥ 0.9)
TEST_STEPS = (10, 60)       # steps of the test problem between which the growth is measured
CHOICES = ("switch", "refuse")


def turning_rates(system, q, v):
    """The fastest turning rate of every unit vector and of every body's turning vectors (Body.turning_vectors).

    Parameters
    ----------
    system : System
    q, v : (n,) ndarray
        Coordinates and velocities.

    Returns
    -------
    dict
        Node or body name → |ḃ|/|b|, rad/s, the largest over its vectors.

    Examples
    --------
    >>> import femdyn
    >>> m = femdyn.Model("spinner", gravity=(0, 0, 0))
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> s = m.assemble()
    >>> v = np.zeros(s.n); v[4] = 2.0                    # the tip moves at 2 m/s along y
    >>> round(turning_rates(s, s.q0, v)["rod"], 6)
    2.0
    """
    rates = {}
    for node in system.nodes.values():
        if node.is_unit:
            rates[node.name] = float(np.linalg.norm(v[node.dofs]) / max(np.linalg.norm(q[node.dofs]), 1e-300))
    for body in (part for part in system.parts if isinstance(part, Body)):    # a Body given to Model.add too
        for b in body.turning_vectors():
            zero = b(np.zeros_like(q))
            length = np.linalg.norm(b(q))
            if length > 0:
                rates[body.name] = max(rates.get(body.name, 0.0), float(np.linalg.norm(b(v) - zero) / length))
    return rates


@functools.lru_cache(maxsize=256)
def multiplier_growth(omega_h, rho_inf):
    """Growth per step of the index-3 multiplier mode for a point turning at ωh (rad per step) at ρ∞."""
    if omega_h <= 0:
        return rho_inf
    p = Parameters.from_rho(rho_inf)
    w2 = omega_h * omega_h                        # h = 1: ω is ωh
    c = p.beta * (1 - p.alpha_f) / (1 - p.alpha_m)   # ∂q/∂q̈ of a step
    q, v, a = np.array([1.0, 0.0]), np.array([0.0, omega_h]), np.array([-w2, 0.0])
    at, lam, history = a.copy(), w2, [w2]
    for _ in range(TEST_STEPS[1]):
        base = q + v + (0.5 - p.beta) * at + p.beta * (p.alpha_f * a - p.alpha_m * at) / (1 - p.alpha_m)
        x = np.array([a[0], a[1], lam])
        for _ in range(30):                       # Newton on q̈ + λ q = 0, ½(|q|² − 1) = 0
            q1 = base + c * x[:2]
            r = np.array([x[0] + x[2] * q1[0], x[1] + x[2] * q1[1], 0.5 * (q1 @ q1 - 1.0)])
            J = np.array([[1 + x[2] * c, 0, q1[0]], [0, 1 + x[2] * c, q1[1]], [c * q1[0], c * q1[1], 0]])
            dx = np.linalg.solve(J, -r)
            x += dx
            if np.abs(dx).max() < 1e-15 * (1 + abs(x[2])):
                break
        at1 = ((1 - p.alpha_f) * x[:2] + p.alpha_f * a - p.alpha_m * at) / (1 - p.alpha_m)
        q, v = base + c * x[:2], v + (1 - p.gamma) * at + p.gamma * at1
        a, at, lam = x[:2].copy(), at1, x[2]
        history.append(lam)
    jumps = np.abs(np.diff(history))
    first, last = jumps[TEST_STEPS[0]], jumps[-1]
    return float((last / first) ** (1.0 / (len(jumps) - 1 - TEST_STEPS[0]))) if first > 0 else rho_inf


def check_spin(system, q, v, h, rho_inf, choice="switch", t=0.0, enabled=True):
    """The formulation to run ("index3" or "stabilized") for the model's spin at ρ∞ and h, by ``choice``.

    Parameters
    ----------
    system : System
        The assembled model.
    q, v : ndarray
        Initial coordinates [m] and velocities [m/s].
    h : float
        Time step [s].
    rho_inf : float
        ρ∞ of the index-3 run.
    choice : {"switch", "refuse"}
        Where the multiplier mode grows: use the stabilized form (with a StepSizeWarning), or raise.
    t : float, optional
        Initial time [s].
    enabled : bool, optional
        False: no check ("index3").

    Returns
    -------
    str
        "stabilized" where switched, else "index3".

    Raises
    ------
    SolverError
        ``choice`` unknown, or the mode grows and ``choice`` is "refuse" (or the model has servo
        constraints, which the stabilized form does not take).

    Examples
    --------
    The heavy top (150 rad/s) at h = 1 ms: the mode grows at ρ∞ = 0.9, not at 0.7.

    >>> round(multiplier_growth(0.15, 0.9), 2), multiplier_growth(0.15, 0.7) < 1
    (1.11, True)
    """
    if choice not in CHOICES:
        raise SolverError(f"generalized-α: spin_check must be one of {list(CHOICES)}, got {choice!r}")
    rates = turning_rates(system, q, v)
    if not enabled or not rates:
        return "index3"
    name = max(rates, key=rates.get)
    omega = rates[name]
    if omega * h < SLOW:
        return "index3"
    growth = multiplier_growth(round(omega * h, 4), rho_inf)
    if growth <= GROWTH_LIMIT:
        return "index3"
    safe = _safe_rho(omega * h)
    reason = (f"model '{system.name}': '{name}' turns at {omega:.4g} rad/s at t = {t:g} s (ωh = {omega * h:.3g} at "
              f"h = {h:.3g} s); its centripetal multiplier drives the index-3 form's multiplier mode unstable at "
              f"ρ∞ = {rho_inf:g} (growth {growth:.3g} per step, solvers/spin.py)")
    fixes = (f"use ρ∞ ≤ {safe:.2f}" if safe else "use a smaller h") + f", h ≤ {_safe_step(h, rho_inf, omega):.3g} s"
    if choice == "refuse" or system.servo:
        raise SolverError(f"generalized-α: {reason}; {fixes}"
                          + ("" if system.servo else ", or Options(formulation='stabilized')")
                          + ("" if choice == "refuse" else " (the stabilized form takes no servo constraints)"))
    warnings.warn(f"{reason}: running the stabilized form instead (Options(formulation='stabilized'); to keep "
                  f"index 3, {fixes}, or Options(step_check=False))", StepSizeWarning, stacklevel=4)
    return "stabilized"


@functools.lru_cache(maxsize=64)
def critical_turn(rho_inf, limit=GROWTH_LIMIT):
    """The largest turn per step ωh (rad) at which the index-3 multiplier mode grows by at most ``limit`` at ρ∞.

    Bisection of :func:`multiplier_growth` between ``SLOW`` (never checked below) and 2 rad.

    Parameters
    ----------
    rho_inf : float
        ρ∞ of the index-3 run.
    limit : float, optional
        Growth per step allowed (default ``GROWTH_LIMIT``: none; ``RUN_GROWTH_LIMIT`` for a run under way).

    Returns
    -------
    float
        ωh [rad]; a spin at ω [rad/s] is resolved by steps h ≤ ωh/ω.

    Examples
    --------
    The heavy top's 150 rad/s at ρ∞ = 0.9 (growth 1.11 at h = 1 ms) needs a shorter step:

    >>> 0.02 < critical_turn(0.9) < 0.15
    True
    """
    lo, hi = SLOW, 2.0
    if multiplier_growth(round(hi, 4), rho_inf) <= limit:
        return hi
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        if multiplier_growth(round(mid, 4), rho_inf) <= limit:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-4:
            break
    return lo


def fastest_turn(system, q, v):
    """The fastest-turning node or body of a state and its rate (:func:`turning_rates`).

    Parameters
    ----------
    system : System
        The assembled model.
    q, v : (n,) ndarray
        Coordinates and velocities.

    Returns
    -------
    name : str or None
        The node or body (None when the model has nothing that turns).
    omega : float
        Its turning rate [rad/s].

    Examples
    --------
    A 2 m arm whose tip moves at 3 m/s across it turns at 1.5 rad/s:

    >>> from femdyn import Model
    >>> arm = Model("arm")
    >>> _ = arm.rigid_beam("arm", arm.point("P", (0, 0, 0)), arm.point("Q", (0, 2.0, 0)), mass=2.0)
    >>> s = arm.assemble()
    >>> fastest_turn(s, s.q0, np.array([0, 0, 0, 3.0, 0, 0]))
    ('arm', 1.5)
    """
    rates = turning_rates(system, q, v)
    if not rates:
        return None, 0.0
    name = max(rates, key=rates.get)
    return name, rates[name]


def _safe_rho(omega_h, step=0.05):
    """The largest ρ∞ on a grid of ``step`` at which the mode does not grow at ωh, or None."""
    for rho in np.arange(0.95, -1e-9, -step):
        if multiplier_growth(round(omega_h, 4), round(float(rho), 2)) <= GROWTH_LIMIT:
            return float(round(rho, 2))
    return None


def _safe_step(h, rho_inf, omega):
    """The longest h / 2ᵏ at which the mode does not grow at ρ∞ (h / 2¹⁰ at the least)."""
    for k in range(1, 11):
        if multiplier_growth(round(omega * h / 2 ** k, 4), rho_inf) <= GROWTH_LIMIT:
            return h / 2 ** k
    return h / 2 ** 10

