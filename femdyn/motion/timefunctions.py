"""Scalar functions of time f(t) with their first two derivatives.

Driving constraints need f, f' and f'' (the acceleration right-hand side γ contains
f''); loads need f only. Time in s; the unit of f is that of the quantity it drives.
"""
import math

import numpy as np

from ..errors import ModelError


class TimeFunction:
    """Base class of scalar functions of time: subclasses implement ``value``, ``d1`` and ``d2``.

    Calling a TimeFunction gives its value; ``f + g`` and ``k * f`` build the
    :class:`Sum` and :class:`Scaled` functions, with their derivatives.

    Examples
    --------
    >>> f = 2.0 * Polynomial([0.0, 1.0]) + Sine(1.0, np.pi)      # 2t + sin(πt)
    >>> round(f(0.5), 12), round(f.d1(0.0), 12)
    (2.0, 5.14159265359)
    """

    def value(self, t):
        """The value f(t).

        Parameters
        ----------
        t : float
            Time, s.

        Returns
        -------
        float
            In the unit of the driven quantity (m, rad, N, N·m, or dimensionless for a
            load scale).
        """
        raise NotImplementedError

    def d1(self, t):
        """The first time derivative f'(t).

        Parameters
        ----------
        t : float
            Time, s.

        Returns
        -------
        float
            Unit of f per s.
        """
        raise NotImplementedError

    def d2(self, t):
        """The second time derivative f''(t).

        Parameters
        ----------
        t : float
            Time, s.

        Returns
        -------
        float
            Unit of f per s².
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
        The value, in the unit of the driven quantity.

    Examples
    --------
    >>> Constant(3.0)(10.0), Constant(3.0).d1(10.0)
    (3.0, 0.0)
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
        c_0, c_1, …, lowest order first (c_k in the unit of f per s^k).

    Examples
    --------
    >>> f = Polynomial([1.0, 0.0, 3.0])        # 1 + 3 t²
    >>> f(2.0), f.d1(2.0), f.d2(2.0)
    (13.0, 12.0, 6.0)
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
    amplitude : float
        In the unit of f.
    omega : float
        Angular frequency ω, rad/s.
    phase : float, optional
        rad.
    offset : float, optional
        In the unit of f.

    Examples
    --------
    >>> f = Sine(0.1, 2 * np.pi, offset=1.0)
    >>> round(f(0.25), 12), round(f.d1(0.0), 12)
    (1.1, 0.628318530718)
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
    """Quintic S-curve from ``start`` at t0 to ``end`` at t1, zero velocity and
    acceleration at both ends (f = s + (e−s)(10τ³ − 15τ⁴ + 6τ⁵), τ = (t−t0)/(t1−t0)).

    Constant ``start`` before t0 and ``end`` after t1.

    Parameters
    ----------
    t0, t1 : float
        Start and end of the transition, s (t1 > t0).
    start, end : float, optional
        Values before and after, in the unit of f.

    Raises
    ------
    ModelError
        If t1 ≤ t0.

    Examples
    --------
    >>> f = SmoothStep(0.0, 2.0, start=0.0, end=0.5)
    >>> f(1.0), f.d1(1.0), f(5.0)
    (0.25, 0.46875, 0.5)
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
    """f(t) + g(t), as built by ``f + g``.

    ``f, g`` (TimeFunction): the terms (same unit).
    """

    def __init__(self, f, g):
        self.f, self.g = f, g

    def value(self, t):
        return self.f.value(t) + self.g.value(t)

    def d1(self, t):
        return self.f.d1(t) + self.g.d1(t)

    def d2(self, t):
        return self.f.d2(t) + self.g.d2(t)


class Scaled(TimeFunction):
    """k·f(t), as built by ``k * f``.

    ``f`` (TimeFunction): the function; ``factor`` (float): k.
    """

    def __init__(self, f, factor):
        self.f, self.k = f, factor

    def value(self, t):
        return self.k * self.f.value(t)

    def d1(self, t):
        return self.k * self.f.d1(t)

    def d2(self, t):
        return self.k * self.f.d2(t)


