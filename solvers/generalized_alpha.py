"""Generalized-α for index-3 DAEs M q̈ + Φ_qᵀλ = Q(q, q̇, t), Φ(q, t) = 0.

Arnold & Brüls (2007), Multibody Syst. Dyn. 18:185–202, eqs. (9)–(11), with the
pseudo-acceleration ã::

    q_{n+1} = q_n + h q̇_n + h²(½ − β) ã_n + h² β ã_{n+1},
    q̇_{n+1} = q̇_n + h(1 − γ) ã_n + h γ ã_{n+1},
    (1 − α_m) ã_{n+1} + α_m ã_n = (1 − α_f) q̈_{n+1} + α_f q̈_n,

parameters from ρ∞ (Chung & Hulbert 1993). The index-3 form accepts ρ∞ ≤ 0.95;
``formulation="stabilized"`` (Arnold, Cardona & Brüls 2016) allows ρ∞ up to 1. Newton on the
scaled KKT system (:mod:`femdyn.solvers.kkt`); convergence as Liu et al. (2018).
Details: docs/solvers.md ("Generalized-α on index-3 DAEs").
"""
import functools
import logging
import math
from dataclasses import asdict, dataclass, replace

import numpy as np

from femdyn.errors import ConvergenceError, SolverError
from femdyn.results.store import ResultsWriter

from .adaptive import AdaptiveRun, StepCounts, check_tolerance
from .causal_step import servo_failure_note, servo_halvings
from .events import clearance_events, ensure_events
from .scheme import Parameters
from .initial import accelerations_and_multipliers, consistent_state
from .kkt import KKTMatrix
from .newton_step import CONVERGED, STEPPERS, NewtonStep, State, norm2, relative_residual  # noqa: F401 (re-exported)
from .spin import RUN_GROWTH_LIMIT, SLOW, critical_turn, fastest_turn
from .start_checks import check_start


