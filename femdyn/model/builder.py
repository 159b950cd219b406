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
from ..validation import count, positive, refuse_non_finite, vector3
from . import joints as J
from .checks import check_density, check_finite_parts, check_units
from .actuators import Actuator, Servo
from .bodies import Ground, NaturalBody
from .flexible import ELEMENT_KINDS, ElementSet, NodeFrame
from .loads import JointTorque, PointForce, ScaledForce
from .nodes import Node
from .springs import SpringDamper
from .sensors import (ActuatorSensor, BeamSensor, FlexiblePointSensor, GaugeSensor, JointAngleSensor, PointSensor,
                      ReactionSensor)


class Model:
    """Builder of a multibody model; :meth:`assemble` freezes it into a :class:`System`.

    Nodes own the coordinates q (NCF points and unit vectors, ANCF nodes); bodies,
    element sets, joints, loads and sensors refer to nodes and are added by name. All
    geometry (points, axes, directions) is given in the global frame in the initial
    configuration; SI units throughout.

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

    # --- nodes -------------------------------------------------------------------
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

    def point(self, name, position):
        """Add an NCF point node (3 coordinates).

        Parameters
        ----------
        name : str
            Unique node name.
        position : (3,) array_like
            m, global frame, initial configuration.

        Returns
        -------
        femdyn.model.nodes.Node

        Raises
        ------
        ModelError
            If the name is taken or the position is not three finite numbers.

        Examples
        --------
        >>> m = Model()
        >>> m.point("O", (0, 0, 0)).kind
        'point'
        """
        return self.add_node(name, "point", vector3(position, f"point node '{name}': position (m)"))

    def vector(self, name, direction):
        """Add an NCF unit-vector node (3 coordinates); its unit length is a constraint.

        Give it to a body (``rigid_body(..., vectors=...)``, ``rigid_beam(..., axis=...)``)
        to carry a joint axis or complete the body's orientation.

        Parameters
        ----------
        name : str
            Unique node name.
        direction : (3,) array_like
            Unit vector, global frame, initial configuration.

        Returns
        -------
        femdyn.model.nodes.Node

        Raises
        ------
        ModelError
            If the name is taken or ``|direction|`` differs from 1 by more than 1e-9.

        Examples
        --------
        >>> m = Model()
        >>> m.vector("u", (0, 1, 0)).is_unit
        True
        """
        d = vector3(direction, f"vector node '{name}': direction")
        if abs(np.linalg.norm(d) - 1.0) > 1e-9:
            raise ModelError(f"vector node '{name}': direction must be a unit vector, |d| = {np.linalg.norm(d):.12g}; "
                             "normalise it")
        return self.add_node(name, "vector", d)

    def cable_node(self, name, position, tangent=(1.0, 0.0, 0.0)):
        """Add an ANCF cable node: position r and position gradient r_x (6 coordinates).

        Parameters
        ----------
        name : str
            Unique node name.
        position : (3,) array_like
            r, m, global frame, initial configuration.
        tangent : (3,) array_like, optional
            r_x, the slope ∂r/∂x; the unit tangent of the centreline in the stress-free
            state (default global x).

        Returns
        -------
        femdyn.model.nodes.Node

        Raises
        ------
        ModelError
            If the name is taken or a vector is not three finite numbers.

        Examples
        --------
        >>> m = Model()
        >>> m.cable_node("c0", (0, 0, 0)).initial
        array([0., 0., 0., 1., 0., 0.])
        """
        return self.add_node(name, "cable", np.concatenate([vector3(position, f"cable node '{name}': position (m)"),
                                                             vector3(tangent, f"cable node '{name}': tangent")]))

    def beam_node(self, name, position, rx=(1.0, 0.0, 0.0), ry=(0.0, 1.0, 0.0), rz=(0.0, 0.0, 1.0)):
        """Add a fully parameterized ANCF node: r and the gradients r_x, r_y, r_z (12 coordinates).

        Parameters
        ----------
        name : str
            Unique node name.
        position : (3,) array_like
            r, m, global frame, initial configuration.
        rx, ry, rz : (3,) array_like, optional
            Position gradients along the material axes x (the beam axis) and y, z (the
            section axes); in the stress-free state an orthonormal right-handed triad
            (default the global axes).

        Returns
        -------
        femdyn.model.nodes.Node

        Raises
        ------
        ModelError
            If the name is taken or a vector is not three finite numbers.

        Examples
        --------
        >>> m = Model()
        >>> m.beam_node("b0", (0, 0, 0)).dofs.size
        12
        """
        return self.add_node(name, "beam", np.concatenate([vector3(v, f"beam node '{name}': {slot}")
                                                            for v, slot in zip((position, rx, ry, rz),
                                                                               ("position (m)", "rx", "ry", "rz"))]))

    def director_node(self, name, position, ry=(0.0, 1.0, 0.0), rz=(0.0, 0.0, 1.0)):
        """Add a node of the three-node quadratic ANCF beam: r and the directors r_y, r_z (9 coordinates).

        The node has no slope r_x; the element interpolates r quadratically between its
        end and midpoint nodes.

        Parameters
        ----------
        name : str
            Unique node name.
        position : (3,) array_like
            r, m, global frame, initial configuration.
        ry, rz : (3,) array_like, optional
            Section directors (unit vectors ⟂ the beam axis in the stress-free state;
            default global y and z).

        Returns
        -------
        femdyn.model.nodes.Node

        Raises
        ------
        ModelError
            If the name is taken or a vector is not three finite numbers.

        Examples
        --------
        >>> m = Model()
        >>> m.director_node("d0", (0, 0, 0)).slots
        ('r', 'ry', 'rz')
        """
        return self.add_node(name, "director", np.concatenate([vector3(v, f"director node '{name}': {slot}")
                                                                for v, slot in zip((position, ry, rz),
                                                                                   ("position (m)", "ry", "rz"))]))

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

    # --- bodies ------------------------------------------------------------------
    def _add_body(self, body):
        if body.name in self.bodies or body.name == "ground":
            raise ModelError(f"body '{body.name}' exists already; body names must be unique")
        self.bodies[body.name] = body
        return body

    def rigid_beam(self, name, p1, p2, mass=None, density=None, area=None, end_masses=(0.0, 0.0), axis=None):
        """Add Liu et al.'s (2018) rigid link: a uniform slender rod between two point nodes.

        The rod has 6 coordinates (the two end points) and the constant 6×6 mass matrix
        m[[1/3, 1/6], [1/6, 1/3]]⊗I₃ plus the end masses; one rigid condition keeps its
        length. It has no spin about its own axis, so a revolute joint needs its axis
        carried by the rod (``axis``) or by the other body.

        Parameters
        ----------
        name : str
            Unique body name.
        p1, p2 : str or Node
            The end point nodes (distinct positions); p1 is the body's first point (the
            reference of :meth:`set_rigid_velocity`).
        mass : float, optional
            Rod mass, kg (without the end masses).
        density, area : float, optional
            kg/m³ and m², used when ``mass`` is not given: mass = ρ A L.
        end_masses : (2,) array_like, optional
            Point masses at p1 and p2, kg (≥ 0).
        axis : str or Node, optional
            A unit-vector node added to the rod's basis (e.g. the axis of a revolute
            joint at one end, not along the rod).

        Returns
        -------
        femdyn.model.bodies.NaturalBody
            The body; ``body.length`` is its length in m.

        Raises
        ------
        ModelError
            If the ends coincide, neither ``mass`` nor ``density`` and ``area`` are
            given, a value is not positive, or the name is taken.

        Examples
        --------
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("A", (0, 0, 0)), m.point("B", (2.0, 0, 0)),
        ...                    density=7800.0, area=1e-4)
        >>> round(rod.mass, 6), float(rod.length)
        (1.56, 2.0)
        """
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

    def rigid_body(self, name, points, vectors=(), mass=1.0, com=None, inertia=None, strict=True):
        """Add a rigid body on natural coordinates (García de Jalón & Bayo 1994, ch. 2).

        A full spatial body takes 2 points + 2 unit vectors or 3 points + 1 vector
        (12 coordinates, 6 rigid conditions b_i·b_j = const); fewer basis vectors give a
        body that cannot turn about some axis (a rigid beam has 2 points only). The
        constant mass matrix follows from ``mass``, ``com`` and ``inertia``.

        Parameters
        ----------
        name : str
            Unique body name.
        points : sequence of str or Node
            Point nodes (≥ 1); the first is the body's origin.
        vectors : sequence of str or Node, optional
            Unit-vector nodes.
        mass : float, optional
            kg (positive).
        com : (3,) array_like, optional
            Centre of mass, m, global frame, initial configuration (default the first
            point).
        inertia : (3, 3) array_like, optional
            Inertia tensor about the centre of mass, kg·m², global axes, initial
            configuration (default zero: a point mass).
        strict : bool, optional
            True (default) refuses an inertia that is not positive or violates the
            triangle inequality; False accepts it with a
            :class:`~femdyn.errors.PhysicalConsistencyWarning` (the mass must still be
            positive: it makes the body's mass matrix).

        Returns
        -------
        femdyn.model.bodies.NaturalBody

        Raises
        ------
        ModelError
            If the basis nodes are collinear or more than 3, the mass is not positive,
            the inertia is not a symmetric positive tensor satisfying the triangle
            inequality (unless ``strict=False``), or the name is taken.
        NonFiniteError
            If a number is NaN or infinite.

        Examples
        --------
        >>> import numpy as np
        >>> m = Model()
        >>> P, Q = m.point("P", (0, 0, 0)), m.point("Q", (1.0, 0, 0))
        >>> u, v = m.vector("u", (0, 1, 0)), m.vector("v", (0, 0, 1))
        >>> box = m.rigid_body("box", [P, Q], [u, v], mass=2.0, com=(0.5, 0, 0),
        ...                    inertia=np.diag([0.1, 0.2, 0.2]))
        >>> m.assemble().degrees_of_freedom()
        6
        """
        points, vectors = [self.node(p) for p in points], [self.node(v) for v in vectors]
        com = points[0].initial if com is None else vector3(com, f"rigid body '{name}': com (m)")
        inertia = np.zeros((3, 3)) if inertia is None else inertia
        return self._add_body(NaturalBody(name, points, vectors, positive(mass, f"rigid body '{name}': mass", "kg"),
                                          com, inertia, strict=strict))

    def triangle_platform(self, name, center, normal, circumradius, thickness=0.0, density=None, mass=None,
                          first_vertex=(1.0, 0.0, 0.0)):
        """Add Liu et al.'s (2018) moving platform: a uniform equilateral triangle.

        Natural coordinates q_a = (A1, A2, u, v) ∈ R¹²: vertices A1, A2 (point nodes
        ``<name>.A1``, ``<name>.A2``), the unit normal u (``<name>.u``) and the in-plane
        unit vector v ⟂ A1A2 pointing to the third vertex (``<name>.v``). Give exactly one
        of ``density`` and ``mass``.

        Parameters
        ----------
        name : str
            Unique body name (prefix of its node names).
        center : (3,) array_like
            Centroid, m, global frame, initial configuration.
        normal : (3,) array_like
            Plate normal, global frame (normalised).
        circumradius : float
            Distance from the centroid to each vertex, m.
        thickness : float, optional
            m (≥ 0); adds m t²/12 to the in-plane moments of inertia.
        density : float, optional
            kg/m³ (with ``thickness`` > 0).
        mass : float, optional
            kg.
        first_vertex : (3,) array_like, optional
            Direction from the centroid to A1, projected on the plate plane.

        Returns
        -------
        femdyn.model.bodies.NaturalBody
            The body; ``body.vertices`` are the three vertex positions (m) at t = 0,
            counter-clockwise about the normal.

        Raises
        ------
        ModelError
            If ``first_vertex`` is parallel to the normal, both or neither of density and
            mass are given, or a value is not positive.

        Examples
        --------
        >>> m = Model()
        >>> plate = m.triangle_platform("P", (0, 0, 1.0), (0, 0, 1), 0.2, mass=3.0)
        >>> [round(float(x), 6) for x in plate.vertices[0]]
        [0.2, 0.0, 1.0]
        """
        center, n = vector3(center, f"platform '{name}': center (m)"), J._unit(normal, f"platform '{name}' normal")
        first_vertex = vector3(first_vertex, f"platform '{name}': first_vertex")
        d = first_vertex - n * (n @ first_vertex)
        if np.linalg.norm(d) < 1e-9:
            raise ModelError(f"platform '{name}': first_vertex direction is parallel to the normal")
        d /= np.linalg.norm(d)
        e2 = np.cross(n, d)
        verts = [center + circumradius * (np.cos(a) * d + np.sin(a) * e2) for a in (0, 2 * np.pi / 3, 4 * np.pi / 3)]
        if density is not None:
            check_density(f"platform '{name}'", density)
        m, I_local = ncf.equilateral_plate(circumradius, thickness, density, mass, f"platform '{name}'")
        R = np.column_stack([d, e2, n])
        A1, A2 = self.point(f"{name}.A1", verts[0]), self.point(f"{name}.A2", verts[1])
        v = verts[2] - 0.5 * (verts[0] + verts[1])
        u_node, v_node = self.vector(f"{name}.u", n), self.vector(f"{name}.v", v / np.linalg.norm(v))
        body = self._add_body(NaturalBody(name, [A1, A2], [u_node, v_node], m, center, R @ I_local @ R.T))
        body.vertices = verts
        return body

    def flexible_body(self, name, component, position=(0.0, 0.0, 0.0), axes=None, modes=None, eta=None):
        """A flexible body in floating-frame-of-reference form from a component file
        (:mod:`femdyn.model.floating_frame`): reference frame in natural coordinates plus the
        component's modal coordinates, and one massless frame per interface for joints.

        Parameters
        ----------
        name : str
            Body name; its interface frames are the bodies ``"<name>.<interface>"``.
        component : str, path or Component
            A ``.fdc`` file or a loaded :class:`~femdyn.component.Component`.
        position : array_like (3,)
            Global position (m) of the component's reference-frame origin at t = 0.
        axes : array_like (3, 3), optional
            Rotation matrix whose columns are the reference axes in global components
            (default: the global axes).
        modes : int, optional
            Keep only the first ``modes`` modes (default all; 0 gives a rigid body).
        eta : array_like, optional
            Initial modal coordinates (unit modal mass; default zero).

        Returns
        -------
        FloatingFrameBody

        Raises
        ------
        ModelError
            For axes that are not a rotation, a mode count out of range, a wrong η size.
        ComponentError
            For an unreadable or invalid component file.

        Example
        -------
        >>> link = m.flexible_body("link", "link.fdc", position=(0, 0, 0))      # doctest: +SKIP
        >>> m.revolute("hub", m.ground, link.interface("x0"), (0, 0, 0), (0, 0, 1))   # doctest: +SKIP
        """
        from femdyn.component import Component, read_component
        from .floating_frame import FloatingFrameBody, InterfaceFrame, modal_node_kind, truncated
        from ..geometry import rotated_vector
        what = f"flexible body '{name}'"
        comp = component if isinstance(component, Component) else read_component(component)
        if modes is not None and not (isinstance(modes, (int, np.integer)) and modes == 0):
            modes = count(modes, f"{what}: modes")
        comp = truncated(comp, comp.n_modes if modes is None else int(modes), what)
        R = np.eye(3) if axes is None else np.asarray(axes, float)
        if R.shape != (3, 3) or not np.allclose(R.T @ R, np.eye(3), atol=1e-9) or np.linalg.det(R) < 0:
            raise ModelError(f"{what}: axes must be a 3×3 rotation matrix (orthonormal columns, det +1), got {R!r}")
        n_modes = comp.n_modes
        eta = np.zeros(n_modes) if eta is None else np.asarray(eta, float).ravel()
        if eta.shape != (n_modes,) or not np.all(np.isfinite(eta)):
            raise ModelError(f"{what}: eta must hold {n_modes} finite modal coordinates, got {eta!r}")
        position = vector3(position, f"{what}: position (m)")
        origin = self.point(f"{name}.origin", position)
        frame_axes = [self.vector(f"{name}.{c}", R[:, k]) for k, c in enumerate("xyz")]
        modal = None
        if n_modes:
            kind = modal_node_kind(n_modes)
            modal = self.add_node(f"{name}.eta", kind, np.concatenate([eta, np.zeros(-n_modes % 3)]))
        body = self._add_body(FloatingFrameBody(name, comp, origin, frame_axes, modal))
        names = [i.get("name", f"interface{k}") for k, i in enumerate(comp.header.get("interfaces", []))]
        names += [f"interface{k}" for k in range(len(names), len(comp.interface_origins))]
        for k, (iname, o, shape) in enumerate(zip(names, comp.interface_origins, comp.interface_shapes)):
            rot = rotated_vector(np.tile(shape[3:] @ eta, (3, 1)), np.eye(3), second=False)[0].T   # columns R_k e_j
            point = self.point(f"{name}.{iname}", position + R @ (o + shape[:3] @ eta))
            vecs = [self.vector(f"{name}.{iname}.{c}", R @ rot[:, j]) for j, c in enumerate("xyz")]
            body.interfaces.append(self._add_body(InterfaceFrame(f"{name}.{iname}", body, k, point, vecs)))
        return body

    # --- flexible beams -----------------------------------------------------------
    def ancf_beam(self, name, nodes, E, rho, section, element="cable", nu=0.3, damping=0.0, y_axis=None):
        """Add a chain of ANCF elements between consecutive ``nodes`` (shared nodes).

        Element kinds:

        - "cable": ANCFCable3D on cable nodes (axial strain and curvature; straight
          reference only);
        - "cable2d": ANCFCable2D on cable nodes that lie in a plane z = const with r_x in
          it (the model fixes their z components, for planar studies);
        - "beam": ANCFBeam3D on beam nodes (extension, shear, bending, torsion;
          locking-free);
        - "beam3": ANCFBeamQuadratic on director nodes taken three at a time,
          end–midpoint–end, sharing the end nodes (the same strains, fourth-order bending
          accuracy, free of membrane locking on curves).

        Each element's parameter length is the arc length of its reference axis; the
        nodes' initial coordinates are the stress-free reference.

        Parameters
        ----------
        name : str
            Unique element-set name (used by sensors and loads).
        nodes : sequence of str or Node
            At least two nodes of the element's node kind, in order along the axis
            ("beam3": an odd number).
        E : float
            Young's modulus, Pa.
        rho : float
            Density, kg/m³.
        section : femdyn.elements.sections.CrossSection
            Cross-section properties (m², m⁴), e.g. ``sections.circular(r)``.
        element : str, optional
            "cable" (default), "cable2d", "beam" or "beam3", or a registered kind
            (:func:`femdyn.model.flexible.register_element_kind`).
        nu : float, optional
            Poisson ratio (beams: shear modulus G = E / 2(1 + ν)).
        damping : float, optional
            Kelvin–Voigt coefficient c, s: each strain's stress gains c times its
            rate (σ_d = c E ε̇ for the axial strain).
        y_axis : (3,) array_like, optional
            Section y direction of a 3-D cable, global frame (strain recovery only; a
            beam's section axes are its nodes' r_y, r_z).

        Returns
        -------
        femdyn.model.flexible.ElementSet

        Raises
        ------
        ModelError
            If the element kind is unknown, a node has the wrong kind, the node count
            does not fit the element, the name is taken, or the kernel rejects the
            material or geometry.

        Examples
        --------
        >>> from femdyn.elements import sections
        >>> m = Model()
        >>> nodes = [m.cable_node(f"n{i}", (0.5 * i, 0, 0)) for i in range(3)]
        >>> cable = m.ancf_beam("cable", nodes, E=2.1e11, rho=7850.0, section=sections.circular(0.01))
        >>> cable.count
        2
        """
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
            raise type(err)(f"ANCF beam '{name}': {err}") from None
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
        """Mesh a straight beam from ``start`` to ``end`` into ``n_elements`` equal ANCF elements.

        New nodes are named ``<name>.0`` … ``<name>.<n>``; with ``element="beam3"`` each
        element gets a midpoint node too (``<name>.0`` … ``<name>.<2n>``, the ends at even
        indices). The cross-section axes are ``y_axis`` (projected ⟂ the beam axis) and
        z = x × y: the nodes' r_y, r_z of beam elements, the frame of strain gauges on a
        3-D cable.

        Parameters
        ----------
        name : str
            Unique element-set name (prefix of the node names).
        start, end : (3,) array_like
            End points of the axis, m, global frame, initial (stress-free) configuration.
        n_elements : int
            Number of elements (≥ 1).
        E, rho, section, element, nu, damping
            As in :meth:`ancf_beam` (Pa, kg/m³, cross section, element kind, Poisson
            ratio, Kelvin–Voigt coefficient in s).
        first, last : str or Node, optional
            Existing nodes to reuse as the start and end node (to share them with other
            parts). A reused node must lie at the end and carry this beam's tangent (and
            section axes): a node has one slope, so a corner needs two nodes joined
            rigidly (:meth:`clamp`).
        y_axis : (3,) array_like, optional
            Section y direction, global frame (default global y, or global z for a beam
            along y).

        Returns
        -------
        femdyn.model.flexible.ElementSet

        Raises
        ------
        ModelError
            If start and end coincide, ``n_elements`` is not a whole number ≥ 1, a reused
            node is not at the end or has other gradients, or as in :meth:`ancf_beam`.

        Examples
        --------
        >>> from femdyn.elements import sections
        >>> m = Model()
        >>> beam = m.straight_beam("arm", (0, 0, 0), (1.0, 0, 0), 4, E=7e10, rho=2700.0,
        ...                        section=sections.rectangular(0.02, 0.01), element="beam")
        >>> beam.count, m.node("arm.4").initial[:3].tolist()
        (4, [1.0, 0.0, 0.0])
        """
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
        """Add an ANCF chain through centreline points, one element between neighbours.

        Nodes are named ``<name>.0``, ``<name>.1``, …. A centreline whose last point
        repeats the first is a closed loop: its last element ends on the first node.

        Parameters
        ----------
        name : str
            Unique element-set name (prefix of the node names).
        points : (n, 3) array_like
            Centreline points, m, global frame, stress-free configuration.
        E, rho, section, damping, nu
            As in :meth:`ancf_beam` (Pa, kg/m³, cross section, Kelvin–Voigt coefficient
            in s, Poisson ratio for beams).
        tangents : (n, 3) array_like, optional
            Node tangents (normalised); default second-order estimates from the points
            (:func:`femdyn.mesh.lines.polyline_tangents`: exact on circles).
        element : str, optional
            The element kind:

            - "cable": ANCFCable3D, straight centrelines only (the 3-D cable is a
              straight-reference element); ``y_axis`` orients its strain gauges;
            - "cable2d": ANCFCable2D, curves in a plane z = const (the model keeps them
              in it);
            - "beam": ANCFBeam3D, any curve; section y axes from the hint ``y_axis``
              ((3,) or one per point) projected on the plane ⟂ the tangent, by default
              the global y axis projected at the first point (global z if the curve
              starts along y) carried along by parallel transport (no twist);
            - "beam3": ANCFBeamQuadratic, as "beam" with the points taken three at a
              time (end, midpoint, end, …): an odd number of points (an even one for a
              loop);
            - None (default): "cable" for straight centrelines, "cable2d" for curves in
              a plane z = const, otherwise an error asking for "beam".
        y_axis : (3,) or (n, 3) array_like, optional
            Section y direction hint, global frame.

        Returns
        -------
        femdyn.model.flexible.ElementSet

        Raises
        ------
        ModelError
            If the points are too few or repeated, the curve does not suit the element,
            or as in :meth:`ancf_beam`.

        Examples
        --------
        >>> import numpy as np
        >>> from femdyn.elements import sections
        >>> m = Model()
        >>> angles = np.linspace(0, np.pi / 2, 5)
        >>> arc = m.beam_through_points("arc", np.column_stack([np.cos(angles), np.sin(angles), 0 * angles]),
        ...                             E=2e11, rho=7800.0, section=sections.circular(0.005))
        >>> arc.count, m.node("arc.0").kind
        (4, 'cable')
        """
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
        """Add ANCF chains from a line mesh file read with meshio (VTK, Gmsh, …).

        One element per line cell; several unbranched chains become ``name``,
        ``name#1``, …; closed loops close on their first node.

        Parameters
        ----------
        name : str
            Name of the first element set (the others get ``#1``, ``#2``, …).
        path : str or os.PathLike
            Line mesh file with 2-node "line" cells.
        E, rho, section, damping
            As in :meth:`ancf_beam`.
        scale : float, optional
            Converts the file's length unit to m (e.g. 1e-3 for mm).
        element, y_axis, nu
            As in :meth:`beam_through_points`.

        Returns
        -------
        list of femdyn.model.flexible.ElementSet
            One per chain.

        Raises
        ------
        ModelError
            If the file cannot be read, has no line cells or branches, or as in
            :meth:`beam_through_points`.

        Examples
        --------
        >>> import os, tempfile, meshio, numpy as np
        >>> from femdyn.elements import sections
        >>> folder = tempfile.TemporaryDirectory()
        >>> path = os.path.join(folder.name, "line.vtk")
        >>> meshio.write_points_cells(path, np.array([[0.0, 0, 0], [500, 0, 0], [1000, 0, 0]]),
        ...                           [("line", np.array([[0, 1], [1, 2]]))])
        >>> m = Model()
        >>> [b.count for b in m.beam_from_mesh("rod", path, 2e11, 7800.0, sections.circular(0.01), scale=1e-3)]
        [2]
        >>> folder.cleanup()
        """
        from femdyn.mesh.lines import read_line_mesh
        points, chains = read_line_mesh(path)
        return [self.beam_through_points(name if k == 0 else f"{name}#{k}", scale * points[c], E, rho, section,
                                         damping, element=element, y_axis=y_axis, nu=nu)
                for k, c in enumerate(chains)]

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

    # --- joints ------------------------------------------------------------------
    def _add_joint(self, joint):
        if joint.name in self.joints:
            raise ModelError(f"joint '{joint.name}' exists already; joint names must be unique")
        self.joints[joint.name] = joint
        return joint

    def fix(self, node, name=None, components=None):
        """Fix a node's coordinates at their initial values (ground coordinates stay in q).

        Parameters
        ----------
        node : str or Node
            The node.
        name : str, optional
            Joint name (default ``"fix <node>"``).
        components : sequence of int, optional
            Indices within the node's coordinates to fix (e.g. (2,) for z of a point,
            (0, 1, 2) for the position of an ANCF node); default all of them. A unit
            vector then keeps its two smaller components fixed (the third follows from
            its length).

        Returns
        -------
        femdyn.model.joints.Fix
            One row per fixed coordinate k; the reaction on the node is −λ_k along that
            coordinate (N for position coordinates).

        Raises
        ------
        ModelError
            If the joint name is taken or the node unknown.

        Examples
        --------
        >>> m = Model()
        >>> P = m.point("P", (0, 0, 1.0))
        >>> len(m.fix(P, components=(2,)).equations())
        1
        """
        node = self.node(node)
        return self._add_joint(J.Fix(name or f"fix {node.name}", node, components))

    def clamp(self, name, node, body="ground"):
        """Clamp an ANCF node rigidly to a body or the ground.

        The node's position follows the body (3 rows) and so does the section: a cable
        node's tangent r_x keeps its direction in the body (2 rows; its length, the axial
        stretch, stays free: 5 rows in all); a beam or director node's directors r_y, r_z
        follow the body (6 rows) while r_x stays free so that shear can develop (a
        Timoshenko clamp: 9 rows in all).

        Parameters
        ----------
        name : str
            Unique joint name.
        node : str or Node
            The ANCF node (cable, beam or director node).
        body : str or body, optional
            The body it is clamped to (default the ground); it must span the directions
            involved (a cable node needs two directions ⟂ its tangent).

        Returns
        -------
        femdyn.model.joints.Clamp
            Its first three multipliers are the force on the body, N, global frame
            (the node carries the opposite force).

        Raises
        ------
        ModelError
            If the body lacks the needed material directions or the name is taken.

        Examples
        --------
        >>> from femdyn.elements import sections
        >>> m = Model()
        >>> beam = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
        >>> len(m.clamp("root", "b.0").equations())
        5
        """
        return self._add_joint(J.Clamp(name, self.node(node), self.body(body)))

    def spherical(self, name, body_a, body_b, point):
        """Join two bodies by a ball joint: their material points at ``point`` coincide (3 rows).

        Parameters
        ----------
        name : str
            Unique joint name.
        body_a, body_b : str or body
            The two bodies (or "ground", or an ANCF node); the constraint force of the
            reaction acts on ``body_b`` (−F on ``body_a``).
        point : (3,) array_like
            Joint centre, m, global frame, initial configuration; it must be a material
            point of both bodies (on the axis of a rigid beam).

        Returns
        -------
        femdyn.model.joints.Spherical
            Its multipliers (x, y, z) are the constraint force on ``body_b``, N, global
            frame (see :meth:`sensor_reaction`).

        Raises
        ------
        ModelError
            If the point lies outside a body's span or the name is taken.

        Examples
        --------
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (0, 0, -1.0)), mass=1.0)
        >>> _ = m.spherical("ball", "ground", rod, point=(0, 0, 0))
        >>> m.assemble().degrees_of_freedom()      # the rod's spin about itself is no coordinate
        2
        """
        return self._add_joint(J.Spherical(name, self.body(body_a), self.body(body_b), point))

    def revolute(self, name, body_a, body_b, point, axis, angle0=0.0):
        """Join two bodies by a hinge about ``axis`` through ``point``.

        Coincidence of the two bodies' material points at ``point`` (3 rows) plus up to
        two independent orientation rows keeping the axis common to both bodies. One of
        the bodies must carry the axis as a material direction (the ground always does;
        a rigid beam needs ``rigid_beam(..., axis=...)`` unless the axis lies along it).

        Sign conventions: the joint angle is the rotation of ``body_b`` relative to
        ``body_a`` about ``axis``, right-handed, equal to ``angle0`` in the initial
        configuration (see :meth:`sensor_angle`, :meth:`drive_angle`); a joint torque
        (:meth:`torque`) acts on ``body_b`` about the axis and increases that angle.

        Parameters
        ----------
        name : str
            Unique joint name.
        body_a, body_b : str or body
            The two bodies (or "ground", or an ANCF node). ``body_b`` is the one whose
            rotation the joint angle measures and on which the reaction force acts.
        point : (3,) array_like
            A point of the hinge axis, m, global frame, initial configuration; it must
            be a material point of both bodies.
        axis : (3,) array_like
            Hinge axis direction, global frame, initial configuration (normalised).
        angle0 : float, optional
            Joint angle in the initial configuration, rad.

        Returns
        -------
        femdyn.model.joints.Revolute
            Its first three multipliers are the constraint force on ``body_b``, N,
            global frame.

        Raises
        ------
        ModelError
            If neither body carries the axis, the point is not a material point of both
            bodies, or the name is taken.

        Examples
        --------
        A rod falling from the horizontal turns about +y by θ ≈ (3g/2L)·t²/2 at first:

        >>> from femdyn.solvers.generalized_alpha import integrate
        >>> m = Model("pendulum")
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=2.0)
        >>> _ = m.revolute("pivot", "ground", rod, point=(0, 0, 0), axis=(0, 1, 0))
        >>> _ = m.sensor_angle("theta", "pivot")
        >>> results = integrate(m.assemble(), t_end=0.1, h=0.01)
        >>> round(float(results["theta.angle"][-1]), 3)
        0.074
        """
        return self._add_joint(J.Revolute(name, self.body(body_a), self.body(body_b), point, axis, angle0))

    def universal(self, name, body_a, body_b, point, axis_a, axis_b):
        """Join two bodies by a Hooke (universal) joint: coincidence plus u_a·u_b = 0 (4 rows).

        Parameters
        ----------
        name : str
            Unique joint name.
        body_a, body_b : str or body
            The two bodies (or "ground", or an ANCF node); the reaction force acts on
            ``body_b``.
        point : (3,) array_like
            Joint centre, m, global frame, initial configuration (a material point of
            both bodies).
        axis_a : (3,) array_like
            Cross axis fixed in ``body_a``, global frame, initial configuration.
        axis_b : (3,) array_like
            Cross axis fixed in ``body_b``, perpendicular to ``axis_a``.

        Returns
        -------
        femdyn.model.joints.Universal
            Its first three multipliers are the constraint force on ``body_b``, N,
            global frame; the fourth that of the perpendicularity row.

        Raises
        ------
        ModelError
            If the axes are not perpendicular, a body cannot carry its axis, or the name
            is taken.

        Examples
        --------
        >>> m = Model()
        >>> P, Q, u = m.point("P", (0, 0, 0)), m.point("Q", (0, 0, -1.0)), m.vector("u", (1, 0, 0))
        >>> link = m.rigid_body("link", [P, Q], [u], mass=1.0, com=(0, 0, -0.5))
        >>> _ = m.universal("hooke", "ground", link, (0, 0, 0), axis_a=(0, 1, 0), axis_b=(1, 0, 0))
        >>> m.assemble().degrees_of_freedom()
        2
        """
        return self._add_joint(J.Universal(name, self.body(body_a), self.body(body_b), point, axis_a, axis_b))

    def weld(self, name, body_a, body_b, point):
        """Join two bodies rigidly at ``point``.

        Coincidence of the two bodies' material points at ``point`` (3 rows) and the
        relative rotation locked (3 rows, held at its initial value). Both bodies need full
        orientation (three material directions): the ground, a full rigid body, an
        interface frame of a flexible body (``"<body>.<interface>"``), e.g. a flexible
        body clamped to the ground: ``m.weld("root", m.ground, "link.x0", (0, 0, 0))``.

        Parameters
        ----------
        name : str
            Unique joint name.
        body_a, body_b : str or body
            The two bodies (or "ground"). The first three multipliers are the constraint
            force on ``body_b`` (N, global frame; ``body_a`` carries −F).
        point : (3,) array_like
            The weld point, m, global frame, initial configuration; a material point of
            both bodies.

        Returns
        -------
        femdyn.model.joints.Weld

        Raises
        ------
        ModelError
            If a body cannot have its rotation locked (fewer than three material
            directions, or a flexible body itself instead of its interface frame), the
            point is not a material point of both bodies, or the name is taken.

        Examples
        --------
        A 2 kg box welded to the ground keeps no degree of freedom; the weld holds up
        its weight, 2 kg · 9.81 m/s²:

        >>> import numpy as np
        >>> from femdyn.solvers.static import static_equilibrium
        >>> m = Model()
        >>> P, Q = m.point("P", (0, 0, 0)), m.point("Q", (1.0, 0, 0))
        >>> u, v = m.vector("u", (0, 1, 0)), m.vector("v", (0, 0, 1))
        >>> box = m.rigid_body("box", [P, Q], [u, v], mass=2.0, com=(0.5, 0, 0),
        ...                    inertia=np.diag([0.1, 0.2, 0.2]))
        >>> _ = m.weld("root", "ground", box, (0, 0, 0))
        >>> _ = m.sensor_reaction("R", "root")
        >>> system = m.assemble()
        >>> system.degrees_of_freedom()
        0
        >>> q, lam = static_equilibrium(system)
        >>> system.sensors[0].measure(q, system.v0, None, lam, 0.0)[:3].round(6).tolist()
        [0.0, 0.0, 19.62]
        """
        return self._add_joint(J.Weld(name, self.body(body_a), self.body(body_b), point))

    def prismatic(self, name, body_a, body_b, point, axis):
        """Join two bodies by a slider along ``axis`` carried by ``body_a``.

        ``body_b``'s material point at ``point`` stays on ``body_a``'s line through
        ``point`` along ``axis`` (2 rows) and the relative rotation is locked (up to 3
        rows). The slider displacement is that of ``body_b`` relative to ``body_a``
        along ``axis`` (see :meth:`actuator`).

        Parameters
        ----------
        name : str
            Unique joint name.
        body_a : str or body
            The guide, carrying the axis; it needs two material directions ⟂ the axis
            (a full rigid body or the ground).
        body_b : str or body
            The slider.
        point : (3,) array_like
            A point of the sliding line, m, global frame, initial configuration.
        axis : (3,) array_like
            Sliding direction, global frame, initial configuration (normalised).

        Returns
        -------
        femdyn.model.joints.Prismatic

        Raises
        ------
        ModelError
            If ``body_a`` cannot carry the line or the relative rotation cannot be
            locked, or the name is taken.

        Examples
        --------
        >>> import numpy as np
        >>> m = Model()
        >>> P, Q = m.point("P", (0, 0, 0)), m.point("Q", (1.0, 0, 0))
        >>> u, v = m.vector("u", (0, 1, 0)), m.vector("v", (0, 0, 1))
        >>> block = m.rigid_body("block", [P, Q], [u, v], mass=1.0, inertia=np.eye(3) * 0.01)
        >>> _ = m.prismatic("slider", "ground", block, (0, 0, 0), axis=(1, 0, 0))
        >>> m.assemble().degrees_of_freedom()
        1
        """
        return self._add_joint(J.Prismatic(name, self.body(body_a), self.body(body_b), point, axis))

    def distance(self, name, body_a, point_a, body_b, point_b, distance=None):
        """Keep two material points at a fixed distance: ‖p_a − p_b‖² = d² (1 row).

        A massless rigid rod with ball joints at both ends.

        Parameters
        ----------
        name : str
            Unique joint name.
        body_a : str or body
            Body of the first point (or "ground", or an ANCF node).
        point_a : (3,) array_like
            First point, m, global frame, initial configuration.
        body_b : str or body
            Body of the second point.
        point_b : (3,) array_like
            Second point, m, global frame, initial configuration.
        distance : float, optional
            d, m (default the initial distance).

        Returns
        -------
        femdyn.model.joints.Distance
            Its multiplier λ is that of the row (p_a − p_b)² − d² = 0: the rod's tension
            is 2 λ d (N, positive in tension).

        Raises
        ------
        ModelError
            If the distance is not positive, a point lies outside a body's span, or the
            name is taken.

        Examples
        --------
        A 1 kg bar hanging level on two 1 m strings: each carries half its weight.

        >>> from femdyn.solvers.static import static_equilibrium
        >>> m = Model()
        >>> bar = m.rigid_beam("bar", m.point("A", (0, 0, -1.0)), m.point("B", (0.5, 0, -1.0)), mass=1.0)
        >>> _ = m.distance("left", "ground", (0, 0, 0), bar, (0, 0, -1.0))
        >>> _ = m.distance("right", "ground", (0.5, 0, 0), bar, (0.5, 0, -1.0))
        >>> system = m.assemble()
        >>> q, lam = static_equilibrium(system)
        >>> round(float(2 * lam[system.joint_rows["left"]][0] * 1.0), 6)     # tension 2 λ d, N
        4.905
        """
        return self._add_joint(J.Distance(name, self.body(body_a), point_a, self.body(body_b), point_b, distance))

    def drive_angle(self, name, revolute, function):
        """Prescribe the angle of a revolute joint: a driving constraint θ(q) = f(t) (1 row).

        θ is the joint angle of :meth:`revolute` (``body_b`` relative to ``body_a`` about
        the axis, ``angle0`` in the initial configuration), so f(0) should equal
        ``angle0`` for consistent initial conditions.

        Parameters
        ----------
        name : str
            Unique joint name.
        revolute : str or femdyn.model.joints.Revolute
            The revolute joint (by name or object) of this model.
        function : TimeFunction, float or callable
            f(t), rad (see :func:`femdyn.motion.timefunctions.as_time_function`).

        Returns
        -------
        femdyn.model.joints.AngleDrive
            Its multiplier λ is minus the drive torque on ``body_b`` about the axis
            (N·m); :meth:`sensor_reaction` reports the torque itself.

        Raises
        ------
        ModelError
            If ``revolute`` is not a revolute joint of the model, a body has no
            material vector ⟂ the axis, or ``function`` is not a function of time.

        Examples
        --------
        >>> from femdyn.motion import Polynomial
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
        >>> _ = m.drive_angle("motor", "pivot", Polynomial([0.0, 1.0]))     # θ = 1 rad/s · t
        >>> m.assemble().degrees_of_freedom()
        0
        """
        rev = self._revolute(revolute)
        return self._add_joint(J.AngleDrive(name, rev, as_time_function(function, f"angle drive '{name}'")))

    def drive_coordinate(self, name, body, point, direction, function):
        """Prescribe one coordinate of a body's material point: d·r(q) = f(t) (1 row).

        Parameters
        ----------
        name : str
            Unique joint name.
        body : str or body
            The body (or an ANCF node).
        point : (3,) array_like
            The material point, m, global frame, initial configuration.
        direction : (3,) array_like
            d, global frame (normalised).
        function : TimeFunction, float or callable
            f(t), m: the absolute coordinate d·r, so f(0) should be d·point.

        Returns
        -------
        femdyn.model.joints.CoordinateDrive
            Its multiplier λ gives the driving force on the point, −λ d (N).

        Raises
        ------
        ModelError
            If the point lies outside the body's span, d is zero, or the name is taken.

        Examples
        --------
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
        >>> _ = m.drive_coordinate("lift", rod, (1.0, 0, 0), (0, 0, 1), lambda t: 0.1 * t)
        >>> m.assemble().degrees_of_freedom()
        0
        """
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

    def _revolute(self, joint):
        joint = self.joints.get(joint, joint) if isinstance(joint, str) else joint
        if not isinstance(joint, J.Revolute):
            raise ModelError(f"'{getattr(joint, 'name', joint)}' is not a revolute joint of this model")
        return joint

    # --- loads, sensors, initial velocity ---------------------------------------------
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
        >>> m = Model(gravity=(0, 0, 0))
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=3.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 0, 1))
        >>> _ = m.torque("motor", "pivot", 1.0)                 # 1 N·m about +z
        >>> system = m.assemble()
        >>> float(system.forces(system.q0, system.v0, 0.0)[4])      # on A.y: T/L = 1 N
        1.0
        """
        self.loads.append(JointTorque(name, self._revolute(revolute), function))
        return self.loads[-1]

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
        >>> m = Model(gravity=(0, 0, 0))
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> _ = m.force("push", rod, (0.25, 0, 0), (0, 0, 4.0))
        >>> system = m.assemble()
        >>> system.forces(system.q0, system.v0, 0.0).tolist()   # shared 3:1 by O and A
        [0.0, 0.0, 3.0, 0.0, 0.0, 1.0]
        """
        self.loads.append(PointForce(name, self.body(body).material_point(point),
                                     vector3(force, f"force '{name}' (N)"), function))
        return self.loads[-1]

    def spring(self, name, body_a, point_a, body_b, point_b, stiffness, damping=0.0, rest_length=None):
        """A linear spring-damper between two material points (a force element, unlike the
        rigid :meth:`distance`): tension k (ℓ − L₀) + c ℓ̇ along the line of the points
        (:class:`~femdyn.model.springs.SpringDamper`).

        Parameters
        ----------
        name : str
            Unique part name.
        body_a : str or body
            Body of the first point (or "ground", or an ANCF node).
        point_a : (3,) array_like
            First point, m, global frame, initial configuration.
        body_b : str or body
            Body of the second point.
        point_b : (3,) array_like
            Second point, m, global frame, initial configuration.
        stiffness : float
            k, N/m (≥ 0).
        damping : float, optional
            c, N·s/m (≥ 0).
        rest_length : float, optional
            L₀, m (default the initial distance of the points).

        Returns
        -------
        femdyn.model.springs.SpringDamper

        Raises
        ------
        ModelError
            If a point lies outside its body's span, k or c is negative, the rest length
            is not positive, or the name is taken.

        Examples
        --------
        A 2 kg slider tied to the ground by a 800 N/m spring, its rest length the initial
        distance (1 m); pulled 1 cm further out, the spring pulls back with 8 N:

        >>> import numpy as np
        >>> m = Model(gravity=(0, 0, 0))
        >>> block = m.rigid_beam("block", m.point("A", (1.0, 0, 0)), m.point("B", (1.2, 0, 0)), mass=2.0)
        >>> _ = m.prismatic("slider", "ground", block, (1.0, 0, 0), axis=(1, 0, 0))
        >>> spring = m.spring("spring", "ground", (0, 0, 0), block, (1.0, 0, 0), stiffness=800.0)
        >>> system = m.assemble()
        >>> q = system.q0 + 0.01 * np.array([1.0, 0, 0, 1.0, 0, 0])
        >>> float(system.forces(q, system.v0, 0.0)[[0, 3]].sum().round(9))
        -8.0
        """
        body_a, body_b = self.body(body_a), self.body(body_b)
        pa, pb = body_a.material_point(point_a), body_b.material_point(point_b)
        q0 = self.initial_coordinates()[0]
        return self.add(SpringDamper(name, pa, pb, stiffness, damping, rest_length, q0))

    def sensor_point(self, name, body, point):
        """Record the position and velocity of a material point of a body.

        Parameters
        ----------
        name : str
            Sensor name; channels ``<name>.x``, ``.y``, ``.z`` (m) and ``.vx``, ``.vy``,
            ``.vz`` (m/s), global frame.
        body : str or body
            The body (or an ANCF node, or a flexible body of :meth:`flexible_body`).
        point : (3,) array_like
            The material point, m, global frame, initial configuration; for a flexible
            body one of its component's output points, m, reference-frame coordinates.

        Returns
        -------
        femdyn.model.sensors.PointSensor or femdyn.model.sensors.FlexiblePointSensor

        Raises
        ------
        ModelError
            If the point lies outside the body's span or the sensor name is taken.

        Examples
        --------
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> m.sensor_point("mid", rod, (0.5, 0, 0)).columns[:3]
        ('mid.x', 'mid.y', 'mid.z')
        """
        body = self.body(body)
        if hasattr(body, "locate_output_point"):
            return self._add_sensor(FlexiblePointSensor(name, body, body.locate_output_point(point)))
        return self._add_sensor(PointSensor(name, body.material_point(point)))

    def sensor_gauge(self, name, body, gauge):
        """Strain gauge on a flexible body (:meth:`flexible_body`): the six strains at one of
        its component's gauge points, given by index or by its reference-frame position (m).

        Parameters
        ----------
        name : str
            Sensor name; the channels are ``<name>.exx`` … ``<name>.gxy``.
        body : str or FloatingFrameBody
            The flexible body (:meth:`flexible_body`).
        gauge : int or (3,) array_like
            Index of the component's gauge point, or its position, m, reference-frame
            coordinates.

        Returns
        -------
        femdyn.model.sensors.GaugeSensor

        Raises
        ------
        ModelError
            If the body is not flexible, or no gauge point has that index or position.

        Example
        -------
        >>> m.sensor_gauge("root", "link", 0)          # doctest: +SKIP
        """
        body = self.body(body)
        if not hasattr(body, "component"):
            raise ModelError(f"gauge sensor '{name}': '{body.name}' is not a flexible body; strain gauges on ANCF "
                             "beams are Model.sensor_strain")
        points = body.component.gauge_points
        if np.ndim(gauge) == 0:
            index = int(gauge)
            if not 0 <= index < len(points):
                raise ModelError(f"gauge sensor '{name}': body '{body.name}' has {len(points)} gauges, "
                                 f"got index {gauge}")
        else:
            dist = np.linalg.norm(points - vector3(gauge, f"gauge sensor '{name}': point (m)"), axis=1)
            if not len(dist) or dist.min() > 1e-9 * max(1.0, np.linalg.norm(gauge)):
                raise ModelError(f"gauge sensor '{name}': {list(gauge)} is not a gauge point of '{body.name}'; "
                                 f"its gauges are {np.round(points, 9).tolist()} (m, reference frame)")
            index = int(np.argmin(dist))
        return self._add_sensor(GaugeSensor(name, body, index))

    def sensor_strain(self, name, beam, element, xi, y=0.0, z=0.0):
        """Record the axial strain at a material point of an ANCF beam (what a strain gauge reads).

        Parameters
        ----------
        name : str
            Sensor name; channel ``<name>.strain`` (dimensionless).
        beam : str or femdyn.model.flexible.ElementSet
            The element set.
        element : int
            Element index, 0 … count − 1, from the first node.
        xi : float
            Position along the element, ξ ∈ [0, 1] from its first node.
        y, z : float, optional
            Point of the cross section, m, in the section axes (the nodes' r_y, r_z for
            beams, ``y_axis`` and x × y for a 3-D cable).

        Returns
        -------
        femdyn.model.sensors.BeamSensor

        Raises
        ------
        ModelError
            If the element or ξ is out of range or the sensor name is taken.

        Examples
        --------
        >>> from femdyn.elements import sections
        >>> m = Model()
        >>> _ = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
        >>> gauge = m.sensor_strain("gauge", "b", element=0, xi=0.0, y=0.01)
        >>> system = m.assemble()
        >>> float(system.sensors[0].measure(system.q0, None, None, None, 0.0)[0])   # stress-free
        0.0
        """
        return self.sensor_beam(name, beam, element, xi, "strain", y, z)

    def sensor_beam(self, name, beam, element, xi, quantity, y=0.0, z=0.0):
        """Record a strain quantity of an ANCF beam at (element, ξ).

        Parameters
        ----------
        name : str
            Sensor name; channels ``<name>.<component>``.
        beam : str or femdyn.model.flexible.ElementSet
            The element set.
        element : int
            Element index, 0 … count − 1.
        xi : float
            ξ ∈ [0, 1] along the element.
        quantity : str
            "strain" (axial strain at section point (y, z), dimensionless),
            "curvature" (1/m: κ_y, κ_z for spatial elements, the signed in-plane κ_z for
            the planar cable), and for fully parameterized beams "twist" (rad/m) and
            "shear" (γ_y, γ_z, rad); see :class:`~femdyn.model.sensors.BeamSensor`.
        y, z : float, optional
            Section point, m (strain only).

        Returns
        -------
        femdyn.model.sensors.BeamSensor

        Raises
        ------
        ModelError
            If the element cannot report ``quantity``, the position is out of range, or
            the sensor name is taken.

        Examples
        --------
        >>> from femdyn.elements import sections
        >>> m = Model()
        >>> _ = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
        >>> m.sensor_beam("k", "b", 1, 0.5, "curvature").columns
        ('k.kappa_y', 'k.kappa_z')
        """
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        beam.locate(element, xi)
        return self._add_sensor(BeamSensor(name, beam, element, xi, quantity, y, z))

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
        self.loads.append(ScaledForce(name, Q, function))
        return self.loads[-1]

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
        >>> from femdyn.elements import sections
        >>> m = Model(gravity=(0, 0, 0))
        >>> _ = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
        >>> _ = m.beam_force("tip", "b", 1, 1.0, (0, 0, -5.0))
        >>> system = m.assemble()
        >>> float(system.forces(system.q0, system.v0, 0.0)[system.nodes["b.2"].dofs[2]])
        -5.0
        """
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        self.loads.append(PointForce(name, beam.material_point(element, xi),
                                     _beam_vector(beam, force, f"beam force '{name}' (N)"), function))
        return self.loads[-1]

    def sensor_angle(self, name, revolute):
        """Record the joint angle and rate of a revolute joint.

        The angle is the rotation of ``body_b`` relative to ``body_a`` about the joint
        axis (right-handed), ``angle0`` in the initial configuration; it is recorded
        wrapped to (−π, π] and ``Results[...]`` unwraps it.

        Parameters
        ----------
        name : str
            Sensor name; channels ``<name>.angle`` (rad) and ``<name>.rate`` (rad/s).
        revolute : str or femdyn.model.joints.Revolute
            The revolute joint of this model.

        Returns
        -------
        femdyn.model.sensors.JointAngleSensor

        Raises
        ------
        ModelError
            If ``revolute`` is not a revolute joint of the model or the name is taken.

        Examples
        --------
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0), angle0=0.5)
        >>> _ = m.sensor_angle("theta", "pivot")
        >>> system = m.assemble()
        >>> system.sensors[0].measure(system.q0, system.v0, None, None, 0.0).tolist()
        [0.5, 0.0]
        """
        return self._add_sensor(JointAngleSensor(name, self._revolute(revolute)))

    def sensor_reaction(self, name, joint):
        """Record the reactions of a joint, named and signed, from its multipliers.

        Coincidence rows (spherical, revolute, universal, clamp) give the constraint
        force on ``body_b`` (N, global frame; ``body_a`` carries −F) in channels
        ``<name>.x``, ``.y``, ``.z``; an angle drive gives its torque on ``body_b``
        (``<name>.torque``, N·m); orientation rows give their multipliers under their
        row labels. See :meth:`femdyn.model.joints.Joint.reaction`.

        Parameters
        ----------
        name : str
            Sensor name.
        joint : str or femdyn.model.joints.Joint
            A joint of this model.

        Returns
        -------
        femdyn.model.sensors.ReactionSensor

        Raises
        ------
        ModelError
            If the joint is unknown or the sensor name is taken.

        Examples
        --------
        A hanging 2 kg rod: the pivot holds it up with 2 kg · 9.81 m/s².

        >>> from femdyn.solvers.static import static_equilibrium
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (0, 0, -1.0)), mass=2.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
        >>> _ = m.sensor_reaction("R", "pivot")
        >>> system = m.assemble()
        >>> q, lam = static_equilibrium(system)
        >>> system.sensors[0].measure(q, system.v0, None, lam, 0.0)[:3].round(6).tolist()
        [0.0, 0.0, 19.62]
        """
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

    # --- assembly ----------------------------------------------------------------
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
        system = System(copy.deepcopy(self))
        check_finite_parts(system)
        check_units(system)
        return system


def _mass_of(what, mass, density, area, length):
    if mass is None:
        if density is None or area is None:
            raise ModelError(f"{what}: give mass (kg) or density (kg/m³) and area (m²)")
        if not density > 0 or not area > 0:
            raise ModelError(f"{what}: density and area must be positive, got ρ={density}, A={area}")
        check_density(what, density)
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
