"""Estimators: weighted linear least squares, the linearized iteration, a global optimizer.

* :func:`least_squares` — ``min ‖Σ^{-1/2}(y − W x)‖²``; covariance of the estimate
  ``C = σ̂² (Wᵀ Σ⁻¹ W)⁻¹`` with Σ the noise covariance (σ̂² = 1 when Σ is given, the
  residual variance ‖r‖²/(N − r) otherwise) (Gautier 1997, "Dynamic identification of
  robots with power model", IEEE ICRA; Swevers et al. 1997 eq. 7).
* :func:`linearized_iteration` — the space-robot identification study's update ``ΔM = (∂f/∂M)⁺ ΔL`` (their eq. 10),
  repeated: Gauss–Newton on ``Σ ‖y − f(θ)‖²``; one iteration is the study's own method.
* :func:`global_fit` — scipy's ``differential_evolution`` (Storn & Price 1997) on the
  same cost within bounds, in place of the study's genetic algorithm (their §4, fitness
  H = Σ ΔL_RW², eq. 11), optionally with the physical-consistency constraint.

Every estimator returns an :class:`Estimate` with the covariance from the (local)
Jacobian at the optimum and the 2-norm condition number of the (weighted) Jacobian.
"""
from dataclasses import dataclass, field

import numpy as np
import scipy.optimize

from femdyn.errors import ModelError, SolverError


@dataclass
class Estimate:
    """An estimate with its uncertainty, as returned by every estimator.

    Parameters
    ----------
    x : ndarray (p,)
        The estimate (units of the parameters).
    covariance : ndarray (p, p)
        C = σ̂² (JᵀJ)⁻¹ of the weighted Jacobian J at x; infinite variance for parameters
        in a direction the data cannot see.
    names : list of str
        Parameter names (may be empty).
    condition : float
        2-norm condition number of the weighted Jacobian.
    cost : float
        ½‖weighted residual‖².
    sigma2 : float
        Residual variance estimate ‖r‖²/(N − p).
    history : list of float, optional
        Costs per iteration or generation.
    """
    x: np.ndarray
    covariance: np.ndarray
    names: list
    condition: float
    cost: float
    sigma2: float
    history: list = field(default_factory=list)

    @property
    def std(self):
        """Standard deviations √diag(C) (units of x)."""
        return np.sqrt(np.clip(np.diag(self.covariance), 0.0, None))


def _weights(sigma, N):
    """Row weights 1/σ and whether σ was given (ones and False without)."""
    if sigma is None:
        return np.ones(N), False
    s = np.broadcast_to(np.asarray(sigma, float), (N,))
    if not np.all(s > 0):
        raise ModelError("sigma: noise standard deviations must be positive (one, or one per row)")
    return 1.0 / s, True


def unseen_directions(J, rtol=1e-10):
    """The parameter directions a Jacobian cannot see.

    ``J`` (array_like (N, p)): Jacobian or regressor; ``rtol`` (float, optional): directions with singular value
    s ≤ rtol·s_max count as unseen (missing singular values of a wide J are 0). Returns ``s`` (ndarray):
    singular values of J; ``directions`` (ndarray (k, p)): orthonormal rows of Vᵀ spanning the unseen
    directions.

    Examples
    --------
    >>> unseen_directions(np.array([[1.0, 1.0]]))[1].round(6).tolist()
    [[-0.707107, 0.707107]]
    """
    _, s, Vt = np.linalg.svd(J, full_matrices=J.shape[0] < J.shape[1])      # all of Vᵀ, U only as needed
    s_full = np.zeros(J.shape[1])
    s_full[:len(s)] = s
    return s, Vt[s_full <= rtol * s[0]]


def _covariance(J, residual, known_noise):
    """σ̂² (JᵀJ)⁻¹ for a weighted Jacobian J (N, p) and weighted residual; σ̂² = 1 for known noise.

    Parameters with a component in a direction J cannot see get an infinite variance.
    """
    N, p = J.shape
    sigma2 = float(residual @ residual / max(N - p, 1))
    _, s, Vt = np.linalg.svd(J, full_matrices=False)
    keep = s > 1e-10 * s[0]
    C = (Vt[keep].T / s[keep] ** 2) @ Vt[keep]
    _, null = unseen_directions(J)
    if len(null):
        blind = np.abs(null).max(axis=0) > 1e-6
        C[blind, blind] = np.inf
    return (1.0 if known_noise else sigma2) * C, sigma2


