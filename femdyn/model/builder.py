"""The model builder: nodes, bodies, joints, loads and sensors.

Typical use::

    m = Model("pendulum", gravity=(0, 0, -9.81))
    O, A = m.point("O", (0, 0, 0)), m.point("A", (1, 0, 0))
    rod = m.rigid_beam("rod", O, A, mass=1.0)
    m.revolute("pivot", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
    system = m.assemble()

Ground coordinates stay in q and are fixed by constraints (Liu et al. 2018 keeps known ground
coordinates in q "for convenience"); joints to ``m.ground`` use constant expressions and
need no ground nodes at all. SI units throughout.

Each family's constructors live beside its parts and :class:`Model` inherits them:
nodes (:mod:`.nodes`), rigid bodies (:mod:`.bodies`), ANCF beams (:mod:`.flexible`),
floating-frame bodies (:mod:`.floating_frame`), joints and drives (:mod:`.joints`),
actuators (:mod:`.actuators`), loads (:mod:`.loads`), springs (:mod:`.springs`) and
sensors (:mod:`.sensors`). The Model itself is the registry of nodes and parts: it checks
every part against the one contract of :mod:`.protocol`.
"""
import copy

import numpy as np

from ..errors import ModelError
from ..validation import refuse_non_finite, vector3
from .actuators import ActuatorBuilder
from .bodies import BodyBuilder, Ground
from .checks import check_finite_parts, check_units
from .flexible import BeamBuilder, NodeFrame
from .floating_frame import FloatingFrameBuilder
from .joints import JointBuilder
from .loads import LoadBuilder
from .nodes import Node, NodeBuilder
from .protocol import Body, Constraint, Part, Sensor, check
from .sensors import SensorBuilder
from .springs import SpringBuilder
from .system import System


