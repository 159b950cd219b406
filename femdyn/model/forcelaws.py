"""Force laws f(δ, δ̇) = f₀ + k δ + c δ̇ + g(δ, δ̇), with ∂f/∂δ, ∂f/∂δ̇ and energy ∫₀^δ f(s, 0) ds; the force elements' common form.

g is a :class:`Table` of deflections (piecewise linear or cubic spline, extended linearly with
its end slopes) or a :class:`UserForce` (derivatives given, or central differences). A force
element reads its deflection δ (m or rad) and rate δ̇; f is its tension (N) or torque (N·m).
"""
import numpy as np
from scipy.interpolate import make_interp_spline

from ..errors import ModelError
from ..input_checks import number, positive, refuse_non_finite
from .protocol import Part, Sensor, gathering

# Gauss–Legendre rule of the energy of a user force: exact for polynomials of degree ≤ 15
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(8)


class Table:
    """A force f(δ) tabulated against deflection, interpolated piecewise linearly or by a cubic spline.

    Outside the table f continues along the end tangent, so the law stays smooth to first order there.

    Parameters
    ----------
    deflections : (k,) array_like
        δ_i, strictly increasing, m (rad for a rotational spring); k ≥ 2 (≥ 4 for a spline).
    forces : (k,) array_like
        f(δ_i), N (N·m).
    kind : {"linear", "spline"}, optional
        Piecewise-linear interpolation or a not-a-knot cubic spline (C², de Boor 1978, ch. IV).
    """

    def __init__(self, deflections, forces, kind="linear"):
        x, f = np.asarray(deflections, float).ravel(), np.asarray(forces, float).ravel()
        what = "force table"
        refuse_non_finite(x, f"{what}: deflections")
        refuse_non_finite(f, f"{what}: forces")
        degree = {"linear": 1, "spline": 3}.get(kind)
        if degree is None:
            raise ModelError(f"{what}: kind must be 'linear' or 'spline', got {kind!r}")
        if x.size != f.size or x.size < degree + 1 or np.any(np.diff(x) <= 0):
            raise ModelError(f"{what}: needs as many forces as deflections ({f.size} vs {x.size}), at least "
                             f"{degree + 1} for kind '{kind}', the deflections strictly increasing; sort the table")
        self.kind, self.x, self.f = kind, x, f
        self.spline = make_interp_spline(x, f, k=degree)
        self.slope = self.spline.derivative()
        self.integral = self.spline.antiderivative()
        self.ends = [(e, float(self.spline(e)), float(self.slope(e)), float(self.integral(e))) for e in x[[0, -1]]]

    def _evaluate(self, d):
        """(f, ∂f/∂δ, ∫f dδ from the first point) at deflections d (float or array), extended along the end tangents."""
        x = np.asarray(d, float)
        f, k, i = self.spline(x), self.slope(x), self.integral(x)
        for end, (e, fe, ke, ie) in zip((x < self.x[0], x > self.x[-1]), self.ends):
            s = x - e
            f, k, i = np.where(end, fe + ke * s, f), np.where(end, ke, k), np.where(end, ie + fe * s + 0.5 * ke * s * s, i)
        return (float(f), float(k), float(i)) if x.ndim == 0 else (f, k, i)

    def __call__(self, d, rate):
        f, k, _ = self._evaluate(d)
        return f, k, 0.0

    def _values(self, d, rate):
        """(f, ∂f/∂δ, ∂f/∂δ̇) arrays at arrays of deflections and rates, in one evaluation."""
        f, k, _ = self._evaluate(d)
        return f, k, np.zeros_like(f)

    def energy(self, d):
        """∫₀^δ f(s) ds, J.

        Parameters
        ----------
        d : float
            δ, m (rad).
        """
        return self._evaluate(d)[2] - self._evaluate(0.0)[2]


class UserForce:
    """A force f(δ, δ̇) given as a Python function, with its derivatives or by central differences.

    Without ``derivatives`` the partial derivatives are central differences with steps
    h = ε^(1/3) max(1, |x|) ≈ 6e-6 max(1, |x|) (ε the double-precision round-off): error
    h² f‴/6 + ε f/h, about 1e-10 relative for a smooth f. Its energy ∫₀^δ f(s, 0) ds is an
    8-point Gauss–Legendre rule (exact for polynomials of degree ≤ 15).

    Parameters
    ----------
    function : callable
        f(δ, δ̇) → float, N (N·m) for δ in m (rad), δ̇ in m/s (rad/s).
    derivatives : callable, optional
        (δ, δ̇) → (∂f/∂δ, ∂f/∂δ̇), N/m and N·s/m (N·m/rad, N·m·s/rad).
    """

    STEP = np.finfo(float).eps ** (1 / 3)

    def __init__(self, function, derivatives=None):
        for what, g in (("function", function), ("derivatives", derivatives)):
            if g is not None and not callable(g):
                raise ModelError(f"user force: {what} must be callable as f(deflection, rate), got {g!r}")
        self.function, self.derivatives = function, derivatives

    def _value(self, d, rate):
        """f(δ, δ̇) as a checked finite float."""
        try:
            f = float(self.function(d, rate))
        except (TypeError, ValueError) as err:
            raise ModelError(f"user force {self.function!r}: f({d!r}, {rate!r}) is not one number ({err}); "
                             "return a float in N (N·m)") from None
        if not np.isfinite(f):
            raise ModelError(f"user force {self.function!r}: f({d!r}, {rate!r}) = {f}; return a finite force")
        return f

    def __call__(self, d, rate):
        f = self._value(d, rate)
        if self.derivatives is not None:
            k, c = (float(x) for x in self.derivatives(d, rate))
            return f, k, c
        hd, hr = self.STEP * max(1.0, abs(d)), self.STEP * max(1.0, abs(rate))
        k = (self._value(d + hd, rate) - self._value(d - hd, rate)) / (2 * hd)
        c = (self._value(d, rate + hr) - self._value(d, rate - hr)) / (2 * hr)
        return f, k, c

    def _values(self, d, rate):
        """(f, ∂f/∂δ, ∂f/∂δ̇) arrays at arrays of deflections and rates, the function called once per entry."""
        return np.array([self(x, r) for x, r in zip(d, rate)], float).reshape(-1, 3).T

    def energy(self, d):
        """∫₀^δ f(s, 0) ds by the 8-point Gauss–Legendre rule, J.

        Parameters
        ----------
        d : float
            δ, m (rad).
        """
        s = 0.5 * d * (_NODES + 1.0)
        return 0.5 * d * sum(w * self._value(x, 0.0) for w, x in zip(_WEIGHTS, s))


