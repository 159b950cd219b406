"""Trajectories of a point: jerk-limited motion profiles, paths, and their composition.

A motion profile s(t) gives the distance travelled along a path (m); a path p(s) gives
the position at arc length s; their composition r(t) = p(s(t)) has the exact time
derivatives ṙ = p′ ṡ and r̈ = p″ ṡ² + p′ s̈ (p′ the unit tangent, p″ the curvature
vector). Every scalar piece is a :class:`~femdyn.motion.timefunctions.TimeFunction`, so
any driving constraint can follow it, e.g. one Cartesian component of a trajectory::

    circle = CirclePath(centre=(0, 0, -0.8), radius=0.1, normal=(0, 0, 1))
    motion = PathMotion(circle, SCurve(circle.length, speed=0.5, acceleration=2.5, jerk=50.0))
    m.drive_coordinate("x", "platform", point, (1, 0, 0), motion.along((1, 0, 0)))

The seven-phase jerk-limited ("S-curve") profile is the standard one of motion control
(Biagiotti & Melchiorri 2008, "Trajectory Planning for Automatic Machines and Robots",
§3.4, eqs. 3.30–3.33 for rest-to-rest motion): jerk +J, 0, −J while accelerating, a
cruise at constant speed, and the mirror image while stopping. SI units: m, s.
"""
import math

import numpy as np

from ..errors import ModelError
from ..validation import number, positive, vector3
from .timefunctions import TimeFunction


def _state_part(k, summary, returns):
    """A method returning item k of ``self.state(t)``, documented by ``summary`` and ``returns``."""
    def part(self, t):
        return self.state(t)[k]
    part.__doc__ = f"{summary}\n\nParameters\n----------\nt : float\n    Time, s.\n\nReturns\n-------\n{returns}\n"
    return part


class StateFunction(TimeFunction):
    """A TimeFunction whose value and derivatives come together from ``state(t)`` →
    (f, f′, f″) (one evaluation gives all three, as profiles and inverse kinematics do)."""

    def state(self, t):
        """The value and its first two time derivatives at once.

        Parameters
        ----------
        t : float
            Time, s.

        Returns
        -------
        (f, f′, f″) : tuple of float
            In the unit of f, per s, per s².
        """
        raise NotImplementedError

    value = _state_part(0, "f(t).", "float\n    In the unit of f.")
    d1 = _state_part(1, "f′(t).", "float\n    Unit of f per s.")
    d2 = _state_part(2, "f″(t).", "float\n    Unit of f per s².")


