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
import logging
import math
from dataclasses import asdict, dataclass

import numpy as np
from numba import njit

from femdyn.errors import ConvergenceError, SolverError
from femdyn.results.store import ResultsWriter

from .blocks import TangentValues
from .causal_step import servo_failure_note, servo_halvings
from .scheme import Parameters
from .initial import accelerations_and_multipliers, consistent_state
from .kkt import ACCEPT, KKTMatrix
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


START_TOLERANCE = 1e-6     # relative dynamic residual accepted for a start given to integrate
CONVERGED, STALLED_CONSTRAINTS, STALLED_DYNAMICS, DIVERGED = ("converged", "stalled in the constraints",
                                                               "stalled in the dynamics", "diverged")


@dataclass
class _NewtonOutcome:
    """How one step's Newton iteration ended."""

    status: str
    state: object
    history: list
    factorizations: int
    corrections: list
    diagnosis: str = ""

    @property
    def converged(self):
        return self.status == CONVERGED


def _stalled(history, o):
    """Status of an iteration that used up its iterations."""
    _, e_dyn, e_con = history[-1]
    first = history[0][1] / o.tol_dynamic + history[0][2] / o.tol_constraint
    if e_dyn / o.tol_dynamic + e_con / o.tol_constraint > 1e3 * first:
        return DIVERGED
    if e_dyn <= o.tol_dynamic:
        return STALLED_CONSTRAINTS
    return STALLED_DYNAMICS


class State:
    """Coordinates, velocities, accelerations, pseudo-acceleration and multipliers at one time."""

    def __init__(self, t, q, v, a, at, lam, initial=False):
        self.t, self.q, self.v, self.a, self.at, self.lam = t, q, v, a, at, lam
        self.initial = initial


class Residuals:
    """Residuals of one Newton iterate and what the iteration matrix needs."""

    def __init__(self, r, phi, rhs, e_dyn, e_con, jac, Phi_q=None, merit=None):
        self.r, self.phi, self.rhs, self.e_dyn, self.e_con = r, phi, rhs, e_dyn, e_con
        self.jac, self.Phi_q = jac, Phi_q
        self.merit = _norm(rhs) if merit is None else merit


