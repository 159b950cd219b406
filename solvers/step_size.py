"""The time step against the shortest period of the linearized model.

Generalized-α is unconditionally stable (Chung & Hulbert 1993): a mode sampled fewer than
twice per period (h > T/2, ``NYQUIST_FRACTION``) is aliased, and damped away only when
ρ∞ < ``UNDAMPED_RHO``; otherwise :func:`check_step_size` warns
(:class:`~femdyn.errors.StepSizeWarning`). T_min = 2π/ω_max of K_t x = ω² M x, Φ_q x = 0 at
the initial state: dense below ``DENSE_LIMIT``, else Lanczos (ARPACK mode 2; Grimes, Lewis &
Simon 1994). Details: docs/input-checks.md, docs/solvers.md.
"""
import warnings

import numpy as np
import scipy.sparse.linalg as spla

from femdyn.errors import StepSizeWarning

from .blocks import TangentValues
from .eigen import SaddleInverse, dense_modes, null_space_basis, tangent_stiffness
from .kkt import KKTMatrix
from .servo import check_servo_settings

NYQUIST_FRACTION = 0.5      # warn when h > T_min / 2: fewer than two steps per period
UNDAMPED_RHO = 0.95         # ρ∞ from which unresolved modes are not damped out (see module doc)
DENSE_LIMIT = 60            # free coordinates (n − m) up to which the dense method is used


def highest_frequency(system, q, lam, t=0.0, tol=1e-2, kkt=None):
    """ω_max (rad/s) of the model linearized at (q, λ, t); 0 if no mode oscillates, NaN without estimate."""
    K = tangent_stiffness(system, q, lam, t)
    K = 0.5 * (K + K.T)
    free = system.n - system.m
    if free <= 0:
        return 0.0
    if free <= DENSE_LIMIT:
        w2 = dense_modes(K, system.mass(q), null_space_basis(system, q, t), vectors=False)[-1]
        return float(np.sqrt(max(w2, 0.0)))
    if kkt is None:
        kkt = KKTMatrix(system)
        _, jac = system.constraints.evaluate(q, t)
        kkt.factorize(kkt.saddle_matrix(TangentValues(system.mass_values(q), jac)), q, t)
    inverse = SaddleInverse(kkt)
    Minv = inverse.operator()
    start = inverse.solve(np.cos(np.arange(system.n)))
    try:
        w2 = spla.eigsh(K, k=1, M=system.mass(q), Minv=Minv, which="LA", tol=tol, v0=start,
                        ncv=min(free, 8), return_eigenvectors=False)[0]
    except spla.ArpackNoConvergence as err:        # the Ritz value so far: a lower bound of ω²_max
        w2 = err.eigenvalues.max() if len(err.eigenvalues) else np.nan
    except spla.ArpackError:                        # e.g. K_t v = 0 for the start vector: no estimate
        w2 = np.nan
    return float(np.sqrt(max(w2, 0.0))) if np.isfinite(w2) else np.nan


def check_step_size(system, q, lam, h, rho_inf, t=0.0, enabled=True, kkt=None):
    """Warn (StepSizeWarning) when h > ``NYQUIST_FRACTION`` · T_min and ρ∞ ≥ ``UNDAMPED_RHO``; T_min (s) or None.
    Servo models are checked for their damping instead (:func:`~femdyn.solvers.servo.check_servo_settings`).
    """
    if system.servo:
        check_servo_settings(system, q, rho_inf, t, enabled)
    if not enabled or rho_inf < UNDAMPED_RHO or system.servo:
        return None
    omega = highest_frequency(system, q, lam, t, kkt=kkt)
    if not omega > 0:
        return np.inf if omega == 0 else None
    period = 2 * np.pi / omega
    if h > NYQUIST_FRACTION * period:
        warnings.warn(
            f"model '{system.name}': time step h = {h:.6g} s exceeds half the shortest period of the linearized model, "
            f"T_min = {period:.6g} s (ω_max = {omega:.6g} rad/s at t = {t:g} s): that mode is sampled fewer than "
            f"twice per period, and ρ∞ = {rho_inf:g} hardly damps it, so it stays in the results with a wrong period. "
            f"Use h ≤ {NYQUIST_FRACTION * period:.3g} s to resolve it, ρ∞ ≤ 0.9 to damp it out (often an axial or "
            "high bending mode of an ANCF mesh: longer elements raise T_min), or Options(step_check=False) to "
            "silence this check", StepSizeWarning, stacklevel=4)
    return period
