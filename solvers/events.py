"""Events of an error-controlled run: the interpolant between two steps and the zeros of event functions on it.

Between the ends of an accepted step the state is the cubic Hermite interpolant of q from q and
q̇ at both ends (its derivative for q̇; q̈ and λ linear): exact for the quadratics generalized-α
itself integrates exactly, with an O(h⁴) error below the scheme's O(h³) local error, so records
at the requested times and located events cost no extra step. An event function g(t, q, q̇)
changing sign over a step is located on the interpolant by the Illinois variant of regula falsi
(Dowell & Jarratt 1971, BIT 11:168–174; superlinear, keeps the bracket) to ``time_tolerance``;
the integrator then lands a step on it. Clearance joints get an event on their penetration
δ = e − c (:func:`clearance_events`), so that a step lands on every contact onset.
"""
from dataclasses import dataclass

from femdyn.elements.ancf_element import hermite
from femdyn.errors import SolverError
from femdyn.model.clearance import ClearanceRevolute, ClearanceSpherical

__all__ = ["Event", "Interpolant", "clearance_events", "crossings", "ensure_events", "locate"]

MAX_ITERATIONS = 100        # Illinois iterations (each halves the bracket at worst twice in three steps)


@dataclass
class Event:
    """A function of the state whose sign change an error-controlled run locates.

    Parameters
    ----------
    name : str
        Name in ``Results.events``.
    function : callable
        g(t, q, v) → float: t in s, q and v the coordinates and velocities (n,) of the model.
    terminal : bool, optional
        End the run at the event (default: record it and go on).
    direction : {0, 1, -1}, optional
        Locate sign changes both ways (0), rising only (1: − to +) or falling only (−1).

    Raises
    ------
    SolverError
        ``function`` not callable or ``direction`` not one of 0, 1, −1 (from :meth:`check`).

    Examples
    --------
    A point mass reaching the plane z = 0 ends the run (z is its third coordinate):

    >>> ground = Event("ground", lambda t, q, v: q[2], terminal=True, direction=-1)
    >>> ground.check().terminal
    True
    """

    name: str
    function: object
    terminal: bool = False
    direction: int = 0

    def check(self):
        """The event itself, or SolverError naming what is wrong with it."""
        if not callable(self.function):
            raise SolverError(f"event '{self.name}': function must be callable g(t, q, v), got {self.function!r}")
        if self.direction not in (0, 1, -1):
            raise SolverError(f"event '{self.name}': direction must be 0, 1 or -1, got {self.direction!r}")
        return self

    def value(self, t, q, v):
        """g(t, q, v) as a float.

        Parameters
        ----------
        t : float
            Time [s].
        q, v : (n,) ndarray
            Coordinates and velocities.
        """
        return float(self.function(t, q, v))

    def crossed(self, g0, g1):
        """Whether the change from g0 to g1 is a sign change this event watches.

        Parameters
        ----------
        g0, g1 : float
            g at the start and at the end of a step.
        """
        if not (g0 * g1 < 0 or (g1 == 0 and g0 != 0)):
            return False
        return self.direction == 0 or (g1 - g0) * self.direction > 0


class Interpolant:
    """The state between the ends of one step: cubic Hermite q, q̇; linear q̈, λ (module docstring).

    Parameters
    ----------
    start, end : State
        The step's states (``t``, ``q``, ``v``, ``a``, ``lam``).

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace as S
    >>> a = S(t=0.0, q=np.zeros(1), v=np.zeros(1), a=-np.ones(1), lam=np.zeros(0))
    >>> b = S(t=1.0, q=-0.5 * np.ones(1), v=-np.ones(1), a=-np.ones(1), lam=np.zeros(0))
    >>> Interpolant(a, b).at(0.5)[0].tolist()        # −t²/2 exactly
    [-0.125]
    """

    def __init__(self, start, end):
        self.start, self.end = start, end
        self.h = end.t - start.t

    def at(self, t):
        """(q, v, a, λ) within the step.

        Parameters
        ----------
        t : float
            Time [s], between the step's ends.
        """
        s, e, h = self.start, self.end, self.h
        x = (t - s.t) / h
        (n00, n10, n01, n11), (d00, d10, d01, d11) = (shape[0] for shape in hermite(x)[:2])
        q = n00 * s.q + h * n10 * s.v + n01 * e.q + h * n11 * e.v
        v = (d00 * s.q + d01 * e.q) / h + d10 * s.v + d11 * e.v
        return q, v, (1 - x) * s.a + x * e.a, (1 - x) * s.lam + x * e.lam


