"""The error-controlled march of generalized-α: steps chosen by the local error estimate, records and events interpolated.

:func:`~femdyn.solvers.generalized_alpha.integrate` with ``Options(tolerance=τ)`` runs this
loop instead of its fixed one. Each step is accepted when the estimate of
:mod:`.error_control` is within τ, else retried shorter; a step whose Newton iteration fails is
retried at a quarter of its length (``on_failure="stop"``: the run ends there). The user's h is the first and the largest step. Records are
taken at the times the fixed run would record (t₀ + k·h·``record_every`` and ``t_end``), from the
interpolant of :mod:`.events`; an event is located on it and a step lands on it. Fast spin is
watched at every step: the step is kept below ``critical_turn(ρ∞)/ω`` for the index-3 form
(:mod:`.spin`). Details: docs/time-step.md.
"""
import math

import numpy as np

from femdyn.errors import ConvergenceError, SolverError

from .error_control import StepController, coordinate_scales, error_norm, local_error
from .events import Interpolant, crossings, locate
from .spin import SLOW, critical_turn, fastest_turn

__all__ = ["AdaptiveRun", "StepCounts", "check_tolerance"]

SPIN_MARGIN = 0.9           # fraction of the critical turn per step the index-3 form is allowed


class StepCounts:
    """Accepted and rejected steps of a run and the smallest and largest accepted step (the run summary's numbers).

    Parameters
    ----------
    control : str
        "tolerance" or "fixed".

    Examples
    --------
    >>> c = StepCounts("tolerance")
    >>> c.accepted_step(1e-3); c.accepted_step(2e-3); c.rejected += 1
    >>> c.as_dict()["largest"], c.as_dict()["accepted"]
    (0.002, 2)
    """

    def __init__(self, control):
        self.control = control
        self.accepted, self.rejected, self.failed = 0, 0, 0
        self.smallest, self.largest = math.inf, 0.0

    def accepted_step(self, h):
        """Count an accepted step.

        Parameters
        ----------
        h : float
            Its length [s].
        """
        self.accepted += 1
        self.smallest, self.largest = min(self.smallest, h), max(self.largest, h)

    def as_dict(self):
        """The counts as JSON-friendly values (the results' ``meta["steps"]``)."""
        return {"control": self.control, "accepted": self.accepted, "rejected": self.rejected,
                "newton_failures": self.failed, "smallest": self.smallest if self.accepted else None,
                "largest": self.largest if self.accepted else None}


