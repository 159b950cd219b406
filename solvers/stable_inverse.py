"""A stable causal inverse of servo problems: the quasi-static path with rate-limited inertia loads.

Liu, Zhao, Zhou & Wang (2018, §3.4) ask for a *stable causal* inverse of a non-collocated
servo problem; here each sample solves, by Newton,

    M(q) a(t) + Gᵀ(q) λ − Q(q, v(t), t) = 0,   Φ(q, t) = 0,   Ψ(q, t) = 0,

with v, a the rates of the previous approximation of the path (successive approximation from
the kinematically driven static path; Savitzky & Golay 1964 cubic fits over ``window`` s),
starting from static equilibrium at rest. No time integration, so no free internal vibration.
What the rate limit leaves out is reported in ``Results.meta["stable_inverse"]``.
Method, convergence and limits: docs/solvers.md ("The stable causal inverse"), docs/rrru.md.
"""
from dataclasses import asdict, dataclass

import numpy as np
from scipy.signal import savgol_filter

from femdyn.errors import ConvergenceError, ModelError
from femdyn.results.store import STEP_COLUMNS, ResultsWriter

from .blocks import TangentValues
from .kkt import KKTMatrix
from .static import static_equilibrium

__all__ = ["StableInverseOptions", "stable_causal_inverse", "rate_limited_derivatives", "path_residual"]


@dataclass
class StableInverseOptions:
    """Settings of :func:`stable_causal_inverse` (method: docs/solvers.md).

    Parameters
    ----------
    iterations : int
        Successive approximations of the inertia loads after the driven static path (0: statics only).
    window : float
        Length [s] of the cubic fit giving the rates of the driven static path.
    elastic_window : float
        The rate limit [s] for the deformation's rates; about the lowest internal period.
    rest_after : bool
        The motion ends at rest at ``t_end``.
    tol : float
        Newton tolerance, relative to the largest generalized force, and on ‖Φ‖ [m].
    max_newton : int
        Newton iterations per sample.
    """

    iterations: int = 2
    window: float = 0.02
    elastic_window: float = 0.3
    rest_after: bool = False
    tol: float = 1e-10
    max_newton: int = 30


def rate_limited_derivatives(t, q, window, rest_before=True, rest_after=False):
    """Velocities and accelerations of a sampled path from a local cubic least-squares fit.
    Savitzky & Golay (1964) filter of order 3 over ``window`` seconds.

    Parameters
    ----------
    t : (N,) array_like
        Sample times, s, equally spaced.
    q : (N, n) ndarray
        The sampled coordinates (SI units: m, or 1 for direction cosines).
    window : float
        Width of the fit, s (at least 5 samples; fewer samples than that: plain differences).
    rest_before, rest_after : bool, optional
        The path rests before its first (after its last) sample: the fit sees it held there, and
        the rates at that end are set to zero.

    Returns
    -------
    v, a : (N, n) ndarray
        Rates [unit of q / s] and second rates [unit of q / s²].

    Raises
    ------
    ModelError
        Fewer than two samples, or not equally spaced.
    """
    t = np.asarray(t, float)
    if len(t) < 2 or not np.allclose(np.diff(t), t[1] - t[0], rtol=1e-6):
        raise ModelError("rate-limited derivatives: the samples must be at least two and equally spaced in time")
    h = t[1] - t[0]
    length = max(5, int(round(window / h)) | 1)
    before, after = length * rest_before, length * rest_after
    x = np.concatenate([np.repeat(q[:1], before, axis=0), q, np.repeat(q[-1:], after, axis=0)])
    length = min(length, len(x) - (1 - len(x) % 2))
    if length < 5:                       # too few samples to fit a cubic: plain differences
        v = np.gradient(x, h, axis=0)
        a = np.gradient(v, h, axis=0)
    else:
        v = savgol_filter(x, length, 3, deriv=1, delta=h, axis=0, mode="interp")
        a = savgol_filter(x, length, 3, deriv=2, delta=h, axis=0, mode="interp")
    v, a = v[before:len(x) - after], a[before:len(x) - after]
    for k in [0] * rest_before + [-1] * rest_after:
        v[k], a[k] = 0.0, 0.0
    return v, a