class SCurve(StateFunction):
    """Jerk-limited rest-to-rest motion over a distance ``length`` (m).

    The speed rises from 0 to the cruise speed in three phases (jerk +J, 0, −J), stays
    constant, and falls back to 0 in the mirror image: s, ṡ, s̈ are continuous, \\|ṡ\\| ≤ v,
    \\|s̈\\| ≤ a, \\|s⃛\\| ≤ J (Biagiotti & Melchiorri 2008, §3.4). The profile degrades as the
    limits require: when v·J < a² the peak acceleration √(vJ) stays below ``acceleration``
    (no constant-acceleration phase), and when the distance is too short to reach
    ``speed`` the profile has no cruise phase and peaks at the highest reachable speed
    (eq. 3.33's reduced v_lim).

    Parameters
    ----------
    length : float
        Distance to travel (m), > 0.
    speed : float
        Cruise speed limit v (m/s), > 0.
    acceleration : float
        Acceleration limit a (m/s²), > 0.
    jerk : float
        Jerk limit J (m/s³), > 0.
    start : float, optional
        Start time t₀ (s); s = 0 before it and s = ``length`` after the end.
    exact_speed : bool, optional
        If True, refuse a distance too short to reach ``speed`` (instead of degrading).

    Attributes
    ----------
    duration : float
        Total time T (s). ``peak_speed``, ``peak_acceleration`` (m/s, m/s²), the phase
        durations ``t_jerk``, ``t_accel`` (the whole speed-up, three phases) and
        ``t_cruise`` (s), and ``breakpoints`` (the 8 phase boundaries, s).

    Raises
    ------
    ModelError
        A limit or the length not positive and finite, or ``exact_speed`` with a distance
        shorter than the speed-up and slow-down need (the message names the parameter).

    Example
    -------
    >>> s = SCurve(0.628, speed=0.5, acceleration=2.5, jerk=50.0)
    >>> round(s.duration, 4), s.value(s.duration) == 0.628
    (1.506, True)
    """

    def __init__(self, length, speed, acceleration, jerk, start=0.0, exact_speed=False):
        L = positive(length, "S-curve: length", "m")
        v = positive(speed, "S-curve: speed", "m/s")
        a = positive(acceleration, "S-curve: acceleration", "m/s²")
        j = positive(jerk, "S-curve: jerk", "m/s³")
        self.start = number(start, "S-curve: start", "s")
        v_reach = _highest_speed(L, a, j)
        if v > v_reach:
            if exact_speed:
                raise ModelError(f"S-curve: speed {v:g} m/s cannot be reached over length {L:g} m with acceleration "
                                 f"{a:g} m/s² and jerk {j:g} m/s³ (at most {v_reach:.6g} m/s); lower the speed, raise "
                                 "the acceleration or jerk limits, or allow a profile without cruise")
            v = v_reach
        self.length, self.peak_speed, self.jerk = L, v, j
        self.t_jerk = min(a / j, math.sqrt(v / j))               # duration of each jerk phase
        self.peak_acceleration = j * self.t_jerk
        self.t_accel = self.t_jerk + v / self.peak_acceleration   # eq. 3.30: T_a = T_j + v/a
        self.t_cruise = max(L / v - self.t_accel, 0.0)            # accel + decel cover v·T_a
        self.duration = 2 * self.t_accel + self.t_cruise
        Tj, Ta, Tv = self.t_jerk, self.t_accel, self.t_cruise
        self.breakpoints = self.start + np.cumsum([0, Tj, Ta - 2 * Tj, Tj, Tv, Tj, Ta - 2 * Tj, Tj])
        # states (s, v, a) at the start of the three speed-up phases, integrated exactly
        self._jerks = (j, 0.0, -j)
        self._starts, state = [], (0.0, 0.0, 0.0)
        for jk, dt in zip(self._jerks, (Tj, Ta - 2 * Tj, Tj)):
            self._starts.append(state)
            state = _advance(state, jk, dt)

    def _speed_up(self, tau):
        """(s, ṡ, s̈) at time τ ∈ [0, T_a] after the start of the speed-up."""
        edges = (0.0, self.t_jerk, self.t_accel - self.t_jerk)
        k = 2 if tau >= edges[2] else 1 if tau >= edges[1] else 0
        return _advance(self._starts[k], self._jerks[k], tau - edges[k])

    def state(self, t):
        """(s, ṡ, s̈) at time t (m, m/s, m/s²).

        Parameters
        ----------
        t : float
            Time, s; before ``start`` the state is (0, 0, 0), after the end
            (``length``, 0, 0).

        Returns
        -------
        tuple of float
        """
        tau = min(max(t - self.start, 0.0), self.duration)
        if tau <= self.t_accel:
            return self._speed_up(tau)
        if tau < self.t_accel + self.t_cruise:
            return self.peak_speed * (self.t_accel / 2 + tau - self.t_accel), self.peak_speed, 0.0
        s, v, a = self._speed_up(self.duration - tau)        # the slow-down mirrors the speed-up
        return self.length - s, v, -a

    def d3(self, t):
        """Jerk (m/s³) inside a phase (the phase on the right at a boundary).

        Parameters
        ----------
        t : float
            Time, s.

        Returns
        -------
        float
            +J, 0 or −J; 0 outside the motion.
        """
        tau = t - self.start
        if tau < 0 or tau >= self.duration:
            return 0.0
        k = int(np.searchsorted(self.breakpoints - self.start, tau, side="right")) - 1
        return (self.jerk, 0.0, -self.jerk, 0.0, -self.jerk, 0.0, self.jerk)[k]