def locate(event, interpolant, g0, g1, time_tolerance):
    """The time [s] of the sign change of ``event`` within the step of ``interpolant`` (Illinois method).

    Parameters
    ----------
    event : Event
        The event; g0 and g1 its values at the step's start and end, of opposite signs (or g1 = 0).
    interpolant : Interpolant
        The step's interpolant.
    g0, g1 : float
        g at the start and at the end of the step.
    time_tolerance : float
        Width of the final bracket [s].

    Returns
    -------
    float
        The located time, the bracket's end on the far side of the zero (g has changed sign there).

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace as S
    >>> a = S(t=0.0, q=np.ones(1), v=np.zeros(1), a=-np.ones(1), lam=np.zeros(0))
    >>> b = S(t=2.0, q=-np.ones(1), v=-2 * np.ones(1), a=-np.ones(1), lam=np.zeros(0))
    >>> fall = Event("z", lambda t, q, v: q[0])
    >>> round(locate(fall, Interpolant(a, b), 1.0, -1.0, 1e-12), 10)     # 1 − t²/2 = 0
    1.4142135624
    """
    t0, t1 = interpolant.start.t, interpolant.end.t
    if g1 == 0:
        return t1
    side = 0
    for _ in range(MAX_ITERATIONS):
        if t1 - t0 <= time_tolerance:
            break
        t = (t0 * g1 - t1 * g0) / (g1 - g0)
        t = min(max(t, t0 + 0.01 * (t1 - t0)), t1 - 0.01 * (t1 - t0))     # stay inside the bracket
        q, v, _, _ = interpolant.at(t)
        g = event.value(t, q, v)
        if g == 0:
            return t
        if g * g1 < 0:
            t0, g0 = t, g
            if side == -1:
                g1 *= 0.5
            side = -1
        else:
            t1, g1 = t, g
            if side == 1:
                g0 *= 0.5
            side = 1
    return t1


def clearance_events(system):
    """One event per clearance joint of the model on its penetration δ = e − c [m] (contact onset and end).

    Parameters
    ----------
    system : femdyn.model.system.System
        The assembled model.

    Returns
    -------
    list of Event
        Named "contact '<joint>'"; recorded, not terminal.

    Examples
    --------
    >>> import femdyn
    >>> m = femdyn.Model("ball")
    >>> _ = m.point_mass("ball", (0, 0, 1.0), 1.0)
    >>> clearance_events(m.assemble())
    []
    """
    joints = [p for p in system.parts if isinstance(p, (ClearanceRevolute, ClearanceSpherical))]
    return [Event(f"contact '{j.name}'", _penetration(j)) for j in joints]


def _penetration(joint):
    """g(t, q, v) = δ of a clearance joint, m."""
    return lambda t, q, v: joint.reading(q, v, t)[2]


def crossings(events, values, state):
    """The events whose sign changed over a step, and the events' values at its end.

    Parameters
    ----------
    events : list of Event
        The run's events.
    values : list of float
        Their values at the step's start.
    state : State
        The step's end (``t`` [s], ``q``, ``v``).

    Returns
    -------
    crossed : list of (Event, float, float)
        The events that changed sign, with g at the start and at the end.
    values : list of float
        Every event's g at the end.

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace as S
    >>> e = Event("x", lambda t, q, v: q[0])
    >>> crossed, new = crossings([e], [1.0], S(t=1.0, q=-np.ones(1), v=np.zeros(1)))
    >>> len(crossed), new
    (1, [-1.0])
    """
    new = [e.value(state.t, state.q, state.v) for e in events]
    return [(e, g0, g1) for e, g0, g1 in zip(events, values, new) if e.crossed(g0, g1)], new


def ensure_events(events):
    """The run's events as a checked list.

    Parameters
    ----------
    events : Event, list of Event or None
        What the caller gave (None: no events).

    Returns
    -------
    list of Event

    Raises
    ------
    SolverError
        An entry that is not an :class:`Event`, or a bad event.

    Examples
    --------
    >>> ensure_events(None)
    []
    """
    if events is None:
        return []
    events = list(events) if isinstance(events, (list, tuple)) else [events]
    for e in events:
        if not isinstance(e, Event):
            raise SolverError(f"generalized-α: events must be femdyn.solvers.events.Event objects, got {e!r}")
        e.check()
    return events

