"""Trajectories of a body's pose: a point's position r(t) and the body's rotation vector φ(t).

A :class:`PoseTrajectory` is made of two 3-vector motions with exact first and second derivatives:
the position (m, global frame) and the rotation vector φ = axis × angle (rad, global frame). The
orientation it stands for is R(t) = exp([φ(t)]×), with angular velocity ω = J_l(φ) φ̇ and angular
acceleration α = J_l φ̈ + J̇_l φ̇ (:func:`femdyn.geometry.angular_motion`), all in the global frame.
``Model.servo_pose`` prescribes it (docs/inversion.md, "Prescribing a body's pose").
"""
import numpy as np

from ..errors import ModelError
from ..geometry import angular_motion
from .timefunctions import Callable, TimeFunction, as_time_function

POSE_COMPONENTS = ("x", "y", "z", "rx", "ry", "rz")


class _Components:
    """A 3-vector motion from three scalar TimeFunctions: state(t) → (f, f′, f″), each (3,)."""

    def __init__(self, functions):
        self.functions = functions

    def state(self, t):
        """The three components, their rates and accelerations at t."""
        return tuple(np.array([getattr(f, d)(t) for f in self.functions]) for d in ("value", "d1", "d2"))


class _Part:
    """Three of the six components of a 6-component state function (``state(t)`` → three (6,) arrays)."""

    def __init__(self, source, part):
        self.source, self.part = source, part

    def state(self, t):
        """Components ``part`` of the source's state at t."""
        return tuple(np.asarray(x, float)[self.part] for x in self.source.state(t))


def _checked(motion, size, what):
    """``motion`` if its state(0) holds three arrays of ``size`` components, else ModelError."""
    if any(np.shape(part) != (size,) for part in motion.state(0.0)):
        raise ModelError(f"{what}: state(t) must give (value, rate, acceleration) with {size} components each, got "
                         f"shapes {[np.shape(part) for part in motion.state(0.0)]}")
    return motion


def _vector_motion(x, what):
    """A 3-vector motion with ``state(t)``: a Trajectory-like object, or three numbers / functions of time."""
    if hasattr(x, "state"):
        return _checked(x, 3, what)
    if not isinstance(x, (list, tuple, np.ndarray)) or len(x) != 3:
        raise ModelError(f"{what}: expected a Trajectory (state(t) → value, rate, acceleration) or three numbers "
                         f"or functions of time, got {x!r}")
    return _Components([as_time_function(f, f"{what} component {k}") for k, f in enumerate(x)])