def _advance(state, jerk, dt):
    """State (s, v, a) after ``dt`` s at constant jerk (exact cubic)."""
    s, v, a = state
    return (s + v * dt + a * dt * dt / 2 + jerk * dt**3 / 6, v + a * dt + jerk * dt * dt / 2, a + jerk * dt)


def _highest_speed(L, a, j):
    """The highest peak speed of a rest-to-rest S-curve over distance L (no cruise): with a
    constant-acceleration phase v(a/j + v/a) = L, else 2 v^{3/2}/√j = L (Biagiotti &
    Melchiorri 2008, eq. 3.33)."""
    v = 0.5 * a * (math.sqrt((a / j) ** 2 + 4 * L / a) - a / j)
    return v if v >= a * a / j else (0.5 * L * math.sqrt(j)) ** (2.0 / 3.0)


# --- paths ---------------------------------------------------------------------------
class Path:
    """A curve p(s) parameterized by arc length s ∈ [0, ``length``] (m).

    Subclasses give ``length`` and ``point(s)`` → (p, p′, p″): position (m), unit tangent
    and curvature vector (1/m). ``corners`` lists arc lengths where the tangent jumps.
    """

    corners = ()

    def point(self, s):
        """Position, unit tangent and curvature vector at arc length s.

        Parameters
        ----------
        s : float
            Arc length from the start, m.

        Returns
        -------
        p : ndarray (3,)
            Position, m, global frame.
        dp : ndarray (3,)
            p′(s), the unit tangent.
        ddp : ndarray (3,)
            p″(s), the curvature vector, 1/m (towards the centre of curvature).
        """
        raise NotImplementedError

    def position(self, s):
        """Position p(s) (m, global frame).

        Parameters
        ----------
        s : float
            Arc length, m.

        Returns
        -------
        ndarray (3,)
        """
        return self.point(s)[0]


class LinePath(Path):
    """The straight segment from ``start`` to ``end`` (m): p(s) = start + s e.

    Parameters
    ----------
    start, end : (3,) array_like
        End points, m, global frame.

    Raises
    ------
    ModelError
        If the end points coincide.

    Example
    -------
    >>> LinePath((0, 0, 0), (0.3, 0.4, 0)).length
    0.5
    """

    def __init__(self, start, end):
        self.start = vector3(start, "line path: start (m)")
        end = vector3(end, "line path: end (m)")
        self.length = float(np.linalg.norm(end - self.start))
        if not self.length > 0:
            raise ModelError("line path: start and end coincide (zero length); give distinct points (m)")
        self.e = (end - self.start) / self.length

    def point(self, s):
        return self.start + s * self.e, self.e.copy(), np.zeros(3)


