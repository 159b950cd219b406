"""Joints between bodies as constraint equations in natural coordinates (García de Jalón & Bayo 1994, ch. 3).

Joint geometry becomes material expressions of the two bodies (exact Jacobians); orientation
rows are chosen among dot products of material vectors by greedy rank selection, so no row is redundant.
"""
import numpy as np

from .constraints import Equation
from .protocol import Constraint
from ..errors import ModelError
from ..linalg import independent_rows
from .checks import cable_alternative
from ..motion.timefunctions import as_time_function
from ..input_checks import unit_vector, vector3
from .vectorfunctions import Angle, Dot, Linear

AXES = np.eye(3)


def _perpendicular_vectors(body, axis):
    """Material vectors of ``body`` perpendicular to ``axis``."""
    _, Q = body.span_basis()
    row = axis @ Q
    if np.linalg.norm(row) < 1e-12:
        N = np.eye(Q.shape[1])
    else:
        N = np.linalg.svd(row[None, :])[2][1:].T      # null space of row: vectors of the span ⟂ axis
    W = Q @ N
    return [(body.material_vector(W[:, j]), W[:, j]) for j in range(W.shape[1])]


def coincidence(label, pa, pb):
    """Coincidence of two material points: three rows e_k·(p_a − p_b) = 0, k = x, y, z."""
    e = pa - pb
    if e.is_constant and np.allclose(e.offset, 0):
        return []
    return [Equation(Linear, (e,), AXES[k], 0.0, None, f"{label}: {'xyz'[k]}") for k in range(3)]


def _select_independent(candidates, max_rank):
    """Keep the candidate orientation rows that raise the rank of the rotation rows; (kept, rank)."""
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
    """Fixes a node's coordinates (or ``components``) at their initial values (a unit vector: its two smaller ones)."""

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
    """Rigid clamp of an ANCF node to a body: cable r and r_x direction (5 rows); beam r, r_y, r_z (9 rows)."""

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
    """Hinge: coincidence plus at most 2 rows u_X·w_Y = const (axis u_X on one body, w_Y of the other)."""

    kind = "revolute"

    def __init__(self, name, body_a, body_b, point, axis, angle0=0.0):
        super().__init__(name, body_a, body_b)
        self.point, self.axis = np.asarray(point, float), unit_vector(axis, f"revolute '{name}' axis")
        self.angle0 = float(angle0)
        eqs = coincidence(name, body_a.material_point(point), body_b.material_point(point))
        carriers = [b for b in (body_a, body_b) if b.contains_direction(self.axis)]
        if not carriers:
            raise ModelError(f"revolute '{name}': neither '{body_a.name}' nor '{body_b.name}' carries the axis "
                             f"{self.axis.round(6).tolist()}; give one of them a unit-vector node along the axis "
                             "(e.g. rigid_beam(..., axis=...))" + _cable_hint(body_a, body_b))
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
        """(a on A, b on B, axis Expr, offset): material vectors not parallel to the axis that define the angle."""
        va, vb = self._orientation_vectors(self.body_a), self._orientation_vectors(self.body_b)
        if not va or not vb:
            raise ModelError(f"revolute '{self.name}': the joint angle needs a material vector not parallel "
                             "to the axis on both bodies (a rigid beam along the axis has none)" + cable_alternative(
                                 self.body_a if not va else self.body_b, "a cable along the hinge axis has no "
                                 "angle about it; measure the angle of a body clamped to the node (Model.clamp)"))
        (a, a0), (b, b0) = va[0], vb[0]
        theta0 = np.arctan2(self.axis @ np.cross(a0, b0), a0 @ b0)
        return a, b, self.axis_expr, self.angle0 - theta0


def _cable_hint(body_a, body_b):
    """The hint for a revolute whose axis a cable node of either body cannot carry ("" for none)."""
    instead = "give the other body the axis, or hinge about the cable's tangent"
    return cable_alternative(body_a, instead) or cable_alternative(body_b, instead)