class AdaptiveRun:
    """One error-controlled run (module docstring): call :meth:`run` once.

    Parameters
    ----------
    system : System
        The assembled model.
    params : Parameters
        Generalized-α coefficients.
    options : Options
        The run's options (``tolerance`` set).
    make_stepper : callable
        (h, formulation) → a Newton stepper of :mod:`.generalized_alpha` with ``solve(state, t, corrector)``.
    sample : callable
        state → state after an accepted step (discrete-state parts).
    stats : callable
        (state, iterations, factorizations, residuals, corrections) → the step-statistics row.
    events : list of Event
        The user's events and the clearance joints' contact events.

    Examples
    --------
    Used by :func:`~femdyn.solvers.generalized_alpha.integrate`:

    >>> import femdyn
    >>> from femdyn.solvers import Options, integrate
    >>> m = femdyn.Model("pendulum", gravity=(0, 0, -9.81))
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.revolute("pivot", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
    >>> r = integrate(m.assemble(), t_end=0.5, h=0.05, options=Options(tolerance=1e-6))
    >>> r.meta["steps"]["control"], r.meta["steps"]["largest"] <= 0.05
    ('tolerance', True)
    """

    def __init__(self, system, params, options, make_stepper, sample, stats, events):
        self.system, self.params, self.o = system, params, options
        self.make_stepper, self.sample, self.stats, self.events = make_stepper, sample, stats, events
        self.counts = StepCounts("tolerance")
        self.t = None
        self._stepper, self._h = None, None
        self._spin_logged = False

    def stepper(self, h):
        """The Newton stepper for a step (a new one when h changed: its iteration matrix depends on h).

        Parameters
        ----------
        h : float
            The step [s].
        """
        if h != self._h:
            self._stepper, self._h = self.make_stepper(h, self.o.formulation), h
        return self._stepper

    def run(self, state, writer, t_end, h, record_every, bar):
        """March from ``state`` to ``t_end`` with steps ≤ h, recording into ``writer``.

        Parameters
        ----------
        state : State
            The consistent initial state.
        writer : femdyn.results.store.ResultsWriter
            Receives the records, Newton iterations and events.
        t_end : float
            End time [s] (a terminal event may end the run before).
        h : float
            The first and largest step [s]; records every ``record_every`` · h and at ``t_end``.
        record_every : int
            Output spacing in steps of h.
        bar : object
            Progress bar (``update(1)`` per accepted step).

        Returns
        -------
        StepCounts
        """
        o = self.o
        self.scales = coordinate_scales(self.system, state.q, o.length_scale)
        control = StepController(h)
        spacing, t0 = h * record_every, state.t
        outputs = [t0 + k * spacing for k in range(1, max(1, math.ceil((t_end - t0) / spacing - 1e-9)))] + [t_end]
        values = [e.value(state.t, state.q, state.v) for e in self.events]
        step, k, self.t = h, 0, state.t
        while state.t < t_end:
            k += 1
            step = min(step, self._spin_limit(state, writer, h))
            trial = _toward(state.t, t_end, step)
            new, err, out = self._attempt(state, trial, k, writer, t_end if trial == t_end - state.t else None)
            if new is None:
                if err is None and o.on_failure == "stop":
                    raise ConvergenceError(out.diagnosis)
                step = control.failed(trial) if err is None else control.reject(trial, err)
                if step < control.smallest:
                    raise ConvergenceError(f"generalized-α with tolerance {o.tolerance:g}: the step fell below "
                                           f"{control.smallest:.3g} s at t = {state.t:.6g} s. " + out.diagnosis)
                continue
            new, fired, values = self._events(state, new, values, k, writer)
            self.counts.accepted_step(new.t - state.t)
            new = self.sample(new)
            outputs = self._record(writer, Interpolant(state, new), outputs, out, any(e.terminal for e in fired))
            bar.update(1)
            state, self.t = new, new.t
            if any(e.terminal for e in fired):
                break
            step = control.accept(trial, err)
        return self.counts

    def _attempt(self, state, h, k, writer, t_new=None):
        """One step of length h (to ``t_new`` exactly if given): (new state, scaled error, outcome), or (None, error or
        None on a Newton failure, outcome)."""
        t_new = state.t + h if t_new is None else t_new
        out = self.stepper(h).solve(state, t_new, self.o.corrector)
        writer.add_iterations([(k,) + tuple(row) for row in out.history])
        for c in out.corrections:
            writer.add_event({"t": t_new, "event": "correction", **c})
        if not out.converged:
            self.counts.failed += 1
            writer.add_event({"t": t_new, "event": "step rejected", "h": h, "status": out.status, "reason": "newton"})
            return None, None, out
        err = error_norm(local_error(self.params, h, state.at, out.state.at), self.scales, self.o.tolerance)
        if not err <= 1.0:
            self.counts.rejected += 1
            writer.add_event({"t": t_new, "event": "step rejected", "h": h, "status": "error", "error": err,
                              "reason": "error"})
            return None, err if math.isfinite(err) else 1e6, out
        return out.state, err, out

    def _events(self, state, new, values, k, writer):
        """Locate the events of the step, land a step on the first one; (state, fired events, values at its end)."""
        crossed, after = crossings(self.events, values, new)
        if not crossed:
            return new, [], after
        interpolant = Interpolant(state, new)
        tol = self.o.tolerance * self._h
        times = [(locate(e, interpolant, g0, g1, tol), e) for e, g0, g1 in crossed]
        t_event = min(t for t, _ in times)
        fired = [e for t, e in times if t <= t_event + tol]
        if t_event < new.t - tol:                   # a step lands on the event
            out = self.make_stepper(t_event - state.t, self.o.formulation).solve(state, t_event, self.o.corrector)
            writer.add_iterations([(k,) + tuple(row) for row in out.history])
            if out.converged:
                new = out.state
        q, v, _, _ = interpolant.at(t_event)
        at_event = [e.value(new.t, new.q, new.v) for e in self.events]
        for i, e in enumerate(self.events):         # the far side of the located zero: no second crossing
            if any(e is f for f in fired):
                g = e.value(t_event, q, v)
                at_event[i] = g if g != 0 else after[i]
                writer.add_event({"t": new.t, "event": "event", "name": e.name, "terminal": e.terminal})
        return new, fired, at_event

    def _record(self, writer, interpolant, outputs, out, last):
        """Record the requested times the step covers (and its end if ``last``); the times still to come."""
        end, times = interpolant.end, []
        while outputs and outputs[0] <= end.t + 1e-9 * self._h:
            times.append(min(outputs.pop(0), end.t))
        if last and (not times or times[-1] != end.t):
            times.append(end.t)
        residuals = out.history[-1][1:] if out.history else (0.0, 0.0)
        for t in times:
            q, v, a, lam = (end.q, end.v, end.a, end.lam) if t == end.t else interpolant.at(t)
            writer.record(t, q, v, a, lam, self.stats(_Point(t, q, v), len(out.history), out.factorizations,
                                                      residuals, len(out.corrections)))
        return [] if last else outputs

    def _spin_limit(self, state, writer, h):
        """The largest step the fastest turn allows the index-3 form (h itself when nothing limits it)."""
        if self.o.formulation != "index3" or not self.o.step_check:
            return h
        name, omega = fastest_turn(self.system, state.q, state.v)
        limit = SPIN_MARGIN * max(SLOW, critical_turn(self.o.rho_inf)) / omega if omega > 0 else h
        if limit < h and not self._spin_logged:
            self._spin_logged = True
            writer.add_event({"t": state.t, "event": "step limited by spin", "body": name, "omega": omega,
                              "h": limit, "reason": f"'{name}' turns at {omega:.4g} rad/s: the index-3 multiplier "
                              f"mode grows at ρ∞ = {self.o.rho_inf:g} beyond ωh = {critical_turn(self.o.rho_inf):.3g}"
                              " (solvers/spin.py)"})
        return min(h, limit)


class _Point:
    """The (t, q, v) of a recorded time, for the energies of the statistics row."""

    def __init__(self, t, q, v):
        self.t, self.q, self.v = t, q, v


def _toward(t, t_end, step):
    """The next step from t: ``step``, the rest of the run when it is shorter, or half of it when under two steps."""
    rest = t_end - t
    if step >= rest * (1 - 1e-12):
        return rest
    return 0.5 * rest if rest < 2 * step else step


def check_tolerance(tolerance):
    """The run's tolerance τ as a float, or SolverError.

    Parameters
    ----------
    tolerance : float
        τ of ``Options(tolerance=τ)`` (dimensionless), 0 < τ < 1.

    Returns
    -------
    float

    Raises
    ------
    SolverError
        τ not a number in (0, 1).

    Examples
    --------
    >>> check_tolerance(1e-5)
    1e-05
    """
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float, np.floating)) \
            or not 0 < tolerance < 1:
        raise SolverError(f"generalized-α: Options(tolerance) must be a number in (0, 1) (the relative local "
                          f"error per step, docs/time-step.md), got {tolerance!r}")
    return float(tolerance)

