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
from .protocol import Part
from ..errors import ModelError
from ..linalg import independent_rows
from .checks import cable_alternative
from ..validation import vector3
from .vectorfunctions import Angle, Dot, Linear

AXES = np.eye(3)


def _unit(v, what):
    v = vector3(v, what)
    n = np.linalg.norm(v)
    if not n > 0:
        raise ModelError(f"{what}: expected a nonzero 3-vector, got {v!r}")
    return v / n


def perpendicular_vectors(body, axis):
    """Material vectors of ``body`` perpendicular to ``axis``.

    An orthonormal basis of the part of the body's span ⟂ ``axis`` (all of the span when
    it has no component along ``axis``).

    Parameters
    ----------
    body : Frame or Ground
        The body (its ``span_basis``).
    axis : ndarray (3,)
        Unit direction, global frame, initial configuration.

    Returns
    -------
    list of (Expr, ndarray (3,))
        Each material vector and its initial value (global frame).

    Examples
    --------
    >>> from femdyn.model.bodies import Ground
    >>> len(perpendicular_vectors(Ground(), np.array([0.0, 0.0, 1.0])))
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

    Parameters
    ----------
    label : str
        Prefix of the row labels (``"<label>: x"`` …).
    pa, pb : femdyn.model.nodes.Expr
        The two material points.

    Returns
    -------
    list of Equation
        Three rows, or none when the points are the same expression (bodies that share
        the node).
    """
    e = pa - pb
    if e.is_constant and np.allclose(e.offset, 0):
        return []
    return [Equation(Linear, (e,), AXES[k], 0.0, None, f"{label}: {'xyz'[k]}") for k in range(3)]


def select_independent(candidates, max_rank):
    """Greedily keep the candidate orientation rows that raise the rank of the rotation rows.

    Parameters
    ----------
    candidates : iterable of (Equation, ndarray (3,))
        Each equation with its effect on the relative rotation (the row of its
        derivative with respect to a small rotation, global frame).
    max_rank : int
        Stop once this rank is reached (2 for a hinge, 3 for a rotation lock).

    Returns
    -------
    kept : list of Equation
        The independent equations, in candidate order.
    rank : int
        The rank reached.
    """
    candidates = list(candidates)
    rows = np.array([row for _, row in candidates], float).reshape(-1, 3)
    chosen = independent_rows(rows, ordered=True, atol=1e-8, limit=max_rank)
    return [candidates[k][0] for k in chosen], len(chosen)


class Joint(Part):
    """Base class of joints: parts whose :meth:`equations` are constraint rows.

    Parameters
    ----------
    name : str
        Unique joint name; prefixes its row labels.
    body_a, body_b : body
        The two bodies (or the ground, or an ANCF node's frame). Reaction forces of
        coincidence rows act on ``body_b``.

    Attributes
    ----------
    rows : ndarray of int
        The joint's global constraint rows, set by the System.
    """

    kind = "joint"
    servo = False       # servo rows carry actuator inputs instead of multipliers (femdyn.model.actuators)
    auxiliary = False   # rows the model adds by itself; the System keeps those independent of the others

    def __init__(self, name, body_a, body_b):
        self.name, self.body_a, self.body_b = name, body_a, body_b
        self.rows = None  # global constraint rows, set by the System

    def equations(self):
        """The joint's constraint rows (see :meth:`femdyn.model.protocol.Part.equations`)."""
        return list(self._equations)

    def reaction(self, lam_rows):
        """Physical reactions from the joint's multipliers.

        Coincidence rows e_k·(p_A − p_B) give the constraint force on body B (N, global
        frame; body A carries the opposite force); other rows report their multipliers
        under their labels.

        Parameters
        ----------
        lam_rows : ndarray
            The multipliers λ of the joint's rows (``lam[joint.rows]``).

        Returns
        -------
        names : list of str
            One per row ("x", "y", "z", or the row label).
        values : ndarray
            The reactions (N for coincidence rows).
        """
        return [lbl.split(": ")[-1] for lbl in (e.label for e in self._equations)], lam_rows

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.body_a.name} → {self.body_b.name})"


