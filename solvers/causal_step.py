"""The step that keeps a causal servo inverse bounded: its fast unstable zeros against generalized-α.

The zeros are those of :func:`femdyn.solvers.invariant_zeros.zero_dynamics`; a zero with Re s > 0
(non-minimum phase, Seifried & Blajer 2013) is harmless to a causal run while the step leaves
it unresolved and blows the run up when it is resolved partly: at ρ∞ = 0 the spectral radius
ρ(μh) of the generalized-α map (:func:`~femdyn.solvers.scheme.amplification`) is above 1 for
1 < μh < 3.45. :func:`servo_step` finds the shortest multiple of a step that leaves every
unstable zero unamplified; :func:`check_servo_step` warns when the step amplifies one.
Dense eigenvalues, skipped above ``DENSE_LIMIT``. Details: docs/solvers.md.
"""
import math
import warnings
from dataclasses import dataclass

import numpy as np

from femdyn.errors import StepSizeWarning

from .invariant_zeros import zero_dynamics
from .scheme import amplification

DENSE_LIMIT = 2500          # coordinates + constraints up to which the zeros are computed
RESOLVED = 1.0              # |s| h up to which a zero counts as resolved by the step (its growth is the exact one)
DAMPED = 0.95               # largest spectral radius accepted for an unresolved unstable zero


@dataclass
class Zero:
    """An unstable zero of the linearized servo inverse."""

    s: complex
    coordinates: list


def servo_zeros(system, q, lam, t=0.0, a=None, count=6, coordinates=True, dynamics=None):
    """The unstable zeros of the servo inverse linearized at a state (Re s > 0), slowest first."""
    if not system.servo or system.n + system.m > DENSE_LIMIT:
        return []
    zd = dynamics if dynamics is not None else zero_dynamics(system, q, lam, t, a=a, shapes=coordinates)
    zeros = []
    for k, s in enumerate(zd.eigenvalues):
        if s.real > 1e-9 * abs(s):
            labels = [system.labels[i] for i in np.argsort(-np.abs(zd.shapes[:, k]))[:count]] if coordinates else []
            zeros.append(Zero(complex(s), labels))
    return sorted(zeros, key=lambda z: abs(z.s))


def _amplified(zeros, h, rho_inf):
    """The zeros the step leaves unresolved and amplifies, with their spectral radius."""
    return [(z, abs(amplification(z.s * h, rho_inf))) for z in zeros
            if abs(z.s) * h > RESOLVED and abs(amplification(z.s * h, rho_inf)) > DAMPED]


def servo_step(system, q, lam, h, rho_inf, t=0.0, max_factor=8, zeros=None):
    """The shortest multiple k h (k = 1 … ``max_factor``) of a step that amplifies no fast unstable zero.

    Parameters
    ----------
    system : System
        An assembled model with servo constraints.
    q, lam : ndarray
        The initial state (configuration [m], multipliers).
    h : float
        The step wanted [s].
    rho_inf : float
        ρ∞ of the run.
    t : float, optional
        Time [s].
    max_factor : int, optional
        Largest k tried; when none works, ``max_factor`` h is returned.
    zeros : list of Zero, optional
        :func:`servo_zeros` at the state, if already computed.

    Returns
    -------
    float
        k h [s]; h itself for a model without servo constraints or without such zeros.
    """
    zeros = servo_zeros(system, q, lam, t, coordinates=False) if zeros is None else zeros
    for k in range(1, max_factor + 1):
        if not _amplified(zeros, k * h, rho_inf):
            return k * h
    return max_factor * h


def servo_halvings(system, q, lam, h, rho_inf, deepest, t=0.0):
    """How many times (≤ ``deepest``) a failed step h may be halved before a half step amplifies a fast unstable zero."""
    zeros = servo_zeros(system, q, lam, t, coordinates=False)
    for depth in range(1, deepest + 1):
        if _amplified(zeros, h / 2 ** depth, rho_inf):
            return depth - 1
    return deepest


def check_servo_step(system, q, lam, h, rho_inf, t=0.0, enabled=True):
    """Warn (StepSizeWarning) when the step amplifies a fast unstable zero of a servo inverse."""
    if not enabled or not system.servo:
        return ""
    if not _amplified(servo_zeros(system, q, lam, t, coordinates=False), h, rho_inf):
        return ""
    zeros = servo_zeros(system, q, lam, t)
    amplified = _amplified(zeros, h, rho_inf)
    zero, radius = max(amplified, key=lambda pair: pair[1])
    steps = math.log(1e6) / math.log(radius)
    message = (f"model '{system.name}': the servo inverse has an unstable zero s = {zero.s.real:.4g}"
               f"{zero.s.imag:+.4g}j 1/s (moving {zero.coordinates[:4]}) that generalized-α with ρ∞ = {rho_inf:g} "
               f"and h = {h:.3g} s amplifies by {radius:.3g} per step (|s|h = {abs(zero.s) * h:.3g}): the actuator "
               f"inputs grow a millionfold in about {steps:.0f} steps. Use h = "
               f"{servo_step(system, q, lam, h, rho_inf, t, zeros=zeros):.3g} s "
               "(femdyn.solvers.causal_step.servo_step) or longer, a finer mesh near the joints (its zeros are "
               "faster), or Options(step_check=False) to silence this check")
    warnings.warn(message, StepSizeWarning, stacklevel=4)
    return message


def servo_failure_note(system, state, h, rho_inf):
    """What the zero dynamics say about a servo run that failed: a sentence for its diagnosis."""
    zeros = servo_zeros(system, state.q, state.lam, state.t, a=state.a, coordinates=False)
    slow = [z.s for z in zeros if abs(z.s) * h <= RESOLVED]
    fast = _amplified(zeros, h, rho_inf)
    note = []
    if fast:
        note.append(f"the step amplifies the unstable zero s = {fast[0][0].s:.4g} 1/s (by {fast[0][1]:.3g} per "
                    f"step): use h = {servo_step(system, state.q, state.lam, h, rho_inf, state.t, zeros=zeros):.3g} s")
    if slow:
        fastest = max(slow, key=lambda s: s.real)
        note.append(f"the zero dynamics at t = {state.t:.6g} s have {len(slow)} unstable zeros the step resolves, the "
                    f"fastest growing s = {fastest:.4g} 1/s: the causal inverse grows as e^(Re s·t) there like the "
                    "exact one (the prescribed motion needs ever larger inputs); no step removes that, damping of "
                    "the flexible parts, a shorter run or a non-causal (stable) inversion does")
    return f" Servo inverse: {'; '.join(note)}." if note else ""