class PoseTrajectory:
    """A body's pose in time: position r(t) of a point (m) and rotation vector φ(t) (rad), both global.

    The orientation is R(t) = exp([φ(t)]×) (:meth:`orientation`); φ = axis × angle, its norm the
    angle in rad. Each part is any object with ``state(t)`` → (value, rate, acceleration) as
    3-vectors (a :class:`~femdyn.motion.Trajectory`, e.g. a :class:`~femdyn.motion.PathMotion`
    along a line in φ-space for a rotation about a fixed axis), or three numbers / TimeFunctions /
    callables (callables get central-difference derivatives, see ``as_time_function``).

    Parameters
    ----------
    position : Trajectory or sequence of 3
        r(t), m, global frame.
    rotation : Trajectory or sequence of 3
        φ(t), rad, global frame (default: no rotation).

    Examples
    --------
    >>> from femdyn.motion import Sine
    >>> pose = PoseTrajectory([0.0, 0.0, Sine(0.1, 2.0, offset=1.0)], [0.0, 0.0, Sine(0.3, 2.0)])
    >>> p, rate, _ = pose.state(0.0)
    >>> p.tolist(), rate.round(12).tolist()
    ([0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.2, 0.0, 0.0, 0.6])
    """

    def __init__(self, position, rotation=(0.0, 0.0, 0.0)):
        self.position = _vector_motion(position, "pose trajectory: position (m)")
        self.rotation = _vector_motion(rotation, "pose trajectory: rotation vector (rad)")
        self._t, self._kept = None, None

    def _at(self, t):
        """(state, orientation) at t; kept for the last t (each of the six rows asks for it three times)."""
        if t != self._t:
            r, phi = self.position.state(t), self.rotation.state(t)
            state = tuple(np.concatenate([np.asarray(a, float), np.asarray(b, float)]) for a, b in zip(r, phi))
            self._t, self._kept = t, (state, angular_motion(*phi))
        return self._kept

    def state(self, t):
        """The pose (x, y, z, rx, ry, rz), its rate and its acceleration at t.

        Parameters
        ----------
        t : float
            Time, s.

        Returns
        -------
        tuple of three ndarray (6,)
            Position (m) and rotation vector (rad); their first (per s) and second (per s²) derivatives.
        """
        return self._at(t)[0]

    def orientation(self, t):
        """R(t) = exp([φ(t)]×), the angular velocity ω and acceleration α (global frame).

        Parameters
        ----------
        t : float
            Time, s (computed with :meth:`state` and kept for the last t).

        Returns
        -------
        R : ndarray (3, 3)
        omega : ndarray (3,)
            rad/s; Ṙ = [ω]× R.
        alpha : ndarray (3,)
            rad/s²; R̈ = ([α]× + [ω]×²) R.
        """
        return self._at(t)[1]

    def component(self, k):
        """One pose component as a TimeFunction (for a drive or a servo row).

        Parameters
        ----------
        k : int or str
            0…5 or "x", "y", "z" (m), "rx", "ry", "rz" (rad, the rotation vector's components).

        Returns
        -------
        TimeFunction
        """
        index = POSE_COMPONENTS.index(k) if k in POSE_COMPONENTS else k
        if index not in range(6):
            raise ModelError(f"pose trajectory: component must be 0…5 or one of {POSE_COMPONENTS}, got {k!r}")
        return StateComponent(self.state, index)


class StateComponent(TimeFunction):
    """Component k of a vector state ``state(t)`` → (f, f′, f″) as a scalar TimeFunction."""

    def __init__(self, state, k):
        self.state, self.k = state, k

    def value(self, t):
        return float(self.state(t)[0][self.k])

    def d1(self, t):
        return float(self.state(t)[1][self.k])

    def d2(self, t):
        return float(self.state(t)[2][self.k])


def as_pose_trajectory(x, name="pose trajectory"):
    """A :class:`PoseTrajectory` from what ``Model.servo_pose`` accepts.

    Parameters
    ----------
    x : PoseTrajectory, object with state(t), callable or sequence of 6
        A PoseTrajectory; an object whose ``state(t)`` gives (pose, rate, acceleration) as (6,)
        arrays (x, y, z in m, rx, ry, rz in rad); a callable t → (6,) (central-difference
        derivatives, error O(dt²)); or six numbers / TimeFunctions / callables of t.
    name : str, optional
        Used in error messages.

    Returns
    -------
    PoseTrajectory

    Raises
    ------
    ModelError
        Anything else, naming ``name``.

    Examples
    --------
    >>> pose = as_pose_trajectory([0.1, 0.0, 0.5, 0.0, 0.0, lambda t: 0.2 * t])
    >>> pose.state(1.0)[0].round(9).tolist()
    [0.1, 0.0, 0.5, 0.0, 0.0, 0.2]
    """
    if isinstance(x, PoseTrajectory):
        return x
    if hasattr(x, "state"):
        x = _checked(x, 6, name)
        return PoseTrajectory(_Part(x, slice(0, 3)), _Part(x, slice(3, 6)))
    if callable(x) and not isinstance(x, TimeFunction):
        x = [Callable(lambda t, k=k, f=x: np.asarray(f(t), float)[k]) for k in range(6)]
    if not isinstance(x, (list, tuple, np.ndarray)) or len(x) != 6:
        raise ModelError(f"{name}: expected a PoseTrajectory, a 6-component state function or callable, or six "
                         f"components (x, y, z in m, rx, ry, rz in rad), got {x!r}")
    return PoseTrajectory(x[:3], x[3:])
