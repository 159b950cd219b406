"""Actuators with unknown inputs and servo constraints: inverse dynamics in the DAE.

An input u (N·m or N) acts through Q_u = B(q)ᵀu in the multiplier slot of a servo row Ψ(q, t) = 0
(Blajer & Kołodziejczyk 2004, eqs. 1–3); the extended DAE and its index: docs/inversion.md.
"""
import numpy as np

from ..errors import ModelError
from .constraints import Equation
from .joints import Joint, Prismatic, Revolute
from ..motion.timefunctions import as_time_function
from ..input_checks import unit_vector
from ..motion.poses import as_pose_trajectory
from .pose_servo import PoseServo
from .protocol import Inputs
from .sensors import ActuatorSensor
from .vectorfunctions import Angle, Dot, FunctionGroup, Linear, Targets


class Actuator(Inputs):
    """A joint drive with one unknown input: torque (N·m) of a revolute or force (N) of a prismatic joint, on B."""

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
    """Servo constraint: the point ``expr`` of ``body`` follows d_k·r(q) = f_k(t), m; its rows carry actuator inputs."""

    kind = "servo"
    servo = True

    def __init__(self, name, body, expr, functions, directions):
        super().__init__(name, body, body)
        if len(functions) != len(directions):
            raise ModelError(f"servo '{name}': {len(functions)} functions for {len(directions)} directions; give "
                             "one time function per prescribed direction")
        self._equations = [Equation(Linear, (expr,), unit_vector(d, f"servo '{name}' direction {k}"), 0.0, f,
                                    f"{name}: {'xyz'[k] if k < 3 else k}")
                           for k, (f, d) in enumerate(zip(functions, directions))]


class ActuatorBuilder:
    """The actuator constructors of :class:`~femdyn.model.Model` (``m.actuator``, ``m.servo``, ``m.servo_pose``)."""

    def actuator(self, name, joint):
        """Add an actuator with an unknown input in a revolute (torque, N·m) or prismatic (force, N) joint.

        The input acts on ``body_b`` (−u on ``body_a``), is solved with the motion (:meth:`servo`) and
        recorded as ``<name>.torque`` or ``<name>.force``.

        Parameters
        ----------
        name : str
        joint : str or Joint
            A revolute or prismatic joint of this model.
        """
        if isinstance(joint, str):
            if joint not in self.joints:
                raise ModelError(f"actuator '{name}': unknown joint '{joint}'; known joints: {sorted(self.joints)}")
            joint = self.joints[joint]
        actuator = self.add(Actuator(name, joint))
        self.add_sensor(ActuatorSensor(name, actuator))
        return actuator

    def servo(self, name, body, point, functions, directions=np.eye(3)):
        """Add a servo constraint: a material point follows d_k·r = f_k(t), m, one row per direction d_k.

        Every servo row needs one :meth:`actuator`; their inputs become unknowns of the DAE
        (Blajer & Kołodziejczyk 2004; docs/inversion.md).

        Parameters
        ----------
        name : str
        body : str or body
            A body, or an ANCF node.
        point : array_like (3,)
            The material point, m.
        functions : sequence of TimeFunction or float
            One per direction, absolute (f_k(0) should be d_k·point), m.
        directions : array_like (k, 3)
            Unit directions (default global x, y, z).
        """
        body = self.body(body)
        functions = [as_time_function(f, f"servo '{name}' function {k}") for k, f in enumerate(functions)]
        return self._add_joint(Servo(name, body, body.material_point(point), functions, np.atleast_2d(directions)))

    def servo_pose(self, name, body, point, trajectory, frame=None, anchor=None, rows=None):
        """Add a servo constraint on a rigid body's pose: a material point and the body's orientation.

        Six rows, ``<name>: x, y, z`` (the point's global coordinates, m) and ``<name>: rx, ry, rz``
        (the orientation), each needing one :meth:`actuator` (Blajer & Kołodziejczyk 2004;
        docs/inversion.md, "Prescribing a body's pose"). The body frame is the global frame carried
        along with the body (its axes are the global axes in the configuration the model is built
        in); the servo makes its orientation R_b(t) = exp([φ(t)]×) F, F = ``frame``, φ = (rx, ry, rz)
        the rotation vector (axis × angle, rad, global). The orientation rows are regular within 90°
        of the anchor orientation; a prescribed orientation more than ``LIMIT_ANGLE`` = 80° from it
        may raise ModelError (femdyn.model.pose_servo).

        Parameters
        ----------
        name : str
        body : str or body
            A full rigid body (three material directions: 2 points + 2 vectors, 3 points + 1 vector, …)
            or a beam node with a full frame.
        point : array_like (3,)
            The material point whose position is prescribed, m, global, as built.
        trajectory : PoseTrajectory, callable, state function or sequence of 6
            The pose (x, y, z in m, rx, ry, rz in rad) in time, see
            :func:`~femdyn.motion.as_pose_trajectory`; its value at t = 0 should be the body's pose
            as built (point at ``point``, exp([φ(0)]×) F = 1).
        frame : array_like (3, 3) or (3,), optional
            F, the body frame's orientation at φ = 0 relative to the as-built one: a rotation matrix
            or a rotation vector (rad). Default: identity (φ = 0 is the as-built orientation).
        anchor : array_like (3,), optional
            Rotation vector (rad) of the orientation exp([anchor]×) F about which the orientation
            rows are built (their directions); default φ(0). Centre it between the extreme
            orientations of a large rotation.
        rows : sequence of str, optional
            The rows to keep, among "x", "y", "z", "rx", "ry", "rz" (default all six): a robot of lower
            mobility prescribes its task coordinates only (a planar robot x, y, rz), one actuator per row.

        Returns
        -------
        PoseServo

        Raises
        ------
        ModelError
            A body without three material directions, a bad trajectory, frame or anchor; while
            solving, an orientation more than 80° from the anchor where the rows are near-singular.

        Examples
        --------
        >>> import femdyn
        >>> from femdyn.motion import PoseTrajectory, Sine
        >>> m = femdyn.Model("pose")
        >>> nodes = [m.point("C", (0, 0, 1.0)), m.point("A", (0.5, 0, 1.0)), m.vector("u", (0, 1, 0)),
        ...          m.vector("w", (0, 0, 1))]
        >>> plate = m.rigid_body("plate", nodes[:2], nodes[2:], mass=2.0, inertia=0.1 * np.eye(3))
        >>> pose = PoseTrajectory([0.0, 0.0, Sine(0.05, 3.0, offset=1.0)], [0.0, 0.0, Sine(0.2, 3.0)])
        >>> servo = m.servo_pose("platform", plate, (0, 0, 1.0), pose)
        >>> [e.label for e in servo.equations()]
        ['platform: x', 'platform: y', 'platform: z', 'platform: rx', 'platform: ry', 'platform: rz']
        """
        body = self.body(body)
        pose = as_pose_trajectory(trajectory, f"pose servo '{name}': trajectory")
        return self._add_joint(PoseServo(name, body, point, pose, frame, anchor, rows))