def least_squares(W, y, sigma=None, names=None):
    """Weighted linear least squares of ``y ≈ W x``.

    Parameters
    ----------
    W : array_like (N, p)
        Regressor (use base columns: a rank-deficient W raises).
    y : array_like (N,)
        Measurements (units of the rows, e.g. N·m·s or N·m).
    sigma : float or array_like (N,), optional
        Noise standard deviation per row, same units as y; None: unweighted, with the
        noise variance estimated from the residual.
    names : sequence of str, optional
        Parameter names.

    Returns
    -------
    Estimate
        With covariance and the condition number of the weighted W.

    Raises
    ------
    ModelError
        For mismatched shapes, non-positive sigma, or a rank-deficient W (reduce it to
        base parameters first).

    Example
    -------
    >>> W = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]); x = np.array([1.0, -1.0])
    >>> np.allclose(least_squares(W, W @ x).x, x)
    True
    """
    W, y = np.asarray(W, float), np.asarray(y, float)
    if W.ndim != 2 or y.shape != (W.shape[0],):
        raise ModelError(f"least_squares: W {W.shape} and y {y.shape} do not match; stack rows so y has W's rows")
    w, known = _weights(sigma, len(y))
    Jw, yw = W * w[:, None], y * w
    s = np.linalg.svd(Jw, compute_uv=False)
    if s[-1] <= 1e-13 * s[0] or W.shape[0] < W.shape[1]:
        raise ModelError(f"least_squares: the regressor ({W.shape[0]}×{W.shape[1]}) is rank deficient "
                         f"(condition {s[0] / max(s[-1], 1e-300):.3g}); reduce it to base parameters first")
    x = np.linalg.lstsq(Jw, yw, rcond=None)[0]
    r = yw - Jw @ x
    C, sigma2 = _covariance(Jw, r, known)
    return Estimate(x, C, list(names or []), float(s[0] / s[-1]), 0.5 * float(r @ r), sigma2)


def jacobian(f, theta, step=1e-6):
    """Central-difference Jacobian ∂f/∂θ (N, p).

    ``f`` (callable): θ ↦ ndarray (N,); ``theta`` (array_like (p,)): where to differentiate; ``step`` (float,
    optional): relative step: h_k = step · max(\\|θ_k\\|, 1e-3). Returns ndarray (N, p).

    Examples
    --------
    >>> jacobian(lambda th: np.array([th[0] * th[1]]), [2.0, 3.0]).round(8).tolist()
    [[3.0, 2.0]]
    """
    theta = np.asarray(theta, float)
    cols = []
    for k in range(len(theta)):
        h = step * max(abs(theta[k]), 1e-3)
        e = np.zeros_like(theta)
        e[k] = h
        cols.append((f(theta + e) - f(theta - e)) / (2 * h))
    return np.stack(cols, axis=1)


def linearized_iteration(f, y, theta0, iterations=1, sigma=None, names=None, tol=1e-12, rcond=1e-8):
    """The space-robot identification study's linearized least squares, ``θ ← θ + (∂f/∂θ)⁺ (y − f(θ))`` (their eq. 10), repeated.

    Parameters
    ----------
    f : callable
        θ ↦ predicted measurements (N,).
    y : array_like (N,)
        Measurements.
    theta0 : array_like (p,)
        Nominal parameters (the study's M), the expansion point.
    iterations : int, optional
        Number of updates (1 = the study's single step; more = Gauss–Newton).
    sigma, names
        As in :func:`least_squares`.
    tol : float, optional
        Stop when the relative change of θ is below tol.
    rcond : float, optional
        Cut-off of the pseudo-inverse, relative to the largest singular value of the
        Jacobian with columns scaled by \\|θ_k\\| (relative changes; kg and kg·m² compare):
        directions the data cannot see are left unchanged instead of taking a huge step.

    Returns
    -------
    Estimate
        Covariance from the Jacobian at the final θ; ``history`` the costs.

    Raises
    ------
    SolverError
        If θ becomes non-finite (diverged).

    Example
    -------
    >>> f = lambda th: np.array([th[0] ** 2, th[0] * th[1], th[1]])
    >>> est = linearized_iteration(f, f(np.array([2.0, 3.0])), [1.5, 2.0], iterations=20)
    >>> np.allclose(est.x, [2.0, 3.0])
    True
    """
    theta = np.array(theta0, float)
    y = np.asarray(y, float)
    w, known = _weights(sigma, len(y))
    history = []
    for _ in range(int(iterations)):
        r = (y - f(theta)) * w
        history.append(0.5 * float(r @ r))
        scale = np.maximum(np.abs(theta), 1e-12)
        J = jacobian(f, theta) * w[:, None] * scale[None, :]
        delta = np.linalg.lstsq(J, r, rcond=rcond)[0] * scale
        theta = theta + delta
        if not np.all(np.isfinite(theta)):
            raise SolverError(f"linearized iteration diverged after {len(history)} steps; start nearer the optimum "
                              "or use global_fit")
        if np.abs(delta).max() <= tol * max(np.abs(theta).max(), 1e-300):
            break
    return _estimate_at(f, y, theta, w, known, names, history)


