"""The model builder: :class:`Model`, the registry of nodes and parts.

Each family's constructors live beside its parts (:mod:`.nodes`, :mod:`.bodies`, :mod:`.flexible`,
:mod:`.floating_frame`, :mod:`.joints`, :mod:`.actuators`, :mod:`.loads`, :mod:`.springs`, :mod:`.sensors`,
:mod:`.point_mass`, :mod:`.rotational_springs`, :mod:`.bushings`, :mod:`.forcelaws`, :mod:`.clearance`,
:mod:`.drives`) and :class:`Model` inherits them. Ground coordinates stay in q, fixed by constraints (Liu et al. 2018).
"""
import copy

import numpy as np

from ..errors import ModelError
from ..input_checks import refuse_non_finite, vector3
from .actuators import ActuatorBuilder
from .bushings import BushingBuilder
from .clearance import ClearanceBuilder
from .bodies import BodyBuilder, Ground
from .drives import DriveBuilder
from .checks import check_finite_parts, check_units
from .flexible import BeamBuilder, NodeFrame
from .forcelaws import ForceSensorBuilder
from .floating_frame import FloatingFrameBuilder
from .joints import JointBuilder
from .loads import LoadBuilder
from .nodes import Node, NodeBuilder
from .point_mass import PointMassBuilder
from .protocol import Body, Constraint, Part, Sensor, check
from .rotational_springs import RotationalSpringBuilder
from .sensors import SensorBuilder
from .springs import SpringBuilder
from .system import System


