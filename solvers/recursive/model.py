"""Immutable kinematic-tree model: bodies, joints, spatial inertias, gravity.

RBDA ch. 4 (Featherstone 2008): parent-first numbering (``parent[i] < i``, −1 the world),
joint i between body i and its parent, ``X_i = X_J(q_i) X_T,i``. Joint kinds ``revolute``,
``prismatic`` (one coordinate, rad or m), ``fixed`` and ``free`` (q = [p, quaternion
(x, y, z, w)], v = [ω; v_o] in body coordinates, RBDA table 4.1). Conventions and
placements: docs/solvers.md ("Recursive trees"), docs/conventions.md.
"""
from dataclasses import dataclass, field

import numpy as np

from femdyn.errors import ModelError
from femdyn.model.checks import check_gravity
from femdyn.input_checks import finite, inconsistent, numeric, refuse_non_finite

from .packing import pack
from .spatial import rpy_matrix, spatial_inertia

FIXED, REVOLUTE, PRISMATIC, FREE = 0, 1, 2, 3
JOINT_KINDS = {"fixed": FIXED, "revolute": REVOLUTE, "prismatic": PRISMATIC, "free": FREE}
JOINT_NQ = {FIXED: 0, REVOLUTE: 1, PRISMATIC: 1, FREE: 7}
JOINT_NV = {FIXED: 0, REVOLUTE: 1, PRISMATIC: 1, FREE: 6}
WORLD = "world"
TREE_FLOATS = ("axis", "tree_E", "tree_r", "inertia", "S")            # packed in this order (kernels.tree_views)
TREE_INTS = ("parent", "joint_type", "q_index", "v_index", "joint_nv")


@dataclass(frozen=True)
class Joint:
    """A joint of a kinematic tree: its kind and unit axis in the joint frame.

    Parameters
    ----------
    kind : {"revolute", "prismatic", "fixed", "free"}
        Joint kind (see the module docstring for the coordinates of each).
    axis : (3,) tuple
        Rotation axis or translation direction in the joint frame (normalized; unused by fixed, free).
    """
    kind: str = "revolute"
    axis: tuple = (0.0, 0.0, 1.0)


@dataclass(frozen=True)
class Body:
    """A rigid body and the joint to its parent.

    Parameters
    ----------
    name : str
        Unique body name ('world' is reserved).
    parent : str
        The parent body's name, or 'world'.
    joint : Joint
        The joint from the parent to this body.
    mass : float
        Mass [kg], > 0.
    com : (3,) tuple, optional
        Centre of mass [m] in body coordinates.
    inertia : tuple, optional
        About the centre of mass, body axes [kg·m²]: 3×3, or (Ixx, Iyy, Izz, Ixy, Ixz, Iyz) as in URDF.
    placement_R : (3, 3) tuple, optional
        Joint-frame axes in parent coordinates (columns); the body frame coincides with the joint frame at q = 0.
    placement_p : (3,) tuple, optional
        Joint-frame origin [m] in parent coordinates.
    """
    name: str
    parent: str
    joint: Joint
    mass: float
    com: tuple = (0.0, 0.0, 0.0)
    inertia: tuple = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    placement_R: tuple = field(default=((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)))
    placement_p: tuple = (0.0, 0.0, 0.0)


def inertia_matrix(inertia, name):
    """3×3 rotational inertia from a matrix or its six entries."""
    a = numeric(inertia, f"body '{name}': inertia")
    if a.shape == (6,):
        xx, yy, zz, xy, xz, yz = a
        return np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    if a.shape == (3, 3):
        return a
    raise ModelError(f"body '{name}': inertia must be 3×3 or (Ixx, Iyy, Izz, Ixy, Ixz, Iyz), got shape {a.shape}")


