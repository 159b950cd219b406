"""A translational spring-damper between two material points, of any force law (:mod:`.forcelaws`).

With d = r_b − r_a = D q + d₀, ℓ = ‖d‖, e = d/ℓ, δ = ℓ − L₀, δ̇ = e·ḋ: tension f(δ, δ̇), Q = −Dᵀ f e,
K = Dᵀ [f_δ eeᵀ + (f/ℓ)(I − eeᵀ) + (f_δ̇/ℓ) e ḋᵀ(I − eeᵀ)] D, C = Dᵀ f_δ̇ eeᵀ D.
"""
import numpy as np

from ..errors import ModelError
from .forcelaws import ForceElement, ForceLaw


class SpringDamper(ForceElement):
    """A spring-damper of tension f = f₀ + k δ + c δ̇ + g(δ, δ̇) between two material points."""

    reading_names = ("force", "deflection", "rate")

    def __init__(self, name, point_a, point_b, stiffness, damping=0.0, rest_length=None, q0=None, preload=0.0,
                 law=None):
        self.name = name
        self.difference = point_b - point_a
        self.law = ForceLaw(f"spring '{name}'", stiffness, damping, preload, law)
        if rest_length is None:
            rest_length = np.linalg.norm(self.difference(q0)) if q0 is not None else 0.0
        self.L0 = float(rest_length)
        if not self.L0 > 0:
            raise ModelError(f"spring '{name}': the rest length must be positive (m), got {rest_length!r}; "
                             "attach the spring between distinct points or give rest_length")

    def bind(self, n):
        self.n = n
        rows, cols, vals = self.difference.coo(0)
        self.dofs = np.unique(cols)
        self.D = np.zeros((3, self.dofs.size))
        np.add.at(self.D, (rows, np.searchsorted(self.dofs, cols)), vals)
        self.d0 = self.difference.offset

    def _state(self, q, v):
        """(ℓ, e, ḋ, δ̇, (f, f_δ, f_δ̇)) of the spring at (q, v)."""
        d = self.D @ q[self.dofs] + self.d0
        length = np.sqrt(d @ d)
        if not length > 0:
            raise ModelError(f"spring '{self.name}': its end points coincide; its direction is undefined")
        e = d / length
        d_dot = self.D @ v[self.dofs]
        rate = e @ d_dot
        return length, e, d_dot, rate, self.law(length - self.L0, rate)

    def tension(self, q, v):
        """The tension f(δ, δ̇), N."""
        return float(self._state(q, v)[4][0])

    def reading(self, q, v, t):
        length, _, _, rate, (f, _, _) = self._state(q, v)
        return f, length - self.L0, rate

    def force(self, q, v, t):
        _, e, _, _, (f, _, _) = self._state(q, v)
        return self._scatter(-self.D.T @ (f * e))

    def tangent_values(self, q, v, t):
        length, e, d_dot, _, (f, k, c) = self._state(q, v)
        P = np.outer(e, e)
        transverse = np.eye(3) - P
        Kd = k * P + f / length * transverse + c / length * np.outer(e, d_dot @ transverse)
        return (self.D.T @ Kd @ self.D).ravel(), (self.D.T @ (c * P) @ self.D).ravel()

    def strain_energy(self, q):
        return self.law.energy(np.linalg.norm(self.D @ q[self.dofs] + self.d0) - self.L0)


class SpringBuilder:
    """The spring constructor of :class:`~femdyn.model.Model` (``m.spring``)."""

    def spring(self, name, body_a, point_a, body_b, point_b, stiffness=0.0, damping=0.0, rest_length=None,
               preload=0.0, law=None):
        """Add a spring-damper between two material points: tension f₀ + k δ + c δ̇ + g(δ, δ̇) along their line.

        δ = ℓ − L₀ is the stretch and δ̇ its rate; the energy balance counts ∫₀^δ f(s, 0) ds.

        Parameters
        ----------
        name : str
        body_a, body_b : str or body
            Bodies of the first and second point (a point mass, the ground, an ANCF node …).
        point_a, point_b : (3,) array_like
            The two points, m.
        stiffness : float, optional
            k, N/m.
        damping : float, optional
            c, N·s/m.
        rest_length : float, optional
            L₀, m (default the initial distance).
        preload : float, optional
            f₀, the tension at the rest length, N.
        law : Table, UserForce or callable, optional
            g(δ, δ̇), N, added to the linear law (a callable becomes a :class:`UserForce`).
        """
        body_a, body_b = self.body(body_a), self.body(body_b)
        pa, pb = body_a.material_point(point_a), body_b.material_point(point_b)
        q0 = self.initial_coordinates()[0]
        return self.add(SpringDamper(name, pa, pb, stiffness, damping, rest_length, q0, preload, law))
