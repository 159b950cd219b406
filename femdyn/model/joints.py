"""Joints between bodies as constraint equations in natural coordinates.

Joint geometry (points, axes) is given in global coordinates in the initial
configuration and turned into material expressions of the two bodies, so Jacobians
are exact (García de Jalón & Bayo 1994, ch. 3). Orientation conditions are chosen
automatically among dot products of material vectors so that they are independent
(greedy rank selection on their effect on the relative rotation): this handles rigid
beams, which have no spin coordinate, as well as full bodies, without redundant rows.
Joint angles are measured from the initial configuration plus an optional offset.
"""
import numpy as np

from .constraints import Equation
from .protocol import Constraint
from ..errors import ModelError
from ..linalg import independent_rows
from .checks import cable_alternative
from ..motion.timefunctions import as_time_function
from ..validation import vector3
from .vectorfunctions import Angle, Dot, Linear

AXES = np.eye(3)


def _unit(v, what):
    """The unit vector along a nonzero 3-vector."""
    v = vector3(v, what)
    n = np.linalg.norm(v)
    if not n > 0:
        raise ModelError(f"{what}: expected a nonzero 3-vector, got {v!r}")
    return v / n


def _perpendicular_vectors(body, axis):
    """Material vectors of ``body`` perpendicular to ``axis``.

    An orthonormal basis of the part of the body's span ⟂ ``axis`` (all of the span when
    it has no component along ``axis``).

    Examples
    --------
    >>> from femdyn.model.bodies import Ground
    >>> len(_perpendicular_vectors(Ground(), np.array([0.0, 0.0, 1.0])))
    2
    """
    _, Q = body.span_basis()
    row = axis @ Q
    if np.linalg.norm(row) < 1e-12:
        N = np.eye(Q.shape[1])
    else:
        N = np.linalg.svd(row[None, :])[2][1:].T      # null space of row: vectors of the span ⟂ axis
    W = Q @ N
    return [(body.material_vector(W[:, j]), W[:, j]) for j in range(W.shape[1])]


def coincidence(label, pa, pb):
    """Coincidence of two material points: three rows e_k·(p_a − p_b) = 0, k = x, y, z.

    The multipliers of these rows are the constraint force on the body of ``pb``
    (N, global frame).
    """
    e = pa - pb
    if e.is_constant and np.allclose(e.offset, 0):
        return []
    return [Equation(Linear, (e,), AXES[k], 0.0, None, f"{label}: {'xyz'[k]}") for k in range(3)]


def _select_independent(candidates, max_rank):
    """Keep the candidate orientation rows (equation, effect on the relative rotation) that raise
    the rank of the rotation rows, in order, up to ``max_rank``; (kept equations, rank)."""
    candidates = list(candidates)
    rows = np.array([row for _, row in candidates], float).reshape(-1, 3)
    chosen = independent_rows(rows, ordered=True, atol=1e-8, limit=max_rank)
    return [candidates[k][0] for k in chosen], len(chosen)


class Joint(Constraint):
    """Base class of joints: parts whose :meth:`equations` are constraint rows."""

    kind = "joint"

    def __init__(self, name, body_a, body_b):
        self.name, self.body_a, self.body_b = name, body_a, body_b
        self.rows = None  # global constraint rows, set by the System

    def equations(self):
        return list(self._equations)

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.body_a.name} → {self.body_b.name})"