def _check_mass_properties(name, mass, com, Ic, strict=True):
    """Raise unless (mass, com, Ic) describe a physical rigid body.
    m > 0, Ic positive with I3 ≤ I1 + I2 (Traversaro et al. 2016, IROS)."""
    for label, value in (("mass (kg)", mass), ("centre of mass (m)", com), ("rotational inertia (kg·m²)", Ic)):
        refuse_non_finite(value, f"body '{name}': {label}")
    scale = max(np.abs(Ic).max(), 1e-300)
    if np.abs(Ic - Ic.T).max() > 1e-9 * scale:
        raise ModelError(f"body '{name}': rotational inertia is not symmetric; give Ixy, Ixz, Iyz once")
    if not mass > 0:
        inconsistent(f"body '{name}': mass {mass} kg is not positive; give every body a mass > 0 "
                     "(weld massless frames to their parent instead)", strict)
    moments = np.linalg.eigvalsh(Ic)
    if moments[0] <= 0:
        inconsistent(f"body '{name}': rotational inertia is singular or not positive definite "
                     f"(principal moments {moments} kg·m²); every body needs three positive moments", strict)
    tol = 1e-12 * abs(moments).sum()
    if moments[2] > moments[0] + moments[1] + tol:
        inconsistent(f"body '{name}': principal moments {moments} kg·m² violate the triangle inequality "
                     "I3 ≤ I1 + I2; no mass distribution has them — check the inertia values and units", strict)


def _unit_axis(axis, name):
    """The joint axis normalized; a zero or non-finite one raises."""
    a = numeric(axis, f"joint of body '{name}': axis")
    n = np.linalg.norm(a) if a.shape == (3,) else 0.0
    if not (n > 0 and np.isfinite(n)):
        raise ModelError(f"joint of body '{name}': axis {axis!r} must be a nonzero 3-vector")
    return a / n


def proper_rotation(value, what, hint=""):
    """A value as a 3×3 rotation matrix (orthonormal to 1e-9, det +1)."""
    R = numeric(value, what)
    if R.shape != (3, 3) or not (np.abs(R @ R.T - np.eye(3)).max() <= 1e-9 and np.linalg.det(R) > 0):
        raise ModelError(f"{what} is not a proper rotation matrix; give an orthonormal matrix with det +1{hint}")
    return R


def _parent_first_order(names, parents):
    """Indices ordering bodies so every parent precedes its children (RBDA ch. 4, regular numbering)."""
    index = {}
    for i, n in enumerate(names):
        if n in index or n == WORLD:
            raise ModelError(f"body name '{n}' is used twice (or is the reserved name '{WORLD}'); names must be unique")
        index[n] = i
    for n, p in zip(names, parents):
        if p != WORLD and p not in index:
            raise ModelError(f"body '{n}': parent '{p}' does not exist; define it or use '{WORLD}'")
    order, state = [], [0] * len(names)        # 0 new, 1 on the current path, 2 placed
    for start in range(len(names)):
        path, i = [], start
        while i is not None and state[i] == 0:
            state[i] = 1
            path.append(i)
            p = parents[i]
            i = None if p == WORLD else index[p]
        if i is not None and state[i] == 1:
            cycle = [names[k] for k in path[path.index(i):]]
            raise ModelError(f"parent chain {' -> '.join(cycle + cycle[:1])} is a cycle; a tree needs one path to "
                             "'world' — cut the loop and close it with a constraint (see topology.py)")
        for k in reversed(path):
            state[k] = 2
            order.append(k)
    return order


def order_tree(model, bodies, gravity):
    """Set ``model.bodies`` (parent-first), ``names``, the name index and ``gravity`` (m/s²)."""
    bodies = list(bodies)
    if not bodies:
        raise ModelError("a tree model needs at least one body")
    order = _parent_first_order([b.name for b in bodies], [b.parent for b in bodies])
    model.bodies = tuple(bodies[k] for k in order)
    model.names = tuple(b.name for b in model.bodies)
    model._index = {n: i for i, n in enumerate(model.names)}
    model.gravity = finite(gravity, "gravity (a 3-vector in m/s²)", (3,))
    check_gravity("tree model", model.gravity)


def freeze(model):
    """Make every numpy array attribute of ``model`` read-only."""
    for a in vars(model).values():
        if isinstance(a, np.ndarray):
            a.setflags(write=False)