@dataclass
class Options:
    """Settings of :func:`integrate` (method notes: docs/solvers.md).

    Parameters
    ----------
    rho_inf : float
        Spectral radius at infinity ρ∞; ≤ 0.95 for the index-3 form, up to 1 stabilized.
    tol_dynamic : float
        Relative dynamic residual ‖M q̈ + Φ_qᵀλ − Q‖₂ / max(1 N, ‖Q‖₂) accepted.
    tol_constraint : float
        Constraint residual ‖Φ‖₂ accepted [m].
    max_iterations : int
        Newton iterations per step.
    contraction : float
        Refactorize when a residual drops by less than this factor (benchmarks/RESULTS.md).
    max_correction : float
        Largest position change [m] accepted to make the initial configuration consistent.
    formulation : {"index3", "stabilized"}
        Index-3 form, or the stabilized index-2 form (also Φ_q q̇ + Φ_t = 0).
    predictor : {"acceleration", "zero"}
        Start each step's Newton iteration from the previous q̈ or from q̈ = 0.
    max_backtracks : int
        Halvings of a fresh-Jacobian Newton step that made the residual grow.
    on_failure : {"retry", "stop"}
        Reject a failed step and cover it by two half steps, then go on with h (default), or end
        the run with a diagnosis. Servo runs bisect only as deep as no half step amplifies an
        unstable zero of the inverse (:func:`~femdyn.solvers.causal_step.servo_halvings`).
    max_halvings : int
        Deepest "retry" bisection.
    recovery_steps : int
        After a rejected step, the user's steps covered by two half steps before h is tried again.
    spin_check : {"switch", "refuse"}
        When the model's spinning bodies drive the index-3 form's multiplier mode unstable at ρ∞
        and h (:mod:`femdyn.solvers.spin`): run the stabilized form with a warning (default), or
        refuse before the first step (``step_check=False``: no check).
    corrector : object, optional
        Consulted within Newton, e.g. :class:`~femdyn.solvers.correction.RigidBodyCorrection`.
    tolerance : float, optional
        τ: choose every step from the estimated local error of the positions, accepted when
        |e_i| ≤ τ S_i for every coordinate (S_i: the model's size L for positions, 1 for unit
        vectors and slopes, L√m for modal coordinates; :mod:`~femdyn.solvers.error_control`).
        The step h of :func:`integrate` is then the first and the largest step; records are
        interpolated at its output times. None (default): the fixed step h. Guide: docs/time-step.md.
    length_scale : float, optional
        L [m] of the error scales (default: the diagonal of the box around the initial positions).
    events : list of Event, optional
        :class:`~femdyn.solvers.events.Event` functions g(t, q, q̇) whose sign changes are located
        on the interpolant to τ·h [s], a step landing on each; a terminal one ends the run (needs
        ``tolerance``; clearance joints' contacts are located without being listed).
    """

    rho_inf: float = 0.9
    tol_dynamic: float = 1e-6
    tol_constraint: float = 1e-8
    max_iterations: int = 50        # a fine ANCF mesh released from rest needs up to ~30 in its first steps
    contraction: float = 0.1        # refactorize when a residual drops by less than this factor
    # (0.1: a stale iteration matrix costs a Newton iteration (residual + solve) per step sooner
    # than its refactorization costs; measured on benchmarks/bench_*.py, see RESULTS.md)
    max_correction: float = 1e-3    # largest position change allowed to make q₀ consistent (m)
    formulation: str = "index3"     # or "stabilized": enforce Φ = 0 and Φ_q q̇ + Φ_t = 0 (GGL)
    predictor: str = "acceleration" # or "zero": q̈ = 0 at the start of every step's Newton iteration
    max_backtracks: int = 8         # halvings of a fresh-Jacobian Newton step that made ‖residual‖ grow
    on_failure: str = "retry"       # or "stop": "retry" rejects the step, covers it by two half steps (recursively)
    max_halvings: int = 4           # deepest "retry" bisection (h / 2⁴ at the least)
    recovery_steps: int = 100       # after a rejection, this many user's steps are taken as two half steps before h
    # again (returning at once, the Berzeri–Shabana cable failed 412 steps and gained energy: docs/solvers.md)
    corrector: object = None        # consulted within Newton (see NewtonStep.solve), e.g. a rigid-body correction
    step_check: bool = True         # warn when h cannot resolve the shortest period (solvers/step_size.py) or,
    # for servo inverse dynamics, amplifies an unstable zero (solvers/causal_step.py)
    spin_check: str = "switch"      # or "refuse": fast spin against the index-3 form (solvers/spin.py)
    tolerance: float = None         # τ of the error-controlled step (solvers/error_control.py); None: fixed step h
    length_scale: float = None      # L (m) of the position errors; None: the model's size
    events: list = None             # Event objects located by an error-controlled run (solvers/events.py)


SPIN_WATCH = 10            # user's steps between two looks at the fastest turn of a fixed-step index-3 run
START_TOLERANCE = 1e-6     # relative dynamic residual accepted for a start given to integrate