class Universal(Joint):
    """Hooke joint: coincidence plus u_a·u_b = 0 for the cross axes (u_a on A, u_b on B)."""

    kind = "universal"

    def __init__(self, name, body_a, body_b, point, axis_a, axis_b):
        super().__init__(name, body_a, body_b)
        ua, ub = unit_vector(axis_a, f"universal '{name}' axis_a"), unit_vector(axis_b, f"universal '{name}' axis_b")
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
    """Independent rows a_i·b_j = const locking the relative rotation of two bodies."""
    ea, ea0 = body_a.span_basis()
    eb, eb0 = body_b.span_basis()
    candidates = [(Equation(Dot, (ea[i], eb[j]), None, float(ea0[:, i] @ eb0[:, j]), None,
                            f"{name}: rotation lock {i}{j}"), np.cross(eb0[:, j], ea0[:, i]))
                  for i in range(len(ea)) for j in range(len(eb))]
    return _select_independent(candidates, 3)


class Weld(Joint):
    """Rigid connection at ``point``: coincidence and relative rotation locked (3 + 3 rows, :func:`_rotation_locks`)."""

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
    """Slider along ``axis`` (carried by A): B's point stays on A's line, rotation locked (2 + 3 rows)."""

    kind = "prismatic"

    def __init__(self, name, body_a, body_b, point, axis):
        super().__init__(name, body_a, body_b)
        axis = unit_vector(axis, f"prismatic '{name}' axis")
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

    def slide_vectors(self):
        """(s, w): the slide s = p_B − p_A of the joint point and the axis w carried by A, material expressions;
        the stroke (p_B − p_A)·w, m, is 0 where the joint was built."""
        return (self.body_b.material_point(self.point) - self.body_a.material_point(self.point),
                self.body_a.material_vector(self.axis))


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
    """Prescribed revolute angle θ(q) = f(t), rad; its multiplier is minus the drive torque on B, N·m."""

    kind = "angle drive"

    def __init__(self, name, revolute, function):
        super().__init__(name, revolute.body_a, revolute.body_b)
        a, b, u, offset = revolute.angle_vectors()
        self.revolute, self.function = revolute, function
        self._equations = [Equation(Angle, (a, b, u), None, -offset, function, f"{name}: angle")]

    def reaction(self, lam_rows):      # the drive torque on body B about the axis, −λ in N·m
        return ["torque"], -lam_rows


class SlideDrive(Joint):
    """Prescribed prismatic stroke (p_B − p_A)·w = f(t), m; its multiplier is minus the drive force on B, N."""

    kind = "slide drive"

    def __init__(self, name, prismatic, function):
        super().__init__(name, prismatic.body_a, prismatic.body_b)
        self.prismatic, self.function = prismatic, function
        self._equations = [Equation(Dot, prismatic.slide_vectors(), None, 0.0, function, f"{name}: stroke")]

    def reaction(self, lam_rows):      # the drive force on body B along the axis, −λ in N
        return ["force"], -lam_rows


class CoordinateDrive(Joint):
    """Prescribed coordinate d·e(q) = f(t) of a point or vector expression (SI units)."""

    kind = "coordinate drive"

    def __init__(self, name, body, expr, direction, function):
        super().__init__(name, body, body)
        d = unit_vector(direction, f"coordinate drive '{name}' direction")
        self._equations = [Equation(Linear, (expr,), d, 0.0, function, f"{name}: coordinate")]