class Model(NodeBuilder, BodyBuilder, BeamBuilder, FloatingFrameBuilder, JointBuilder, ActuatorBuilder,
            LoadBuilder, SpringBuilder, SensorBuilder):
    """Builder of a multibody model; :meth:`assemble` freezes it into a :class:`System`.

    Nodes own the coordinates q (NCF points and unit vectors, ANCF nodes); bodies,
    element sets, joints, loads and sensors refer to nodes and are added by name. All
    geometry (points, axes, directions) is given in the global frame in the initial
    configuration; SI units throughout.

    The Model is the registry of nodes and parts (:meth:`add_node`, :meth:`add`,
    :meth:`add_sensor`, :meth:`assemble`); each family's constructors come from the module
    of its parts: nodes (``point``, ``vector``, ``cable_node``, … in
    :mod:`~femdyn.model.nodes`), rigid bodies (``rigid_beam``, ``rigid_body``,
    ``triangle_platform``: :mod:`~femdyn.model.bodies`), ANCF beams (``ancf_beam``,
    ``straight_beam``, ``beam_through_points``, ``beam_from_mesh``:
    :mod:`~femdyn.model.flexible`), ``flexible_body`` (:mod:`~femdyn.model.floating_frame`),
    joints and drives (``fix``, ``clamp``, ``spherical``, ``revolute``, …:
    :mod:`~femdyn.model.joints`), ``actuator`` and ``servo``
    (:mod:`~femdyn.model.actuators`), loads (``torque``, ``force``, ``beam_load``,
    ``beam_force``: :mod:`~femdyn.model.loads`), ``spring`` (:mod:`~femdyn.model.springs`)
    and sensors (``sensor_point``, ``sensor_strain``, ``sensor_beam``, ``sensor_angle``,
    ``sensor_reaction``: :mod:`~femdyn.model.sensors`).

    Parameters
    ----------
    name : str, optional
        Model name, used in summaries and error messages.
    gravity : (3,) array_like, optional
        Gravitational acceleration, m/s², global frame (default −9.81 along z).

    Raises
    ------
    ModelError
        If ``gravity`` is not three finite numbers.

    Examples
    --------
    A rigid pendulum hinged to the ground about the global y axis:

    >>> import femdyn
    >>> m = femdyn.Model("pendulum", gravity=(0, 0, -9.81))
    >>> O, A = m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0))
    >>> rod = m.rigid_beam("rod", O, A, mass=1.0)
    >>> _ = m.fix(O)
    >>> _ = m.revolute("pivot", "ground", rod, point=(0, 0, 0), axis=(0, 1, 0))
    >>> system = m.assemble()
    >>> system.n, system.degrees_of_freedom()
    (6, 1)
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
        """Add a node of any registered kind (:func:`femdyn.model.nodes.register_node_kind`).

        :meth:`point`, :meth:`vector`, :meth:`cable_node`, :meth:`beam_node` and
        :meth:`director_node` are the checked shortcuts for the built-in kinds.

        Parameters
        ----------
        name : str
            Unique node name; names the coordinates (``<name>.rx`` …) in results.
        kind : str
            A registered node kind ("point", "vector", "cable", "beam", "director", …).
        values : array_like
            Initial coordinates, 3 per slot of the kind, global frame, SI units (m for
            positions, dimensionless for unit vectors and position gradients).

        Returns
        -------
        femdyn.model.nodes.Node
            The node; its coordinates are ``node.dofs`` of the global q.

        Raises
        ------
        ModelError
            If the name is taken, the kind unknown, or the values are not finite or of
            the wrong count.

        Examples
        --------
        >>> m = Model()
        >>> m.add_node("P", "point", (0.0, 0.0, 1.0)).dofs
        array([0, 1, 2])
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
            Node name, or the node itself.

        Returns
        -------
        femdyn.model.nodes.Node

        Raises
        ------
        ModelError
            If no node has that name.

        Examples
        --------
        >>> m = Model()
        >>> _ = m.point("O", (0, 0, 0))
        >>> m.node("O").start
        0
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
            A body name, "ground", the name of an ANCF node (cable, beam or director
            node: joints then act on its position and gradients), or the object itself.

        Returns
        -------
        NaturalBody, Ground or NodeFrame

        Raises
        ------
        ModelError
            If the name is neither a body, "ground" nor an ANCF node.

        Examples
        --------
        >>> m = Model()
        >>> m.body("ground").name
        'ground'
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

        Returns
        -------
        femdyn.model.flexible.ElementSet

        Raises
        ------
        ModelError
            If no element set has that name.
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
        """Add a sensor: any object that follows the sensor contract (:class:`~femdyn.model.protocol.Sensor`).

        The ``sensor_*`` methods make the built-in sensors; this adds one made elsewhere.

        Parameters
        ----------
        sensor : femdyn.model.protocol.Sensor
            Its ``name`` prefixes its channels and must be unique among the model's sensors.

        Returns
        -------
        femdyn.model.protocol.Sensor
            The sensor, as given.

        Raises
        ------
        ModelError
            If the sensor lacks ``bind``, ``measure`` or ``columns``, or its name is taken.
        """
        check(sensor, Sensor, "sensor")
        if any(s.name == sensor.name for s in self.sensors):
            raise ModelError(f"sensor '{sensor.name}' exists already; sensor names must be unique (they name "
                             "the result channels)")
        self.sensors.append(sensor)
        return sensor

    def set_velocity(self, node, velocity):
        """Set the initial velocity guess of a node's coordinates.

        The solver projects the initial velocities onto the velocity constraints
        (consistent initial conditions), so a guess that violates them is corrected.

        Parameters
        ----------
        node : str or Node
            The node.
        velocity : array_like
            One value per coordinate of the node (m/s for positions, 1/s for unit
            vectors and gradients), global frame.

        Raises
        ------
        ModelError
            If the count is wrong or a value is not finite.

        Examples
        --------
        >>> m = Model()
        >>> _ = m.point("P", (0, 0, 0))
        >>> m.set_velocity("P", (1.0, 0, 0))
        >>> m.initial_coordinates()[1].tolist()
        [1.0, 0.0, 0.0]
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
            The body.
        omega : (3,) array_like
            Angular velocity ω, rad/s, global frame.
        velocity : (3,) array_like, optional
            Velocity v of the reference point, m/s, global frame.
        reference : (3,) array_like, optional
            r_ref, m, global frame, initial configuration (default the body's first
            point).

        Raises
        ------
        ModelError
            If a vector is malformed or the body unknown.

        Examples
        --------
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> m.set_rigid_velocity(rod, omega=(0, 0, 2.0))
        >>> m.initial_coordinates()[1].tolist()       # A moves at ω × (1, 0, 0)
        [0.0, 0.0, 0.0, 0.0, 2.0, 0.0]
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
        """The initial coordinates and velocity guesses of all nodes.

        Returns
        -------
        q0 : ndarray (n,)
            The nodes' initial coordinates, in node order (``node.dofs``); SI units.
        v0 : ndarray (n,)
            Initial velocities set by :meth:`set_velocity` or :meth:`set_rigid_velocity`
            (0 elsewhere); not yet consistent with the constraints.

        Examples
        --------
        >>> m = Model()
        >>> _ = m.point("P", (1.0, 2.0, 3.0))
        >>> m.initial_coordinates()[0].tolist()
        [1.0, 2.0, 3.0]
        """
        q, v = np.zeros(self.size), np.zeros(self.size)
        for node in self.nodes.values():
            q[node.start:node.start + node.initial.size] = node.initial
            if node.name in self.velocities:
                v[node.start:node.start + node.initial.size] = self.velocities[node.name]
        return q, v

    def add(self, part):
        """Add any part that follows the part contract (:class:`~femdyn.model.protocol.Part`):
        a new kind of body, element, load or constraint written outside femdyn.

        Parameters
        ----------
        part : femdyn.model.protocol.Part
            Its ``name`` must be unique among the added parts; it refers to coordinates of
            this model's nodes (``node.dofs``).

        Returns
        -------
        femdyn.model.protocol.Part
            The part, for chaining.

        Raises
        ------
        ModelError
            If the part lacks a method or attribute of the contract
            (:func:`femdyn.model.protocol.missing`) or its name is taken.
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

        Returns
        -------
        System

        Example
        -------
        >>> m = Model("pendulum")
        >>> O, A = m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0))
        >>> rod = m.rigid_beam("rod", O, A, mass=1.0)
        >>> _ = m.revolute("pivot", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
        >>> m.assemble().degrees_of_freedom()
        1
        """
        system = System(copy.deepcopy(self))
        check_finite_parts(system)
        check_units(system)
        return system