def stable_causal_inverse(system, t_end, h, options=None, q0=None, output=None, progress=False):
    """Stable causal inverse dynamics of a servo model (see the module docstring).

    Parameters
    ----------
    system : System
        An assembled model with actuators and servo constraints.
    t_end : float
        End time [s]; the path starts at t = 0, at rest.
    h : float
        Sample spacing [s].
    options : StableInverseOptions, optional
        Iterations, rate-limit window and Newton settings.
    q0 : (n,) array_like, optional
        Guess of the rest configuration (default the model's).
    output : str, optional
        Folder for the results store (written as the last approximation is solved).
    progress : bool, optional
        A progress bar over the approximations.

    Returns
    -------
    Results
        With ``<actuator>.torque`` channels; ``meta["stable_inverse"]``: the options,
        ``input_change``, ``unresolved_inertia`` (relative) and ``newton_iterations``.

    Raises
    ------
    ModelError
        A model without servo constraints, or bad settings.
    ConvergenceError
        A sample where Newton does not converge; its ``results`` hold the samples of that approximation before it.

    Examples
    --------
    A pendulum whose tip height is prescribed: the inverse gives the motor torque.

    >>> import femdyn
    >>> from femdyn.motion import Sine
    >>> m = femdyn.Model("servo pendulum", gravity=(0, 0, -9.81))
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (0.8, 0, 0)), mass=1.2)
    >>> m.revolute("pivot", m.ground, rod, (0, 0, 0), (0, 1, 0))
    Revolute('pivot', ground → rod)
    >>> _ = m.actuator("motor", "pivot")
    >>> _ = m.servo("tip", rod, (0.8, 0, 0), [Sine(0.2, 2.0)], [(0, 0, 1)])
    >>> results = stable_causal_inverse(m.assemble(), 0.5, 0.005)
    >>> round(float(results["motor.torque"][0]), 3)               # holding torque m g L/2
    -4.709
    """
    options = options or StableInverseOptions()
    if not system.servo:
        raise ModelError(f"stable inverse: model '{system.name}' has no servo constraints; prescribe a motion "
                         "with Model.servo and give each prescribed direction an actuator (Model.actuator)")
    if not (t_end > 0 and h > 0 and options.iterations >= 0 and options.window > 0):
        raise ModelError(f"stable inverse: t_end ({t_end!r} s), h ({h!r} s) and window ({options.window!r} s) must "
                         f"be > 0 and iterations ({options.iterations!r}) ≥ 0")
    t = np.arange(int(round(t_end / h)) + 1) * h
    q, lam = static_equilibrium(system, q0=q0)
    zero = np.zeros((len(t), system.n))
    v, a = zero, zero
    sweeps = range(options.iterations + 1)
    if progress:
        from tqdm import tqdm
        sweeps = tqdm(sweeps, desc="stable inverse", unit="approximation")
    previous = kinematic = path = inputs = None
    for sweep in sweeps:
        last = sweep == options.iterations
        writer = _writer(system, output, h, options) if last else None
        path, inputs, newton = _sweep(system, t, v, a, (q, lam), None if path is None else (path, inputs), options,
                                      writer)
        # the velocity-dependent forces take the path's own rates (consistent with its
        # configuration); the inertia loads the rate-limited accelerations of its deformation
        v_new, a_own = rate_limited_derivatives(t, path, options.window, rest_after=options.rest_after)
        if kinematic is None:
            kinematic, a_kin = path, a_own
        _, a_el = rate_limited_derivatives(t, path - kinematic, options.elastic_window, rest_after=options.rest_after)
        a_new = a_kin + a_el
        change = float(np.abs(inputs[:, system.input_rows] - previous).max()) if previous is not None else np.inf
        previous = inputs[:, system.input_rows]
        if last:
            stats = {"input_change": change,
                     "unresolved_inertia": _unresolved(system, path, a, t, options),
                     "newton_iterations": int(newton.max()), **asdict(options)}
            writer.meta["stable_inverse"] = stats
            return writer.close("completed")
        v, a = v_new, a_new


def path_residual(system, results, window, rest_after=False):
    """The residual of a sampled path in the exact equations of motion, with its own rates.

    Parameters
    ----------
    system : System
        The model the path belongs to.
    results : Results
        The path: ``t`` (s), ``q`` and multipliers ``lam``.
    window : float
        Width of the rate fit, s (:func:`rate_limited_derivatives`).
    rest_after : bool, optional
        The path rests after its last sample.

    Returns
    -------
    residual : (N, n) ndarray
        r = M q̈ + Φ_qᵀλ − Bᵀu − Q at each sample (:meth:`System.residual`; N, or N·m).
    inertia : float
        max |M q̈| at the first sample's mass (the scale to compare the residual with).
    """
    v, a = rate_limited_derivatives(results.t, results.q, window, rest_after=rest_after)
    r = np.array([system.residual(q, vk, ak, lam, tk)[0]
                  for q, vk, ak, lam, tk in zip(results.q, v, a, results.lam, results.t)])
    return r, float(np.abs(system.mass(results.q[0]) @ a.T).max())


