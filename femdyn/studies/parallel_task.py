"""The task of a parallel-robot study: the platform's motion in task coordinates, with exact rates.

Kinds: ``circle`` (centre, radius, in the horizontal plane), ``line`` (from the start, by ``offset``),
``pick_place`` (the cycle used to rate Delta robots: 25 mm up, 305 mm across, 25 mm down, each segment
rest to rest; Adept's benchmark cycle, also in ISO 9283-style ratings), each along a jerk-limited S-curve
(Biagiotti & Melchiorri 2008), and ``table``: a CSV of t (s) and the task coordinates, through cubic
splines. Paths move the task's positional coordinates; the others stay at their start values.
"""
import csv
from dataclasses import dataclass, field

import numpy as np

from ..errors import ModelError, SchemaError
from ..motion.trajectories import CirclePath, LinePath, PathMotion, SCurve, stop_at_vertices

POSITION = ("x", "y", "z")     # the platform centre's task coordinates

KINDS = ("circle", "line", "pick_place", "table")


@dataclass
class TaskConfig:
    """The task: ``kind`` (see :data:`KINDS`); ``start`` the task pose where the motion begins (empty: the
    robot's home; a circle starts ``radius`` along x from its centre, the centre at the start pose plus
    ``-radius`` x); ``radius``, ``offset`` (m, line); ``rise``, ``span`` (m, pick_place), ``turns`` (circle);
    ``speed``, ``acceleration``, ``jerk`` (m/s, m/s², m/s³); ``table`` (CSV path: t then the task
    coordinates, one row per sample)."""

    kind: str = "circle"
    start: tuple = ()
    radius: float = 0.05
    turns: float = 1.0
    offset: tuple = (0.1, 0.0, 0.0)
    rise: float = 0.025
    span: float = 0.305
    speed: float = field(default=0.5, metadata={"schema": {"above": 0, "unit": "m/s"}})
    acceleration: float = field(default=5.0, metadata={"schema": {"above": 0, "unit": "m/s²"}})
    jerk: float = field(default=100.0, metadata={"schema": {"above": 0, "unit": "m/s³"}})
    table: str = ""


class TaskMotion:
    """The platform's task coordinates x(t) with ẋ, ẍ (``state``), from ``start`` to ``end`` (s).

    Parameters
    ----------
    names : tuple of str
        The task coordinates.
    start_pose : (n,) ndarray
        x at the start.
    point : Trajectory or None
        The platform origin's motion (a path task), whose components replace x, y, z.
    spline : scipy CubicSpline or None
        x(t) of a table task.
    """

    def __init__(self, names, start_pose, point=None, spline=None):
        self.names, self.start_pose = tuple(names), np.asarray(start_pose, float)
        self.point, self.spline = point, spline
        self.positional = [k for k, c in enumerate(self.names) if c in "xyz"]
        if spline is not None:
            self.start, self.end = float(spline.x[0]), float(spline.x[-1])
        else:
            self.start, self.end = point.start, point.end

    def state(self, t):
        """(x, ẋ, ẍ) at time t (s): task coordinates in m and rad, and their rates."""
        if self.spline is not None:
            t = min(max(t, self.start), self.end)
            return self.spline(t), self.spline(t, 1), self.spline(t, 2)
        r, v, a = self.point.state(t)
        x, xd, xdd = self.start_pose.copy(), np.zeros_like(self.start_pose), np.zeros_like(self.start_pose)
        for k in self.positional:
            axis = "xyz".index(self.names[k])
            x[k], xd[k], xdd[k] = r[axis], v[axis], a[axis]
        return x, xd, xdd

    def sampled(self, t):
        """(x, ẋ, ẍ) at the times t (array), each (len(t), n)."""
        rows = [self.state(float(tk)) for tk in np.atleast_1d(t)]
        return tuple(np.array([row[k] for row in rows]) for k in range(3))


