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
    ``k_cols`` give the pattern of the stiffness K = −∂Q/∂q, possibly empty.

    Subclasses implement :meth:`force` and, for configuration-dependent loads,
    :meth:`stiffness_values` on the pattern (``k_rows``, ``k_cols``) set in ``bind``.
    """

    name = "load"
    applied = True

    def bind(self, n):
        """Store n and an empty stiffness pattern (a configuration-independent load).

        Parameters
        ----------
        n : int
            Number of coordinates of the System.
        """
        self.n = n
        self.k_rows = self.k_cols = np.zeros(0, int)

    def force(self, q, v, t):
        """The generalized load Q(q, v, t) (n,), N per unit of each coordinate.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and their velocities.
        t : float
            Time, s.

        Returns
        -------
        ndarray (n,)
        """
        raise NotImplementedError

    def stiffness_values(self, q, v, t):
        """Values of K = −∂Q/∂q on (``k_rows``, ``k_cols``); empty for a constant load.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and their velocities.
        t : float
            Time, s.

        Returns
        -------
        ndarray
        """
        return np.zeros(0)

    def tangent_pattern(self):
        return self.k_rows, self.k_cols, EMPTY_INT, EMPTY_INT

    def tangent_values(self, q, v, t):
        return self.stiffness_values(q, v, t), EMPTY


class PointForce(Load):
    """A force F·f(t) (N, global components) at a material point: Q = Cᵀ F f(t).

    C = ∂r/∂q is the constant Jacobian of the material point, so the load has no
    stiffness.

    Parameters
    ----------
    name : str
        Load name.
    expr : femdyn.model.nodes.Expr
        The material point.
    force : (3,) array_like
        F, N, global frame.
    function : TimeFunction, float or callable, optional
        Dimensionless scale f(t).
    """

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
    """A constant generalized force vector (gravity of every body and element).

    Parameters
    ----------
    name : str
        Load name.
    vector : ndarray (n,)
        Q, N per unit of each coordinate.
    """

    def __init__(self, name, vector):
        self.name, self.vector = name, np.asarray(vector, float)

    def force(self, q, v, t):
        return self.vector


class ScaledForce(ConstantForce):
    """A fixed generalized force vector scaled by f(t) (distributed beam loads).

    Parameters
    ----------
    name : str
        Load name.
    vector : ndarray
        Q at f = 1, N per unit of each coordinate (padded with zeros to n at ``bind``).
    function : TimeFunction, float or callable, optional
        Dimensionless scale f(t).
    """

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
    axis: Q = T ∂θ/∂q by virtual power, K = −T ∂²θ/∂q² (see :class:`~femdyn.model.vectorfunctions.Angle`).

    Parameters
    ----------
    name : str
        Load name.
    revolute : femdyn.model.joints.Revolute
        The joint; θ is the rotation of its body B relative to body A about the axis.
    function : TimeFunction, float or callable
        T(t), N·m.
    """

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
