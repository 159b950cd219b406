"""Excitation trajectories: the space-robot identification study's cubic polynomials and optimized Fourier series.

* :class:`Cubic` — rest-to-rest cubic ``q(t) = q₀ + (q_f − q₀)(3s² − 2s³)``, s = t/T
  (the space-robot identification study §3.1: zero initial and final rates, plan time 10 s), held at q_f after T.
* :class:`Fourier` — finite Fourier series per joint (Swevers, Ganseman, Tükel,
  De Schutter & Van Brussel 1997, "Optimal robot excitation and identification",
  IEEE TRA 13(5), eq. 11):

      q_j(t) = q_j0 + Σ_{l=1}^{L} a_jl/(l ω_f) sin(l ω_f t) − b_jl/(l ω_f) cos(l ω_f t),

  periodic with period 2π/ω_f, so the data can be averaged over periods;
  :func:`optimize_fourier` chooses a, b to minimise the condition number of the base
  regressor stacked over the samples (their criterion), with joint-position and rate
  limits as penalties.

Every trajectory is a callable ``traj(t)`` returning (q, q̇, q̈) arrays of shape
(len(t), joints) in rad, rad/s, rad/s² (m for prismatic joints).
"""
import numpy as np
import scipy.optimize

from femdyn.errors import ModelError


class Cubic:
    """Rest-to-rest cubic from ``start`` to ``final`` (per joint) in ``duration`` s (the space-robot identification study).

    Calling it with times t (s) gives (q, q̇, q̈), each (len(t), joints); q is held at
    ``final`` after ``duration``.

    Parameters
    ----------
    start, final : array_like (J,)
        Joint values at rest, rad (m for prismatic joints).
    duration : float
        T, s (> 0).

    Raises
    ------
    ModelError
        If start and final differ in length or T ≤ 0.

    Example
    -------
    >>> q, v, a = Cubic([0.0], [np.pi / 6], 10.0)(np.array([0.0, 5.0, 10.0]))
    >>> np.allclose(q[:, 0], [0, np.pi / 12, np.pi / 6]) and np.allclose(v[[0, 2], 0], 0)
    True
    """

    def __init__(self, start, final, duration):
        self.start, self.final = np.atleast_1d(np.asarray(start, float)), np.atleast_1d(np.asarray(final, float))
        if self.start.shape != self.final.shape:
            raise ModelError(f"Cubic: start {self.start} and final {self.final} need one value per joint each")
        if not duration > 0:
            raise ModelError(f"Cubic: duration {duration} s must be positive")
        self.duration = float(duration)

    def __call__(self, t):
        T = self.duration
        s = np.clip(np.atleast_1d(np.asarray(t, float)), 0.0, T)[:, None] / T
        inside = (np.atleast_1d(t) < T)[:, None]
        d = self.final - self.start
        q = self.start + d * (3 * s**2 - 2 * s**3)
        v = np.where(inside, d * (6 * s - 6 * s**2) / T, 0.0)
        a = np.where(inside, d * (6 - 12 * s) / T**2, 0.0)
        return q, v, a


class Fourier:
    """Fourier-series trajectory (Swevers et al. 1997, eq. 11) for len(q0) joints.

    Calling it with times t (s) gives (q, q̇, q̈), each (len(t), J).

    Parameters
    ----------
    q0 : array_like (J,)
        Offsets, rad.
    a, b : array_like (J, L)
        Coefficients, rad/s.
    omega : float
        The fundamental ω_f, rad/s (> 0).

    Raises
    ------
    ModelError
        If the shapes do not match or ω_f ≤ 0.

    Example
    -------
    >>> traj = Fourier([0.0], [[0.5]], [[0.0]], 2 * np.pi)
    >>> q, v, a = traj(np.array([0.25]))
    >>> np.allclose([q[0, 0], v[0, 0]], [0.5 / (2 * np.pi), 0.0])
    True
    """

    def __init__(self, q0, a, b, omega):
        self.q0 = np.atleast_1d(np.asarray(q0, float))
        self.a, self.b = np.atleast_2d(np.asarray(a, float)), np.atleast_2d(np.asarray(b, float))
        if self.a.shape != self.b.shape or self.a.shape[0] != self.q0.size:
            raise ModelError(f"Fourier: a {self.a.shape} and b {self.b.shape} need one row per joint "
                             f"({self.q0.size}) and one column per harmonic")
        if not omega > 0:
            raise ModelError(f"Fourier: fundamental omega {omega} rad/s must be positive")
        self.omega = float(omega)

    def __call__(self, t):
        t = np.atleast_1d(np.asarray(t, float))
        l = np.arange(1, self.a.shape[1] + 1)
        wl = self.omega * l                                   # (L,)
        s, c = np.sin(np.outer(t, wl)), np.cos(np.outer(t, wl))   # (N, L)
        q = self.q0 + s @ (self.a / wl).T - c @ (self.b / wl).T
        v = c @ self.a.T + s @ self.b.T
        acc = -s @ (self.a * wl).T + c @ (self.b * wl).T
        return q, v, acc


