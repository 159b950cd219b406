"""Applied generalized forces Q(q, v, t) and their tangents.

Sign convention: Q enters M q̈ + Φ_qᵀλ = Q; the tangent returned is the stiffness
K = −∂Q/∂q (and C = −∂Q/∂v), as COO values on a fixed pattern. Forces in N, torques
in N·m, positions in m.
"""
import numpy as np

from ..motion.timefunctions import as_time_function
from .protocol import EMPTY, EMPTY_INT, Part
from .vectorfunctions import Angle, FunctionGroup, Targets


class Load(Part):
    """Base class of applied loads (scaled by the statics load factor); ``k_rows``,
    ``k_cols`` give the pattern of the stiffness K = −∂Q/∂q, possibly empty."""

    name = "load"
    applied = True

    def bind(self, n):
        self.n = n
        self.k_rows = self.k_cols = np.zeros(0, int)

    def force(self, q, v, t):
        raise NotImplementedError

    def stiffness_values(self, q, v, t):
        return np.zeros(0)

    def tangent_pattern(self):
        return self.k_rows, self.k_cols, EMPTY_INT, EMPTY_INT

    def tangent_values(self, q, v, t):
        return self.stiffness_values(q, v, t), EMPTY


class PointForce(Load):
    """A force F(t) (N, global components) at a material point: Q = Cᵀ F."""

    def __init__(self, name, expr, force, function=1.0):
        self.name, self.expr = name, expr
        self.F = np.asarray(force, float).reshape(3)
        self.function = as_time_function(function, f"point force '{name}'")

    def bind(self, n):
        super().bind(n)
        rows, cols, vals = self.expr.coo(0)
        self.cols, self.coef, self.comp = cols, vals, rows

    def force(self, q, v, t):
        Q = np.zeros(self.n)
        np.add.at(Q, self.cols, self.coef * self.F[self.comp] * self.function.value(t))
        return Q


class ConstantForce(Load):
    """A constant generalized force vector (gravity of every body and element)."""

    def __init__(self, name, vector):
        self.name, self.vector = name, np.asarray(vector, float)

    def force(self, q, v, t):
        return self.vector


class ScaledForce(ConstantForce):
    """A fixed generalized force vector scaled by f(t) (distributed beam loads)."""

    def __init__(self, name, vector, function=1.0):
        super().__init__(name, vector)
        self.function = as_time_function(function, f"load '{name}'")

    def bind(self, n):
        super().bind(n)
        if self.vector.size < n:   # nodes added after the load: pad with zeros
            self.vector = np.concatenate([self.vector, np.zeros(n - self.vector.size)])

    def force(self, q, v, t):
        return self.function.value(t) * self.vector


class JointTorque(Load):
    """Actuator torque T(t) (N·m) in a revolute joint, acting on B (and −T on A) about the
    axis: Q = T ∂θ/∂q by virtual power, K = −T ∂²θ/∂q² (see :class:`~femdyn.model.vectorfunctions.Angle`)."""

    def __init__(self, name, revolute, function):
        self.name, self.revolute = name, revolute
        self.function = as_time_function(function, f"joint torque '{name}'")

    def bind(self, n):
        self.n = n
        a, b, u, _ = self.revolute.angle_vectors()
        self.group = FunctionGroup(Angle, [(a, b, u)], np.zeros((1, 3)), Targets([0.0], [None]), n)
        self.k_rows, self.k_cols = self.group.h_rows, self.group.h_cols

    def force(self, q, v, t):
        _, grad_values = self.group.evaluate(q, t)
        Q = np.zeros(self.n)
        np.add.at(Q, self.group.cols, self.function.value(t) * grad_values)
        return Q

    def stiffness_values(self, q, v, t):
        return self.group.hessian_values(q, np.array([-self.function.value(t)]))