class Fix(Joint):
    """Fixes coordinates of a node to their initial values (ground coordinates stay in q):
    all of them, or the given ``components`` (indices within the node's coordinates). A
    unit-vector node keeps its two smaller components fixed: its unit-length row already
    determines the third (up to a sign that continuity keeps), so fixing all three would
    be redundant.

    Parameters
    ----------
    name : str
        Joint name.
    node : femdyn.model.nodes.Node
        The node.
    components : sequence of int, optional
        Indices within the node's coordinates (default all; see :meth:`Model.fix
        <femdyn.model.builder.Model.fix>`).
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

    Parameters
    ----------
    name : str
        Joint name.
    node : femdyn.model.nodes.Node
        The ANCF node.
    body : body
        The body or ground it is clamped to (body B of the joint: the reaction force of
        the position rows acts on it).
    """

    kind = "clamp"

    def __init__(self, name, node, body):
        from .bodies import Ground
        super().__init__(name, Ground(), body)
        self.node = node
        eqs = coincidence(f"{name} r", node.slot("r"), body.material_point(node.initial[:3]))
        if node.slots[1:] == ("rx",):       # a tangent only (cable node)
            tangent = node.initial[3:6] / np.linalg.norm(node.initial[3:6])
            normals = perpendicular_vectors(body, tangent)
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
    """Ball joint: the material points of A and B at ``point`` coincide (3 rows).

    Parameters
    ----------
    name : str
        Joint name.
    body_a, body_b : body
        The two bodies; the reaction force acts on ``body_b``.
    point : (3,) array_like
        Joint centre, m, global frame, initial configuration.
    """

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

    Parameters
    ----------
    name : str
        Joint name.
    body_a, body_b : body
        The two bodies; the reaction force acts on ``body_b``.
    point : (3,) array_like
        A point of the axis, m, global frame, initial configuration.
    axis : (3,) array_like
        Axis direction, global frame, initial configuration (normalised).
    angle0 : float, optional
        Joint angle in the initial configuration, rad.

    Raises
    ------
    ModelError
        If neither body carries the axis as a material direction.
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
            kept, rank = select_independent(candidates, 2)
            if rank == 2:
                return kept
        # no body offers two: rows from both sides (independent at the initial configuration only)
        kept, _ = select_independent([c for side in sides for c in side], 2)
        return kept

    def _orientation_vectors(self, body):
        vecs = perpendicular_vectors(body, self.axis)
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
    """Hooke joint: coincidence plus u_a·u_b = 0 for the cross axes (u_a on A, u_b on B).

    Parameters
    ----------
    name : str
        Joint name.
    body_a, body_b : body
        The two bodies; the reaction force acts on ``body_b``.
    point : (3,) array_like
        Joint centre, m, global frame, initial configuration.
    axis_a, axis_b : (3,) array_like
        The perpendicular cross axes fixed in A and B, global frame, initial
        configuration.

    Raises
    ------
    ModelError
        If the axes are not perpendicular or a body cannot carry its axis.
    """

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


def rotation_locks(name, body_a, body_b):
    """Independent rows a_i·b_j = const locking the relative rotation of two bodies.

    The candidates are the dot products of every material direction a_i of ``body_a`` with
    every b_j of ``body_b`` (their orthonormal span bases), held at their initial values;
    :func:`select_independent` keeps at most 3 that lock independent relative rotations.

    Parameters
    ----------
    name : str
        Joint name, prefix of the row labels (``"<name>: rotation lock ij"``).
    body_a, body_b : body
        The two bodies (or the ground); their material directions are taken in the
        initial configuration.

    Returns
    -------
    rows : list of Equation
        The kept rows (``Dot`` equations).
    rank : int
        Number of relative rotations locked (3 when both bodies have full orientation;
        fewer otherwise — the caller decides whether that is an error).

    Example
    -------
    ``rotation_locks("weld", ground, body)`` for a body with three directions returns
    three rows and rank 3.
    """
    ea, ea0 = body_a.span_basis()
    eb, eb0 = body_b.span_basis()
    candidates = [(Equation(Dot, (ea[i], eb[j]), None, float(ea0[:, i] @ eb0[:, j]), None,
                            f"{name}: rotation lock {i}{j}"), np.cross(eb0[:, j], ea0[:, i]))
                  for i in range(len(ea)) for j in range(len(eb))]
    return select_independent(candidates, 3)


class Weld(Joint):
    """Rigid connection of two bodies at ``point``: coincidence (3 rows) and the relative
    rotation locked (3 rows, :func:`rotation_locks`); both bodies, or the ground and a
    body, must have full orientation (e.g. a flexible body's interface frame held to the
    ground: ``Model.weld("root", m.ground, "bar.root", (0, 0, 0))``).

    Parameters
    ----------
    name : str
        Joint name.
    body_a, body_b : body
        The two bodies; the multipliers of the coincidence rows are the constraint force
        on ``body_b`` (N, global frame; ``body_a`` carries −F), those of the rotation
        locks are labelled ``"<name>: rotation lock ij"``.
    point : (3,) array_like
        The weld point, m, global frame, initial configuration; a material point of both
        bodies.

    Raises
    ------
    ModelError
        If the relative rotation cannot be fully locked (a body with fewer than three
        material directions), the point is not a material point of both bodies, or a
        body is a floating-frame body itself rather than one of its interface frames.
    """

    kind = "weld"

    def __init__(self, name, body_a, body_b, point):
        super().__init__(name, body_a, body_b)
        self.point = vector3(point, f"weld '{name}': point (m)")
        locks, rank = rotation_locks(name, body_a, body_b)
        if rank < 3:
            raise ModelError(f"weld '{name}': the relative rotation of '{body_a.name}' and '{body_b.name}' cannot be "
                             "locked (one of them has fewer than three material directions); weld full bodies")
        self._equations = coincidence(name, body_a.material_point(point), body_b.material_point(point)) + locks