class JointBuilder:
    """The joint and drive constructors of :class:`~femdyn.model.Model` (``m.revolute``, ``m.clamp``, …).

    Bodies may be given by name, "ground" or an ANCF node; joint points must be material points
    of both bodies. Reactions: a joint's first three multipliers are the constraint force on
    ``body_b``, N (``body_a`` carries −F); :meth:`sensor_reaction` records them.
    """

    def fix(self, node, name=None, components=None):
        """Fix a node's coordinates at their initial values (ground coordinates stay in q).

        One row per fixed coordinate k; the reaction on the node is −λ_k along it.

        Parameters
        ----------
        node : str or Node
        name : str, optional
            Joint name (default ``"fix <node>"``).
        components : sequence of int, optional
            Indices within the node's coordinates (e.g. (2,) for z of a point); default all (a unit vector: two).
        """
        node = self.node(node)
        return self._add_joint(Fix(name or f"fix {node.name}", node, components))

    def clamp(self, name, node, body="ground"):
        """Clamp an ANCF node rigidly to a body or the ground.

        Position (3 rows) and section follow the body: a cable node's tangent keeps its direction (5
        rows in all, stretch free); a beam or director node's r_y, r_z follow, r_x free (Timoshenko, 9 rows).

        Parameters
        ----------
        name : str
        node : str or Node
            The ANCF node (cable, beam or director node).
        body : str or body, optional
            The body (default the ground); a cable node needs two of its directions ⟂ the tangent.
        """
        return self._add_joint(Clamp(name, self.node(node), self.body(body)))

    def spherical(self, name, body_a, body_b, point):
        """Join two bodies by a ball joint: their material points at ``point`` coincide (3 rows).

        Parameters
        ----------
        name : str
        body_a, body_b : str or body
        point : (3,) array_like
            Joint centre, m (on the axis of a rigid beam).
        """
        return self._add_joint(Spherical(name, self.body(body_a), self.body(body_b), point))

    def revolute(self, name, body_a, body_b, point, axis, angle0=0.0):
        """Join two bodies by a hinge about ``axis`` through ``point`` (3 + up to 2 rows).

        One body must carry the axis as a material direction (the ground does; a rigid beam needs
        ``rigid_beam(..., axis=...)`` unless the axis lies along it). The joint angle is the rotation
        of ``body_b`` relative to ``body_a`` about ``axis``, right-handed, ``angle0`` initially; a joint
        :meth:`torque` acts on ``body_b`` and increases it.

        Parameters
        ----------
        name : str
        body_a, body_b : str or body
            The two bodies; the angle and the reaction force are those of ``body_b``.
        point : (3,) array_like
            A point of the hinge axis, m.
        axis : (3,) array_like
            Hinge axis direction (normalised).
        angle0 : float, optional
            Joint angle in the initial configuration, rad.
        """
        return self._add_joint(Revolute(name, self.body(body_a), self.body(body_b), point, axis, angle0))

    def universal(self, name, body_a, body_b, point, axis_a, axis_b):
        """Join two bodies by a Hooke (universal) joint: coincidence plus u_a·u_b = 0 (4 rows).

        Parameters
        ----------
        name : str
        body_a, body_b : str or body
        point : (3,) array_like
            Joint centre, m.
        axis_a, axis_b : (3,) array_like
            Cross axes fixed in ``body_a`` and ``body_b``, perpendicular.
        """
        return self._add_joint(Universal(name, self.body(body_a), self.body(body_b), point, axis_a, axis_b))

    def weld(self, name, body_a, body_b, point):
        """Join two bodies rigidly at ``point``: coincidence (3 rows) and relative rotation locked (3 rows).

        Both bodies need three material directions: the ground, a full rigid body, or an interface
        frame ``"<body>.<interface>"`` of a flexible body, e.g. ``m.weld("root", m.ground, "link.x0", (0, 0, 0))``.

        Parameters
        ----------
        name : str
        body_a, body_b : str or body
        point : (3,) array_like
            The weld point, m.
        """
        return self._add_joint(Weld(name, self.body(body_a), self.body(body_b), point))

    def prismatic(self, name, body_a, body_b, point, axis):
        """Join two bodies by a slider along ``axis`` carried by ``body_a`` (2 rows + rotation locked, up to 3).

        The slider displacement is that of ``body_b`` relative to ``body_a`` along ``axis`` (see :meth:`actuator`).

        Parameters
        ----------
        name : str
        body_a : str or body
            The guide; it needs two material directions ⟂ the axis.
        body_b : str or body
            The slider.
        point : (3,) array_like
            A point of the sliding line, m.
        axis : (3,) array_like
            Sliding direction (normalised).
        """
        return self._add_joint(Prismatic(name, self.body(body_a), self.body(body_b), point, axis))

    def distance(self, name, body_a, point_a, body_b, point_b, distance=None):
        """Keep two material points at a fixed distance, ‖p_a − p_b‖² = d² (1 row): a massless rod with ball ends.

        The rod's tension is 2 λ d (N, positive in tension).

        Parameters
        ----------
        name : str
        body_a, body_b : str or body
            Bodies of the first and second point.
        point_a, point_b : (3,) array_like
            The two points, m.
        distance : float, optional
            d, m (default the initial distance).
        """
        return self._add_joint(Distance(name, self.body(body_a), point_a, self.body(body_b), point_b, distance))

    def drive_angle(self, name, revolute, function):
        """Prescribe the angle of a revolute joint, θ(q) = f(t) (1 row); f(0) should equal its ``angle0``.

        Its multiplier is minus the drive torque on ``body_b`` about the axis (N·m).

        Parameters
        ----------
        name : str
        revolute : str or femdyn.model.joints.Revolute
        function : TimeFunction, float or callable
            f(t), rad.
        """
        rev = self._revolute(revolute)
        return self._add_joint(AngleDrive(name, rev, as_time_function(function, f"angle drive '{name}'")))

    def drive_slide(self, name, prismatic, function):
        """Prescribe the stroke of a prismatic joint, (p_B − p_A)·w = f(t) (1 row); 0 where the joint was built.

        Its multiplier is minus the drive force on ``body_b`` along the axis (N).

        Parameters
        ----------
        name : str
        prismatic : str or femdyn.model.joints.Prismatic
        function : TimeFunction, float or callable
            f(t), m.

        Raises
        ------
        ModelError
            ``prismatic`` is not a prismatic joint of this model.

        Examples
        --------
        >>> import femdyn
        >>> m = femdyn.Model("lift")
        >>> axes = [m.vector(f"car.e{k}", e) for k, e in enumerate(((1, 0, 0), (0, 1, 0), (0, 0, 1)))]
        >>> car = m.rigid_body("car", [m.point("car.C", (0, 0, 0))], axes, mass=5.0)
        >>> m.prismatic("mast", "ground", car, (0, 0, 0), (0, 0, 1)).kind
        'prismatic'
        >>> m.drive_slide("height", "mast", 0.2).kind      # the car held 0.2 m up the mast
        'slide drive'
        """
        return self._add_joint(SlideDrive(name, self._prismatic(prismatic),
                                          as_time_function(function, f"slide drive '{name}'")))

    def _prismatic(self, joint):
        """The prismatic joint ``joint`` (or its name); ModelError naming the known ones otherwise."""
        found = self.joints.get(joint, joint) if isinstance(joint, str) else joint
        if not isinstance(found, Prismatic):
            raise ModelError(f"'{getattr(found, 'name', found)}' is not a prismatic joint of this model; known "
                             f"prismatic joints: {sorted(k for k, j in self.joints.items() if isinstance(j, Prismatic))}")
        return found

    def drive_coordinate(self, name, body, point, direction, function):
        """Prescribe one coordinate of a body's material point, d·r(q) = f(t) (1 row); driving force −λ d, N.

        Parameters
        ----------
        name : str
        body : str or body
            The body (or an ANCF node).
        point : (3,) array_like
            The material point, m.
        direction : (3,) array_like
            d (normalised).
        function : TimeFunction, float or callable
            f(t), m, the absolute coordinate d·r (so f(0) = d·point).
        """
        body = self.body(body)
        return self._add_joint(CoordinateDrive(name, body, body.material_point(point), direction,
                                                 as_time_function(function, f"coordinate drive '{name}'")))

    def _revolute(self, joint):
        joint = self.joints.get(joint, joint) if isinstance(joint, str) else joint
        if not isinstance(joint, Revolute):
            raise ModelError(f"'{getattr(joint, 'name', joint)}' is not a revolute joint of this model")
        return joint