class NewtonStep:
    """One generalized-α step of the index-3 form, solved by (modified) Newton on the scaled KKT system.
    Constraint rows scaled by 1/(βh²) (Bottasso, Bauchau & Cardona 2007); ``analysis``: a
    :class:`~femdyn.solvers.kkt.SymbolicAnalysis` shared with the run's other step sizes."""

    def __init__(self, system, h, params, options, analysis=None):
        self.sys, self.h, self.p, self.o = system, h, params, options
        self.kkt = KKTMatrix(system, analysis)
        p = params
        self.beta_h2 = p.beta * h * h
        self.d_acc = (1 - p.alpha_m) / (self.beta_h2 * (1 - p.alpha_f))   # ∂q̈/∂q
        self.d_vel = p.gamma / (p.beta * h)                                  # ∂q̇/∂q

    def predict(self, s, t):
        """Predicted state at the start of the Newton iteration.
        Géradin & Cardona 2001, Flexible Multibody Dynamics, §9.4."""
        p, h = self.p, self.h
        q, v, a, at = np.empty((4, len(s.q)))
        _predict(s.q, s.v, s.a, s.at, not (s.initial or self.o.predictor == "zero"), h, p.alpha_m, p.alpha_f,
                 p.beta, p.gamma, q, v, a, at)
        return State(t, q, v, a, at, s.lam.copy())

    def begin(self, s_old, t_new):
        """Start a step: the predicted iterate (subclasses also reset their own unknowns)."""
        return self.predict(s_old, t_new)

    def increment_size(self, x):
        """Length of a Newton increment of the iterate x: [Δq, Δλ]."""
        return len(x.q) + len(x.lam)

    def residuals(self, x):
        """Residuals of the iterate and the scaled right-hand side [βh² r; Φ]."""
        r, Q, phi, jac = self.sys.residual(x.q, x.v, x.a, x.lam, x.t)
        r2, phi2 = r @ r, phi @ phi
        return Residuals(r, phi, np.concatenate([self.beta_h2 * r, phi]), math.sqrt(r2) / max(1.0, _norm(Q)),
                         math.sqrt(phi2), jac, merit=math.sqrt(self.beta_h2 ** 2 * r2 + phi2))

    def matrix_values(self, x, jac):
        """The pieces of the iteration matrix at an iterate."""
        sys = self.sys
        k_vals, c_vals = sys.tangent_values(x.q, x.v, x.t)
        return TangentValues(sys.mass_values(x.q), jac, c_vals, k_vals, sys.mass_derivative_values(x.q, x.a),
                             sys.hessian_values(x.q, x.lam),
                             (self.beta_h2 * self.d_acc, self.beta_h2 * self.d_vel, self.beta_h2),
                             transpose=sys.force_transpose_values(x.q, jac) if sys.servo else None)

    def factorize(self, x, res):
        """Assemble and factorize the iteration matrix at an iterate."""
        self.kkt.factorize(self.kkt.saddle_matrix(self.matrix_values(x, res.jac)), x.q, x.t)

    def update(self, x, dx):
        """Apply a Newton correction to the iterate in place."""
        _update(x.q, x.v, x.a, x.lam, dx, self.d_vel, self.d_acc, self.beta_h2)

    def finish(self, s_old, x):
        """Complete a converged step: the pseudo-acceleration ã_{n+1} from q̈_{n+1}."""
        p = self.p
        x.at = ((1 - p.alpha_f) * x.a + p.alpha_f * s_old.a - p.alpha_m * s_old.at) / (1 - p.alpha_m)

    def solve(self, s_old, t_new, corrector=None):
        """Advance from ``s_old`` to ``t_new`` by (modified) Newton."""
        o = self.o
        x = self.begin(s_old, t_new)
        history, corrections, factorizations, previous = [], [], self.kkt.factorizations, np.inf
        status, dx, fresh, backtracks, base_merit = DIVERGED, None, False, 0, np.inf
        for it in range(o.max_iterations):
            res = self.residuals(x)
            history.append((it, res.e_dyn, res.e_con))
            if res.e_dyn <= o.tol_dynamic and res.e_con <= o.tol_constraint:
                status = CONVERGED
                break
            measure = res.e_dyn / o.tol_dynamic + res.e_con / o.tol_constraint
            merit = res.merit         # what Newton reduces (e_dyn saturates at 1 when elastic forces dominate Q)
            if fresh and merit > base_merit and backtracks < o.max_backtracks:
                dx *= 0.5                 # a fresh Newton step made the residual grow: take half of it
                self.update(x, -dx)
                backtracks += 1
                continue
            backtracks = 0
            if not math.isfinite(measure):
                return self._outcome(DIVERGED, x, res, history, corrections, factorizations,
                                     "the residual became non-finite")
            if corrector is not None and corrector.needed(history):
                corrections.append(corrector.apply(self, x))
                previous, fresh = np.inf, False
                continue
            fresh = self.kkt.solve_factor is None or measure > o.contraction * previous
            if fresh:
                self.factorize(x, res)
            previous, base_merit = measure, merit
            dx = self.kkt.solve(-res.rhs, accuracy=ACCEPT)
            self.update(x, dx)
        else:
            status = _stalled(history, o)
            return self._outcome(status, x, res, history, corrections, factorizations,
                                 f"no convergence in {o.max_iterations} iterations ({status})")
        self.finish(s_old, x)
        return _NewtonOutcome(status, x, history, self.kkt.factorizations - factorizations, corrections)

    def _outcome(self, status, x, res, history, corrections, factorizations, reason):
        return _NewtonOutcome(status, x, history, self.kkt.factorizations - factorizations, corrections,
                             self._diagnosis(x, res, reason))

    def _diagnosis(self, x, res, reason):
        sys, r, phi = self.sys, res.r, res.phi
        worst_q = np.argsort(-np.abs(r))[:4]
        worst_c = np.argsort(-np.abs(phi))[:4] if phi.size else []
        return (f"generalized-α step to t = {x.t:.6g} s: {reason}. Largest dynamic residuals at "
                f"{[(sys.labels[i], float(f'{r[i]:.3g}')) for i in worst_q]}; largest constraint residuals "
                f"{[(sys.constraints.labels[i], float(f'{phi[i]:.3g}')) for i in worst_c]}. Try a smaller step h, "
                "a smaller ρ∞, Options(formulation='stabilized') (fast-spinning bodies make the index-3 "
                "form's multiplier mode unstable at ρ∞ near 1, docs/validation.md), Options(max_halvings=8), "
                "or check the loads and the initial configuration.")