class Prismatic(Joint):
    """Slider along ``axis`` (carried by A): B's point stays on A's line and the relative
    rotation is locked (2 + 3 rows; both bodies must have full orientation).

    Parameters
    ----------
    name : str
        Joint name.
    body_a : body
        The guide carrying the axis (two material directions ⟂ the axis needed).
    body_b : body
        The slider.
    point : (3,) array_like
        A point of the line, m, global frame, initial configuration.
    axis : (3,) array_like
        Sliding direction, global frame (normalised).

    Raises
    ------
    ModelError
        If A cannot carry the line or the relative rotation cannot be locked.
    """

    kind = "prismatic"

    def __init__(self, name, body_a, body_b, point, axis):
        super().__init__(name, body_a, body_b)
        axis = _unit(axis, f"prismatic '{name}' axis")
        pa, pb = body_a.material_point(point), body_b.material_point(point)
        normals = perpendicular_vectors(body_a, axis)
        if len(normals) < 2:
            raise ModelError(f"prismatic '{name}': body '{body_a.name}' needs two material directions "
                             "perpendicular to the axis (use a full rigid body or the ground)" + cable_alternative(
                                 body_a, "make the cable node body_b (the slider) on a full body or the ground"))
        eqs = [Equation(Dot, (pb - pa, w), None, 0.0, None, f"{name}: on line {k}")
               for k, (w, _) in enumerate(normals[:2])]
        locks, rank = rotation_locks(name, body_a, body_b)
        if rank < 3 and body_b.span_rank == 3:
            raise ModelError(f"prismatic '{name}': cannot lock the relative rotation of '{body_b.name}'")
        self.axis, self.point = axis, np.asarray(point, float)
        self._equations = eqs + locks


class Distance(Joint):
    """Distance constraint ‖p_a − p_b‖ = d as one row (p_a − p_b)·(p_a − p_b) = d².

    Parameters
    ----------
    name : str
        Joint name.
    body_a : body
        Body of the first point.
    point_a : (3,) array_like
        First point, m, global frame, initial configuration.
    body_b : body
        Body of the second point.
    point_b : (3,) array_like
        Second point, m, global frame, initial configuration.
    distance : float, optional
        d, m (default the initial distance).

    Raises
    ------
    ModelError
        If the distance is not positive.
    """

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

    Parameters
    ----------
    name : str
        Joint name.
    revolute : Revolute
        The driven joint (its bodies become this joint's A and B).
    function : femdyn.motion.timefunctions.TimeFunction
        f(t), rad: the prescribed joint angle.
    """

    kind = "angle drive"

    def __init__(self, name, revolute, function):
        super().__init__(name, revolute.body_a, revolute.body_b)
        a, b, u, offset = revolute.angle_vectors()
        self.revolute, self.function = revolute, function
        self._equations = [Equation(Angle, (a, b, u), None, -offset, function, f"{name}: angle")]

    def reaction(self, lam_rows):
        """The drive torque on body B about the axis (N·m): −λ.

        Parameters
        ----------
        lam_rows : ndarray (1,)
            The drive's multiplier.

        Returns
        -------
        names : list of str
            ``["torque"]``.
        values : ndarray (1,)
            −λ, N·m.
        """
        return ["torque"], -lam_rows


class CoordinateDrive(Joint):
    """Prescribed coordinate d·e(q) = f(t) of a point or vector expression (SI units).

    Its multiplier λ gives the driving force −λ d on the point (N).

    Parameters
    ----------
    name : str
        Joint name.
    body : body
        The body of the expression (both A and B of the joint).
    expr : femdyn.model.nodes.Expr
        The material point or vector e(q).
    direction : (3,) array_like
        d, global frame (normalised).
    function : femdyn.motion.timefunctions.TimeFunction
        f(t), m for a point.
    """

    kind = "coordinate drive"

    def __init__(self, name, body, expr, direction, function):
        super().__init__(name, body, body)
        d = _unit(direction, f"coordinate drive '{name}' direction")
        self._equations = [Equation(Linear, (expr,), d, 0.0, function, f"{name}: coordinate")]
