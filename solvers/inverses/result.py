"""What every inverse of a linear servo problem takes and gives: checked signals, the sampled inverse."""
from dataclasses import dataclass

import numpy as np

from femdyn.errors import ModelError

__all__ = ["Inverse", "servo_signals"]


@dataclass(frozen=True)
class Inverse:
    """An inverse of a linear servo problem sampled in time.

    Parameters
    ----------
    t : (k,) ndarray
        Times, s (with a pre-/post-actuation window for the non-causal inverse).
    u : (k, p) ndarray
        Inputs, N·m or N (piecewise constant over each step for the optimal-control inverse).
    q, v : (k, n) ndarray
        Coordinate and velocity deviations δq, δq̇.
    y : (k, p) ndarray
        The outputs Ψ_q δq they give, m.
    state : (k, 2d) ndarray
        Minimal-coordinate state [z, ż] (δq = N z), to start a forward simulation.
    window : tuple of float
        (first, last) time of the requested horizon, s.
    method : str
        ``"causal"``, ``"non-causal"`` or ``"optimal control"``.
    """

    t: np.ndarray
    u: np.ndarray
    q: np.ndarray
    v: np.ndarray
    y: np.ndarray
    state: np.ndarray
    window: tuple
    method: str

    @property
    def pre_actuation(self):
        """Time the input starts before the requested horizon, s."""
        return float(self.window[0] - self.t[0])


def servo_signals(linear, t, y, f):
    """Checked uniform times and the signal matrix s = [Nᵀf, y] of a linear inverse.

    Parameters
    ----------
    linear : LinearServo
        The linearized servo model (its null-space basis N, outputs and sizes).
    t : (k,) array_like
        Uniform, increasing sample times, s.
    y : (k, p) array_like or None
        Desired outputs, m (None: zero).
    f : (k, n) array_like or None
        Forcing on every coordinate, N (None: zero).

    Returns
    -------
    t : ndarray (k,)
    s : ndarray (k, d + p)
        [Nᵀf, y] per sample.
    d : int
        Number of independent coordinates.

    Raises
    ------
    ModelError
        Non-uniform or too few times, or signals of the wrong shape.
    """
    t = np.asarray(t, float)
    if t.ndim != 1 or t.size < 3 or not np.all(np.isfinite(t)):
        raise ModelError("inversion: give at least 3 finite sample times t (s) as a 1-D array")
    h = np.diff(t)
    if h.min() <= 0 or h.max() - h.min() > 1e-9 * h.mean() + 1e-15:
        raise ModelError("inversion: the sample times must be uniform and increasing; resample the signals")
    k, p, d = t.size, linear.p, linear.dofs
    y = np.zeros((k, p)) if y is None else np.asarray(y, float).reshape(k, -1) if np.size(y) == k * p else None
    if y is None or y.shape != (k, p):
        raise ModelError(f"inversion: y_desired must have {k} samples of {p} outputs (m)")
    if f is None:
        fr = np.zeros((k, d))
    else:
        f = np.asarray(f, float)
        if f.shape != (k, linear.n):
            raise ModelError(f"inversion: forcing must be ({k}, {linear.n}): f(t) in N per coordinate at each time")
        fr = f @ linear.basis
    return t, np.hstack([fr, y]), d
