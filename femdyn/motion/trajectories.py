"""Trajectories of a point: S-curve profiles s(t) (Biagiotti & Melchiorri 2008, §3.4), paths p(s), r(t) = p(s(t))."""
import math

import numpy as np

from ..errors import ModelError
from ..input_checks import number, positive, vector3
from .timefunctions import TimeFunction


def _state_part(k, summary, returns):
    """A method returning item k of ``self.state(t)``, documented by ``summary`` and ``returns``."""
    def part(self, t):
        return self.state(t)[k]
    part.__doc__ = f"{summary}\n\nParameters\n----------\nt : float\n    Time, s.\n\nReturns\n-------\n{returns}\n"
    return part


class StateFunction(TimeFunction):
    """A TimeFunction whose value and derivatives come together from ``state(t)`` → (f, f′, f″)."""

    def state(self, t):
        """(f, f′, f″) at once: the unit of f, per s, per s².

        Parameters
        ----------
        t : float
        """
        raise NotImplementedError

    value = _state_part(0, "f(t).", "float\n    In the unit of f.")
    d1 = _state_part(1, "f′(t).", "float\n    Unit of f per s.")
    d2 = _state_part(2, "f″(t).", "float\n    Unit of f per s².")


class SCurve(StateFunction):
    """Jerk-limited rest-to-rest motion over ``length`` (Biagiotti & Melchiorri 2008, §3.4).

    Jerk +J, 0, −J up to cruise speed, cruise, mirror image down; v·J < a² caps the acceleration at √(vJ),
    a short distance gives no cruise and the peak speed of eq. 3.33. Attributes: ``duration``, ``peak_speed``,
    ``peak_acceleration``, ``t_jerk``, ``t_accel``, ``t_cruise``, ``breakpoints``.

    Parameters
    ----------
    length, speed, acceleration, jerk : float
        Distance (m) and limits v, a, J (m/s, m/s², m/s³), all > 0 (else ModelError).
    start : float, optional
        Start time, s; s = 0 before it, ``length`` after the end.
    exact_speed : bool, optional
        Raise ModelError instead of degrading when ``speed`` cannot be reached.
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
        tau = min(max(t - self.start, 0.0), self.duration)
        if tau <= self.t_accel:
            return self._speed_up(tau)
        if tau < self.t_accel + self.t_cruise:
            return self.peak_speed * (self.t_accel / 2 + tau - self.t_accel), self.peak_speed, 0.0
        s, v, a = self._speed_up(self.duration - tau)        # the slow-down mirrors the speed-up
        return self.length - s, v, -a

    def d3(self, t):
        """Jerk (+J, 0 or −J; 0 outside the motion), m/s³, of the phase to the right of t.

        Parameters
        ----------
        t : float
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
    """Highest peak speed over distance L without cruise (Biagiotti & Melchiorri 2008, eq. 3.33)."""
    v = 0.5 * a * (math.sqrt((a / j) ** 2 + 4 * L / a) - a / j)
    return v if v >= a * a / j else (0.5 * L * math.sqrt(j)) ** (2.0 / 3.0)


# --- paths ---------------------------------------------------------------------------
class Path:
    """A curve p(s) by arc length s ∈ [0, ``length``], m; ``corners``: arc lengths where the tangent jumps."""

    corners = ()

    def point(self, s):
        """Position (m), unit tangent p′ and curvature vector p″ (1/m) at arc length s from the start (m).

        Parameters
        ----------
        s : float
        """
        raise NotImplementedError

    def position(self, s):
        """Position p(s), m, at arc length s (m).

        Parameters
        ----------
        s : float
        """
        return self.point(s)[0]