class _StabilizedStep(NewtonStep):
    """Stabilized index-2 (Gear–Gupta–Leimkuhler) generalized-α step.
    Arnold, Cardona & Brüls 2016, Multibody Syst. Dyn. 38:1–22, §2; Lunk & Simeon 2006."""

    def begin(self, s_old, t_new):
        # ν = 0 and the predicted iterate; q − q̂ (q̂ = q_n + h q̇_n + h²(½ − β) ã_n) kept from its increments:
        # q − q̂ formed from q loses the digits of q, amplified by 1/(βh²) in ã (a floor on the residual at small h)
        self.s_old = s_old
        self.nu = np.zeros(self.sys.m)
        x = self.predict(s_old, t_new)
        self.dq = self.beta_h2 * x.at
        return x

    def increment_size(self, x):
        """Length of a Newton increment of the iterate x: [Δq, Δλ, Δν]."""
        return len(x.q) + len(x.lam) + len(self.nu)

    def kinematics(self, x, Phi_q):
        """Set ã, q̈ and q̇ of the iterate from its q and the current ν (inverted update formulas)."""
        p, h, s = self.p, self.h, self.s_old
        x.at = (self.dq - Phi_q.T @ self.nu) / self.beta_h2
        x.a = ((1 - p.alpha_m) * x.at + p.alpha_m * s.at - p.alpha_f * s.a) / (1 - p.alpha_f)
        x.v = s.v + h * ((1 - p.gamma) * s.at + p.gamma * x.at)

    def residuals(self, x):
        # [βh² r; Φ; (hβ/γ)(Φ_q q̇ + Φ_t)]
        sys, p, h = self.sys, self.p, self.h
        evaluated = sys.constraints.evaluate(x.q, x.t)
        Phi_q = sys.constraints.jac_pattern.matrix(evaluated[1])
        self.kinematics(x, Phi_q)
        r, Q, phi, jac = sys.residual(x.q, x.v, x.a, x.lam, x.t, constraints=evaluated)
        r3 = Phi_q @ x.v + sys.constraints.acceleration_terms(x.q, x.v, x.t)[0]
        rhs = np.concatenate([self.beta_h2 * r, phi, (h * p.beta / p.gamma) * r3])
        return Residuals(r, phi, rhs, _relative(r, Q), max(_norm(phi), h * _norm(r3)), jac, Phi_q)

    def factorize(self, x, res):
        S = self.kkt.stabilized(self.matrix_values(x, res.jac), res.Phi_q)
        self.kkt.factorize(S, x.q, x.t, symmetric=False)

    def update(self, x, dx):
        # dx = [Δq; βh²Δλ; Δν]
        n, m = self.sys.n, self.sys.m
        x.q += dx[:n]
        self.dq += dx[:n]
        x.lam += dx[n:n + m] / self.beta_h2
        self.nu += dx[n + m:]

    def finish(self, s_old, x):
        pass  # ã, q̈, q̇ were set from the converged (q, ν) by the last residual evaluation


STEPPERS = {"index3": NewtonStep, "stabilized": _StabilizedStep}


@njit(cache=True)
def _predict(q0, v0, a0, at0, keep, h, alpha_m, alpha_f, beta, gamma, q, v, a, at):
    """The predicted q, q̇, q̈ (q̈_n, or 0 unless ``keep``), ã of :meth:`NewtonStep.predict`, element by element."""
    for i in range(len(q0)):
        a[i] = a0[i] if keep else 0.0
        at[i] = ((1 - alpha_f) * a[i] + alpha_f * a0[i] - alpha_m * at0[i]) / (1 - alpha_m)
        q[i] = q0[i] + h * v0[i] + h * h * ((0.5 - beta) * at0[i] + beta * at[i])
        v[i] = v0[i] + h * ((1 - gamma) * at0[i] + gamma * at[i])


@njit(cache=True)
def _update(q, v, a, lam, dx, d_vel, d_acc, beta_h2):
    """q += Δq, q̇ += ∂q̇/∂q Δq, q̈ += ∂q̈/∂q Δq, λ += Δ(βh²λ)/βh² in place (dx = [Δq; Δ(βh²λ)])."""
    n = len(q)
    for i in range(n):
        q[i] += dx[i]
        v[i] += d_vel * dx[i]
        a[i] += d_acc * dx[i]
    for i in range(len(lam)):
        lam[i] += dx[n + i] / beta_h2