def _writer(system, folder, h, options):
    """A results writer for the samples of one approximation."""
    return ResultsWriter(system, folder, solver={"method": "stable causal inverse", "h": h, **asdict(options)})


def _sweep(system, t, v, a, rest, previous, options, writer):
    """Solve every sample for the given rates, each from the previous approximation: (q, λ, Newton counts)."""
    kkt = KKTMatrix(system)
    path, inputs, newton = np.empty((len(t), system.n)), np.empty((len(t), system.m)), np.zeros(len(t), int)
    for k, tk in enumerate(t):
        rate_forces = _rate_forces(system, previous[0][k], v[k], tk) if previous is not None else None
        if previous is not None:
            q, lam = previous[0][k], previous[1][k]
        elif k < 2:
            q, lam = (rest[0], rest[1]) if k == 0 else (path[0], inputs[0])
        else:
            q, lam = 2 * path[k - 1] - path[k - 2], inputs[k - 1]
        try:
            path[k], inputs[k], newton[k] = _sample(system, kkt, q, lam, rate_forces, a[k], tk, options)
        except ConvergenceError as err:
            if writer is None:           # an earlier approximation: its samples so far are the results kept
                writer = _writer(system, None, t[1] - t[0], options)
                for j in range(k):
                    writer.record(t[j], path[j], v[j], a[j], inputs[j], np.zeros(len(STEP_COLUMNS)))
            err.results = writer.close(f"failed at t = {tk:.6g} s: {err}")
            raise
        if writer is not None:
            stats = np.zeros(len(STEP_COLUMNS))
            stats[0] = newton[k]
            writer.record(tk, path[k], v[k], a[k], inputs[k], stats)
    return path, inputs, newton


def _rate_forces(system, q, v, t):
    """Q(q, v, t) − Q(q, 0, t) on the previous approximation's sample, or None when the model has none."""
    if not len(system.patterns.damping):
        return None
    return system.forces(q, v, t) - system.forces(q, np.zeros(system.n), t)


def _sample(system, kkt, q, lam, rate_forces, a, t, options):
    """Chord-Newton on M a + Gᵀλ − Q(q, 0, t) − Q_v = 0, Φ(q, t) = 0 for (q, λ) at one sample."""
    q, lam = q.copy(), lam.copy()
    v = np.zeros(system.n)
    last = np.inf
    for iteration in range(options.max_newton + 1):
        r, Q, phi, jac = system.residual(q, v, a, lam, t)
        if rate_forces is not None:
            r -= rate_forces
        size = np.abs(r).max()
        if size <= options.tol * max(1.0, np.abs(Q).max()) and np.abs(phi).max() <= options.tol:
            return q, lam, iteration
        if iteration == options.max_newton:
            break
        if iteration == 0 or size > 0.1 * last:
            k_vals, _ = system.tangent_values(q, v, t)
            md = system.mass_derivative_values(q, a) if len(system.patterns.mass_derivative) else np.zeros(0)
            values = TangentValues(system.mass_values(q), jac, stiffness=k_vals, mass_derivative=md,
                                   hessian=system.hessian_values(q, lam), weights=(0.0, 0.0, 1.0),
                                   transpose=system.force_transpose_values(q, jac))
            kkt.factorize(kkt.saddle_matrix(values), q, t)
        last = size
        dx = kkt.solve(np.concatenate([-r, -phi]))
        q += dx[:system.n]
        lam += dx[system.n:]
        if np.abs(dx[:system.n]).max() <= 1e-13 * max(1.0, np.abs(q).max()) and np.abs(phi).max() <= options.tol:
            return q, lam, iteration + 1      # the correction is at round-off
    worst = np.argsort(-np.abs(r))[:4]
    raise ConvergenceError(f"stable inverse at t = {t:.6g} s: Newton did not converge in {options.max_newton} "
                           f"iterations (largest residuals at {[system.labels[i] for i in worst]}); use a smaller "
                           "step h or a longer rate-limit window")


def _unresolved(system, path, a_used, t, options):
    """Largest ‖M (q̈ − a)‖ over the largest ‖M q̈‖, q̈ the final path's own second derivative."""
    _, own = rate_limited_derivatives(t, path, options.window, rest_after=options.rest_after)
    M = system.mass(path[0])
    left = np.linalg.norm(M @ (own - a_used).T, axis=0).max()
    return float(left / max(np.linalg.norm(M @ own.T, axis=0).max(), 1e-300))