def rigid_mass_properties(b, strict=True):
    """(mass kg, com (3,) m, Ic (3, 3) kg·m²) of a rigid body's data, checked by :func:`_check_mass_properties`."""
    Ic = inertia_matrix(b.inertia, b.name)
    mass = float(numeric(b.mass, f"body '{b.name}': mass (kg)", ()))
    com = numeric(b.com, f"body '{b.name}': com (m)", (3,))
    _check_mass_properties(b.name, mass, com, Ic, strict)
    return mass, com, Ic


def fill_joint(model, i, b):
    """Write body ``b``'s joint into row i of the model's joint arrays (``joint_type``, ``joint_nq``,
    ``joint_nv``, ``tree_E``, ``tree_r``, ``axis``, ``S``)."""
    if b.joint.kind not in JOINT_KINDS:
        raise ModelError(f"body '{b.name}': unknown joint kind '{b.joint.kind}'; use one of {sorted(JOINT_KINDS)}")
    kind = JOINT_KINDS[b.joint.kind]
    R = proper_rotation(b.placement_R, f"body '{b.name}': placement_R", " (or 'rpy' angles in a table)")
    model.joint_type[i] = kind
    model.joint_nq[i], model.joint_nv[i] = JOINT_NQ[kind], JOINT_NV[kind]
    model.tree_E[i] = R.T
    model.tree_r[i] = finite(b.placement_p, f"body '{b.name}': placement_p (m)", (3,))
    if kind in (REVOLUTE, PRISMATIC):
        a = _unit_axis(b.joint.axis, b.name)
        model.axis[i] = a
        model.S[i, :3, 0] = a if kind == REVOLUTE else 0.0
        model.S[i, 3:, 0] = a if kind == PRISMATIC else 0.0
    elif kind == FREE:
        model.S[i] = np.eye(6)


