"""Fixed-step integrators for second-order systems q̈ = a(t, q, v).

:func:`rk4_step` (classical Runge–Kutta on (q, v)) and :func:`zhai_step` (Zhai 1996, IJNME 39;
Tian et al. 2010):

    x_{n+1} = x_n + ẋ_n h + (½ + ψ) ẍ_n h² − ψ ẍ_{n−1} h²,   ẋ_{n+1} = ẋ_n + (1 + φ) ẍ_n h − φ ẍ_{n−1} h,

ψ = φ = 0 on the first step; positions updated as q ⊕ δ (:mod:`.configuration`).
:func:`simulate` runs either and records the trajectory.
"""
from dataclasses import dataclass

import numpy as np

from femdyn.errors import ModelError, SolverError

from .configuration import VectorSpace


def rk4_step(acceleration, t, q, v, h, space=VectorSpace()):
    """One classical fourth-order Runge–Kutta step of q̈ = a(t, q, v) on the first-order form."""
    def f(tk, qk, vk):
        return space.rate(qk, vk), acceleration(tk, qk, vk)

    k1q, k1v = f(t, q, v)
    k2q, k2v = f(t + h / 2, q + h / 2 * k1q, v + h / 2 * k1v)
    k3q, k3v = f(t + h / 2, q + h / 2 * k2q, v + h / 2 * k2v)
    k4q, k4v = f(t + h, q + h * k3q, v + h * k3v)
    q_new = q + h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q)
    return space.normalize(q_new), v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)


def zhai_step(q, v, a, a_prev, h, psi=0.5, phi=0.5, space=VectorSpace()):
    """One step of Zhai's explicit two-step method (Zhai 1996)."""
    if a_prev is None:
        psi = phi = 0.0
        a_prev = a
    delta = v * h + (0.5 + psi) * a * h * h - psi * a_prev * h * h
    return space.integrate(q, delta), v + (1 + phi) * a * h - phi * a_prev * h


@dataclass
class Trajectory:
    """Samples of a fixed-step run (rows are time steps).

    Parameters
    ----------
    t : (k,) ndarray
        Times [s].
    q, v, a : (k, nq), (k, nv), (k, nv) ndarray
        Coordinates, velocities and accelerations.
    """
    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray


def sample_times(method, t0, t_end, h):
    """The sample times of a fixed-step run, t0 + k h up to the first at or after t_end; bad settings raise."""
    if method not in ("rk4", "zhai"):
        raise ModelError(f"simulate: unknown method '{method}'; use 'rk4' or 'zhai'")
    if not (h > 0 and t_end > t0):
        raise ModelError(f"simulate: step h={h} s must be positive and t_end={t_end} s after t0={t0} s")
    steps = max(1, int(np.ceil((t_end - t0) / h - 1e-9)))
    return t0 + np.arange(steps + 1) * h


def not_finite(method, t):
    """The message of the SolverError of a run whose state stopped being finite at time t (s)."""
    return f"simulate ({method}): state not finite at t = {t:.6g} s; reduce the step h or check the model"


def simulate(acceleration, q0, v0, t_end, h, method="rk4", space=VectorSpace(), psi=0.5, phi=0.5,
             project=None, t0=0.0, recorded=None):
    """Integrate q̈ = acceleration(t, q, v) from t0 to t_end with a fixed step.

    Ends at the first step at or after t_end (ceil((t_end − t0)/h − 1e-9) steps, at least one).

    Parameters
    ----------
    acceleration : callable
        (t, q, v) ↦ q̈.
    q0, v0 : array_like
        Initial state.
    t_end, h : float
        End time and step [s].
    method : {"rk4", "zhai"}, optional
        Integrator (:func:`rk4_step` or :func:`zhai_step`).
    space : VectorSpace or TreeSpace, optional
        Configuration space (TreeSpace for trees with free joints).
    psi, phi : float, optional
        Zhai's parameters.
    project : callable, optional
        (q, v) ↦ (q, v) after every step, e.g. :func:`.closed_loop.project`.
    t0 : float, optional
        Start time [s].
    recorded : callable, optional
        Called after each sample's acceleration is evaluated, to keep its by-products.

    Returns
    -------
    Trajectory

    Raises
    ------
    ModelError
        For an unknown method, h ≤ 0 or t_end ≤ t0.
    SolverError
        When the state stops being finite (``results`` holds the samples so far).
    """
    T = sample_times(method, t0, t_end, h)
    steps = len(T) - 1
    q, v = np.array(q0, float), np.array(v0, float)
    Q, V, A = [q], [v], [acceleration(t0, q, v)]
    recorded = recorded or (lambda: None)
    recorded()
    a_prev = None
    for n in range(steps):
        t = T[n]
        if method == "rk4":
            q, v = rk4_step(acceleration, t, q, v, h, space)
        else:
            q, v = zhai_step(q, v, A[-1], a_prev, h, psi, phi, space)
            a_prev = A[-1]
        if project is not None:
            q, v = project(q, v)
        if not (np.all(np.isfinite(q)) and np.all(np.isfinite(v))):
            done = Trajectory(T[:n + 1], np.array(Q), np.array(V), np.array(A))
            raise SolverError(not_finite(method, T[n + 1]), results=done)
        Q.append(q)
        V.append(v)
        A.append(acceleration(T[n + 1], q, v))
        recorded()
    return Trajectory(T, np.array(Q), np.array(V), np.array(A))
