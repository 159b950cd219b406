"""The model builder: nodes, bodies, joints, loads and sensors.

Typical use::

    m = Model("pendulum", gravity=(0, 0, -9.81))
    O, A = m.point("O", (0, 0, 0)), m.point("A", (1, 0, 0))
    rod = m.rigid_beam("rod", O, A, mass=1.0)
    m.revolute("pivot", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
    system = m.assemble()

Ground coordinates stay in q and are fixed by constraints (seed 002 keeps known ground
coordinates in q "for convenience"); joints to ``m.ground`` use constant expressions and
need no ground nodes at all. SI units throughout.
"""
import numpy as np

from femdyn.elements import ncf

from . import joints as J
from .bodies import Ground, NaturalBody
from .constraints import Equation
from .coordinates import Node
from .flexible import ElementSet, NodeFrame
from .errors import ModelError
from .loads import JointTorque, PointForce, ScaledForce
from .sensors import BeamSensor, JointAngleSensor, PointSensor, ReactionSensor
from .timefunctions import as_time_function
from .vectorfunctions import Dot


class Model:
    """Builder of a multibody model; ``assemble()`` freezes it into a :class:`System`."""

    def __init__(self, name="model", gravity=(0.0, 0.0, -9.81)):
        self.name = name
        self.gravity = np.asarray(gravity, float)
        self.ground = Ground()
        self.nodes, self.bodies, self.joints, self.loads, self.sensors = {}, {}, {}, [], []
        self.elements = []
        self.size = 0
        self.velocities = {}

    # --- nodes -------------------------------------------------------------------
    def _add_node(self, name, kind, values):
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
        return self._add_node(name, "point", np.reshape(position, 3))

    def vector(self, name, direction):
        """An NCF unit-vector node (3 coordinates); its unit length is a constraint."""
        d = np.reshape(np.asarray(direction, float), 3)
        if abs(np.linalg.norm(d) - 1.0) > 1e-9:
            raise ModelError(f"vector node '{name}': direction must be a unit vector, |d| = {np.linalg.norm(d):.12g}; "
                             "normalise it")
        return self._add_node(name, "vector", d)

    def cable_node(self, name, position, tangent=(1.0, 0.0, 0.0)):
        """An ANCF cable node: position r (m) and position gradient r_x (unit tangent in the
        stress-free state), 6 coordinates."""
        return self._add_node(name, "cable", np.concatenate([np.reshape(position, 3), np.reshape(tangent, 3)]))

    def beam_node(self, name, position, rx=(1.0, 0.0, 0.0), ry=(0.0, 1.0, 0.0), rz=(0.0, 0.0, 1.0)):
        """A fully parameterized ANCF node: r and the gradients r_x, r_y, r_z (12 coordinates)."""
        return self._add_node(name, "beam", np.concatenate([np.reshape(v, 3) for v in (position, rx, ry, rz)]))

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
        if name in self.nodes and self.nodes[name].kind in ("cable", "beam"):
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
        """Seed 002's rigid link: uniform slender rod between point nodes p1, p2 (6 coordinates,
        constant 6×6 mass m[[1/3, 1/6], [1/6, 1/3]]⊗I₃ plus end masses). Give ``mass`` (kg) or
        ``density`` (kg/m³) and ``area`` (m²). ``axis`` (a unit-vector node) adds a joint-axis
        vector to the beam's basis so that it can carry a revolute joint's axis."""
        p1, p2 = self.node(p1), self.node(p2)
        length = np.linalg.norm(p2.initial - p1.initial)
        if not length > 1e-12:
            raise ModelError(f"rigid beam '{name}': zero length (nodes '{p1.name}' and '{p2.name}' coincide); "
                             "move one of them")
        mass = _mass_of(f"rigid beam '{name}'", mass, density, area, length)
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
        com = points[0].initial if com is None else com
        inertia = np.zeros((3, 3)) if inertia is None else inertia
        return self._add_body(NaturalBody(name, points, vectors, mass, com, inertia))

    def triangle_platform(self, name, center, normal, circumradius, thickness=0.0, density=None, mass=None,
                          first_vertex=(1.0, 0.0, 0.0)):
        """Seed 002's moving platform: a uniform equilateral triangle on natural coordinates
        q_a = (A1, A2, u, v) ∈ R¹²: vertices A1, A2, unit normal u and the in-plane unit
        vector v ⟂ A1A2 pointing to the third vertex. Returns the body; ``body.vertices``
        are the three vertex positions at t = 0."""
        center, n = np.asarray(center, float), J._unit(normal, f"platform '{name}' normal")
        d = np.asarray(first_vertex, float) - n * (n @ first_vertex)
        if np.linalg.norm(d) < 1e-9:
            raise ModelError(f"platform '{name}': first_vertex direction is parallel to the normal")
        d /= np.linalg.norm(d)
        e2 = np.cross(n, d)
        verts = [center + circumradius * (np.cos(a) * d + np.sin(a) * e2) for a in (0, 2 * np.pi / 3, 4 * np.pi / 3)]
        m, I_local = ncf.equilateral_plate(circumradius, thickness, density, mass)
        R = np.column_stack([d, e2, n])
        A1, A2 = self.point(f"{name}.A1", verts[0]), self.point(f"{name}.A2", verts[1])
        v = verts[2] - 0.5 * (verts[0] + verts[1])
        u_node, v_node = self.vector(f"{name}.u", n), self.vector(f"{name}.v", v / np.linalg.norm(v))
        body = self._add_body(NaturalBody(name, [A1, A2], [u_node, v_node], m, center, R @ I_local @ R.T))
        body.vertices = verts
        return body

    # --- flexible beams -----------------------------------------------------------
    def ancf_beam(self, name, nodes, E, rho, section, element="cable", nu=0.3, damping=0.0):
        """A chain of ANCF elements between consecutive ``nodes`` (shared nodes).

        ``element`` = "cable" (ANCFCable3D on cable nodes: axial strain and curvature),
        "cable2d" (ANCFCable2D on cable nodes that lie in a plane z = const with r_x in it:
        the model fixes their z components, for planar studies) or "beam" (ANCFBeam3D on
        beam nodes: extension, shear, bending, torsion, locking-free).
        E in Pa, ρ in kg/m³, ``section`` from :mod:`femdyn.elements.sections`, ``damping``
        the Kelvin–Voigt coefficient in s. Returns the :class:`ElementSet`."""
        nodes = [self.node(nd) for nd in nodes]
        if len(nodes) < 2:
            raise ModelError(f"ANCF beam '{name}': needs at least two nodes")
        kind = {"cable": "cable", "cable2d": "cable", "beam": "beam"}.get(element)
        if kind is None:
            raise ModelError(f"ANCF beam '{name}': element must be 'cable', 'cable2d' or 'beam', got {element!r}")
        for nd in nodes:
            if nd.kind != kind:
                raise ModelError(f"ANCF beam '{name}': node '{nd.name}' is a {nd.kind} node; "
                                 f"{element} elements need {kind} nodes")
        if any(e.name == name for e in self.elements):
            raise ModelError(f"element set '{name}' exists already; names must be unique")
        pairs = list(zip(nodes[:-1], nodes[1:]))
        components = (0, 1, 3, 4) if element == "cable2d" else None
        if element == "cable2d":
            self._make_planar(name, nodes)
        pick = (lambda nd: nd.initial) if components is None else (lambda nd: nd.initial[list(components)])
        q_ref = np.array([np.concatenate([pick(a), pick(b)]) for a, b in pairs])
        self.elements.append(ElementSet(name, _kernel(element, q_ref, E, rho, section, nu, damping), pairs, None,
                                        components))
        return self.elements[-1]

    def _make_planar(self, name, nodes):
        """Fix the out-of-plane components (r_z, r_x,z) of a planar cable's nodes."""
        z0 = nodes[0].initial[2]
        for nd in nodes:
            if abs(nd.initial[2] - z0) > 1e-12 or abs(nd.initial[5]) > 1e-12:
                raise ModelError(f"planar cable '{name}': node '{nd.name}' leaves the plane z = {z0:g} "
                                 "(its r_z or r_x,z differs); planar cables lie in a plane z = const")
            if f"{name} plane {nd.name}" not in self.joints:
                self._add_joint(J.Fix(f"{name} plane {nd.name}", nd, components=(2, 5))).auxiliary = True

    def straight_beam(self, name, start, end, n_elements, E, rho, section, element="cable", nu=0.3,
                      damping=0.0, first=None, last=None, y_axis=None):
        """Mesh a straight beam from ``start`` to ``end`` (m) into ``n_elements`` ANCF elements.
        ``first``/``last`` reuse existing nodes at the ends (to share them with other parts).
        For beam elements the cross-section axes are ``y_axis`` (⟂ the axis) and x × y."""
        start, end = np.asarray(start, float), np.asarray(end, float)
        axis = end - start
        length = np.linalg.norm(axis)
        if not length > 0 or int(n_elements) < 1:
            raise ModelError(f"beam '{name}': needs distinct ends and n_elements ≥ 1")
        ex = axis / length
        if y_axis is None:   # global y projected onto the section plane (global z for a beam along y)
            y_axis = (0.0, 0.0, 1.0) if abs(ex[1]) > 0.9 else (0.0, 1.0, 0.0)
        ey = np.asarray(y_axis, float)
        ey = ey - ex * (ex @ ey)
        ey /= np.linalg.norm(ey)
        nodes = []
        for i in range(int(n_elements) + 1):
            given = first if i == 0 else last if i == n_elements else None
            if given is not None:
                nodes.append(self.node(given))
                continue
            x = start + axis * i / n_elements
            nodes.append(self.beam_node(f"{name}.{i}", x, ex, ey, np.cross(ex, ey)) if element == "beam"
                         else self.cable_node(f"{name}.{i}", x, ex))
        return self.ancf_beam(name, nodes, E, rho, section, element, nu, damping)

    def beam_through_points(self, name, points, E, rho, section, damping=0.0, tangents=None):
        """ANCF cable chain through centreline points (m), one element between neighbours;
        node tangents from the polyline (or given). Curved beams: sample the centreline
        densely enough that chords approximate arcs."""
        points = np.asarray(points, float)
        if points.ndim != 2 or points.shape[1] != 3 or len(points) < 2:
            raise ModelError(f"beam '{name}': points must be an (n ≥ 2, 3) array in metres")
        from femdyn.mesh.lines import polyline_tangents
        tangents = polyline_tangents(points) if tangents is None else np.asarray(tangents, float)
        nodes = [self.cable_node(f"{name}.{i}", p, t / np.linalg.norm(t)) for i, (p, t) in enumerate(zip(points, tangents))]
        return self.ancf_beam(name, nodes, E, rho, section, "cable", damping=damping)

    def beam_from_mesh(self, name, path, E, rho, section, damping=0.0, scale=1.0):
        """ANCF cable chains from a line mesh file read with meshio (VTK, Gmsh, …): one
        element per line cell; several unbranched chains become ``name``, ``name#1``, …
        ``scale`` converts the file's length unit to metres."""
        from femdyn.mesh.lines import read_line_mesh
        points, chains = read_line_mesh(path)
        return [self.beam_through_points(name if k == 0 else f"{name}#{k}", scale * points[c], E, rho, section,
                                         damping) for k, c in enumerate(chains)]

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

    def fix(self, node, name=None):
        node = self.node(node)
        return self._add_joint(J.Fix(name or f"fix {node.name}", node))

    def clamp(self, name, node, body="ground"):
        """Rigid clamp of an ANCF node to a body or the ground: its position and every
        position gradient follow the body (3 rows per slot)."""
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
        self.loads.append(PointForce(name, self.body(body).material_point(point), force, function))
        return self.loads[-1]

    def sensor_point(self, name, body, point):
        self.sensors.append(PointSensor(name, self.body(body).material_point(point)))
        return self.sensors[-1]

    def sensor_strain(self, name, beam, element, xi, y=0.0, z=0.0):
        """Axial strain at a material point of an ANCF beam (what a strain gauge reads):
        element index, ξ ∈ [0, 1] along it, (y, z) on the cross section in m."""
        return self.sensor_beam(name, beam, element, xi, "strain", y, z)

    def sensor_beam(self, name, beam, element, xi, quantity, y=0.0, z=0.0):
        """A beam quantity ("strain", "curvature", "twist", "shear") at (element, ξ)."""
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        beam.locate(element, xi)
        self.sensors.append(BeamSensor(name, beam, element, xi, quantity, y, z))
        return self.sensors[-1]

    def beam_load(self, name, beam, load, function=1.0):
        """Distributed load (N/m, global components, scaled by f(t)) along an ANCF beam:
        Q = ∫ Sᵀ w dx, i.e. the kernel's gravity vector for w/(ρA)."""
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        w = np.asarray(load, float).reshape(3)
        dofs, weight = beam.gravity(w)
        per_length = weight.reshape(beam.count, -1) / (beam.kernel.rho * beam.kernel.A)[:, None]
        Q = np.zeros(self.size)
        np.add.at(Q, dofs, per_length.ravel())
        self.loads.append(ScaledForce(name, Q, function))
        return self.loads[-1]

    def beam_force(self, name, beam, element, xi, force, function=1.0):
        """Force (N, global components, scaled by f(t)) at a point of an ANCF beam's axis."""
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        self.loads.append(PointForce(name, beam.material_point(element, xi), force, function))
        return self.loads[-1]

    def sensor_angle(self, name, revolute):
        self.sensors.append(JointAngleSensor(name, self._revolute(revolute)))
        return self.sensors[-1]

    def sensor_reaction(self, name, joint):
        joint = self.joints[joint] if isinstance(joint, str) else joint
        self.sensors.append(ReactionSensor(name, joint))
        return self.sensors[-1]

    def set_velocity(self, node, velocity):
        """Initial velocity guess of a node's coordinates (made consistent by the solver)."""
        node = self.node(node)
        self.velocities[node.name] = np.asarray(velocity, float).reshape(node.initial.shape)

    def set_rigid_velocity(self, body, omega, velocity=(0, 0, 0), reference=None):
        """Initial rigid motion of a body: angular velocity ω (rad/s) and velocity (m/s) of
        ``reference`` (default: its first point): ṗ = v + ω×(p − ref), u̇ = ω×u."""
        body = self.body(body)
        omega, velocity = np.asarray(omega, float), np.asarray(velocity, float)
        ref = body.points[0].initial if reference is None else np.asarray(reference, float)
        for p in body.points:
            self.velocities[p.name] = velocity + np.cross(omega, p.initial - ref)
        for u in body.vectors:
            self.velocities[u.name] = np.cross(omega, u.initial)

    # --- assembly ----------------------------------------------------------------
    def unit_vector_equations(self):
        return [Equation(Dot, (n.expr, n.expr), None, 1.0, None, f"{n.name}: unit length")
                for n in self.nodes.values() if n.kind == "vector"]

    def rigid_body_equations(self):
        return [Equation(Dot, (a, b), None, value, None, label)
                for body in self.bodies.values() for a, b, value, label in body.rigid_conditions()]

    def initial_coordinates(self):
        q, v = np.zeros(self.size), np.zeros(self.size)
        for node in self.nodes.values():
            q[node.start:node.start + node.initial.size] = node.initial
            if node.name in self.velocities:
                v[node.start:node.start + node.initial.size] = self.velocities[node.name]
        return q, v

    def assemble(self):
        from .system import System
        for e in self.elements:
            e.n = self.size
        return System(self)


def _kernel(element, q_ref, E, rho, section, nu, damping):
    from femdyn.elements.ancf_beam import ANCFBeam3D
    from femdyn.elements.ancf_cable import ANCFCable2D, ANCFCable3D
    if element == "beam":
        return ANCFBeam3D(q_ref, E, rho, section, nu=nu, damping=damping)
    return (ANCFCable2D if element == "cable2d" else ANCFCable3D)(q_ref, E, rho, section, damping=damping)


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


def _frame_with_x(e):
    """Rotation matrix whose first column is the unit vector e."""
    helper = np.eye(3)[np.argmin(np.abs(e))]
    y = np.cross(e, helper)
    y /= np.linalg.norm(y)
    return np.column_stack([e, y, np.cross(e, y)])