def integrate(system, t_end, h, options=None, output=None, progress=False, q0=None, v0=None, t0=0.0,
              record_every=1, start=None):
    """Simulate a model from ``t0`` to ``t_end`` with generalized-α, a fixed step or error-controlled steps.

    Starts from :func:`~femdyn.solvers.initial.consistent_state` and ends at the first step at
    or after ``t_end``. A step that does not converge is covered by half steps (default) or ends
    the run (``options.on_failure``); rejections are logged in ``Results.events`` and counted in
    ``Results.rejected``. Checked at the start: fast spin (index 3; watched again every 10 steps),
    servo runs' unstable zeros. With ``Options(tolerance=τ)`` the steps follow the local error
    estimate, h the first and largest (:mod:`~femdyn.solvers.adaptive`, docs/time-step.md).
    ``Results.steps_taken`` says how the steps were chosen. Symbols and units: docs/conventions.md.

    Parameters
    ----------
    system : System
        The assembled model.
    t_end, h : float
        End time and step size [s] (with a tolerance: the first and largest step, and the output spacing).
    options : Options, optional
        Scheme and Newton settings (default: index 3, ρ∞ = 0.9).
    output : str or path-like, optional
        Folder the results are written to as the run proceeds.
    progress : bool, optional
        Show a progress bar.
    q0, v0 : (n,) array_like, optional
        Initial coordinates and velocities (default: the model's), made consistent.
    t0 : float, optional
        Initial time [s].
    record_every : int, optional
        Record every k-th step (and the last).
    start : (a, λ) tuple of ndarray, optional
        Initial accelerations and multipliers instead of solving for them, e.g. ``(0, λ_static)``
        for a non-collocated servo on a fine mesh; checked to ``START_TOLERANCE``.

    Returns
    -------
    Results
        Time, coordinates, velocities, accelerations, multipliers, sensors and step statistics.

    Raises
    ------
    SolverError
        Bad settings, or a failure (``ConvergenceError``, ``SingularMatrixError``); its
        ``results`` hold every step computed before it (also kept in ``output``).
    ConstraintError
        Inconsistent initial configuration or redundant constraints.

    Examples
    --------
    A rod of 1 m released horizontally about one end starts at 3g/(2L): after 10 ms its
    angle is ½ · 14.715 · 0.01² rad.

    >>> import femdyn
    >>> m = femdyn.Model("pendulum", gravity=(0, 0, -9.81))
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> m.revolute("pivot", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
    Revolute('pivot', ground → rod)
    >>> sensor = m.sensor_angle("pivot", "pivot")
    >>> results = integrate(m.assemble(), t_end=0.01, h=1e-3)
    >>> len(results.t), round(float(results["pivot.angle"][-1]), 7)
    (11, 0.0007357)
    """
    o = options or Options()
    if not h > 0 or not t_end > t0:
        raise SolverError(f"integrate: need h > 0 and t_end > t0, got h={h}, t0={t0}, t_end={t_end}")
    if o.on_failure not in ("stop", "retry"):
        raise SolverError(f"generalized-α: on_failure must be 'stop' or 'retry', got {o.on_failure!r}")
    events = ensure_events(o.events)
    if o.tolerance is not None:
        o = replace(o, tolerance=check_tolerance(o.tolerance))
    elif events:
        raise SolverError("generalized-α: events are located on the interpolant of an error-controlled run; give "
                          "a tolerance with the events: Options(tolerance=1e-6)")
    params = Parameters.from_rho(o.rho_inf)
    kkt = KKTMatrix(system)
    q, v, a, lam = consistent_state(system, q0, v0, t0, o.max_correction, kkt)
    discrete = [p for p in system.parts if callable(getattr(p, "sample", None))]
    if [p.start(q, v, t0) for p in discrete]:           # reset (a rerun's state is stale): q̈, λ anew
        a, lam = accelerations_and_multipliers(system, q, v, t0, kkt)
    if start is not None:
        a, lam = _given_start(system, q, v, t0, start)
    state = State(t0, q, v, a, a.copy(), lam, initial=True)
    o, servo_note = check_start(system, q, v, lam, h, o, t0, kkt)
    sample = functools.partial(_sampled, system, discrete, kkt=kkt)
    stats = functools.partial(_stats, system)
    march = _March(system, params, o, servo_note, kkt.analysis, sample, stats)
    writer = ResultsWriter(system, output, solver={"method": "generalized-alpha", "h": h,
                                                   **_plain(asdict(o)), **asdict(params)})
    writer.record(t0, q, v, a, lam, _stats(system, state, 0, 0, _initial_residuals(system, state), 0))
    run = march if o.tolerance is None else AdaptiveRun(
        system, params, o, march.new_stepper, sample, stats, events + clearance_events(system))
    bar = _progress(max(1, math.ceil((t_end - t0) / h - 1e-9)), progress, system.name)
    try:
        run.run(state, writer, t_end, h, record_every, bar)
    except SolverError as err:
        writer.add_iterations(getattr(err, "history", []))
        writer.meta["steps"] = run.counts.as_dict()
        err.results = writer.close(f"failed at t = {run.t:.6g} s: {err}")
        raise
    except BaseException as err:
        writer.meta["steps"] = run.counts.as_dict()
        writer.close(f"interrupted at t = {run.t:.6g} s: {type(err).__name__}: {err}")
        raise
    finally:
        bar.close()
    writer.meta["steps"] = run.counts.as_dict()
    results = writer.close("completed")
    if results.rejected["steps"] and o.tolerance is None:
        logging.getLogger("femdyn").warning(results.run_summary)
    return results