class LinePath(Path):
    """The straight segment p(s) = start + s e.

    Parameters
    ----------
    start, end : (3,) array_like
        End points, m (distinct, else ModelError).
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
    """Circle p(s) = c + R (cos φ e₁ + sin φ e₂), φ = φ₀ + s/R, e₁ = x (or y) on the plane, e₂ = n × e₁.

    Parameters
    ----------
    centre, radius : array_like, float
        Centre and radius R (> 0), m.
    normal : array_like
        Normal of the plane (normalized here).
    start_angle, turns : float, optional
        φ₀ from e₁, rad; number of turns (``length`` = 2πR·turns).
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
    """Straight segments through ``points``; tangent jumps at ``corners`` (use :func:`stop_at_vertices`).

    Parameters
    ----------
    points : (n, 3) array_like
        Vertices, m, n ≥ 2, consecutive points distinct (else ModelError).
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
    """A point's motion r(t) with exact ṙ, r̈; subclasses give ``state(t)``, ``start`` and ``duration``."""

    def state(self, t):
        """(r, ṙ, r̈) at once: m, m/s, m/s², global frame.

        Parameters
        ----------
        t : float
        """
        raise NotImplementedError

    position = _state_part(0, "r(t), m, global frame.", "ndarray (3,)")
    velocity = _state_part(1, "ṙ(t), m/s, global frame.", "ndarray (3,)")
    acceleration = _state_part(2, "r̈(t), m/s², global frame.", "ndarray (3,)")

    @property
    def end(self):
        return self.start + self.duration

    def along(self, direction):
        """The scalar d·r(t) as a TimeFunction (d = ``direction`` normalized), for ``Model.drive_coordinate``.

        Parameters
        ----------
        direction : (3,) array_like
            Global frame, non-zero (else ModelError).
        """
        d = vector3(direction, "trajectory component: direction")
        if not np.linalg.norm(d) > 0:
            raise ModelError("trajectory component: direction is the zero vector; give e.g. (1, 0, 0)")
        return Component(self, d / np.linalg.norm(d))

    def component(self, axis):
        """Global component ``axis`` of r(t) (0, 1, 2 or "x", "y", "z"; else ModelError) as a TimeFunction.

        Parameters
        ----------
        axis : int or str
        """
        k = {"x": 0, "y": 1, "z": 2}.get(axis, axis)
        if k not in (0, 1, 2):
            raise ModelError(f"trajectory component: axis must be 0, 1, 2 or 'x', 'y', 'z', got {axis!r}")
        return Component(self, np.eye(3)[k])

    def components(self):
        """The three global components (x, y, z) as TimeFunctions."""
        return tuple(self.component(k) for k in range(3))


class Component(TimeFunction):
    """f(t) = d·r(t) for a :class:`Trajectory` r and a fixed unit vector d."""

    def __init__(self, trajectory, direction):
        self.trajectory, self.direction = trajectory, direction

    def value(self, t):
        return float(self.direction @ self.trajectory.position(t))

    def d1(self, t):
        return float(self.direction @ self.trajectory.velocity(t))

    def d2(self, t):
        return float(self.direction @ self.trajectory.acceleration(t))


class PathMotion(Trajectory):
    """r(t) = p(s(t)): a path followed with a profile; ṙ = p′ ṡ, r̈ = p″ ṡ² + p′ s̈ (exact).

    Parameters
    ----------
    path : Path
        The curve, without corners (else ModelError: use :func:`stop_at_vertices`).
    profile : TimeFunction
        s(t), m; an SCurve's ``length`` must equal the path's.
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
    """Trajectories one after the other, each holding its end point until the next starts.

    Parameters
    ----------
    pieces : sequence of Trajectory
        In time order, not overlapping, each starting where the previous ends (else ModelError).
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
    """A :class:`MotionSequence` along a polyline, one rest-to-rest :class:`SCurve` per segment.

    Parameters
    ----------
    points : (n, 3) array_like
        Vertices, m.
    speed, acceleration, jerk : float
        Limits of each segment, m/s, m/s², m/s³.
    start, dwell : float, optional
        Start time and wait at each inner vertex (≥ 0), s.
    """
    path = PolylinePath(points)
    dwell = positive(dwell, "stop_at_vertices: dwell", "s", allow_zero=True)
    t, pieces = number(start, "stop_at_vertices: start", "s"), []
    for seg in path.segments:
        pieces.append(PathMotion(seg, SCurve(seg.length, speed, acceleration, jerk, start=t)))
        t = pieces[-1].end + dwell
    return MotionSequence(pieces)