class CirclePath(Path):
    """A circle (or arc) in the plane through ``centre`` normal to ``normal``.

    p(s) = c + R (cos φ e₁ + sin φ e₂), φ = φ₀ + s/R, with e₁ the global x axis projected
    on the plane (global y if the normal is along x) and e₂ = n × e₁, so the motion turns
    positively about ``normal``.

    Parameters
    ----------
    centre : array_like
        Centre (m), global axes.
    radius : float
        Radius R (m), > 0.
    normal : array_like
        Normal of the plane (normalized here).
    start_angle : float, optional
        φ₀ (rad) from e₁.
    turns : float, optional
        Number of turns; ``length`` = 2πR·turns.

    Raises
    ------
    ModelError
        Radius, turns not positive or a zero normal.

    Example
    -------
    >>> c = CirclePath((0, 0, -0.8), 0.1, (0, 0, 1))
    >>> np.round(c.position(0.0), 12).tolist()
    [0.1, 0.0, -0.8]
    """

    def __init__(self, centre, radius, normal=(0.0, 0.0, 1.0), start_angle=0.0, turns=1.0):
        self.centre = vector3(centre, "circle path: centre (m)")
        self.radius = positive(radius, "circle path: radius", "m")
        n = vector3(normal, "circle path: normal")
        if not np.linalg.norm(n) > 0:
            raise ModelError("circle path: normal is the zero vector; give the plane's normal direction")
        self.normal = n / np.linalg.norm(n)
        helper = np.array([0.0, 1.0, 0.0]) if abs(self.normal[0]) > 0.9 else np.array([1.0, 0.0, 0.0])
        e1 = helper - self.normal * (self.normal @ helper)
        self.e1 = e1 / np.linalg.norm(e1)
        self.e2 = np.cross(self.normal, self.e1)
        self.start_angle = number(start_angle, "circle path: start_angle", "rad")
        turns = positive(turns, "circle path: turns", "turns")
        self.length = 2 * math.pi * self.radius * turns

    def point(self, s):
        phi = self.start_angle + s / self.radius
        radial = math.cos(phi) * self.e1 + math.sin(phi) * self.e2
        tangent = -math.sin(phi) * self.e1 + math.cos(phi) * self.e2
        return self.centre + self.radius * radial, tangent, -radial / self.radius


class PolylinePath(Path):
    """Straight segments through ``points`` ((n ≥ 2, 3), m), by arc length.

    Its tangent jumps at the inner vertices (``corners``, arc lengths in m): follow it
    with :func:`stop_at_vertices`, which stops at every vertex so that the velocity stays
    continuous. ``segments`` are the :class:`LinePath` pieces.

    Parameters
    ----------
    points : (n, 3) array_like
        Vertices, m, global frame, n ≥ 2.

    Raises
    ------
    ModelError
        Fewer than two points or two consecutive points that coincide.

    Example
    -------
    >>> PolylinePath([(0, 0, 0), (1, 0, 0), (1, 1, 0)]).corners
    (1.0,)
    """

    def __init__(self, points):
        try:
            pts = np.asarray(points, float)
        except (TypeError, ValueError):
            pts = np.zeros((0, 0))
        if pts.ndim != 2 or pts.shape[1] != 3 or len(pts) < 2 or not np.all(np.isfinite(pts)):
            raise ModelError("polyline path: points must be an (n ≥ 2, 3) array of finite coordinates (m)")
        for k in range(len(pts) - 1):
            if not np.linalg.norm(pts[k + 1] - pts[k]) > 0:
                raise ModelError(f"polyline path: points {k} and {k + 1} coincide (zero-length segment); "
                                 "remove the repeated point")
        self.points = pts
        self.segments = [LinePath(a, b) for a, b in zip(pts[:-1], pts[1:])]
        self.offsets = np.concatenate([[0.0], np.cumsum([seg.length for seg in self.segments])])
        self.length = float(self.offsets[-1])
        self.corners = tuple(float(s) for s in self.offsets[1:-1])

    def point(self, s):
        k = min(max(int(np.searchsorted(self.offsets, s, side="right")) - 1, 0), len(self.segments) - 1)
        return self.segments[k].point(s - self.offsets[k])