@dataclass
class _Step:
    """One step's outcome: the state, the Newton history, the factorizations and the events."""
    state: object
    history: list
    factorizations: int
    events: list


class _March:
    """Takes the user's steps, applying the failure policy; one Newton stepper per step size, one symbolic analysis."""

    def __init__(self, system, params, options, warning="", analysis=None, sample=None, stats=None):
        self.system, self.params, self.o = system, params, options
        self.warning = warning          # what the start-of-run checks found, for a failure's diagnosis
        self.steppers = {}
        self.analysis = analysis
        self.recover_until = 0          # the last user's step to be covered by half steps after a rejection
        self.sample, self.stats = sample, stats
        self.counts = StepCounts("fixed")
        self.t = None

    def stepper(self, h):
        if h not in self.steppers:
            self.steppers[h] = self.new_stepper(h, self.o.formulation)
        return self.steppers[h]

    def new_stepper(self, h, formulation):
        """A Newton stepper of the formulation for step h, sharing the run's symbolic analysis."""
        return STEPPERS[formulation](self.system, h, self.params, self.o, self.analysis)

    def run(self, state, writer, t_end, h, record_every, bar):
        """The user's steps of h from ``state`` to the first step at or after ``t_end``, recorded into ``writer``."""
        t0 = state.t
        steps = max(1, math.ceil((t_end - t0) / h - 1e-9))
        for k in range(1, steps + 1):
            self.t = t0 + k * h
            step = self.advance(state, t0 + k * h, h, k)
            state = self.sample(step.state)
            writer.add_iterations(step.history)
            for event in step.events + self.watch(state, h, k):
                writer.add_event(event)
            if k % record_every == 0 or k == steps:
                writer.record(state.t, state.q, state.v, state.a, state.lam,
                              self.stats(state, len(step.history), step.factorizations, step.history[-1][2:],
                                         len(step.events)))
            bar.update(1)

    def watch(self, state, h, k):
        """Fast spin during the run (:mod:`.spin`): past the turn at which the multiplier mode grows tenfold in
        100 steps, switch to the stabilized form (logged, an event) or, with ``spin_check="refuse"`` or servo
        rows, stop with the reason."""
        if self.o.formulation != "index3" or not self.o.step_check or k % SPIN_WATCH:
            return []
        name, omega = fastest_turn(self.system, state.q, state.v)
        critical = max(SLOW, critical_turn(self.o.rho_inf, RUN_GROWTH_LIMIT))
        if omega * h <= critical:
            return []
        reason = (f"model '{self.system.name}': '{name}' turns at {omega:.4g} rad/s at t = {state.t:.6g} s (ωh = "
                  f"{omega * h:.3g} > {critical:.3g} at h = {h:.3g} s): the index-3 form's multiplier mode grows at "
                  f"ρ∞ = {self.o.rho_inf:g} (solvers/spin.py)")
        if self.o.spin_check == "refuse" or self.system.servo:
            raise SolverError(f"generalized-α: {reason}; use h ≤ {critical / omega:.3g} s, Options(tolerance=...) "
                              "(the step follows the spin)" + ("" if self.system.servo else
                                                                 " or Options(formulation='stabilized')"))
        logging.getLogger("femdyn").warning(f"{reason}: the run goes on in the stabilized form")
        self.o, self.steppers = replace(self.o, formulation="stabilized"), {}
        return [{"t": state.t, "event": "spin: stabilized form", "body": name, "omega": omega, "reason": reason}]

    def advance(self, state, t_new, h, k, depth=0):
        """Reach ``t_new`` from ``state`` with step ``h`` (or halves of it, by the policy)."""
        if depth == 0 and k <= self.recover_until:      # shortly after a rejection: two half steps
            return self._halves(state, t_new, h, k, depth, _Step(None, [], 0, []))
        out = self.stepper(h).solve(state, t_new, self.o.corrector)
        history = [(k,) + tuple(row) for row in out.history]
        events = [{"t": t_new, "event": "correction", **c} for c in out.corrections]
        if out.converged:
            self.counts.accepted_step(h)
            return _Step(out.state, history, out.factorizations, events)
        self.counts.rejected += 1
        if self.o.on_failure == "retry" and depth < self._halvings(state, h, depth):
            events.append({"t": t_new, "event": "step rejected", "h": h, "status": out.status, "depth": depth})
            self.recover_until = k + self.o.recovery_steps
            return self._halves(state, t_new, h, k, depth, _Step(None, history, out.factorizations, events))
        note = servo_failure_note(self.system, state, h, self.o.rho_inf) if self.system.servo else ""
        error = ConvergenceError(out.diagnosis + note + (f" The run was warned at its start: {self.warning}"
                                                         if self.warning else ""))
        error.history = history            # the failed step's Newton iterations go into the results too
        raise error

    def _halves(self, state, t_new, h, k, depth, before):
        """Cover the step by two half steps (each by the policy), after what ``before`` holds of a failed attempt."""
        first = self.advance(state, state.t + 0.5 * h, 0.5 * h, k, depth + 1)
        second = self.advance(first.state, t_new, 0.5 * h, k, depth + 1)
        return _Step(second.state, before.history + first.history + second.history,
                     before.factorizations + first.factorizations + second.factorizations,
                     before.events + first.events + second.events)

    def _halvings(self, state, h, depth):
        """The deepest bisection allowed below a user's step (servo runs: none that amplifies an unstable zero)."""
        if not self.system.servo:
            return self.o.max_halvings
        if depth == 0:                  # the zeros where the user's step failed bound its bisection
            self.servo_depth = servo_halvings(self.system, state.q, state.lam, h, self.o.rho_inf,
                                              self.o.max_halvings, state.t)
        return self.servo_depth