def task_motion(robot, config):
    """The :class:`TaskMotion` of ``config`` (a :class:`TaskConfig`) for a :class:`ParallelRobot`.

    Raises
    ------
    SchemaError
        For an unknown kind, a start of the wrong size, a path moving a coordinate the task does not have,
        or an unreadable table.
    """
    names = robot.description.task
    if config.kind not in KINDS:
        raise SchemaError(f"task.kind {config.kind!r} is not a task; use one of {list(KINDS)}")
    start = np.asarray(config.start if len(config.start) else robot.home[robot.task], float)
    if start.shape != (len(names),):
        raise SchemaError(f"task.start must give the {len(names)} task coordinates {list(names)}, got "
                          f"{list(config.start)}")
    if config.kind == "table":
        return TaskMotion(names, start, spline=_table(config.table, names))
    origin = np.zeros(3)
    for k, c in enumerate(names):
        if c in "xyz":
            origin["xyz".index(c)] = start[k]
    point = _path(config, origin)
    moved = {c for k, c in enumerate("xyz") if np.ptp([point.position(t)[k] for t in
                                                      np.linspace(point.start, point.end, 64)]) > 1e-12}
    missing = sorted(moved - set(names))
    if missing:
        raise SchemaError(f"task.kind '{config.kind}' moves {missing}, which are not task coordinates of robot "
                          f"'{robot.description.name}' (task {list(names)}); use another path or a table")
    return TaskMotion(names, start, point=point)


def _path(config, origin):
    """The platform origin's motion along the path of a circle, line or pick-and-place task."""
    profile = dict(speed=config.speed, acceleration=config.acceleration, jerk=config.jerk)
    if config.kind == "circle":
        path = CirclePath(origin - np.array([config.radius, 0.0, 0.0]), config.radius, turns=config.turns)
        return PathMotion(path, SCurve(path.length, **profile))
    if config.kind == "line":
        path = LinePath(origin, origin + np.asarray(config.offset, float))
        return PathMotion(path, SCurve(path.length, **profile))
    up, across = np.array([0, 0, config.rise]), np.array([config.span, 0, 0])
    points = [origin, origin + up, origin + up + across, origin + across, origin + up + across, origin + up, origin]
    return stop_at_vertices(points, **profile)


def _table(path, names):
    """Cubic splines through a CSV table of t (s) and the task coordinates (header: t, then the names)."""
    from scipy.interpolate import CubicSpline
    if not path:
        raise SchemaError("task.kind 'table' needs task.table = \"file.csv\" (columns t, then "
                          f"{', '.join(names)})")
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as err:
        raise SchemaError(f"cannot read the task table '{path}': {err.strerror}") from None
    header = [h.strip().split(" ")[0] for h in rows[0]] if rows else []
    if header != ["t", *names]:
        raise SchemaError(f"task table '{path}': the header must be t, {', '.join(names)} (units s, m, rad), "
                          f"got {rows[0] if rows else 'an empty file'}")
    try:
        data = np.array([[float(v) for v in row] for row in rows[1:] if row], float)
    except ValueError as err:
        raise SchemaError(f"task table '{path}': {err}; every cell after the header must be a number") from None
    if len(data) < 4 or not np.all(np.diff(data[:, 0]) > 0) or not np.all(np.isfinite(data)):
        raise ModelError(f"task table '{path}': need ≥ 4 rows of finite numbers with increasing t")
    return CubicSpline(data[:, 0], data[:, 1:], axis=0, bc_type="clamped")


def platform_deviation(results, motion, robot):
    """Platform position minus the task's (m), per sample: (k, 3), zero in coordinates the task fixes."""
    P = np.column_stack([results[f"platform.{c}"] for c in POSITION])
    X = motion.sampled(results.t)[0]
    commanded = P.copy()
    for k, c in enumerate(robot.description.task):
        if c in POSITION:
            commanded[:, POSITION.index(c)] = X[:, k]
    return P - commanded