# --- trajectories ----------------------------------------------------------------------
class Trajectory:
    """A point's motion r(t) (m) with exact ṙ (m/s) and r̈ (m/s²); scalar components as
    TimeFunctions for driving constraints. Subclasses implement ``state(t)`` → (r, ṙ, r̈)
    and set ``start`` and ``duration`` (s)."""

    def state(self, t):
        """Position, velocity and acceleration at once.

        Parameters
        ----------
        t : float
            Time, s.

        Returns
        -------
        (r, ṙ, r̈) : tuple of ndarray (3,)
            m, m/s, m/s², global frame.
        """
        raise NotImplementedError

    position = _state_part(0, "r(t), m, global frame.", "ndarray (3,)")
    velocity = _state_part(1, "ṙ(t), m/s, global frame.", "ndarray (3,)")
    acceleration = _state_part(2, "r̈(t), m/s², global frame.", "ndarray (3,)")

    @property
    def end(self):
        return self.start + self.duration

    def along(self, direction):
        """The scalar d·r(t) (m) as a TimeFunction, d the normalized ``direction``: what
        ``Model.drive_coordinate(name, body, point, direction, function)`` prescribes.

        Parameters
        ----------
        direction : (3,) array_like
            Global frame (normalised here).

        Returns
        -------
        Component

        Raises
        ------
        ModelError
            If the direction is zero or malformed.

        Examples
        --------
        >>> motion = PathMotion(LinePath((0, 0, 0), (0.3, 0.4, 0)), SCurve(0.5, 0.5, 2.5, 50.0))
        >>> round(motion.along((3, 4, 0))(motion.end), 12)
        0.5
        """
        d = vector3(direction, "trajectory component: direction")
        if not np.linalg.norm(d) > 0:
            raise ModelError("trajectory component: direction is the zero vector; give e.g. (1, 0, 0)")
        return Component(self, d / np.linalg.norm(d))

    def component(self, axis):
        """Global component ``axis`` of r(t) as a TimeFunction.

        Parameters
        ----------
        axis : int or str
            0, 1, 2 or "x", "y", "z".

        Returns
        -------
        Component

        Raises
        ------
        ModelError
            If ``axis`` is none of these.
        """
        k = {"x": 0, "y": 1, "z": 2}.get(axis, axis)
        if k not in (0, 1, 2):
            raise ModelError(f"trajectory component: axis must be 0, 1, 2 or 'x', 'y', 'z', got {axis!r}")
        return Component(self, np.eye(3)[k])

    def components(self):
        """The three global components (x, y, z) as TimeFunctions."""
        return tuple(self.component(k) for k in range(3))


class Component(TimeFunction):
    """f(t) = d·r(t) for a :class:`Trajectory` r and a fixed unit vector d.

    ``trajectory`` (Trajectory): r(t), m; ``direction`` (ndarray (3,)): d, a unit vector, global frame.
    """

    def __init__(self, trajectory, direction):
        self.trajectory, self.direction = trajectory, direction

    def value(self, t):
        return float(self.direction @ self.trajectory.position(t))

    def d1(self, t):
        return float(self.direction @ self.trajectory.velocity(t))

    def d2(self, t):
        return float(self.direction @ self.trajectory.acceleration(t))


class PathMotion(Trajectory):
    """r(t) = p(s(t)): a path followed with a motion profile (e.g. :class:`SCurve`):
    ṙ = p′(s) ṡ, r̈ = p″(s) ṡ² + p′(s) s̈ (chain rule, exact).

    Parameters
    ----------
    path : Path
        The curve, by arc length (m).
    profile : TimeFunction
        s(t) (m) with d1, d2; an :class:`SCurve` whose ``length`` must equal the path's.

    Raises
    ------
    ModelError
        A path with corners (the velocity would jump: use :func:`stop_at_vertices`), or a
        profile whose length differs from the path's.

    Example
    -------
    >>> line = LinePath((0, 0, 0), (0.2, 0, 0))
    >>> motion = PathMotion(line, SCurve(line.length, 0.5, 2.5, 50.0))
    >>> float(motion.position(motion.end)[0])
    0.2
    """

    def __init__(self, path, profile):
        if not isinstance(path, Path):
            raise ModelError(f"path motion: path must be a femdyn Path (LinePath, CirclePath, ...), "
                             f"got {type(path).__name__}")
        if not isinstance(profile, TimeFunction):
            raise ModelError(f"path motion: profile must be a TimeFunction s(t) (m), got {type(profile).__name__}")
        if path.corners:
            raise ModelError(f"path motion: the path has corners at s = {list(path.corners)} m where the velocity "
                             "would jump; use stop_at_vertices(points, ...) to stop at each vertex")
        length = getattr(profile, "length", path.length)
        if abs(length - path.length) > 1e-12 * max(1.0, path.length):
            raise ModelError(f"path motion: profile length {length:.12g} m differs from the path length "
                             f"{path.length:.12g} m; build the profile with length=path.length")
        self.path, self.profile = path, profile
        self.start = getattr(profile, "start", 0.0)
        self.duration = getattr(profile, "duration", math.inf)

    def state(self, t):
        s = self.profile.value(t)
        sd, sdd = self.profile.d1(t), self.profile.d2(t)
        p, dp, ddp = self.path.point(s)
        return p, dp * sd, ddp * sd * sd + dp * sdd