class Model(NodeBuilder, BodyBuilder, PointMassBuilder, BeamBuilder, FloatingFrameBuilder, JointBuilder,
            ActuatorBuilder, LoadBuilder, SpringBuilder, RotationalSpringBuilder, BushingBuilder, SensorBuilder,
            ForceSensorBuilder, ClearanceBuilder, DriveBuilder):
    """Builder of a multibody model; :meth:`assemble` freezes it into a :class:`System`.

    Nodes own the coordinates q; bodies, element sets, joints, loads and sensors refer to nodes
    and are added by name. Geometry (points, axes, directions) is given in m, global frame,
    initial configuration (docs/conventions.md). Each constructor returns the node or part it
    adds and raises :class:`~femdyn.errors.ModelError` (:class:`~femdyn.errors.NonFiniteError`
    for NaN) on invalid input or a name already taken, the message naming the value.

    Parameters
    ----------
    name : str, optional
        Model name, used in summaries and error messages.
    gravity : (3,) array_like, optional
        Gravitational acceleration, m/s² (default −9.81 along z).

    Examples
    --------
    >>> import femdyn
    >>> m = femdyn.Model("pendulum", gravity=(0, 0, -9.81))
    >>> O, A = m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0))
    >>> rod = m.rigid_beam("rod", O, A, mass=1.0)
    >>> _ = m.revolute("pivot", "ground", rod, point=(0, 0, 0), axis=(0, 1, 0))
    >>> m.assemble().degrees_of_freedom()
    1
    """

    def __init__(self, name="model", gravity=(0.0, 0.0, -9.81)):
        self.name = name
        self.gravity = vector3(gravity, f"model '{name}': gravity (m/s²)")
        self.ground = Ground()
        self.nodes, self.bodies, self.joints, self.loads, self.sensors = {}, {}, {}, [], []
        self.elements, self.parts = [], []
        self.size = 0
        self.velocities = {}

    def add_node(self, name, kind, values):
        """Add a node of any registered kind; :meth:`point`, :meth:`vector`, … are the checked shortcuts.

        Parameters
        ----------
        name : str
            Node name; names the coordinates (``<name>.rx`` …) in results.
        kind : str
            A registered node kind ("point", "vector", "cable", "beam", "director", …).
        values : array_like
            Initial coordinates, 3 per slot of the kind.
        """
        if name in self.nodes:
            raise ModelError(f"node '{name}' exists already; node names must be unique")
        values = np.asarray(values, float)
        refuse_non_finite(values, f"node '{name}': coordinates")
        node = Node(name, kind, values, self.size)
        self.size += node.initial.size
        self.nodes[name] = node
        return node

    def node(self, name):
        """Look up a node by name (a Node is returned as it is).

        Parameters
        ----------
        name : str or femdyn.model.nodes.Node
        """
        try:
            return self.nodes[name] if isinstance(name, str) else name
        except KeyError:
            raise ModelError(f"unknown node '{name}'; known nodes: {sorted(self.nodes)}") from None

    def body(self, name):
        """Look up what a joint can act on: a body, the ground, or an ANCF node's frame.

        Parameters
        ----------
        name : str, body or femdyn.model.nodes.Node
            A body name, "ground", an ANCF node's name, or the object itself.
        """
        if isinstance(name, Node):
            return NodeFrame(name)
        if not isinstance(name, str):
            return name
        if name in self.nodes and self.nodes[name].is_frame:
            return NodeFrame(self.nodes[name])
        if name == "ground":
            return self.ground
        try:
            return self.bodies[name]
        except KeyError:
            raise ModelError(f"unknown body '{name}'; known bodies: {sorted(self.bodies)}") from None

    def _add_body(self, body):
        """Register a body (a :class:`~femdyn.model.protocol.Body`) under its unique name."""
        check(body, Body, "body")
        if body.name in self.bodies or body.name == "ground":
            raise ModelError(f"body '{body.name}' exists already; body names must be unique")
        self.bodies[body.name] = body
        return body

    def element_set(self, name):
        """Look up an ANCF element set by name.

        Parameters
        ----------
        name : str
            The name given to :meth:`ancf_beam` or the mesh helpers.
        """
        for e in self.elements:
            if e.name == name:
                return e
        raise ModelError(f"unknown ANCF beam '{name}'; known: {[e.name for e in self.elements]}")

    def _add_joint(self, joint):
        """Register a joint (a :class:`~femdyn.model.protocol.Constraint`) under its unique name."""
        check(joint, Constraint, "joint")
        if joint.name in self.joints:
            raise ModelError(f"joint '{joint.name}' exists already; joint names must be unique")
        self.joints[joint.name] = joint
        return joint

    def _add_load(self, load):
        """Register a load (a :class:`~femdyn.model.protocol.Part`, usually ``applied``)."""
        self.loads.append(check(load, Part, "load"))
        return load

    def _add_element(self, element_set):
        """Register an element set (a :class:`~femdyn.model.protocol.Part`)."""
        self.elements.append(check(element_set, Part, "element set"))
        return element_set

    def add_sensor(self, sensor):
        """Add a sensor made elsewhere that follows the sensor contract (:class:`~femdyn.model.protocol.Sensor`).

        Parameters
        ----------
        sensor : femdyn.model.protocol.Sensor
            Its ``name`` prefixes its channels and must be unique.
        """
        check(sensor, Sensor, "sensor")
        if any(s.name == sensor.name for s in self.sensors):
            raise ModelError(f"sensor '{sensor.name}' exists already; sensor names must be unique (they name "
                             "the result channels)")
        self.sensors.append(sensor)
        return sensor

    def set_velocity(self, node, velocity):
        """Set the initial velocity guess of a node's coordinates (the solver makes it consistent).

        Parameters
        ----------
        node : str or Node
        velocity : array_like
            One value per coordinate of the node.
        """
        node = self.node(node)
        v = np.asarray(velocity, float) if np.size(velocity) == node.initial.size else None
        if v is None:
            raise ModelError(f"initial velocity of node '{node.name}': expected {node.initial.size} finite numbers "
                             f"(one per coordinate), got {velocity!r}")
        refuse_non_finite(v, f"initial velocity of node '{node.name}'")
        self.velocities[node.name] = v.reshape(node.initial.shape)

    def set_rigid_velocity(self, body, omega, velocity=(0, 0, 0), reference=None):
        """Set the initial velocities of a body's nodes from a rigid motion.

        Points get ṗ = v + ω × (p − r_ref), unit vectors u̇ = ω × u.

        Parameters
        ----------
        body : str or body
        omega : (3,) array_like
            Angular velocity ω, rad/s.
        velocity : (3,) array_like, optional
            Velocity v of the reference point, m/s.
        reference : (3,) array_like, optional
            r_ref, m (default the body's first point).
        """
        body = self.body(body)
        omega = vector3(omega, f"rigid velocity of '{body.name}': omega (rad/s)")
        velocity = vector3(velocity, f"rigid velocity of '{body.name}': velocity (m/s)")
        ref = body.points[0].initial if reference is None else vector3(reference, f"rigid velocity of '{body.name}': "
                                                                                  "reference (m)")
        for p in body.points:
            self.velocities[p.name] = velocity + np.cross(omega, p.initial - ref)
        for u in body.vectors:
            self.velocities[u.name] = np.cross(omega, u.initial)

    def initial_coordinates(self):
        """(q0, v0): initial coordinates in node order and velocity guesses (0 where none was set)."""
        q, v = np.zeros(self.size), np.zeros(self.size)
        for node in self.nodes.values():
            q[node.start:node.start + node.initial.size] = node.initial
            if node.name in self.velocities:
                v[node.start:node.start + node.initial.size] = self.velocities[node.name]
        return q, v

    def add(self, part):
        """Add any part that follows the part contract (:class:`~femdyn.model.protocol.Part`), e.g. a new kind.

        Parameters
        ----------
        part : femdyn.model.protocol.Part
            Its ``name`` must be unique among the added parts.
        """
        check(part, Part)
        if any(p.name == part.name for p in self.parts):
            raise ModelError(f"part '{part.name}' exists already; part names must be unique")
        self.parts.append(part)
        return part

    def assemble(self):
        """Freeze the model into a :class:`~femdyn.model.system.System`.

        The System gets its own copy of every node, part and sensor: editing this Model or
        assembling it again afterwards never changes a System assembled before.
        """
        system = System(copy.deepcopy(self))
        check_finite_parts(system)
        check_units(system)
        return system
