"""Applied generalized forces Q(q, v, t) and their tangents.

Sign convention: Q enters M q̈ + Φ_qᵀλ = Q; the tangent returned is the stiffness
K = −∂Q/∂q (and C = −∂Q/∂v), as COO values on a fixed pattern. Forces in N, torques
in N·m, positions in m.
"""
import numpy as np

from ..motion.timefunctions import as_time_function
from ..validation import vector3
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
    """A force F·f(t) (N, global components) at a material point: Q = Cᵀ F f(t).

    C = ∂r/∂q is the constant Jacobian of the material point, so the load has no
    stiffness.
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
    axis: Q = T ∂θ/∂q by virtual power, K = −T ∂²θ/∂q² (see :class:`~femdyn.model.vectorfunctions.Angle`).
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


class LoadBuilder:
    """The load constructors of :class:`~femdyn.model.Model` (``m.torque``, ``m.force``, beam loads)."""

    def torque(self, name, revolute, function):
        """Apply a prescribed torque T(t) in a revolute joint.

        T acts on ``body_b`` of the joint about its axis and −T on ``body_a``; a
        positive T drives the joint angle up (:meth:`revolute`). Generalized force
        Q = T ∂θ/∂q by virtual power, with its stiffness −T ∂²θ/∂q².

        Parameters
        ----------
        name : str
            Load name.
        revolute : str or femdyn.model.joints.Revolute
            The revolute joint of this model.
        function : TimeFunction, float or callable
            T(t), N·m.

        Returns
        -------
        femdyn.model.loads.JointTorque

        Raises
        ------
        ModelError
            If ``revolute`` is not a revolute joint of the model or ``function`` is not
            a function of time.

        Examples
        --------
        >>> from femdyn.model import Model
        >>> m = Model(gravity=(0, 0, 0))
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=3.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 0, 1))
        >>> _ = m.torque("motor", "pivot", 1.0)                 # 1 N·m about +z
        >>> system = m.assemble()
        >>> float(system.forces(system.q0, system.v0, 0.0)[4])      # on A.y: T/L = 1 N
        1.0
        """
        return self._add_load(JointTorque(name, self._revolute(revolute), function))

    def force(self, name, body, point, force, function=1.0):
        """Apply a force F·f(t) at a material point of a body: Q = Cᵀ F f(t).

        The force keeps its global direction as the body moves (no follower load).

        Parameters
        ----------
        name : str
            Load name.
        body : str or body
            The body (or "ground", or an ANCF node).
        point : (3,) array_like
            Point of application, m, global frame, initial configuration (a material
            point of the body).
        force : (3,) array_like
            F, N, global frame.
        function : TimeFunction, float or callable, optional
            Dimensionless scale f(t) (default 1).

        Returns
        -------
        femdyn.model.loads.PointForce

        Raises
        ------
        ModelError
            If the point lies outside the body's span or a value is malformed.

        Examples
        --------
        >>> from femdyn.model import Model
        >>> m = Model(gravity=(0, 0, 0))
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> _ = m.force("push", rod, (0.25, 0, 0), (0, 0, 4.0))
        >>> system = m.assemble()
        >>> system.forces(system.q0, system.v0, 0.0).tolist()   # shared 3:1 by O and A
        [0.0, 0.0, 3.0, 0.0, 0.0, 1.0]
        """
        return self._add_load(PointForce(name, self.body(body).material_point(point),
                                          vector3(force, f"force '{name}' (N)"), function))

    def beam_load(self, name, beam, load, function=1.0):
        """Apply a distributed load w·f(t) per unit reference length along an ANCF beam.

        Q = ∫ Sᵀ w dx f(t), i.e. the kernel's gravity vector for w/(ρA); the load keeps
        its global direction.

        Parameters
        ----------
        name : str
            Load name.
        beam : str or femdyn.model.flexible.ElementSet
            The element set.
        load : (3,) array_like
            w, N/m, global frame; a planar cable also takes the two in-plane
            components (x, y).
        function : TimeFunction, float or callable, optional
            Dimensionless scale f(t) (default 1).

        Returns
        -------
        femdyn.model.loads.ScaledForce

        Raises
        ------
        ModelError
            If the beam is unknown or the load malformed.

        Examples
        --------
        >>> from femdyn.model import Model
        >>> from femdyn.elements import sections
        >>> m = Model(gravity=(0, 0, 0))
        >>> _ = m.straight_beam("b", (0, 0, 0), (2.0, 0, 0), 4, 2e11, 7800.0, sections.circular(0.01))
        >>> _ = m.beam_load("wind", "b", (0, 0, -10.0))
        >>> system = m.assemble()
        >>> round(float(system.forces(system.q0, system.v0, 0.0)[2::6].sum()), 9)   # total: w L
        -20.0
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
            Load name.
        beam : str or femdyn.model.flexible.ElementSet
            The element set.
        element : int
            Element index, 0 … count − 1.
        xi : float
            ξ ∈ [0, 1] along the element.
        force : (3,) array_like
            F, N, global frame; a planar cable also takes (x, y).
        function : TimeFunction, float or callable, optional
            Dimensionless scale f(t) (default 1).

        Returns
        -------
        femdyn.model.loads.PointForce

        Raises
        ------
        ModelError
            If the position is out of range or the force malformed.

        Examples
        --------
        >>> from femdyn.model import Model
        >>> from femdyn.elements import sections
        >>> m = Model(gravity=(0, 0, 0))
        >>> _ = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
        >>> _ = m.beam_force("tip", "b", 1, 1.0, (0, 0, -5.0))
        >>> system = m.assemble()
        >>> float(system.forces(system.q0, system.v0, 0.0)[system.nodes["b.2"].dofs[2]])
        -5.0
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