class Callable(TimeFunction):
    """Wraps a plain Python function; derivatives by central differences with step
    ``dt`` (truncation error O(dt²)·f''' for d1, O(dt²)·f'''' for d2).

    ``func`` (callable): f(t) → float, t in s; ``dt`` (float, optional): difference step, s. The round-off error
    of d2 grows as ε·f/dt², so keep dt ≳ 1e-4 s for f of order 1.

    Examples
    --------
    >>> f = Callable(lambda t: t ** 3)
    >>> round(f.d1(1.0), 6), round(f.d2(1.0), 4)
    (3.0, 6.0)
    """

    def __init__(self, func, dt=1e-4):
        self.f, self.dt = func, float(dt)

    def value(self, t):
        return float(self.f(t))

    def d1(self, t):
        return (self.value(t + self.dt) - self.value(t - self.dt)) / (2 * self.dt)

    def d2(self, t):
        return (self.value(t + self.dt) - 2 * self.value(t) + self.value(t - self.dt)) / self.dt**2


def as_time_function(x, name="time function"):
    """Turn what a user gives as a function of time into a :class:`TimeFunction`.

    Number → :class:`Constant`, callable → :class:`Callable`, TimeFunction → itself.

    Parameters
    ----------
    x : TimeFunction, float or callable
        The function of time (t in s).
    name : str, optional
        Names the input in the error message.

    Returns
    -------
    TimeFunction

    Raises
    ------
    ModelError
        If ``x`` is none of these.

    Examples
    --------
    >>> type(as_time_function(2.0)).__name__, type(as_time_function(np.sin)).__name__
    ('Constant', 'Callable')
    """
    if isinstance(x, TimeFunction):
        return x
    if isinstance(x, (int, float, np.floating, np.integer)):
        return Constant(x)
    if callable(x):
        return Callable(x)
    raise ModelError(f"{name}: expected a number, a callable f(t) or a femdyn TimeFunction, got {type(x).__name__}")


class RampedMotion(TimeFunction):
    """Position of a motion whose speed rises from 0 to ``speed`` along the quintic S-curve
    of :class:`SmoothStep` over [0, ramp] s and stays constant after:
    f = speed·ramp·(2.5τ⁴ − 3τ⁵ + τ⁶) for τ = t/ramp ≤ 1, f = speed·(t − ramp/2) after.

    Parameters
    ----------
    speed : float
        Cruise speed, unit of f per s (e.g. rad/s for a joint angle, m/s along a path).
    ramp : float
        Duration of the speed ramp, s (> 0).

    Raises
    ------
    ModelError
        If ramp ≤ 0.

    Examples
    --------
    >>> f = RampedMotion(speed=2.0, ramp=0.5)
    >>> f(0.5), f.d1(0.5), f(1.0)
    (0.5, 2.0, 1.5)
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
    """Cubic-spline interpolation of samples (t_k, f_k) (scipy CubicSpline, not-a-knot);
    constant extrapolation of the end values outside the samples. Use it to replay a
    recorded channel, e.g. inverse-dynamics torques as forward-dynamics input.

    Parameters
    ----------
    times : (k,) array_like
        Sample times, s, strictly increasing, k ≥ 4.
    values : (k,) array_like
        Samples, in the unit of f.

    Raises
    ------
    ModelError
        If the samples are too few, of unequal length or not increasing in time.

    Examples
    --------
    >>> t = np.linspace(0.0, 1.0, 11)
    >>> f = Tabulated(t, t ** 2)
    >>> round(f(0.55), 12), round(f.d1(0.5), 12), f(2.0)
    (0.3025, 1.0, 1.0)
    """

    def __init__(self, times, values):
        from scipy.interpolate import CubicSpline
        times, values = np.asarray(times, float), np.asarray(values, float)
        if times.ndim != 1 or times.shape != values.shape or times.size < 4 or np.any(np.diff(times) <= 0):
            raise ModelError("Tabulated: need ≥ 4 strictly increasing times and as many values")
        self.t0, self.t1 = times[0], times[-1]
        self.spline = CubicSpline(times, values)

    def _clip(self, t):
        return min(max(t, self.t0), self.t1)

    def value(self, t):
        return float(self.spline(self._clip(t)))

    def d1(self, t):
        return float(self.spline(self._clip(t), 1)) if self.t0 <= t <= self.t1 else 0.0

    def d2(self, t):
        return float(self.spline(self._clip(t), 2)) if self.t0 <= t <= self.t1 else 0.0