class TreeModel:
    """Immutable kinematic tree with everything the recursive algorithms need as arrays.

    Read-only arrays, parent-first: ``parent``, ``joint_type``, ``axis``, ``tree_E``/``tree_r``
    (RBDA ch. 4), ``inertia`` (n, 6, 6), ``S`` (n, 6, 6), ``q_index``/``v_index``,
    ``joint_nq``/``joint_nv``; ``nq``, ``nv``, ``gravity``, ``sizes`` = (n, nq, nv).

    Parameters
    ----------
    bodies : iterable of Body
        The bodies, in any order (they are sorted parent-first).
    gravity : (3,) array_like, optional
        Gravitational acceleration [m/s²], world frame.

    Raises
    ------
    ModelError
        For an empty tree, bad names or parents, a cycle, an unknown joint kind, a zero
        axis, a non-physical body or an improper placement rotation.
    """

    def __init__(self, bodies, gravity=(0.0, 0.0, -9.81), strict=True):
        self.strict = bool(strict)
        order_tree(self, bodies, gravity)
        self._build_arrays()
        self.sizes = (self.n, self.nq, self.nv)
        self.packed = pack(self, TREE_FLOATS, TREE_INTS)
        freeze(self)

    def _build_arrays(self):
        n = len(self.bodies)
        self.n = n
        self.parent = np.array([-1 if b.parent == WORLD else self._index[b.parent] for b in self.bodies], np.int64)
        self.joint_type = np.zeros(n, np.int64)
        self.axis = np.zeros((n, 3))
        self.tree_E = np.zeros((n, 3, 3))
        self.tree_r = np.zeros((n, 3))
        self.inertia = np.zeros((n, 6, 6))
        self.S = np.zeros((n, 6, 6))
        self.joint_nq = np.zeros(n, np.int64)
        self.joint_nv = np.zeros(n, np.int64)
        for i, b in enumerate(self.bodies):
            self._fill_body(i, b)
        self.q_index = np.concatenate([[0], np.cumsum(self.joint_nq)[:-1]]).astype(np.int64)
        self.v_index = np.concatenate([[0], np.cumsum(self.joint_nv)[:-1]]).astype(np.int64)
        self.nq = int(self.joint_nq.sum())
        self.nv = int(self.joint_nv.sum())
        self.mass = np.array([float(b.mass) for b in self.bodies])
        self.free_joints = np.flatnonzero(self.joint_type == FREE)
        scalar = np.flatnonzero((self.joint_type == REVOLUTE) | (self.joint_type == PRISMATIC))
        self.scalar_q_index = self.q_index[scalar]
        self.scalar_v_index = self.v_index[scalar]

    def _fill_body(self, i, b):
        fill_joint(self, i, b)
        self.inertia[i] = spatial_inertia(*rigid_mass_properties(b, self.strict))

    def index(self, name):
        """Position of a body in the parent-first order.

        Parameters
        ----------
        name : str
            Body name.

        Raises
        ------
        ModelError
            If there is no such body (the message lists the bodies).
        """
        try:
            return self._index[name]
        except KeyError:
            raise ModelError(f"no body named '{name}'; bodies are {list(self.names)}") from None

    def neutral_configuration(self):
        """q with every joint at zero and free joints at the identity quaternion."""
        q = np.zeros(self.nq)
        for i in np.flatnonzero(self.joint_type == FREE):
            q[self.q_index[i] + 6] = 1.0
        return q

    @classmethod
    def from_table(cls, rows, gravity=(0.0, 0.0, -9.81), strict=True):
        """Build a tree from table rows (dicts), e.g. read from a robot description file.

        Parameters
        ----------
        rows : iterable of dict
            Keys ``name, parent, joint, axis, xyz, rpy`` (or ``R``), ``mass, com, inertia``:
            ``xyz`` [m] and ``rpy`` (roll, pitch, yaw [rad], R = Rz(yaw) Ry(pitch) Rx(roll)) place
            the joint frame in the parent frame; missing keys take the defaults of :class:`Body`
            (``mass`` and ``inertia`` are required).
        gravity : (3,) array_like, optional
            Gravitational acceleration [m/s²], world frame.
        strict : bool, optional
            False accepts massless links or non-physical inertias with a warning.

        Returns
        -------
        TreeModel

        Raises
        ------
        ModelError
            For a missing ``mass`` or ``inertia``, unknown keys, or any error of :class:`TreeModel`.

        Examples
        --------
        >>> model = TreeModel.from_table([
        ...     {"name": "upper", "axis": (0, 1, 0), "mass": 1.0, "com": (0.5, 0, 0), "inertia": (1e-3, 0.1, 0.1, 0, 0, 0)},
        ...     {"name": "lower", "parent": "upper", "xyz": (1, 0, 0), "axis": (0, 1, 0), "mass": 1.0,
        ...      "com": (0.5, 0, 0), "inertia": (1e-3, 0.1, 0.1, 0, 0, 0)}])
        >>> model.names, model.parent.tolist()
        (('upper', 'lower'), [-1, 0])
        """
        bodies = []
        for k, row in enumerate(rows):
            row = dict(row)
            name = str(row.pop("name", f"body{k}"))
            where = f"table row {k} ('{name}')"
            for key in ("mass", "inertia"):
                if key not in row:
                    raise ModelError(f"{where}: missing key '{key}'; every row needs 'mass' and 'inertia'")
            R, rpy = row.pop("R", None), row.pop("rpy", None)
            placement_R = (R if R is not None else
                           rpy_matrix(finite(rpy, f"{where}: rpy (roll, pitch, yaw in rad)", (3,))) if rpy is not None
                           else np.eye(3))
            bodies.append(Body(name=name, parent=str(row.pop("parent", WORLD)),
                               joint=Joint(row.pop("joint", "revolute"), row.pop("axis", (0.0, 0.0, 1.0))),
                               mass=row.pop("mass"), com=row.pop("com", (0.0, 0.0, 0.0)), inertia=row.pop("inertia"),
                               placement_R=placement_R, placement_p=row.pop("xyz", (0.0, 0.0, 0.0))))
            if row:
                raise ModelError(f"{where}: unknown keys {sorted(row)}")
        return cls(bodies, gravity, strict)
