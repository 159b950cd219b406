"""Model parts written only against the contribution protocol (femdyn.model.protocol):
they live here, outside femdyn, to show that a new kind of part needs no change inside it.

- :class:`PointMass` and :class:`Spring`: a particle on a point node and a linear spring
  between two point nodes (constant mass, nonlinear geometry, analytic tangent).
- :class:`PolarParticle`: a particle in the plane z = const described by polar
  coordinates (r, θ, z) on a registered node kind — a configuration-dependent mass
  M(q) = diag(m, m r², m) with its quadratic-velocity forces, gravity along −y and an
  optional radial spring (Lagrange's equations, e.g. Goldstein, Classical Mechanics, §1.4).
- :class:`FixedRadius`: the constraint r = L on such a particle (a pendulum in polar form).
"""
import numpy as np

from femdyn.model.constraints import Equation
from femdyn.model.nodes import register_node_kind
from femdyn.model.protocol import Part
from femdyn.model.vectorfunctions import Linear

POLAR = register_node_kind("polar", ("p",))


class PointMass(Part):
    """Mass ``mass`` (kg) on a point node."""

    def __init__(self, name, node, mass):
        self.name, self.dofs, self.mass = name, node.dofs, mass

    def mass_coo(self):
        return self.dofs, self.dofs, np.full(3, self.mass)

    def gravity(self, g):
        return self.dofs, self.mass * np.asarray(g)


class Spring(Part):
    """Linear spring, stiffness k (N/m), rest length L0 (m), between point nodes a and b:
    force on b: −k (ℓ − L0) e with ℓ = |x_b − x_a|, e = (x_b − x_a)/ℓ."""

    def __init__(self, name, a, b, k, rest_length):
        self.name, self.a, self.b, self.k, self.L0 = name, a.dofs, b.dofs, k, rest_length
        self.dofs = np.concatenate([self.a, self.b])

    def _geometry(self, q):
        d = q[self.b] - q[self.a]
        length = np.sqrt(d @ d)
        return d, length, d / length

    def force(self, q, v, t):
        _, length, e = self._geometry(q)
        f = -self.k * (length - self.L0) * e           # on b
        Q = np.zeros(self.n)
        Q[self.a], Q[self.b] = -f, f
        return Q

    def tangent_pattern(self):
        rows = np.repeat(self.dofs, 6)
        cols = np.tile(self.dofs, 6)
        return rows, cols, np.zeros(0, int), np.zeros(0, int)

    def tangent_values(self, q, v, t):
        _, length, e = self._geometry(q)
        P = np.outer(e, e)
        Kb = self.k * (P + (1 - self.L0 / length) * (np.eye(3) - P))   # −∂f_b/∂x_b
        return np.block([[Kb, -Kb], [-Kb, Kb]]).ravel(), np.zeros(0)

    def strain_energy(self, q):
        return 0.5 * self.k * (self._geometry(q)[1] - self.L0) ** 2


class PolarParticle(Part):
    """A particle of mass m (kg) on a "polar" node (r [m], θ [rad], z [m]); gravity g
    (m/s²) along −y, radial spring of stiffness k (N/m) and rest length L0 (m)."""

    constant_mass = False

    def __init__(self, name, node, mass, g=0.0, k=0.0, rest_length=0.0):
        self.name, self.dofs = name, node.dofs
        self.m, self.g, self.k, self.L0 = mass, g, k, rest_length
        self.mass = mass

    def mass_coo(self):
        return self.dofs, self.dofs, np.array([self.m, self.m, self.m])

    def mass_values(self, q):
        r = q[self.dofs[0]]
        return np.array([self.m, self.m * r * r, self.m])

    def mass_derivative_pattern(self):
        return self.dofs[1:2], self.dofs[:1]

    def mass_derivative(self, q, a):
        return np.array([2 * self.m * q[self.dofs[0]] * a[self.dofs[1]]])     # ∂(m r² θ̈)/∂r

    def force(self, q, v, t):
        (r, th, _), (rd, thd, _) = q[self.dofs], v[self.dofs]
        m, g = self.m, self.g
        Q = np.zeros(self.n)
        Q[self.dofs[0]] = m * r * thd ** 2 - m * g * np.sin(th) - self.k * (r - self.L0)
        Q[self.dofs[1]] = -2 * m * r * rd * thd - m * g * r * np.cos(th)
        return Q

    def tangent_pattern(self):
        i, j = self.dofs[0], self.dofs[1]
        rows = np.array([i, i, j, j])
        cols = np.array([i, j, i, j])
        return rows, cols, rows, cols

    def tangent_values(self, q, v, t):
        (r, th, _), (rd, thd, _) = q[self.dofs], v[self.dofs]
        m, g = self.m, self.g
        dQ_dq = [m * thd ** 2 - self.k, -m * g * np.cos(th), -2 * m * rd * thd - m * g * np.cos(th), m * g * r * np.sin(th)]
        dQ_dv = [0.0, 2 * m * r * thd, -2 * m * r * thd, -2 * m * r * rd]
        return -np.array(dQ_dq), -np.array(dQ_dv)

    def potential_energy(self, q):
        r, th, _ = q[self.dofs]
        return self.m * self.g * r * np.sin(th) + 0.5 * self.k * (r - self.L0) ** 2


class FixedRadius(Part):
    """The constraint r = L (m) on a polar node."""

    def __init__(self, name, node, radius):
        self.name, self.node, self.radius = name, node, radius

    def equations(self):
        return [Equation(Linear, (self.node.expr,), np.array([1.0, 0.0, 0.0]), self.radius, None,
                         f"{self.name}: r")]
