"""Scalar functions of time f(t) with f' and f'' (driving constraints need all three, loads f only)."""
import math

import numpy as np

from ..errors import ModelError


class TimeFunction:
    """Base class of scalar functions of time: subclasses implement ``value``, ``d1`` and ``d2``.

    Calling one gives its value; ``f + g`` and ``k * f`` build new functions (units: docs/conventions.md).
    """

    def value(self, t):
        """The value f(t).

        Parameters
        ----------
        t : float
        """
        raise NotImplementedError

    def d1(self, t):
        """The first time derivative f'(t), unit of f per s.

        Parameters
        ----------
        t : float
        """
        raise NotImplementedError

    def d2(self, t):
        """The second time derivative f''(t), unit of f per s².

        Parameters
        ----------
        t : float
        """
        raise NotImplementedError

    def __call__(self, t):
        return self.value(t)

    def __add__(self, other):
        return Sum(self, as_time_function(other))

    __radd__ = __add__

    def __mul__(self, factor):
        return Scaled(self, float(factor))

    __rmul__ = __mul__


class Constant(TimeFunction):
    """f(t) = c.

    Parameters
    ----------
    c : float
    """

    def __init__(self, c):
        self.c = float(c)

    def value(self, t):
        return self.c

    def d1(self, t):
        return 0.0

    def d2(self, t):
        return 0.0


class Polynomial(TimeFunction):
    """f(t) = Σ c_k t^k.

    Parameters
    ----------
    coefficients : sequence of float
        c_0, c_1, …, lowest order first.
    """

    def __init__(self, coefficients):
        self.p = np.polynomial.Polynomial(np.asarray(coefficients, float))
        self._d1, self._d2 = self.p.deriv(1), self.p.deriv(2)

    def value(self, t):
        return float(self.p(t))

    def d1(self, t):
        return float(self._d1(t))

    def d2(self, t):
        return float(self._d2(t))


class Sine(TimeFunction):
    """f(t) = offset + amplitude·sin(ω t + phase).

    Parameters
    ----------
    amplitude, offset : float
        In the unit of f (offset optional).
    omega, phase : float
        ω in rad/s; phase in rad (optional).
    """

    def __init__(self, amplitude, omega, phase=0.0, offset=0.0):
        self.a, self.w, self.ph, self.off = map(float, (amplitude, omega, phase, offset))

    def value(self, t):
        return self.off + self.a * math.sin(self.w * t + self.ph)

    def d1(self, t):
        return self.a * self.w * math.cos(self.w * t + self.ph)

    def d2(self, t):
        return -self.a * self.w**2 * math.sin(self.w * t + self.ph)


class SmoothStep(TimeFunction):
    """Quintic step f = s + (e−s)(10τ³ − 15τ⁴ + 6τ⁵), τ = (t−t0)/(t1−t0), constant outside [t0, t1].

    Parameters
    ----------
    t0, t1, start, end : float
        Transition from t0 to t1, s (t1 > t0, else ModelError); values before and after (optional).
    """

    def __init__(self, t0, t1, start=0.0, end=1.0):
        if not t1 > t0:
            raise ModelError(f"SmoothStep needs t1 > t0, got t0={t0}, t1={t1}")
        self.t0, self.dt, self.s, self.h = float(t0), float(t1 - t0), float(start), float(end - start)

    def _tau(self, t):
        return min(max((t - self.t0) / self.dt, 0.0), 1.0)

    def value(self, t):
        x = self._tau(t)
        return self.s + self.h * x**3 * (10 - 15 * x + 6 * x * x)

    def d1(self, t):
        x = self._tau(t)
        return self.h * 30 * x * x * (1 - x) ** 2 / self.dt

    def d2(self, t):
        x = self._tau(t)
        return self.h * 60 * x * (1 - x) * (1 - 2 * x) / self.dt**2


class Sum(TimeFunction):
    """f(t) + g(t), as built by ``f + g``."""

    def __init__(self, f, g):
        self.f, self.g = f, g

    def value(self, t):
        return self.f.value(t) + self.g.value(t)

    def d1(self, t):
        return self.f.d1(t) + self.g.d1(t)

    def d2(self, t):
        return self.f.d2(t) + self.g.d2(t)