def stacked_regressor(rows_of_sample, trajectory, times):
    """W (N·rows, p): the rows ``rows_of_sample(q, v, q̈)`` stacked over ``trajectory`` at ``times`` (s).

    ``rows_of_sample`` (callable): (q, q̇, q̈) ↦ regressor rows (rows, p) of one sample; ``trajectory``
    (callable): t ↦ (q, q̇, q̈), e.g. :class:`Cubic` or :class:`Fourier`; ``times`` (array_like (N,)): sample
    instants, s. Returns ndarray (N·rows, p).

    Examples
    --------
    >>> stacked_regressor(lambda q, v, a: np.array([[a[0], v[0]]]), Cubic([0.0], [1.0], 1.0), [0.0, 0.5]).tolist()
    [[6.0, 0.0], [0.0, 1.5]]
    """
    q, v, a = trajectory(times)
    return np.vstack([rows_of_sample(qk, vk, ak) for qk, vk, ak in zip(q, v, a)])


def optimize_fourier(rows_of_sample, base, joints, harmonics, omega, times, q_limit, v_limit, seed=0,
                     maxiter=400):
    """Fourier coefficients minimising cond(W₁) of the base regressor over ``times``.

    Parameters
    ----------
    rows_of_sample : callable
        (q, v, q̈) ↦ regressor rows of one sample (joint coordinates only, e.g. a
        fixed-base arm's torque regressor).
    base : femdyn.identification.base_parameters.BaseParameters
        Which columns to keep.
    joints, harmonics : int
        J joints, L harmonics.
    omega : float
        The fundamental, rad/s.
    times : array_like
        Sample instants, s, typically one period.
    q_limit, v_limit : float
        \\|q_j\\| ≤ q_limit, \\|q̇_j\\| ≤ v_limit (rad, rad/s), enforced by a penalty.
    seed : int, optional
        Seed of the random start coefficients.
    maxiter : int, optional
        Nelder–Mead iterations.

    Returns
    -------
    (Fourier, float, float)
        The trajectory, the condition number at the start and at the optimum.
    """
    rng = np.random.default_rng(seed)
    shape = (joints, harmonics)
    q0 = np.zeros(joints)

    def trajectory(x):
        return Fourier(q0, x[:x.size // 2].reshape(shape), x[x.size // 2:].reshape(shape), omega)

    def objective(x):
        traj = trajectory(x)
        q, v, _ = traj(times)
        excess = np.maximum(np.abs(q).max() - q_limit, 0) / q_limit + np.maximum(np.abs(v).max() - v_limit, 0) / v_limit
        W = base.regressor(stacked_regressor(rows_of_sample, traj, times))
        s = np.linalg.svd(W, compute_uv=False)
        return np.log(s[0] / max(s[-1], 1e-300)) + 100.0 * excess

    x0 = rng.uniform(-1, 1, 2 * joints * harmonics) * 0.3 * v_limit / harmonics
    start = objective(x0)
    res = scipy.optimize.minimize(objective, x0, method="Nelder-Mead",
                                  options=dict(maxiter=maxiter, xatol=1e-6, fatol=1e-9))
    return trajectory(res.x), float(np.exp(start)), float(np.exp(res.fun))