def _estimate_at(f, y, theta, w, known, names, history):
    """The Estimate at θ: covariance, condition number and the cost appended to the history."""
    r = (y - f(theta)) * w
    J = jacobian(f, theta) * w[:, None]
    s = np.linalg.svd(J, compute_uv=False)
    C, sigma2 = _covariance(J, r, known)
    history = history + [0.5 * float(r @ r)]
    return Estimate(theta, C, list(names or []), float(s[0] / max(s[-1], 1e-300)), history[-1], sigma2, history)


class _UnitBoxCost:
    """½‖w (y − f(lo + u·scale))‖² of unit-box coordinates u (a module-level class: picklable for worker processes)."""

    def __init__(self, f, y, w, lo, scale):
        self.f, self.y, self.w, self.lo, self.scale = f, y, w, lo, scale

    def __call__(self, u):
        r = (self.y - self.f(self.lo + u * self.scale)) * self.w
        return 0.5 * float(r @ r)


def global_fit(f, y, bounds, sigma=None, names=None, seed=0, constraint=None, maxiter=1000, popsize=20, polish=True,
               tol=1e-10, workers=None, init="latinhypercube"):
    """Global minimum of ``½ Σ w²(y − f(θ))²`` within ``bounds`` by differential evolution.

    Parameters
    ----------
    f, y, sigma, names
        As in :func:`linearized_iteration`.
    bounds : sequence of (float, float)
        (low, high) per parameter (physical ranges, e.g. positive masses).
    seed : int, optional
        Random seed of the optimizer (the result is reproducible).
    constraint : callable, optional
        g(θ) → array, feasible where g ≥ 0 (e.g. the smallest eigenvalue of every
        body's pseudo-inertia: physical consistency enforced).
    maxiter, popsize, tol, init : optional
        ``scipy.optimize.differential_evolution`` settings.
    workers : callable, optional
        A map-like callable ``workers(func, iterable) -> list`` evaluating a generation's
        members (e.g. :class:`femdyn.studies.sweep.ExecutorMap` on a Dask cluster or any
        ``concurrent.futures`` executor); ``f`` must then be picklable (a module-level
        function or class). The generation is evaluated as a whole (``updating="deferred"``)
        either way, so a seeded fit gives the same result with and without workers.
    polish : bool, optional
        Refine the best member by a bounded local least-squares solve (scipy's
        trust-region reflective ``least_squares``), kept only if it stays feasible.

    Returns
    -------
    Estimate
        ``history`` holds the best cost per generation.

    Raises
    ------
    ModelError
        If a bound has low ≥ high.

    Example
    -------
    >>> f = lambda th: np.array([th[0] ** 2, th[0] * th[1], th[1]])
    >>> est = global_fit(f, f(np.array([2.0, 3.0])), [(0.1, 5), (0.1, 5)], seed=1)
    >>> np.allclose(est.x, [2.0, 3.0], rtol=1e-6)
    True
    """
    y = np.asarray(y, float)
    w, known = _weights(sigma, len(y))
    lo, hi = np.array(bounds, float).T
    if not np.all(hi > lo):
        raise ModelError(f"global_fit: every bound needs low < high, got {bounds}")
    scale = hi - lo                               # search in unit-box coordinates: parameters of any units

    cost = _UnitBoxCost(f, y, w, lo, scale)
    history = []
    constraints = () if constraint is None else (
        scipy.optimize.NonlinearConstraint(lambda u: np.atleast_1d(constraint(lo + u * scale)), 0.0, np.inf),)
    res = scipy.optimize.differential_evolution(
        cost, [(0.0, 1.0)] * len(lo), seed=seed, maxiter=maxiter, popsize=popsize, tol=tol, atol=0.0,
        constraints=constraints, callback=lambda intermediate_result: history.append(float(intermediate_result.fun)),
        updating="deferred", polish=False, workers=1 if workers is None else workers, init=init)
    u = res.x
    if polish:          # local least-squares polish (trust-region reflective) kept only if feasible and better
        local = scipy.optimize.least_squares(lambda v: (y - f(lo + v * scale)) * w, u, bounds=(0.0, 1.0),
                                             xtol=1e-15, ftol=1e-15, gtol=1e-15, max_nfev=200 * len(u))
        feasible = constraint is None or np.all(np.atleast_1d(constraint(lo + local.x * scale)) >= 0)
        if feasible and cost(local.x) <= cost(u):
            u = local.x
    theta = lo + u * scale
    return _estimate_at(f, y, theta, w, known, names, history)