class Scaled(TimeFunction):
    """k·f(t), as built by ``k * f``."""

    def __init__(self, f, factor):
        self.f, self.k = f, factor

    def value(self, t):
        return self.k * self.f.value(t)

    def d1(self, t):
        return self.k * self.f.d1(t)

    def d2(self, t):
        return self.k * self.f.d2(t)


class Callable(TimeFunction):
    """Wraps a Python function; central-difference derivatives with step ``dt`` (error O(dt²))."""

    def __init__(self, func, dt=1e-4):
        self.f, self.dt = func, float(dt)

    def value(self, t):
        return float(self.f(t))

    def d1(self, t):
        return (self.value(t + self.dt) - self.value(t - self.dt)) / (2 * self.dt)

    def d2(self, t):
        return (self.value(t + self.dt) - 2 * self.value(t) + self.value(t - self.dt)) / self.dt**2


def as_time_function(x, name="time function"):
    """A :class:`TimeFunction` from a number (Constant), a callable (central differences) or a TimeFunction.

    Parameters
    ----------
    x, name : TimeFunction, float or callable; str, optional
        The function of time (anything else: ModelError naming ``name``).
    """
    if isinstance(x, TimeFunction):
        return x
    if isinstance(x, (int, float, np.floating, np.integer)):
        return Constant(x)
    if callable(x):
        return Callable(x)
    raise ModelError(f"{name}: expected a number, a callable f(t) or a femdyn TimeFunction, got {type(x).__name__}")


class RampedMotion(TimeFunction):
    """Speed ramped from 0 to ``speed`` over [0, ramp] (a :class:`SmoothStep`), constant after.

    f = speed·ramp·(2.5τ⁴ − 3τ⁵ + τ⁶) for τ = t/ramp ≤ 1, speed·(t − ramp/2) after.

    Parameters
    ----------
    speed, ramp : float
        Cruise speed, unit of f per s; ramp duration, s (> 0, else ModelError).
    """

    def __init__(self, speed, ramp):
        if not ramp > 0:
            raise ModelError(f"RampedMotion needs ramp > 0 s, got {ramp}")
        self.speed, self.ramp = float(speed), float(ramp)
        self.profile = SmoothStep(0.0, ramp, 0.0, 1.0)

    def value(self, t):
        if t >= self.ramp:
            return self.speed * (t - self.ramp / 2)
        x = max(t, 0.0) / self.ramp
        return self.speed * self.ramp * x**4 * (2.5 - 3 * x + x * x)

    def d1(self, t):
        return self.speed * self.profile.value(t)

    def d2(self, t):
        return self.speed * self.profile.d1(t)


class Tabulated(TimeFunction):
    """Cubic spline (scipy, not-a-knot) through samples (t_k, f_k), constant outside them.

    Parameters
    ----------
    times, values : (k,) array_like
        Sample times (s, strictly increasing, k ≥ 4, else ModelError) and values.
    """

    def __init__(self, times, values):
        from scipy.interpolate import CubicSpline
        times, values = np.asarray(times, float), np.asarray(values, float)
        if times.ndim != 1 or times.shape != values.shape or times.size < 4 or np.any(np.diff(times) <= 0):
            raise ModelError("Tabulated: need ≥ 4 strictly increasing times and as many values")
        self.t0, self.t1 = times[0], times[-1]
        self.spline = CubicSpline(times, values)
        self._t, self._kept = None, [None, None, None]

    def _at(self, t, order):
        """f, f' or f'' at t; the values at the last t are kept (Newton asks for each step's t several times)."""
        if t != self._t:
            self._t, self._kept = t, [None, None, None]
        if self._kept[order] is None:
            inside = self.t0 <= t <= self.t1
            self._kept[order] = float(self.spline(min(max(t, self.t0), self.t1), order)) if inside or order == 0 else 0.0
        return self._kept[order]

    def value(self, t):
        return self._at(t, 0)

    def d1(self, t):
        return self._at(t, 1)

    def d2(self, t):
        return self._at(t, 2)