class ForceLaw:
    """f = f₀ + k δ + c δ̇ + g(δ, δ̇): preload, linear stiffness and damping, and an optional nonlinear law g."""

    def __init__(self, what, stiffness=0.0, damping=0.0, preload=0.0, law=None, units=("N/m", "N·s/m", "N")):
        self.k = positive(stiffness, f"{what}: stiffness", units[0], allow_zero=True)
        self.c = positive(damping, f"{what}: damping", units[1], allow_zero=True)
        self.f0 = number(preload, f"{what}: preload", units[2])
        if law is not None and not isinstance(law, (Table, UserForce)):
            if not callable(law):
                raise ModelError(f"{what}: law must be a femdyn Table, UserForce or a function f(deflection, rate), "
                                 f"got {law!r}")
            law = UserForce(law)
        self.law = law

    def __call__(self, d, rate):
        """(f, ∂f/∂δ, ∂f/∂δ̇) at deflection d and rate."""
        f, k, c = self.f0 + self.k * d + self.c * rate, self.k, self.c
        if self.law is not None:
            g, kg, cg = self.law(d, rate)
            f, k, c = f + g, k + kg, c + cg
        return f, k, c

    def energy(self, d):
        """∫₀^δ f(s, 0) ds, J."""
        return self.f0 * d + 0.5 * self.k * d * d + (self.law.energy(d) if self.law is not None else 0.0)


class ForceElement(Part):
    """Common form of the force elements: a dense tangent block on their own coordinates ``dofs`` and a reading."""

    reading_names = ()

    def tangent_pattern(self):
        rows, cols = np.repeat(self.dofs, self.dofs.size), np.tile(self.dofs, self.dofs.size)
        return rows, cols, rows, cols

    def _scatter(self, local):
        """The global Q (n,) holding ``local`` on the element's dofs."""
        Q = np.zeros(self.n)
        Q[self.dofs] = local            # dofs are unique
        return Q

    def reading(self, q, v, t):
        """The element's force (or torque) and its deflections, in the order of ``reading_names``."""
        raise NotImplementedError


class ForceSensor(Sensor):
    """Channels ``<name>.<reading>`` of a force element (its :meth:`ForceElement.reading`)."""

    def __init__(self, name, element):
        self.name, self.element = name, element
        self.columns = tuple(f"{name}.{c}" for c in element.reading_names)

    def measure(self, q, v, a, lam, t):
        return np.asarray(self.element.reading(q, np.zeros_like(q) if v is None else v, t), float)

    @classmethod
    def reader(cls, sensors):
        """One read of ``sensors``: the elements of a class that gathers its parts (springs) read as one set."""
        kinds = {}
        for k, sensor in enumerate(sensors):
            kinds.setdefault(gathering(sensor.element), []).append(k)
        ends = np.cumsum([0] + [len(s.columns) for s in sensors])
        reads, columns = [], []
        for kind, members in kinds.items():
            chosen = [sensors[k] for k in members]
            if kind is None:
                reads.append(lambda q, v, a, lam, t, chosen=chosen: np.concatenate([x.measure(q, v, a, lam, t)
                                                                                    for x in chosen]))
            else:
                gathered = kind.gathered([x.element for x in chosen])
                gathered.bind(chosen[0].element.n)
                reads.append(lambda q, v, a, lam, t, g=gathered: g.readings(q, np.zeros_like(q) if v is None else v)
                             .ravel())
            columns += [np.arange(ends[k], ends[k + 1]) for k in members]
        order = np.argsort(np.concatenate(columns))
        return lambda q, v, a, lam, t: np.concatenate([read(q, v, a, lam, t) for read in reads])[order]


class ForceSensorBuilder:
    """The force-element sensor constructor of :class:`~femdyn.model.Model` (``m.sensor_force``)."""

    def sensor_force(self, name, element):
        """Record a force element's force or torque and its deflection and rate, ``<name>.<channel>``.

        A spring-damper gives ``force`` (N, tension positive), ``deflection`` (m) and ``rate`` (m/s);
        a rotational spring-damper ``torque`` (N·m), ``angle`` (rad from its rest angle) and ``rate``
        (rad/s); a bushing ``fx`` … ``mz`` (N, N·m) and ``dx`` … ``rz`` (m, rad) in its frame.

        Parameters
        ----------
        name : str
        element : str or force element
            A spring-damper, rotational spring-damper or bushing of this model, or its name.
        """
        found = [p for p in self.parts if p is element or p.name == element]
        if not found or not isinstance(found[0], ForceElement):
            known = [p.name for p in self.parts if isinstance(p, ForceElement)]
            raise ModelError(f"force sensor '{name}': '{getattr(element, 'name', element)}' is not a force element "
                             f"of this model; its force elements are {known}")
        return self.add_sensor(ForceSensor(name, found[0]))
