"""Actuators with unknown inputs and servo constraints: inverse dynamics in the DAE.

A servo constraint prescribes where a material point goes, Ψ(q, t) = 0 (one row per
prescribed direction); an actuator is a joint drive whose input u (a torque in N·m or a
force in N) is unknown and acts through Q_u = B(q)ᵀu. Together they form the extended
index-3 DAE of servo-constraint inverse dynamics (Blajer & Kołodziejczyk 2004, Multibody
Syst. Dyn. 11:343–364, eqs. 1–3; Liu et al. 2018 for the 3-RRRU robot):

    M q̈ + Φ_qᵀλ − Bᵀu = Q,   Φ(q, t) = 0,   Ψ(q, t) = 0.

The inputs take the multiplier slots of the servo rows (input k ↔ the k-th servo row in
model order), so the same generalized-α iteration solves for (q, λ, u); the iteration
matrix is [[A, Φ_qᵀ, −Bᵀ], [Φ_q, 0, 0], [Ψ_q, 0, 0]], unsymmetric unless B = −Ψ_q
(collocated). Rigid manipulators and collocated actuation give an index-3 problem;
flexible links between the actuators and the prescribed point (non-collocated) raise the
differentiation index of the inverse problem to 5 for the elastic coordinates (Seifried &
Blajer 2013, Multibody Syst. Dyn. 29:437–459), which generalized-α tolerates with
numerical damping (ρ∞ ≤ 0.9) and steps that resolve the first elastic modes.
"""
import numpy as np

from ..errors import ModelError
from .constraints import Equation
from .joints import Joint, Prismatic, Revolute, _unit
from ..motion.timefunctions import as_time_function
from .protocol import Inputs
from .sensors import ActuatorSensor
from .vectorfunctions import Angle, Dot, FunctionGroup, Linear, Targets


class Actuator(Inputs):
    """A joint drive with one unknown input: the torque (N·m) of a revolute joint on body B
    about its axis (−u on A), or the force (N) of a prismatic joint on B along its axis.
    """

    inputs = 1

    def __init__(self, name, joint):
        self.name, self.joint = name, joint
        if isinstance(joint, Revolute):
            a, b, axis, _ = joint.angle_vectors()
            self.kind, self.quantity, self.exprs = Angle, "torque", (a, b, axis)
        elif isinstance(joint, Prismatic):
            w = joint.body_a.material_vector(joint.axis)
            pa, pb = joint.body_a.material_point(joint.point), joint.body_b.material_point(joint.point)
            self.kind, self.quantity, self.exprs = Dot, "force", (pb - pa, w)
        else:
            raise ModelError(f"actuator '{name}': joint '{joint.name}' is a {joint.kind}; actuators drive revolute "
                             "(torque) or prismatic (force) joints")

    def bind(self, n):
        self.n = n
        self.group = FunctionGroup(self.kind, [self.exprs], np.zeros((1, 3)), Targets([0.0], [None]), n)

    def input_pattern(self):
        return self.group.cols

    def input_values(self, q):
        return self.group.evaluate(q, 0.0)[1]

    def input_hessian_pattern(self):
        return self.group.h_rows, self.group.h_cols

    def input_hessian_values(self, q, u):
        return self.group.hessian_values(q, np.array([u]))


class Servo(Joint):
    """Servo constraint: the material point ``expr`` of ``body`` follows the prescribed
    path, d_k·r(q) = f_k(t) for each direction d_k (m). Its rows carry actuator inputs,
    not multipliers (see the module docstring).
    """

    kind = "servo"
    servo = True

    def __init__(self, name, body, expr, functions, directions):
        super().__init__(name, body, body)
        if len(functions) != len(directions):
            raise ModelError(f"servo '{name}': {len(functions)} functions for {len(directions)} directions; give "
                             "one time function per prescribed direction")
        self._equations = [Equation(Linear, (expr,), _unit(d, f"servo '{name}' direction {k}"), 0.0, f,
                                    f"{name}: {'xyz'[k] if k < 3 else k}")
                           for k, (f, d) in enumerate(zip(functions, directions))]


class ActuatorBuilder:
    """The actuator constructors of :class:`~femdyn.model.Model` (``m.actuator``, ``m.servo``)."""

    def actuator(self, name, joint):
        """An actuator with an unknown input in a revolute (torque, N·m, on body B about the
        axis) or prismatic joint (force, N, on B along the axis), solved together with the
        motion by servo-constraint inverse dynamics (see :meth:`servo`); its input is the
        result channel ``<name>.torque`` or ``<name>.force``.

        Parameters
        ----------
        name : str
            Unique part name; names the result channel.
        joint : str or Joint
            A revolute or prismatic joint of this model; the input acts on its
            ``body_b`` (−u on ``body_a``).

        Returns
        -------
        femdyn.model.actuators.Actuator

        Raises
        ------
        ModelError
            If the joint is unknown or neither revolute nor prismatic.

        Examples
        --------
        See :meth:`servo` for a complete inverse-dynamics model.

        >>> from femdyn.model import Model
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
        >>> m.actuator("motor", "pivot").quantity
        'torque'
        """
        if isinstance(joint, str):
            if joint not in self.joints:
                raise ModelError(f"actuator '{name}': unknown joint '{joint}'; known joints: {sorted(self.joints)}")
            joint = self.joints[joint]
        actuator = self.add(Actuator(name, joint))
        self.add_sensor(ActuatorSensor(name, actuator))
        return actuator

    def servo(self, name, body, point, functions, directions=np.eye(3)):
        """Servo constraint: the material point of ``body`` at ``point`` (m, initial
        configuration) follows prescribed coordinates d_k·r = f_k(t) (m), one row per
        direction d_k (default the global x, y, z). Every servo row needs one actuator
        (:meth:`actuator`); their inputs are then unknowns of the DAE (inverse dynamics,
        Blajer & Kołodziejczyk 2004).

        Parameters
        ----------
        name : str
            Unique joint name.
        body : str or body
            A body, or an ANCF node (its frame).
        point : array_like (3,)
            The material point, in m, global frame, at its initial position.
        functions : sequence of TimeFunction or float
            One per direction: the prescribed coordinate d_k·r in m (absolute, so
            f_k(0) should be d_k·point).
        directions : array_like (k, 3)
            Unit directions of the prescribed coordinates (global axes).

        Returns
        -------
        femdyn.model.actuators.Servo

        Raises
        ------
        ModelError
            If the numbers of functions and directions differ, a direction is zero, or
            the point lies outside the body's span. A System whose servo rows and
            actuators do not pair up is refused by :meth:`assemble`.

        Examples
        --------
        Inverse dynamics of a 1 kg rod on a motor: its tip height follows 0.1 sin t; at
        t = 0 the motor holds the weight, −m g L/2 about +y:

        >>> from femdyn.model import Model
        >>> from femdyn.motion import Sine
        >>> from femdyn.solvers.generalized_alpha import integrate
        >>> m = Model("arm")
        >>> rod = m.rigid_beam("arm", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
        >>> _ = m.actuator("motor", "pivot")
        >>> _ = m.servo("tip", "arm", (1.0, 0, 0), [Sine(0.1, 1.0)], [(0, 0, 1)])
        >>> results = integrate(m.assemble(), t_end=0.02, h=0.01)
        >>> round(float(results["motor.torque"][0]), 4)
        -4.905
        """
        body = self.body(body)
        functions = [as_time_function(f, f"servo '{name}' function {k}") for k, f in enumerate(functions)]
        return self._add_joint(Servo(name, body, body.material_point(point), functions, np.atleast_2d(directions)))
