"""A linear spring-damper between two material points.

The points are affine expressions of q (:class:`~femdyn.model.nodes.Expr`), so their
difference d = r_b − r_a = D q + d₀ has a constant Jacobian D (3 × k, on the k coordinates
the two points use). With ℓ = ‖d‖, e = d/ℓ and ℓ̇ = e·ḋ, the tension (N, positive when
stretched) is f = k (ℓ − L₀) + c ℓ̇; it pulls b towards a: Q = −Dᵀ f e. The tangents
follow by the chain rule with ∂e/∂d = (I − eeᵀ)/ℓ and ∂ℓ̇/∂d = ḋᵀ(I − eeᵀ)/ℓ:

    K = −∂Q/∂q = Dᵀ [k eeᵀ + (f/ℓ)(I − eeᵀ) + (c/ℓ) e ḋᵀ(I − eeᵀ)] D,
    C = −∂Q/∂q̇ = Dᵀ c eeᵀ D,

K being unsymmetric only through the damper's last term (ḋ off the spring's line).
The potential energy is ½ k (ℓ − L₀)²; the damper dissipates c ℓ̇² (W).
"""
import numpy as np

from ..errors import ModelError
from ..validation import positive
from .protocol import Part


class SpringDamper(Part):
    """A linear spring of stiffness k and rest length L₀ in parallel with a linear damper c
    between two material points (see the module docstring for the force and tangents).

    Examples
    --------
    Two points 1.5 m apart on a spring of rest length 1 m and k = 200 N/m: a 100 N pull.

    >>> import numpy as np
    >>> from femdyn.model.nodes import Expr
    >>> s = SpringDamper("s", Expr({0: 1.0}), Expr({3: 1.0}), 200.0, rest_length=1.0)
    >>> s.bind(6)
    >>> q = np.array([0.0, 0, 0, 1.5, 0, 0])
    >>> s.tension(q, np.zeros(6)), s.force(q, np.zeros(6), 0.0)[[0, 3]].tolist()
    (100.0, [100.0, -100.0])
    """

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
        """A linear spring-damper between two material points (a force element, unlike the
        rigid :meth:`distance`): tension k (ℓ − L₀) + c ℓ̇ along the line of the points
        (:class:`~femdyn.model.springs.SpringDamper`).

        Parameters
        ----------
        name : str
            Unique part name.
        body_a : str or body
            Body of the first point (or "ground", or an ANCF node).
        point_a : (3,) array_like
            First point, m, global frame, initial configuration.
        body_b : str or body
            Body of the second point.
        point_b : (3,) array_like
            Second point, m, global frame, initial configuration.
        stiffness : float
            k, N/m (≥ 0).
        damping : float, optional
            c, N·s/m (≥ 0).
        rest_length : float, optional
            L₀, m (default the initial distance of the points).

        Returns
        -------
        femdyn.model.springs.SpringDamper

        Raises
        ------
        ModelError
            If a point lies outside its body's span, k or c is negative, the rest length
            is not positive, or the name is taken.

        Examples
        --------
        A 2 kg slider tied to the ground by a 800 N/m spring, its rest length the initial
        distance (1 m); pulled 1 cm further out, the spring pulls back with 8 N:

        >>> from femdyn.model import Model
        >>> import numpy as np
        >>> m = Model(gravity=(0, 0, 0))
        >>> block = m.rigid_beam("block", m.point("A", (1.0, 0, 0)), m.point("B", (1.2, 0, 0)), mass=2.0)
        >>> _ = m.prismatic("slider", "ground", block, (1.0, 0, 0), axis=(1, 0, 0))
        >>> spring = m.spring("spring", "ground", (0, 0, 0), block, (1.0, 0, 0), stiffness=800.0)
        >>> system = m.assemble()
        >>> q = system.q0 + 0.01 * np.array([1.0, 0, 0, 1.0, 0, 0])
        >>> float(system.forces(q, system.v0, 0.0)[[0, 3]].sum().round(9))
        -8.0
        """
        body_a, body_b = self.body(body_a), self.body(body_b)
        pa, pb = body_a.material_point(point_a), body_b.material_point(point_b)
        q0 = self.initial_coordinates()[0]
        return self.add(SpringDamper(name, pa, pb, stiffness, damping, rest_length, q0))