class MotionSequence(Trajectory):
    """Trajectories one after the other in time (each holds its end point until the
    next starts). The pieces must join: position of each end = start of the next.

    Parameters
    ----------
    pieces : sequence of Trajectory
        In time order, not overlapping.

    Raises
    ------
    ModelError
        No pieces, pieces overlapping in time, or a gap in position between pieces.
    """

    def __init__(self, pieces):
        pieces = list(pieces)
        if not pieces:
            raise ModelError("motion sequence: needs at least one trajectory")
        for k, (a, b) in enumerate(zip(pieces[:-1], pieces[1:])):
            if b.start < a.end - 1e-12:
                raise ModelError(f"motion sequence: piece {k + 1} starts at {b.start:g} s before piece {k} ends "
                                 f"at {a.end:g} s")
            gap = np.linalg.norm(b.position(b.start) - a.position(a.end))
            if gap > 1e-9:
                raise ModelError(f"motion sequence: piece {k + 1} starts {gap:.3g} m away from where piece {k} ends")
        self.pieces = pieces
        self.start, self.duration = pieces[0].start, pieces[-1].end - pieces[0].start
        self._starts = np.array([p.start for p in pieces])

    def state(self, t):
        k = max(int(np.searchsorted(self._starts, t, side="right")) - 1, 0)
        return self.pieces[k].state(t)


def stop_at_vertices(points, speed, acceleration, jerk, start=0.0, dwell=0.0):
    """Follow a polyline segment by segment, each with a rest-to-rest :class:`SCurve`
    (limits in m/s, m/s², m/s³), waiting ``dwell`` s at each inner vertex: position,
    velocity and acceleration stay continuous (both are zero at the vertices).

    Parameters
    ----------
    points : (n, 3) array_like
        Vertices, m, global frame.
    speed, acceleration, jerk : float
        Limits of each segment's :class:`SCurve`, m/s, m/s², m/s³.
    start : float, optional
        Start time, s.
    dwell : float, optional
        Wait at each inner vertex, s (≥ 0).

    Returns
    -------
    MotionSequence

    Raises
    ------
    ModelError
        If the points or limits are invalid (see :class:`PolylinePath`, :class:`SCurve`).

    Example
    -------
    >>> m = stop_at_vertices([(0, 0, 0), (0.1, 0, 0), (0.1, 0.1, 0)], 0.5, 2.5, 50.0)
    >>> np.round(m.position(m.end), 12).tolist()
    [0.1, 0.1, 0.0]
    """
    path = PolylinePath(points)
    dwell = positive(dwell, "stop_at_vertices: dwell", "s", allow_zero=True)
    t, pieces = number(start, "stop_at_vertices: start", "s"), []
    for seg in path.segments:
        pieces.append(PathMotion(seg, SCurve(seg.length, speed, acceleration, jerk, start=t)))
        t = pieces[-1].end + dwell
    return MotionSequence(pieces)