def _sampled(system, parts, s, kkt=None):
    """Discrete-state hook after an accepted step; a force jump restarts from consistent q̈, λ (ã = q̈)."""
    if any([p.sample(s.q, s.v, s.t) for p in parts]):
        s.a, s.lam = accelerations_and_multipliers(system, s.q, s.v, s.t, kkt)
        s.at = s.a.copy()
    return s


def _given_start(system, q, v, t, start):
    """The caller's initial (q̈, λ), checked against the equations of motion (``START_TOLERANCE``)."""
    a, lam = (np.broadcast_to(np.asarray(x, float), (size,)).copy() for x, size in zip(start, (system.n, system.m)))
    r, Q, _, _ = system.residual(q, v, a, lam, t)
    if not relative_residual(r, Q) <= START_TOLERANCE:
        raise SolverError(f"integrate: the given start (accelerations, multipliers) of model '{system.name}' leaves "
                          f"the relative dynamic residual {relative_residual(r, Q):.3g} > {START_TOLERANCE:g} at "
                          f"t = {t:g} s; "
                          "give the multipliers of a static equilibrium at that configuration, or no start")
    return a, lam


def _plain(options):
    """Options as JSON-friendly values (objects such as a corrector by their repr); the error control's settings
    only where set (a fixed-step run's settings are those of before)."""
    return {k: v if isinstance(v, (bool, int, float, str, type(None))) else repr(v) for k, v in options.items()
            if not (k in ("tolerance", "length_scale", "events") and v is None)}


def _initial_residuals(system, s):
    """(dynamic, constraint) residuals of the consistent initial state, as for a step."""
    r, Q, phi, _ = system.residual(s.q, s.v, s.a, s.lam, s.t)
    return relative_residual(r, Q), norm2(phi)


def _stats(system, s, iterations, factorizations, residuals, corrections):
    """The step-statistics row of the results (iterations, factorizations, residuals, energies, corrections)."""
    return [iterations, factorizations, residuals[0], residuals[1], system.kinetic_energy(s.v, s.q),
            system.potential_energy(s.q), corrections]


def _progress(total, enabled, name):
    """A tqdm progress bar, or a silent stand-in."""
    if enabled:
        from tqdm import tqdm
        return tqdm(total=total, desc=name, unit="step")

    class _Silent:
        def update(self, k):
            pass

        def close(self):
            pass
    return _Silent()