def integrate(system, t_end, h, options=None, output=None, progress=False, q0=None, v0=None, t0=0.0,
              record_every=1, start=None):
    """Simulate a model from ``t0`` to ``t_end`` with generalized-α and a fixed step.

    Starts from :func:`~femdyn.solvers.initial.consistent_state` and ends at the first step at
    or after ``t_end``. A step that does not converge is covered by half steps (default) or ends
    the run (``options.on_failure``); rejections are logged in ``Results.events`` and counted in
    ``Results.rejected``. Checked at the start: fast spin (index 3), servo runs' unstable zeros.
    Symbols and units: docs/conventions.md.

    Parameters
    ----------
    system : System
        The assembled model.
    t_end, h : float
        End time and step size [s].
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
    march = _March(system, params, o, servo_note, kkt.analysis)
    writer = ResultsWriter(system, output, solver={"method": "generalized-alpha", "h": h,
                                                   **_plain(asdict(o)), **asdict(params)})
    writer.record(t0, q, v, a, lam, _stats(system, state, 0, 0, _initial_residuals(system, state), 0))
    steps = max(1, math.ceil((t_end - t0) / h - 1e-9))
    bar = _progress(steps, progress, system.name)
    k = 0
    try:
        for k in range(1, steps + 1):
            step = march.advance(state, t0 + k * h, h, k)
            state = _sampled(system, discrete, step.state, kkt)
            writer.add_iterations(step.history)
            for event in step.events:
                writer.add_event(event)
            if k % record_every == 0 or k == steps:
                writer.record(state.t, state.q, state.v, state.a, state.lam,
                              _stats(system, state, len(step.history), step.factorizations, step.history[-1][2:],
                                     len(step.events)))
            bar.update(1)
    except SolverError as err:
        writer.add_iterations(getattr(err, "history", []))
        err.results = writer.close(f"failed at t = {t0 + k * h:.6g} s: {err}")
        raise
    except BaseException as err:
        writer.close(f"interrupted at t = {t0 + k * h:.6g} s: {type(err).__name__}: {err}")
        raise
    finally:
        bar.close()
    results = writer.close("completed")
    if results.rejected["steps"]:
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

    def __init__(self, system, params, options, warning="", analysis=None):
        self.system, self.params, self.o = system, params, options
        self.warning = warning          # what the start-of-run checks found, for a failure's diagnosis
        self.steppers = {}
        self.analysis = analysis
        self.recover_until = 0          # the last user's step to be covered by half steps after a rejection

    def stepper(self, h):
        if h not in self.steppers:
            self.steppers[h] = STEPPERS[self.o.formulation](self.system, h, self.params, self.o, self.analysis)
        return self.steppers[h]

    def advance(self, state, t_new, h, k, depth=0):
        """Reach ``t_new`` from ``state`` with step ``h`` (or halves of it, by the policy)."""
        if depth == 0 and k <= self.recover_until:      # shortly after a rejection: two half steps
            return self._halves(state, t_new, h, k, depth, _Step(None, [], 0, []))
        out = self.stepper(h).solve(state, t_new, self.o.corrector)
        history = [(k,) + tuple(row) for row in out.history]
        events = [{"t": t_new, "event": "correction", **c} for c in out.corrections]
        if out.converged:
            return _Step(out.state, history, out.factorizations, events)
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


def _sampled(system, parts, s, kkt):
    """Discrete-state hook after an accepted step; a force jump restarts from consistent q̈, λ (ã = q̈)."""
    if any([p.sample(s.q, s.v, s.t) for p in parts]):
        s.a, s.lam = accelerations_and_multipliers(system, s.q, s.v, s.t, kkt)
        s.at = s.a.copy()
    return s


def _given_start(system, q, v, t, start):
    """The caller's initial (q̈, λ), checked against the equations of motion (``START_TOLERANCE``)."""
    a, lam = (np.broadcast_to(np.asarray(x, float), (size,)).copy() for x, size in zip(start, (system.n, system.m)))
    r, Q, _, _ = system.residual(q, v, a, lam, t)
    if not _relative(r, Q) <= START_TOLERANCE:
        raise SolverError(f"integrate: the given start (accelerations, multipliers) of model '{system.name}' leaves "
                          f"the relative dynamic residual {_relative(r, Q):.3g} > {START_TOLERANCE:g} at "
                          f"t = {t:g} s; "
                          "give the multipliers of a static equilibrium at that configuration, or no start")
    return a, lam


def _plain(options):
    """Options as JSON-friendly values (objects such as a corrector by their repr)."""
    return {k: v if isinstance(v, (bool, int, float, str, type(None))) else repr(v) for k, v in options.items()}


def _initial_residuals(system, s):
    """(dynamic, constraint) residuals of the consistent initial state, as for a step."""
    r, Q, phi, _ = system.residual(s.q, s.v, s.a, s.lam, s.t)
    return _relative(r, Q), _norm(phi)


def _norm(x):
    """Euclidean norm (np.linalg.norm costs more than the arithmetic on these vectors)."""
    return math.sqrt(x @ x)


def _relative(r, Q):
    """The dynamic error of Liu et al. 2018: ‖r‖₂ / max(1 N, ‖Q‖₂)."""
    return _norm(r) / max(1.0, _norm(Q))


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
