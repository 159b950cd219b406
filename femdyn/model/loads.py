"""Applied generalized forces Q(q, v, t), entering M q̈ + Φ_qᵀλ = Q, with K = −∂Q/∂q on a fixed pattern."""
import numpy as np

from ..errors import ModelError

from ..input_checks import vector3
from ..motion.timefunctions import as_time_function
from .joints import Prismatic
from .protocol import EMPTY, EMPTY_INT, Part
from .vectorfunctions import Angle, Dot, FunctionGroup, Targets


class Load(Part):
    """Base class of applied loads (scaled by the statics load factor); ``k_rows``, ``k_cols``: pattern of K."""

    name = "load"
    applied = True

    def bind(self, n):
        self.n = n
        self.k_rows = self.k_cols = np.zeros(0, int)

    def force(self, q, v, t):
        raise NotImplementedError

    def stiffness_values(self, q, v, t):
        """Values of K = −∂Q/∂q on (``k_rows``, ``k_cols``); empty for a constant load."""
        return np.zeros(0)

    def tangent_pattern(self):
        return self.k_rows, self.k_cols, EMPTY_INT, EMPTY_INT

    def tangent_values(self, q, v, t):
        return self.stiffness_values(q, v, t), EMPTY


class PointForce(Load):
    """A force F·f(t) (N, global components) at a material point: Q = Cᵀ F f(t)."""

    def __init__(self, name, expr, force, function=1.0):
        self.name, self.expr = name, expr
        self.F = np.asarray(force, float).reshape(3)
        self.function = as_time_function(function, f"point force '{name}'")

    def bind(self, n):
        super().bind(n)
        rows, cols, vals = self.expr.coo(0)
        self.cols, self.coef, self.comp = cols, vals, rows

    def force(self, q, v, t):
        return np.bincount(self.cols, weights=self.coef * self.F[self.comp] * self.function.value(t), minlength=self.n)


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
    """Torque T(t) (N·m) in a revolute joint, on B (−T on A): Q = T ∂θ/∂q, K = −T ∂²θ/∂q²."""

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
        return np.bincount(self.group.cols, weights=self.function.value(t) * grad_values, minlength=self.n)

    def stiffness_values(self, q, v, t):
        return self.group.hessian_values(q, np.array([-self.function.value(t)]))



class JointForce(JointTorque):
    """Force F(t) (N) in a prismatic joint along its axis, on B (−F on A): Q = F ∂s/∂q, K = −F ∂²s/∂q²,
    s = (p_B − p_A)·w the slide (w the axis carried by A)."""

    def __init__(self, name, prismatic, function):
        self.name, self.prismatic = name, prismatic
        self.function = as_time_function(function, f"joint force '{name}'")

    def bind(self, n):
        self.n = n
        self.group = FunctionGroup(Dot, [self.prismatic.slide_vectors()], np.zeros((1, 3)), Targets([0.0], [None]), n)
        self.k_rows, self.k_cols = self.group.h_rows, self.group.h_cols

class LoadBuilder:
    """The load constructors of :class:`~femdyn.model.Model` (``m.torque``, ``m.force``, beam loads)."""

    def torque(self, name, revolute, function):
        """Apply a torque T(t) in a revolute joint: on ``body_b`` about the axis, −T on ``body_a``; Q = T ∂θ/∂q.

        Parameters
        ----------
        name : str
        revolute : str or femdyn.model.joints.Revolute
        function : TimeFunction, float or callable
            T(t), N·m.
        """
        return self._add_load(JointTorque(name, self._revolute(revolute), function))

    def joint_force(self, name, prismatic, function):
        """Apply a force F(t) in a prismatic joint: on ``body_b`` along the axis, −F on ``body_a``; Q = F ∂s/∂q.

        Parameters
        ----------
        name : str
        prismatic : str or femdyn.model.joints.Prismatic
        function : TimeFunction, float or callable
            F(t), N, positive where it pushes ``body_b`` along the axis.

        Examples
        --------
        >>> import femdyn
        >>> m = femdyn.Model("slider", gravity=(0, 0, 0))
        >>> block = m.rigid_body("block", [m.point("P", (0, 0, 0))], [m.vector("u", (1, 0, 0)),
        ...                      m.vector("v", (0, 1, 0))], mass=2.0)
        >>> _ = m.prismatic("rail", "ground", block, (0, 0, 0), (1, 0, 0))
        >>> _ = m.joint_force("push", "rail", 4.0)
        >>> from femdyn.solvers import integrate
        >>> res = integrate(m.assemble(), 1.0, 0.01)
        >>> round(float(res.q[-1, 0]), 6)        # x = F t² / 2m
        1.0
        """
        joint = self.joints.get(prismatic, prismatic) if isinstance(prismatic, str) else prismatic
        if not isinstance(joint, Prismatic):
            raise ModelError(f"joint force '{name}': '{getattr(joint, 'name', joint)}' is not a prismatic joint of "
                             "this model; a revolute takes a torque (Model.torque)")
        return self._add_load(JointForce(name, joint, function))

    def force(self, name, body, point, force, function=1.0):
        """Apply a force F·f(t) of fixed global direction at a material point of a body: Q = Cᵀ F f(t).

        Parameters
        ----------
        name : str
        body : str or body
            The body (or "ground", or an ANCF node).
        point : (3,) array_like
            Point of application, m.
        force : (3,) array_like
            F, N.
        function : TimeFunction, float or callable, optional
            Dimensionless scale f(t) (default 1).
        """
        return self._add_load(PointForce(name, self.body(body).material_point(point),
                                          vector3(force, f"force '{name}' (N)"), function))

    def beam_load(self, name, beam, load, function=1.0):
        """Apply a distributed load w·f(t) per unit reference length along an ANCF beam: Q = ∫ Sᵀ w dx f(t).

        Parameters
        ----------
        name : str
        beam : str or femdyn.model.flexible.ElementSet
        load : (3,) array_like
            w, N/m (a planar cable also takes (x, y)).
        function : TimeFunction, float or callable, optional
            Dimensionless scale f(t) (default 1).
        """
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        w = _beam_vector(beam, load, f"beam load '{name}' (N/m)")
        dofs, weight = beam.gravity(w)
        per_length = weight.reshape(beam.count, -1) / (beam.kernel.rho * beam.kernel.A)[:, None]
        Q = np.zeros(self.size)
        np.add.at(Q, dofs, per_length.ravel())
        return self._add_load(ScaledForce(name, Q, function))

    def beam_force(self, name, beam, element, xi, force, function=1.0):
        """Apply a force F·f(t) at a point of an ANCF beam's axis.

        Parameters
        ----------
        name : str
        beam : str or femdyn.model.flexible.ElementSet
        element : int
        xi : float
            ξ ∈ [0, 1] along the element.
        force : (3,) array_like
            F, N (a planar cable also takes (x, y)).
        function : TimeFunction, float or callable, optional
            Dimensionless scale f(t) (default 1).
        """
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        return self._add_load(PointForce(name, beam.material_point(element, xi),
                                          _beam_vector(beam, force, f"beam force '{name}' (N)"), function))


def _beam_vector(beam, value, what):
    """A load vector for an ANCF beam: 3 components, or (x, y) for a planar cable."""
    if beam.dim == 2 and np.ndim(value) == 1 and len(value) == 2:
        return vector3((*value, 0.0), what)
    if beam.dim == 2:
        what += " (a planar cable takes 2 components (x, y), or 3 with z = 0)"
    return vector3(value, what)
