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
"""
import copy

import numpy as np

from femdyn.elements import ncf

from femdyn.mesh.lines import (centreline_element, centreline_points, polyline_tangents, section_y_axes,
                               transported_y_axes, unit_rows)

from ..errors import ModelError
from ..motion.timefunctions import as_time_function
from ..validation import count, positive, vector3
from . import joints as J
from .actuators import Actuator, Servo
from .bodies import Ground, NaturalBody
from .flexible import ELEMENT_KINDS, ElementSet, NodeFrame
from .loads import JointTorque, PointForce, ScaledForce
from .nodes import Node
from .sensors import ActuatorSensor, BeamSensor, JointAngleSensor, PointSensor, ReactionSensor


class Model:
    """Builder of a multibody model; ``assemble()`` freezes it into a :class:`System`."""

    def __init__(self, name="model", gravity=(0.0, 0.0, -9.81)):
        self.name = name
        self.gravity = vector3(gravity, f"model '{name}': gravity (m/s²)")
        self.ground = Ground()
        self.nodes, self.bodies, self.joints, self.loads, self.sensors = {}, {}, {}, [], []
        self.elements, self.parts = [], []
        self.size = 0
        self.velocities = {}

    # --- nodes -------------------------------------------------------------------
    def add_node(self, name, kind, values):
        """A node of any registered kind (:func:`femdyn.model.nodes.register_node_kind`)
        with its initial coordinates ``values`` (3 per slot, SI units); returns the Node.
        ``point``, ``vector``, ``cable_node`` and ``beam_node`` are the checked shortcuts."""
        if name in self.nodes:
            raise ModelError(f"node '{name}' exists already; node names must be unique")
        values = np.asarray(values, float)
        if not np.all(np.isfinite(values)):
            raise ModelError(f"node '{name}': coordinates must be finite numbers, got {values}")
        node = Node(name, kind, values, self.size)
        self.size += node.initial.size
        self.nodes[name] = node
        return node

    def point(self, name, position):
        """An NCF point node (3 coordinates, m)."""
        return self.add_node(name, "point", vector3(position, f"point node '{name}': position (m)"))

    def vector(self, name, direction):
        """An NCF unit-vector node (3 coordinates); its unit length is a constraint."""
        d = vector3(direction, f"vector node '{name}': direction")
        if abs(np.linalg.norm(d) - 1.0) > 1e-9:
            raise ModelError(f"vector node '{name}': direction must be a unit vector, |d| = {np.linalg.norm(d):.12g}; "
                             "normalise it")
        return self.add_node(name, "vector", d)

    def cable_node(self, name, position, tangent=(1.0, 0.0, 0.0)):
        """An ANCF cable node: position r (m) and position gradient r_x (unit tangent in the
        stress-free state), 6 coordinates."""
        return self.add_node(name, "cable", np.concatenate([vector3(position, f"cable node '{name}': position (m)"),
                                                             vector3(tangent, f"cable node '{name}': tangent")]))

    def beam_node(self, name, position, rx=(1.0, 0.0, 0.0), ry=(0.0, 1.0, 0.0), rz=(0.0, 0.0, 1.0)):
        """A fully parameterized ANCF node: r and the gradients r_x, r_y, r_z (12 coordinates)."""
        return self.add_node(name, "beam", np.concatenate([vector3(v, f"beam node '{name}': {slot}")
                                                            for v, slot in zip((position, rx, ry, rz),
                                                                               ("position (m)", "rx", "ry", "rz"))]))

    def director_node(self, name, position, ry=(0.0, 1.0, 0.0), rz=(0.0, 0.0, 1.0)):
        """A node of the three-node quadratic ANCF beam: r and the section directors r_y, r_z
        (9 coordinates, no slope)."""
        return self.add_node(name, "director", np.concatenate([vector3(v, f"director node '{name}': {slot}")
                                                                for v, slot in zip((position, ry, rz),
                                                                                   ("position (m)", "ry", "rz"))]))

    def node(self, name):
        try:
            return self.nodes[name] if isinstance(name, str) else name
        except KeyError:
            raise ModelError(f"unknown node '{name}'; known nodes: {sorted(self.nodes)}") from None

    def body(self, name):
        """A body by name, the ground, or an ANCF node (as a :class:`NodeFrame` for joints)."""
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

    # --- bodies ------------------------------------------------------------------
    def _add_body(self, body):
        if body.name in self.bodies or body.name == "ground":
            raise ModelError(f"body '{body.name}' exists already; body names must be unique")
        self.bodies[body.name] = body
        return body

    def rigid_beam(self, name, p1, p2, mass=None, density=None, area=None, end_masses=(0.0, 0.0), axis=None):
        """Liu et al.'s (2018) rigid link: uniform slender rod between point nodes p1, p2 (6 coordinates,
        constant 6×6 mass m[[1/3, 1/6], [1/6, 1/3]]⊗I₃ plus end masses). Give ``mass`` (kg) or
        ``density`` (kg/m³) and ``area`` (m²). ``axis`` (a unit-vector node) adds a joint-axis
        vector to the beam's basis so that it can carry a revolute joint's axis."""
        p1, p2 = self.node(p1), self.node(p2)
        length = np.linalg.norm(p2.initial - p1.initial)
        if not length > 1e-12:
            raise ModelError(f"rigid beam '{name}': zero length (nodes '{p1.name}' and '{p2.name}' coincide); "
                             "move one of them")
        mass = _mass_of(f"rigid beam '{name}'", mass, density, area, length)
        end_masses = _end_masses(name, end_masses)
        offset, inertia_local = ncf.slender_rod(mass, length)
        e = (p2.initial - p1.initial) / length
        R = _frame_with_x(e)
        vectors = [self.node(axis)] if axis is not None else []
        body = NaturalBody(name, [p1, p2], vectors, mass, p1.initial + e * offset[0], R @ inertia_local @ R.T,
                           point_masses={n: m for n, m in zip((p1, p2), end_masses) if m})
        body.length = length
        return self._add_body(body)

    def rigid_body(self, name, points, vectors=(), mass=1.0, com=None, inertia=None):
        """A spatial rigid body on natural coordinates (e.g. 2 points + 2 unit vectors).
        ``com`` (m) and ``inertia`` (kg·m², about the centre of mass) in global axes at t = 0."""
        points, vectors = [self.node(p) for p in points], [self.node(v) for v in vectors]
        com = points[0].initial if com is None else vector3(com, f"rigid body '{name}': com (m)")
        inertia = np.zeros((3, 3)) if inertia is None else inertia
        return self._add_body(NaturalBody(name, points, vectors, positive(mass, f"rigid body '{name}': mass", "kg"),
                                          com, inertia))

    def triangle_platform(self, name, center, normal, circumradius, thickness=0.0, density=None, mass=None,
                          first_vertex=(1.0, 0.0, 0.0)):
        """Liu et al.'s (2018) moving platform: a uniform equilateral triangle on natural coordinates
        q_a = (A1, A2, u, v) ∈ R¹²: vertices A1, A2, unit normal u and the in-plane unit
        vector v ⟂ A1A2 pointing to the third vertex. Returns the body; ``body.vertices``
        are the three vertex positions at t = 0."""
        center, n = vector3(center, f"platform '{name}': center (m)"), J._unit(normal, f"platform '{name}' normal")
        first_vertex = vector3(first_vertex, f"platform '{name}': first_vertex")
        d = first_vertex - n * (n @ first_vertex)
        if np.linalg.norm(d) < 1e-9:
            raise ModelError(f"platform '{name}': first_vertex direction is parallel to the normal")
        d /= np.linalg.norm(d)
        e2 = np.cross(n, d)
        verts = [center + circumradius * (np.cos(a) * d + np.sin(a) * e2) for a in (0, 2 * np.pi / 3, 4 * np.pi / 3)]
        m, I_local = ncf.equilateral_plate(circumradius, thickness, density, mass, f"platform '{name}'")
        R = np.column_stack([d, e2, n])
        A1, A2 = self.point(f"{name}.A1", verts[0]), self.point(f"{name}.A2", verts[1])
        v = verts[2] - 0.5 * (verts[0] + verts[1])
        u_node, v_node = self.vector(f"{name}.u", n), self.vector(f"{name}.v", v / np.linalg.norm(v))
        body = self._add_body(NaturalBody(name, [A1, A2], [u_node, v_node], m, center, R @ I_local @ R.T))
        body.vertices = verts
        return body

    # --- flexible beams -----------------------------------------------------------
    def ancf_beam(self, name, nodes, E, rho, section, element="cable", nu=0.3, damping=0.0, y_axis=None):
        """A chain of ANCF elements between consecutive ``nodes`` (shared nodes).

        ``element`` = "cable" (ANCFCable3D on cable nodes: axial strain and curvature;
        straight reference only), "cable2d" (ANCFCable2D on cable nodes that lie in a plane
        z = const with r_x in it: the model fixes their z components, for planar studies)
        "beam" (ANCFBeam3D on beam nodes: extension, shear, bending, torsion,
        locking-free) or "beam3" (ANCFBeamQuadratic on director nodes taken three at a time,
        end–midpoint–end, sharing the end nodes: the same strains, fourth-order bending
        accuracy, free of membrane locking on curves). E in Pa, ρ in kg/m³, ``section`` from
        :mod:`femdyn.elements.sections`, ``damping`` the Kelvin–Voigt coefficient in s,
        ``nu`` the Poisson ratio (beam), ``y_axis`` the section y direction of a 3-D cable
        (strain recovery only; a beam's section axes are its nodes' r_y, r_z). Each
        element's parameter length is the arc length of its reference axis. Returns the
        :class:`ElementSet`."""
        nodes = [self.node(nd) for nd in nodes]
        if len(nodes) < 2:
            raise ModelError(f"ANCF beam '{name}': needs at least two nodes")
        kind = ELEMENT_KINDS.get(element)
        if kind is None:
            raise ModelError(f"ANCF beam '{name}': element must be one of {sorted(ELEMENT_KINDS)}, got {element!r}")
        for nd in nodes:
            if nd.kind != kind.node_kind:
                raise ModelError(f"ANCF beam '{name}': node '{nd.name}' is a {nd.kind} node; "
                                 f"{element} elements need {kind.node_kind} nodes")
        if any(e.name == name for e in self.elements):
            raise ModelError(f"element set '{name}' exists already; names must be unique")
        if kind.nodes == 3 and len(nodes) % 2 == 0:
            raise ModelError(f"ANCF beam '{name}': '{element}' elements take an odd number of nodes (end, midpoint, "
                             f"end, midpoint, …, end), got {len(nodes)}")
        groups = list(zip(nodes[:-2:2], nodes[1:-1:2], nodes[2::2]) if kind.nodes == 3 else zip(nodes[:-1], nodes[1:]))
        if kind.planar:
            self._make_planar(name, nodes)
        columns = list(kind.components) if kind.components is not None else slice(None)
        q_ref = np.array([np.concatenate([nd.initial[columns] for nd in group]) for group in groups])
        try:
            kernel = kind.factory(q_ref, E, rho, section, nu, damping, y_axis)
        except ModelError as err:
            raise ModelError(f"ANCF beam '{name}': {err}") from None
        self.elements.append(ElementSet(name, kernel, groups, None, kind.components))
        return self.elements[-1]

    def _make_planar(self, name, nodes):
        """Fix the out-of-plane components (r_z, r_x,z) of a planar cable's nodes: one
        auxiliary joint "plane <node>" per node, shared by every planar cable on the node.
        The System keeps only the rows of it that the other constraints do not already
        imply (e.g. a clamp or a revolute about z at the node)."""
        z0 = nodes[0].initial[2]
        for nd in nodes:
            if abs(nd.initial[2] - z0) > 1e-12 or abs(nd.initial[5]) > 1e-12:
                raise ModelError(f"planar cable '{name}': node '{nd.name}' leaves the plane z = {z0:g} "
                                 "(its r_z or r_x,z differs); planar cables lie in a plane z = const")
            if f"plane {nd.name}" not in self.joints:
                self._add_joint(J.Fix(f"plane {nd.name}", nd, components=(2, 5))).auxiliary = True

    def straight_beam(self, name, start, end, n_elements, E, rho, section, element="cable", nu=0.3,
                      damping=0.0, first=None, last=None, y_axis=None):
        """Mesh a straight beam from ``start`` to ``end`` (m) into ``n_elements`` ANCF elements.
        ``first``/``last`` reuse existing nodes at the ends (to share them with other parts);
        a reused node must lie at the end and carry this beam's tangent (and section axes):
        a node has one slope, so a corner needs two nodes joined rigidly.
        The cross-section axes are ``y_axis`` (projected ⟂ the axis; default global y, or
        global z for a beam along y) and x × y: the nodes' r_y, r_z of beam elements, the
        frame of strain gauges on a 3-D cable. With ``element="beam3"`` each element gets a
        midpoint node too: nodes ``name.0`` … ``name.{2n}``, the ends at even indices."""
        start = vector3(start, f"beam '{name}': start (m)")
        end = vector3(end, f"beam '{name}': end (m)")
        n_el = count(n_elements, f"beam '{name}': n_elements")
        axis = end - start
        length = np.linalg.norm(axis)
        if not length > 0:
            raise ModelError(f"beam '{name}': start and end coincide; give distinct end points (m)")
        ex = axis / length
        if y_axis is None:   # global y projected onto the section plane (global z for a beam along y)
            y_axis = (0.0, 0.0, 1.0) if abs(ex[1]) > 0.9 else (0.0, 1.0, 0.0)
        ey = section_y_axes(f"beam '{name}'", ex[None, :], y_axis)[0]
        frame = {"beam": np.concatenate([ex, ey, np.cross(ex, ey)]), "beam3": np.concatenate([ey, np.cross(ex, ey)])
                 }.get(element, ex)
        n_nodes = 2 * n_el + 1 if element == "beam3" else n_el + 1          # beam3: midpoint nodes too
        make = {"beam": self.beam_node, "beam3": self.director_node}.get(element, self.cable_node)
        nodes = []
        for i in range(n_nodes):
            x = start + axis * i / (n_nodes - 1)
            given = first if i == 0 else last if i == n_nodes - 1 else None
            if given is not None:
                nodes.append(self._reused_node(name, given, "first" if i == 0 else "last", f"{name}.{i}", x, frame))
                continue
            nodes.append(make(f"{name}.{i}", x, *frame.reshape(-1, 3)))
        return self.ancf_beam(name, nodes, E, rho, section, element, nu, damping, y_axis=ey)

    def _reused_node(self, name, node, role, own_name, position, gradients):
        """An existing node shared as the ``role`` end of beam ``name``, checked against the
        beam's end position and nodal gradients (tangent, and section axes for beams)."""
        node = self.node(node)
        have = node.initial[3:3 + gradients.size] if node.initial.size >= 3 + gradients.size else None
        if not np.allclose(node.initial[:3], position, rtol=0, atol=1e-9 * max(1.0, np.abs(position).max())):
            raise ModelError(f"beam '{name}': node '{node.name}' (given as {role}) is at "
                             f"{node.initial[:3].tolist()}, not at the beam's end {position.tolist()}; "
                             "reuse a node only where the beam ends")
        if have is not None and not np.allclose(have, gradients, rtol=0, atol=1e-9):
            raise ModelError(f"beam '{name}': node '{node.name}' (given as {role}) has the gradients "
                             f"{np.round(have, 6).tolist()} but this beam needs {np.round(gradients, 6).tolist()} "
                             "(tangent, section axes) there: a shared node has one slope, so reusing it would "
                             "make a kinked element. For a corner give this beam its own end node (leave "
                             f"{role}= out) and join the two nodes rigidly: clamp both to one rigid body "
                             "(m.clamp), or for element='beam' clamp the new node to the old one "
                             f"(m.clamp(name, '{own_name}', '{node.name}'))")
        return node

    def beam_through_points(self, name, points, E, rho, section, damping=0.0, tangents=None, element=None,
                            y_axis=None, nu=0.3):
        """ANCF chain through centreline points (m), one element between neighbours.

        Node tangents: ``tangents`` (n, 3), or second-order estimates from the points
        (:func:`femdyn.mesh.lines.polyline_tangents`: exact on circles). A centreline whose
        last point repeats the first is a closed loop: its last element ends on the first
        node. ``element``:

        - "cable": ANCFCable3D, straight centrelines only (the 3-D cable is a
          straight-reference element); ``y_axis`` orients its strain gauges;
        - "cable2d": ANCFCable2D, curves in a plane z = const (the model keeps them in it);
        - "beam": ANCFBeam3D, any curve; section y axes from the hint ``y_axis`` ((3,) or
          one per point) projected on the plane ⟂ the tangent, by default the global y
          axis projected at the first point (global z if the curve starts along y) and
          carried along by parallel transport (no twist);
        - "beam3": ANCFBeamQuadratic, as "beam" with the points taken three at a time
          (end, midpoint, end, …): an odd number of points (an even one for a loop);
        - None: "cable" for straight centrelines, "cable2d" for curves in a plane
          z = const, otherwise an error asking for "beam".

        E in Pa, ρ in kg/m³, ``section`` from :mod:`femdyn.elements.sections`, ``damping`` in s,
        ``nu`` (beam only). Returns the :class:`ElementSet`."""
        what = f"beam '{name}'"
        points, closed = centreline_points(what, points)
        if tangents is None:
            tangents = polyline_tangents(points, closed=closed)
        else:
            tangents = unit_rows(f"{what}: tangents", tangents, len(points) + closed)[:len(points)]
        element = centreline_element(what, points, tangents, closed) if element is None else element
        if element in ("beam", "beam3"):
            ey = section_y_axes(what, tangents, y_axis) if y_axis is not None else transported_y_axes(tangents)
            nodes = [self.beam_node(f"{name}.{i}", p, t, y, np.cross(t, y)) if element == "beam"
                     else self.director_node(f"{name}.{i}", p, y, np.cross(t, y))
                     for i, (p, t, y) in enumerate(zip(points, tangents, ey))]
        else:
            nodes = [self.cable_node(f"{name}.{i}", p, t) for i, (p, t) in enumerate(zip(points, tangents))]
            if y_axis is not None and element == "cable":      # strain-gauge frame of the 3-D cable
                y_axis = section_y_axes(what, tangents, y_axis)[:len(nodes) - 1 + closed]
        return self.ancf_beam(name, nodes + nodes[:1] * closed, E, rho, section, element, nu, damping,
                              y_axis=y_axis if element == "cable" else None)

    def beam_from_mesh(self, name, path, E, rho, section, damping=0.0, scale=1.0, element=None, y_axis=None,
                       nu=0.3):
        """ANCF chains from a line mesh file read with meshio (VTK, Gmsh, …): one element
        per line cell; several unbranched chains become ``name``, ``name#1``, …, closed
        loops close on their first node. ``scale`` converts the file's length unit to
        metres; ``element``, ``y_axis``, ``nu`` as in :meth:`beam_through_points`."""
        from femdyn.mesh.lines import read_line_mesh
        points, chains = read_line_mesh(path)
        return [self.beam_through_points(name if k == 0 else f"{name}#{k}", scale * points[c], E, rho, section,
                                         damping, element=element, y_axis=y_axis, nu=nu)
                for k, c in enumerate(chains)]

    def element_set(self, name):
        for e in self.elements:
            if e.name == name:
                return e
        raise ModelError(f"unknown ANCF beam '{name}'; known: {[e.name for e in self.elements]}")

    # --- joints ------------------------------------------------------------------
    def _add_joint(self, joint):
        if joint.name in self.joints:
            raise ModelError(f"joint '{joint.name}' exists already; joint names must be unique")
        self.joints[joint.name] = joint
        return joint

    def fix(self, node, name=None, components=None):
        """Fix a node's coordinates at their initial values: all of them, or the given
        ``components`` (indices within the node's coordinates, e.g. (2,) for z). A unit
        vector keeps its two smaller components fixed (the third follows from its length)."""
        node = self.node(node)
        return self._add_joint(J.Fix(name or f"fix {node.name}", node, components))

    def clamp(self, name, node, body="ground"):
        """Rigid clamp of an ANCF node to a body or the ground. The position follows the
        body (3 rows) and so does the section: a cable node's tangent r_x keeps its
        direction in the body (2 rows; its length, the axial stretch, stays free: 5 rows in
        all), a beam node's directors r_y, r_z follow the body (6 rows) while r_x stays free
        so that shear can develop (a Timoshenko clamp: 9 rows in all)."""
        return self._add_joint(J.Clamp(name, self.node(node), self.body(body)))

    def spherical(self, name, body_a, body_b, point):
        return self._add_joint(J.Spherical(name, self.body(body_a), self.body(body_b), point))

    def revolute(self, name, body_a, body_b, point, axis, angle0=0.0):
        return self._add_joint(J.Revolute(name, self.body(body_a), self.body(body_b), point, axis, angle0))

    def universal(self, name, body_a, body_b, point, axis_a, axis_b):
        return self._add_joint(J.Universal(name, self.body(body_a), self.body(body_b), point, axis_a, axis_b))

    def prismatic(self, name, body_a, body_b, point, axis):
        return self._add_joint(J.Prismatic(name, self.body(body_a), self.body(body_b), point, axis))

    def distance(self, name, body_a, point_a, body_b, point_b, distance=None):
        return self._add_joint(J.Distance(name, self.body(body_a), point_a, self.body(body_b), point_b, distance))

    def drive_angle(self, name, revolute, function):
        """Prescribe the angle (rad) of a revolute joint: a driving constraint."""
        rev = self._revolute(revolute)
        return self._add_joint(J.AngleDrive(name, rev, as_time_function(function, f"angle drive '{name}'")))

    def drive_coordinate(self, name, body, point, direction, function):
        """Prescribe d·r(t) of a body's material point (m): a driving (servo) constraint."""
        body = self.body(body)
        return self._add_joint(J.CoordinateDrive(name, body, body.material_point(point), direction,
                                                 as_time_function(function, f"coordinate drive '{name}'")))

    def actuator(self, name, joint):
        """An actuator with an unknown input in a revolute (torque, N·m, on body B about the
        axis) or prismatic joint (force, N, on B along the axis), solved together with the
        motion by servo-constraint inverse dynamics (see :meth:`servo`); its input is the
        result channel ``<name>.torque`` or ``<name>.force``.

        Parameters
        ----------
        name : str
        joint : str or Joint
            A revolute or prismatic joint of this model.

        Returns
        -------
        femdyn.model.actuators.Actuator
        """
        if isinstance(joint, str):
            if joint not in self.joints:
                raise ModelError(f"actuator '{name}': unknown joint '{joint}'; known joints: {sorted(self.joints)}")
            joint = self.joints[joint]
        actuator = self.add(Actuator(name, joint))
        self._add_sensor(ActuatorSensor(name, actuator))
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
        body : str or body
            A body, or an ANCF node (its frame).
        point : array_like (3,)
            The material point, in m, at its initial position.
        functions : sequence of TimeFunction or float
            One per direction: the prescribed coordinate in m.
        directions : array_like (k, 3)
            Unit directions of the prescribed coordinates (global axes).

        Returns
        -------
        femdyn.model.actuators.Servo

        Example
        -------
        >>> m.servo("tip", "arm", (1.0, 0, 0), [Sine(0.1, 1.0, offset=1.0), 0.0], [(1, 0, 0), (0, 0, 1)])  # doctest: +SKIP
        """
        body = self.body(body)
        functions = [as_time_function(f, f"servo '{name}' function {k}") for k, f in enumerate(functions)]
        return self._add_joint(Servo(name, body, body.material_point(point), functions, np.atleast_2d(directions)))

    def _revolute(self, joint):
        joint = self.joints.get(joint, joint) if isinstance(joint, str) else joint
        if not isinstance(joint, J.Revolute):
            raise ModelError(f"'{getattr(joint, 'name', joint)}' is not a revolute joint of this model")
        return joint

    # --- loads, sensors, initial velocity ---------------------------------------------
    def torque(self, name, revolute, function):
        """Actuator torque (N·m) on body B of a revolute joint about its axis (−T on A)."""
        self.loads.append(JointTorque(name, self._revolute(revolute), function))
        return self.loads[-1]

    def force(self, name, body, point, force, function=1.0):
        """Force (N, global components, scaled by f(t)) at a material point of a body."""
        self.loads.append(PointForce(name, self.body(body).material_point(point),
                                     vector3(force, f"force '{name}' (N)"), function))
        return self.loads[-1]

    def sensor_point(self, name, body, point):
        return self._add_sensor(PointSensor(name, self.body(body).material_point(point)))

    def sensor_strain(self, name, beam, element, xi, y=0.0, z=0.0):
        """Axial strain at a material point of an ANCF beam (what a strain gauge reads):
        element index, ξ ∈ [0, 1] along it, (y, z) on the cross section in m."""
        return self.sensor_beam(name, beam, element, xi, "strain", y, z)

    def sensor_beam(self, name, beam, element, xi, quantity, y=0.0, z=0.0):
        """A beam quantity ("strain", "curvature", "twist", "shear") at (element, ξ)."""
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        beam.locate(element, xi)
        return self._add_sensor(BeamSensor(name, beam, element, xi, quantity, y, z))

    def beam_load(self, name, beam, load, function=1.0):
        """Distributed load (N/m, global components, scaled by f(t)) along an ANCF beam:
        Q = ∫ Sᵀ w dx, i.e. the kernel's gravity vector for w/(ρA). A planar cable also
        takes the two in-plane components (x, y)."""
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        w = _beam_vector(beam, load, f"beam load '{name}' (N/m)")
        dofs, weight = beam.gravity(w)
        per_length = weight.reshape(beam.count, -1) / (beam.kernel.rho * beam.kernel.A)[:, None]
        Q = np.zeros(self.size)
        np.add.at(Q, dofs, per_length.ravel())
        self.loads.append(ScaledForce(name, Q, function))
        return self.loads[-1]

    def beam_force(self, name, beam, element, xi, force, function=1.0):
        """Force (N, global components, scaled by f(t)) at a point of an ANCF beam's axis; a
        planar cable also takes the two in-plane components (x, y)."""
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        self.loads.append(PointForce(name, beam.material_point(element, xi),
                                     _beam_vector(beam, force, f"beam force '{name}' (N)"), function))
        return self.loads[-1]

    def sensor_angle(self, name, revolute):
        return self._add_sensor(JointAngleSensor(name, self._revolute(revolute)))

    def sensor_reaction(self, name, joint):
        """Reaction of a joint (its constraint forces and moments, see the joint's ``reaction``)."""
        if isinstance(joint, str):
            if joint not in self.joints:
                raise ModelError(f"reaction sensor '{name}': unknown joint '{joint}'; known joints: {sorted(self.joints)}")
            joint = self.joints[joint]
        return self._add_sensor(ReactionSensor(name, joint))

    def _add_sensor(self, sensor):
        if any(s.name == sensor.name for s in self.sensors):
            raise ModelError(f"sensor '{sensor.name}' exists already; sensor names must be unique (they name "
                             "the result channels)")
        self.sensors.append(sensor)
        return sensor

    def set_velocity(self, node, velocity):
        """Initial velocity guess of a node's coordinates (made consistent by the solver)."""
        node = self.node(node)
        v = np.asarray(velocity, float) if np.size(velocity) == node.initial.size else None
        if v is None or not np.all(np.isfinite(v)):
            raise ModelError(f"initial velocity of node '{node.name}': expected {node.initial.size} finite numbers "
                             f"(one per coordinate), got {velocity!r}")
        self.velocities[node.name] = v.reshape(node.initial.shape)

    def set_rigid_velocity(self, body, omega, velocity=(0, 0, 0), reference=None):
        """Initial rigid motion of a body: angular velocity ω (rad/s) and velocity (m/s) of
        ``reference`` (default: its first point): ṗ = v + ω×(p − ref), u̇ = ω×u."""
        body = self.body(body)
        omega = vector3(omega, f"rigid velocity of '{body.name}': omega (rad/s)")
        velocity = vector3(velocity, f"rigid velocity of '{body.name}': velocity (m/s)")
        ref = body.points[0].initial if reference is None else vector3(reference, f"rigid velocity of '{body.name}': "
                                                                                  "reference (m)")
        for p in body.points:
            self.velocities[p.name] = velocity + np.cross(omega, p.initial - ref)
        for u in body.vectors:
            self.velocities[u.name] = np.cross(omega, u.initial)

    # --- assembly ----------------------------------------------------------------
    def initial_coordinates(self):
        q, v = np.zeros(self.size), np.zeros(self.size)
        for node in self.nodes.values():
            q[node.start:node.start + node.initial.size] = node.initial
            if node.name in self.velocities:
                v[node.start:node.start + node.initial.size] = self.velocities[node.name]
        return q, v

    def add(self, part):
        """Add any part that follows the contribution protocol (:mod:`femdyn.model.protocol`):
        a new kind of body, element, load or constraint written outside femdyn.

        Parameters
        ----------
        part : femdyn.model.protocol.Part
            Its ``name`` must be unique among the added parts; it refers to coordinates of
            this model's nodes (``node.dofs``).

        Returns
        -------
        The part, for chaining.

        Raises
        ------
        ModelError
            If the part lacks a method of the protocol or its name is taken.
        """
        missing = [m for m in ("bind", "mass_coo", "gravity", "force", "tangent_pattern", "tangent_values",
                               "equations", "potential_energy") if not callable(getattr(part, m, None))]
        if missing or not isinstance(getattr(part, "name", None), str):
            raise ModelError(f"{part!r} is not a model part: it lacks {missing or ['a name']}; derive it from "
                             "femdyn.model.protocol.Part and override what it contributes")
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
        from .system import System
        return System(copy.deepcopy(self))


def _mass_of(what, mass, density, area, length):
    if mass is None:
        if density is None or area is None:
            raise ModelError(f"{what}: give mass (kg) or density (kg/m³) and area (m²)")
        if not density > 0 or not area > 0:
            raise ModelError(f"{what}: density and area must be positive, got ρ={density}, A={area}")
        mass = density * area * length
    if not mass > 0:
        raise ModelError(f"{what}: mass must be positive (kg), got {mass}")
    return float(mass)


def _end_masses(name, end_masses):
    """Two point masses (kg, ≥ 0) at the beam's end nodes."""
    if np.size(end_masses) != 2:
        raise ModelError(f"rigid beam '{name}': end_masses must be two values (kg) for its two end nodes, "
                         f"got {end_masses!r}")
    return [positive(m, f"rigid beam '{name}': end mass", "kg", allow_zero=True) for m in np.ravel(end_masses)]


def _frame_with_x(e):
    """Rotation matrix whose first column is the unit vector e."""
    helper = np.eye(3)[np.argmin(np.abs(e))]
    y = np.cross(e, helper)
    y /= np.linalg.norm(y)
    return np.column_stack([e, y, np.cross(e, y)])












def _beam_vector(beam, value, what):
    """A load vector for an ANCF beam: 3 components, or (x, y) for a planar cable."""
    if beam.dim == 2 and np.ndim(value) == 1 and len(value) == 2:
        return vector3((*value, 0.0), what)
    if beam.dim == 2:
        what += " (a planar cable takes 2 components (x, y), or 3 with z = 0)"
    return vector3(value, what)
