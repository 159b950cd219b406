"""A linear spring-damper between two material points.

With d = r_b − r_a = D q + d₀, ℓ = ‖d‖, e = d/ℓ: tension f = k (ℓ − L₀) + c ℓ̇, Q = −Dᵀ f e,
K = Dᵀ [k eeᵀ + (f/ℓ)(I − eeᵀ) + (c/ℓ) e ḋᵀ(I − eeᵀ)] D, C = Dᵀ c eeᵀ D.
"""
import numpy as np

from ..errors import ModelError
from ..validation import positive
from .protocol import Part


class SpringDamper(Part):
    """A linear spring (k, L₀) in parallel with a linear damper c between two material points."""

    def __init__(self, name, point_a, point_b, stiffness, damping=0.0, rest_length=None, q0=None):
        self.name = name
        self.difference = point_b - point_a
        self.k = positive(stiffness, f"spring '{name}': stiffness", "N/m", allow_zero=True)
        self.c = positive(damping, f"spring '{name}': damping", "N·s/m", allow_zero=True)
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

    def _state(self, q, v):
        """(d, ℓ, e, ḋ, ℓ̇) of the spring at (q, v)."""
        d = self.difference(q)
        length = np.sqrt(d @ d)
        if not length > 0:
            raise ModelError(f"spring '{self.name}': its end points coincide; its direction is undefined")
        e = d / length
        d_dot = self.D @ v[self.dofs]
        return d, length, e, d_dot, e @ d_dot

    def tension(self, q, v):
        """The spring-damper's tension f = k (ℓ − L₀) + c ℓ̇."""
        _, length, _, _, rate = self._state(q, v)
        return float(self.k * (length - self.L0) + self.c * rate)

    def force(self, q, v, t):
        _, length, e, _, rate = self._state(q, v)
        Q = np.zeros(self.n)
        np.add.at(Q, self.dofs, -self.D.T @ ((self.k * (length - self.L0) + self.c * rate) * e))
        return Q

    def tangent_pattern(self):
        rows, cols = np.repeat(self.dofs, self.dofs.size), np.tile(self.dofs, self.dofs.size)
        return rows, cols, rows, cols

    def tangent_values(self, q, v, t):
        _, length, e, d_dot, rate = self._state(q, v)
        P = np.outer(e, e)
        transverse = np.eye(3) - P
        f = self.k * (length - self.L0) + self.c * rate
        Kd = self.k * P + f / length * transverse + self.c / length * np.outer(e, d_dot @ transverse)
        return (self.D.T @ Kd @ self.D).ravel(), (self.D.T @ (self.c * P) @ self.D).ravel()

    def strain_energy(self, q):
        return 0.5 * self.k * (np.linalg.norm(self.difference(q)) - self.L0) ** 2


class SpringBuilder:
    """The spring constructor of :class:`~femdyn.model.Model` (``m.spring``)."""

    def spring(self, name, body_a, point_a, body_b, point_b, stiffness, damping=0.0, rest_length=None):
        """Add a linear spring-damper between two material points: tension k (ℓ − L₀) + c ℓ̇ along their line.

        Parameters
        ----------
        name : str
        body_a, body_b : str or body
            Bodies of the first and second point.
        point_a, point_b : (3,) array_like
            The two points, m.
        stiffness : float
            k, N/m.
        damping : float, optional
            c, N·s/m.
        rest_length : float, optional
            L₀, m (default the initial distance).
        """
        body_a, body_b = self.body(body_a), self.body(body_b)
        pa, pb = body_a.material_point(point_a), body_b.material_point(point_b)
        q0 = self.initial_coordinates()[0]
        return self.add(SpringDamper(name, pa, pb, stiffness, damping, rest_length, q0))