class Fix(Joint):
    """Fixes coordinates of a node to their initial values (ground coordinates stay in q):
    all of them, or the given ``components`` (indices within the node's coordinates). A
    unit-vector node keeps its two smaller components fixed: its unit-length row already
    determines the third (up to a sign that continuity keeps), so fixing all three would
    be redundant.
    """

    kind = "fix"

    def __init__(self, name, node, components=None):
        from .bodies import Ground
        super().__init__(name, Ground(), Ground())
        self.node = node
        if components is None and node.is_unit:
            components = [c for c in range(3) if c != int(np.argmax(np.abs(node.initial)))]
        chosen = range(node.initial.size) if components is None else components
        self._equations = [Equation(Linear, (node.slot(node.slots[c // 3]),), AXES[c % 3], float(node.initial[c]),
                                    None, f"{name}: {node.name}.{node.slots[c // 3]}{'xyz'[c % 3]}")
                           for c in chosen]


class Clamp(Joint):
    """Rigid clamp of an ANCF node to a body (or the ground), in the form the element
    kernels expect. Cable node: r coincides with the body point and r_x keeps its
    direction in the body (r_x·w = 0 for the body's two material vectors w ⟂ r_x⁰), so the
    axial stretch at the clamp stays free (5 rows). Beam node: r, r_y and r_z follow the
    body, r_x is free (a Timoshenko clamp: the section is clamped, shear can develop;
    9 rows).
    """

    kind = "clamp"

    def __init__(self, name, node, body):
        from .bodies import Ground
        super().__init__(name, Ground(), body)
        self.node = node
        eqs = coincidence(f"{name} r", node.slot("r"), body.material_point(node.initial[:3]))
        if node.slots[1:] == ("rx",):       # a tangent only (cable node)
            tangent = node.initial[3:6] / np.linalg.norm(node.initial[3:6])
            normals = _perpendicular_vectors(body, tangent)
            if len(normals) < 2:
                raise ModelError(f"clamp '{name}': body '{body.name}' has no two material directions "
                                 "perpendicular to the cable tangent; clamp to a full body or the ground")
            eqs += [Equation(Dot, (node.slot("rx"), w), None, 0.0, None, f"{name} rx: normal {k}")
                    for k, (w, _) in enumerate(normals[:2])]
        else:
            for i, slot in enumerate(node.slots):
                if slot in ("ry", "rz"):        # the section directors (beam and director nodes)
                    eqs += coincidence(f"{name} {slot}", node.slot(slot),
                                       body.material_vector(node.initial[3 * i:3 * i + 3]))
        self._equations = eqs


class Spherical(Joint):
    """Ball joint: the material points of A and B at ``point`` coincide (3 rows)."""

    kind = "spherical"

    def __init__(self, name, body_a, body_b, point):
        super().__init__(name, body_a, body_b)
        self.point = np.asarray(point, float)
        self._equations = coincidence(name, body_a.material_point(point), body_b.material_point(point))


class Revolute(Joint):
    """Hinge about ``axis`` through ``point``: coincidence plus independent orientation rows
    u_X·w_Y = const, where u_X is the axis carried by one body and w_Y are material
    vectors of the other body (at most 2 rows). Both rows come from one carrier wherever
    the other body offers two vectors ⟂ the axis (then u_X ∥ axis in every configuration;
    rows mixed from both sides can become dependent as the joint turns); body B's axis is
    tried first.

    The joint angle is the rotation of B relative to A about ``axis`` (right-handed),
    ``angle0`` in the initial configuration (see :meth:`angle_vectors`).
    """

    kind = "revolute"

    def __init__(self, name, body_a, body_b, point, axis, angle0=0.0):
        super().__init__(name, body_a, body_b)
        self.point, self.axis = np.asarray(point, float), _unit(axis, f"revolute '{name}' axis")
        self.angle0 = float(angle0)
        eqs = coincidence(name, body_a.material_point(point), body_b.material_point(point))
        carriers = [b for b in (body_a, body_b) if b.contains_direction(self.axis)]
        if not carriers:
            raise ModelError(f"revolute '{name}': neither '{body_a.name}' nor '{body_b.name}' carries the axis "
                             f"{self.axis.round(6).tolist()}; give one of them a unit-vector node along the axis "
                             "(e.g. rigid_beam(..., axis=...))" + cable_alternative(
                                 body_a if hasattr(body_a, "node") else body_b,
                                 "give the other body the axis, or hinge about the cable's tangent"))
        self.axis_expr = carriers[0].material_vector(self.axis)
        self._equations = eqs + self._orientation(name)

    def _orientation(self, name):
        A, B = self.body_a, self.body_b
        if A.contains_direction(self.axis) and B.contains_direction(self.axis) and \
                A.material_vector(self.axis).same_as(B.material_vector(self.axis)):
            return []  # the bodies share the axis node: natural-coordinate revolute pair
        sides = []
        for X, Y in ((B, A), (A, B)):
            if not X.contains_direction(self.axis):
                continue
            u = X.material_vector(self.axis)
            sides.append([(Equation(Dot, (u, w), None, float(self.axis @ w0), None, f"{name}: axis·{Y.name} vector"),
                           np.cross(w0, self.axis)) for w, w0 in self._orientation_vectors(Y)])
        for candidates in sides:      # one body's axis against two vectors of the other: u_X ∥ axis everywhere
            kept, rank = _select_independent(candidates, 2)
            if rank == 2:
                return kept
        # no body offers two: rows from both sides (independent at the initial configuration only)
        kept, _ = _select_independent([c for side in sides for c in side], 2)
        return kept

    def _orientation_vectors(self, body):
        vecs = _perpendicular_vectors(body, self.axis)
        if vecs or body.span_rank != 1:
            return vecs
        d0 = body.B0[:, 0] / np.linalg.norm(body.B0[:, 0])
        return [] if np.linalg.norm(np.cross(d0, self.axis)) < 1e-8 else [(body.material_vector(d0), d0)]

    def angle_vectors(self):
        """(a on A, b on B, axis Expr, rotation offset) for the joint angle: a and b are
        material vectors not parallel to the axis (the angle is that of their projections
        on the plane ⟂ axis, see :class:`~femdyn.model.vectorfunctions.Angle`)."""
        va, vb = self._orientation_vectors(self.body_a), self._orientation_vectors(self.body_b)
        if not va or not vb:
            raise ModelError(f"revolute '{self.name}': the joint angle needs a material vector not parallel "
                             "to the axis on both bodies (a rigid beam along the axis has none)" + cable_alternative(
                                 self.body_a if not va else self.body_b, "a cable along the hinge axis has no "
                                 "angle about it; measure the angle of a body clamped to the node (Model.clamp)"))
        (a, a0), (b, b0) = va[0], vb[0]
        theta0 = np.arctan2(self.axis @ np.cross(a0, b0), a0 @ b0)
        return a, b, self.axis_expr, self.angle0 - theta0


class Universal(Joint):
    """Hooke joint: coincidence plus u_a·u_b = 0 for the cross axes (u_a on A, u_b on B)."""

    kind = "universal"

    def __init__(self, name, body_a, body_b, point, axis_a, axis_b):
        super().__init__(name, body_a, body_b)
        ua, ub = _unit(axis_a, f"universal '{name}' axis_a"), _unit(axis_b, f"universal '{name}' axis_b")
        if abs(ua @ ub) > 1e-9:
            raise ModelError(f"universal '{name}': the cross axes must be perpendicular (cos = {ua @ ub:.3g})")
        for body, u in ((body_a, ua), (body_b, ub)):
            if not body.contains_direction(u):
                raise ModelError(f"universal '{name}': body '{body.name}' cannot carry axis {u.round(6).tolist()}"
                                 + (cable_alternative(body, "give its tangent as this body's cross axis, or use "
                                                      "a spherical joint (a Hooke joint with both cross axes ⟂ the "
                                                      "cable only locks the twist, which a cable does not have)")
                                    or "; add a unit-vector node along it to the body"))
        self.point = np.asarray(point, float)
        self._equations = coincidence(name, body_a.material_point(point), body_b.material_point(point)) + [
            Equation(Dot, (body_a.material_vector(ua), body_b.material_vector(ub)), None, 0.0, None,
                     f"{name}: cross axes perpendicular")]


def _rotation_locks(name, body_a, body_b):
    """Independent rows a_i·b_j = const locking the relative rotation of two bodies.

    The candidates are the dot products of every material direction a_i of ``body_a`` with
    every b_j of ``body_b`` (their orthonormal span bases), held at their initial values;
    :func:`_select_independent` keeps at most 3 that lock independent relative rotations.

    Example
    -------
    ``_rotation_locks("weld", ground, body)`` for a body with three directions returns
    three rows and rank 3.
    """
    ea, ea0 = body_a.span_basis()
    eb, eb0 = body_b.span_basis()
    candidates = [(Equation(Dot, (ea[i], eb[j]), None, float(ea0[:, i] @ eb0[:, j]), None,
                            f"{name}: rotation lock {i}{j}"), np.cross(eb0[:, j], ea0[:, i]))
                  for i in range(len(ea)) for j in range(len(eb))]
    return _select_independent(candidates, 3)


class Weld(Joint):
    """Rigid connection of two bodies at ``point``: coincidence (3 rows) and the relative
    rotation locked (3 rows, :func:`_rotation_locks`); both bodies, or the ground and a
    body, must have full orientation (e.g. a flexible body's interface frame held to the
    ground: ``Model.weld("root", m.ground, "bar.root", (0, 0, 0))``).
    """

    kind = "weld"

    def __init__(self, name, body_a, body_b, point):
        super().__init__(name, body_a, body_b)
        self.point = vector3(point, f"weld '{name}': point (m)")
        locks, rank = _rotation_locks(name, body_a, body_b)
        if rank < 3:
            raise ModelError(f"weld '{name}': the relative rotation of '{body_a.name}' and '{body_b.name}' cannot be "
                             "locked (one of them has fewer than three material directions); weld full bodies")
        self._equations = coincidence(name, body_a.material_point(point), body_b.material_point(point)) + locks


class Prismatic(Joint):
    """Slider along ``axis`` (carried by A): B's point stays on A's line and the relative
    rotation is locked (2 + 3 rows; both bodies must have full orientation).
    """

    kind = "prismatic"

    def __init__(self, name, body_a, body_b, point, axis):
        super().__init__(name, body_a, body_b)
        axis = _unit(axis, f"prismatic '{name}' axis")
        pa, pb = body_a.material_point(point), body_b.material_point(point)
        normals = _perpendicular_vectors(body_a, axis)
        if len(normals) < 2:
            raise ModelError(f"prismatic '{name}': body '{body_a.name}' needs two material directions "
                             "perpendicular to the axis (use a full rigid body or the ground)" + cable_alternative(
                                 body_a, "make the cable node body_b (the slider) on a full body or the ground"))
        eqs = [Equation(Dot, (pb - pa, w), None, 0.0, None, f"{name}: on line {k}")
               for k, (w, _) in enumerate(normals[:2])]
        locks, rank = _rotation_locks(name, body_a, body_b)
        if rank < 3 and body_b.span_rank == 3:
            raise ModelError(f"prismatic '{name}': cannot lock the relative rotation of '{body_b.name}'")
        self.axis, self.point = axis, np.asarray(point, float)
        self._equations = eqs + locks


class Distance(Joint):
    """Distance constraint ‖p_a − p_b‖ = d as one row (p_a − p_b)·(p_a − p_b) = d²."""

    kind = "distance"

    def __init__(self, name, body_a, point_a, body_b, point_b, distance=None):
        super().__init__(name, body_a, body_b)
        e = body_a.material_point(point_a) - body_b.material_point(point_b)
        d = np.linalg.norm(np.asarray(point_a, float) - point_b) if distance is None else float(distance)
        if not d > 0:
            raise ModelError(f"distance '{name}': the distance must be positive, got {d}")
        self._equations = [Equation(Dot, (e, e), None, d * d, None, f"{name}: distance")]


class AngleDrive(Joint):
    """Prescribed joint angle of a revolute: θ(q) = f(t) (rad). Its multiplier λ is the
    negative of the torque the drive applies on body B about the axis (N·m).
    """

    kind = "angle drive"

    def __init__(self, name, revolute, function):
        super().__init__(name, revolute.body_a, revolute.body_b)
        a, b, u, offset = revolute.angle_vectors()
        self.revolute, self.function = revolute, function
        self._equations = [Equation(Angle, (a, b, u), None, -offset, function, f"{name}: angle")]

    def reaction(self, lam_rows):      # the drive torque on body B about the axis, −λ in N·m
        return ["torque"], -lam_rows


class CoordinateDrive(Joint):
    """Prescribed coordinate d·e(q) = f(t) of a point or vector expression (SI units).

    Its multiplier λ gives the driving force −λ d on the point (N).
    """

    kind = "coordinate drive"

    def __init__(self, name, body, expr, direction, function):
        super().__init__(name, body, body)
        d = _unit(direction, f"coordinate drive '{name}' direction")
        self._equations = [Equation(Linear, (expr,), d, 0.0, function, f"{name}: coordinate")]


class JointBuilder:
    """The joint and drive constructors of :class:`~femdyn.model.Model` (``m.revolute``, ``m.clamp``, …)."""

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
        >>> from femdyn.model import Model
        >>> m = Model()
        >>> P = m.point("P", (0, 0, 1.0))
        >>> len(m.fix(P, components=(2,)).equations())
        1
        """
        node = self.node(node)
        return self._add_joint(Fix(name or f"fix {node.name}", node, components))

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
        >>> from femdyn.model import Model
        >>> from femdyn.elements import sections
        >>> m = Model()
        >>> beam = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
        >>> len(m.clamp("root", "b.0").equations())
        5
        """
        return self._add_joint(Clamp(name, self.node(node), self.body(body)))

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
        >>> from femdyn.model import Model
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (0, 0, -1.0)), mass=1.0)
        >>> _ = m.spherical("ball", "ground", rod, point=(0, 0, 0))
        >>> m.assemble().degrees_of_freedom()      # the rod's spin about itself is no coordinate
        2
        """
        return self._add_joint(Spherical(name, self.body(body_a), self.body(body_b), point))

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

        >>> from femdyn.model import Model
        >>> from femdyn.solvers.generalized_alpha import integrate
        >>> m = Model("pendulum")
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=2.0)
        >>> _ = m.revolute("pivot", "ground", rod, point=(0, 0, 0), axis=(0, 1, 0))
        >>> _ = m.sensor_angle("theta", "pivot")
        >>> results = integrate(m.assemble(), t_end=0.1, h=0.01)
        >>> round(float(results["theta.angle"][-1]), 3)
        0.074
        """
        return self._add_joint(Revolute(name, self.body(body_a), self.body(body_b), point, axis, angle0))

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
        >>> from femdyn.model import Model
        >>> m = Model()
        >>> P, Q, u = m.point("P", (0, 0, 0)), m.point("Q", (0, 0, -1.0)), m.vector("u", (1, 0, 0))
        >>> link = m.rigid_body("link", [P, Q], [u], mass=1.0, com=(0, 0, -0.5))
        >>> _ = m.universal("hooke", "ground", link, (0, 0, 0), axis_a=(0, 1, 0), axis_b=(1, 0, 0))
        >>> m.assemble().degrees_of_freedom()
        2
        """
        return self._add_joint(Universal(name, self.body(body_a), self.body(body_b), point, axis_a, axis_b))

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

        >>> from femdyn.model import Model
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
        return self._add_joint(Weld(name, self.body(body_a), self.body(body_b), point))

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
        >>> from femdyn.model import Model
        >>> import numpy as np
        >>> m = Model()
        >>> P, Q = m.point("P", (0, 0, 0)), m.point("Q", (1.0, 0, 0))
        >>> u, v = m.vector("u", (0, 1, 0)), m.vector("v", (0, 0, 1))
        >>> block = m.rigid_body("block", [P, Q], [u, v], mass=1.0, inertia=np.eye(3) * 0.01)
        >>> _ = m.prismatic("slider", "ground", block, (0, 0, 0), axis=(1, 0, 0))
        >>> m.assemble().degrees_of_freedom()
        1
        """
        return self._add_joint(Prismatic(name, self.body(body_a), self.body(body_b), point, axis))

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

        >>> from femdyn.model import Model
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
        return self._add_joint(Distance(name, self.body(body_a), point_a, self.body(body_b), point_b, distance))

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
        >>> from femdyn.model import Model
        >>> from femdyn.motion import Polynomial
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
        >>> _ = m.drive_angle("motor", "pivot", Polynomial([0.0, 1.0]))     # θ = 1 rad/s · t
        >>> m.assemble().degrees_of_freedom()
        0
        """
        rev = self._revolute(revolute)
        return self._add_joint(AngleDrive(name, rev, as_time_function(function, f"angle drive '{name}'")))

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
        >>> from femdyn.model import Model
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
        >>> _ = m.drive_coordinate("lift", rod, (1.0, 0, 0), (0, 0, 1), lambda t: 0.1 * t)
        >>> m.assemble().degrees_of_freedom()
        0
        """
        body = self.body(body)
        return self._add_joint(CoordinateDrive(name, body, body.material_point(point), direction,
                                                 as_time_function(function, f"coordinate drive '{name}'")))

    def _revolute(self, joint):
        joint = self.joints.get(joint, joint) if isinstance(joint, str) else joint
        if not isinstance(joint, Revolute):
            raise ModelError(f"'{getattr(joint, 'name', joint)}' is not a revolute joint of this model")
        return joint
