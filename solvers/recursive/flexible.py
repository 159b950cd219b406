"""Trees of flexible bodies with modal coordinates for the recursive O(N) solvers.

A :class:`ModalBody` is a floating-frame body (a component ``.fdc`` referenced to its inner
joint's interface, or rigid) with the linear modal field of Shabana (2005, ch. 5):

    r = r_ref + R (x + Φ(x) η),    interface k: origin o_k + Φ_k η, axes exp([Ψ_k η]×).

Coordinates of a :class:`FlexibleTreeModel`: every joint's, then every body's η
(``eta_slice``). Model and coordinates: docs/recursive-flexible.md.
"""
from dataclasses import dataclass, field

import numpy as np

from femdyn.errors import ModelError
from femdyn.component import interface_index, keep_modes, reference_to_interface

from .model import FREE, PRISMATIC, REVOLUTE, WORLD, Body, Joint, TreeModel, fill_joint, freeze, order_tree, \
    rigid_mass_properties
from .packing import pack

_IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))

FLEXIBLE_FLOATS = ("axis", "tree_E", "tree_r", "S", "mass", "first_moment", "second_moment", "Ct", "Cx", "Cpp",
                   "modal_mass", "modal_stiffness", "modal_damping", "at_origin", "at_translation", "at_rotation")
FLEXIBLE_INTS = ("parent", "joint_type", "q_index", "v_index", "joint_nv", "n_modes", "eq_index", "ev_index")
# packed in this order (modal_kernels.flexible_views)


@dataclass(frozen=True)
class ModalBody:
    """A body of a :class:`FlexibleTreeModel`, flexible (``component``) or rigid.

    Parameters
    ----------
    name, parent : str
        Body name and its parent's name (or 'world').
    joint : Joint
        Joint to the parent (axis in the joint frame).
    component : Component or None
        Flexible body, referenced to interface ``inner`` (None: rigid).
    inner : str or int
        The component's interface at the inner joint: the body frame.
    modes : int or None
        Keep the lowest ``modes`` modes after referencing (None: all).
    at : str, int or None
        Interface of the parent (a flexible body) that carries the joint; None: the parent's body frame.
    placement_R, placement_p : joint frame relative to that frame (axes, m).
    mass, com, inertia : rigid body data as in :class:`~.model.Body`, used when ``component`` is None.
    """
    name: str
    parent: str
    joint: Joint
    component: object = None
    inner: object = 0
    modes: object = None
    at: object = None
    placement_R: tuple = field(default=_IDENTITY)
    placement_p: tuple = (0.0, 0.0, 0.0)
    mass: float = 0.0
    com: tuple = (0.0, 0.0, 0.0)
    inertia: tuple = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

    @classmethod
    def rigid(cls, body, at=None):
        """The rigid :class:`~.model.Body` ``body`` as a ModalBody.

        Parameters
        ----------
        body : Body
            Rigid body with its joint, placement and mass properties.
        at : str, int or None, optional
            Interface of a flexible parent that carries the joint (None: the parent's body frame).
        """
        return cls(body.name, body.parent, body.joint, at=at, placement_R=body.placement_R,
                   placement_p=body.placement_p, mass=body.mass, com=body.com, inertia=body.inertia)


def _body_component(body):
    """The component of a flexible ModalBody, referenced to its inner interface and truncated."""
    c = body.component
    k = interface_index(c, body.inner)
    clamped = (np.abs(c.interface_origins[k]).max() == 0.0
               and np.abs(c.interface_shapes[k]).max() <= 1e-12 * max(np.abs(c.interface_shapes).max(), 1e-300))
    if not clamped:
        c = reference_to_interface(c, k)
    if body.modes is not None:
        c = keep_modes(c, body.modes)
    return c


class FlexibleTreeModel:
    """Immutable tree of rigid and flexible bodies: the arrays of the compiled sweeps.

    Read-only arrays in parent-first order: the joint arrays of :class:`~.model.TreeModel`, plus
    ``n_modes``, ``eq_index``/``ev_index``, the component invariants (``mass``, ``first_moment``,
    ``second_moment``, ``Ct``, ``Cx``, ``Cpp``, ``modal_*``), the attachment interfaces
    (``at_origin``, ``at_translation`` Φ_k, ``at_rotation`` Ψ_k), ``components``, ``nq``, ``nv``,
    ``n_eta``, ``gravity`` (docs/recursive-flexible.md).

    Parameters
    ----------
    bodies : iterable of ModalBody (or rigid :class:`~.model.Body`)
    gravity : (3,) m/s², world frame

    Raises
    ------
    ModelError
        Unknown parent or interface, cycles, unphysical rigid inertia, ``at`` on a rigid parent.
    """

    def __init__(self, bodies, gravity=(0.0, 0.0, -9.81)):
        order_tree(self, [ModalBody.rigid(b) if isinstance(b, Body) else b for b in bodies], gravity)
        self.components = tuple(_body_component(b) if b.component is not None else None for b in self.bodies)
        self._build()
        self.packed = pack(self, FLEXIBLE_FLOATS, FLEXIBLE_INTS)
        freeze(self)

    def _build(self):
        n = len(self.bodies)
        self.n = n
        self.n_modes = np.array([0 if c is None else c.n_modes for c in self.components], np.int64)
        M = max(1, int(self.n_modes.max()))
        self.parent = np.array([-1 if b.parent == WORLD else self._index[b.parent] for b in self.bodies], np.int64)
        for name, shape in (("axis", (3,)), ("tree_E", (3, 3)), ("tree_r", (3,)), ("S", (6, 6)), ("mass", ()),
                            ("first_moment", (3,)), ("second_moment", (3, 3)), ("Ct", (3, M)), ("Cx", (3, 3, M)),
                            ("Cpp", (3, 3, M, M)), ("modal_mass", (M, M)), ("modal_stiffness", (M, M)),
                            ("modal_damping", (M, M)), ("at_origin", (3,)), ("at_translation", (3, M)),
                            ("at_rotation", (3, M))):
            setattr(self, name, np.zeros((n,) + shape))
        self.joint_type = np.zeros(n, np.int64)
        self.joint_nq = np.zeros(n, np.int64)
        self.joint_nv = np.zeros(n, np.int64)
        for i, b in enumerate(self.bodies):
            fill_joint(self, i, b)
            self._fill_inertia(i, b)
            self._fill_attachment(i, b)
        self.q_index = np.concatenate([[0], np.cumsum(self.joint_nq)[:-1]]).astype(np.int64)
        self.v_index = np.concatenate([[0], np.cumsum(self.joint_nv)[:-1]]).astype(np.int64)
        nq_j, nv_j = int(self.joint_nq.sum()), int(self.joint_nv.sum())
        offset = np.concatenate([[0], np.cumsum(self.n_modes)[:-1]]).astype(np.int64)
        self.n_eta = int(self.n_modes.sum())
        self.eq_index, self.ev_index = nq_j + offset, nv_j + offset
        self.nq, self.nv = nq_j + self.n_eta, nv_j + self.n_eta
        self.n_joint_q, self.n_joint_v = nq_j, nv_j
        self.free_joints = np.flatnonzero(self.joint_type == FREE)
        scalar = np.flatnonzero((self.joint_type == REVOLUTE) | (self.joint_type == PRISMATIC))
        self.scalar_q_index = np.concatenate([self.q_index[scalar], np.arange(nq_j, self.nq)]).astype(np.int64)
        self.scalar_v_index = np.concatenate([self.v_index[scalar], np.arange(nv_j, self.nv)]).astype(np.int64)
        self.sizes = (n, self.nq, self.nv, M)

    def _fill_inertia(self, i, b):
        c = self.components[i]
        if c is None:
            mass, com, Ic = rigid_mass_properties(b)
            self.mass[i], self.first_moment[i] = mass, mass * com
            self.second_moment[i] = 0.5 * np.trace(Ic) * np.eye(3) - Ic + mass * np.outer(com, com)
            return
        m = c.n_modes
        self.mass[i], self.first_moment[i], self.second_moment[i] = float(c.mass), c.first_moment, c.second_moment
        self.Ct[i, :, :m], self.Cx[i, :, :, :m], self.Cpp[i, :, :, :m, :m] = c.Ct, c.Cx, c.Cpp
        self.modal_mass[i, :m, :m] = np.einsum("aakl->kl", c.Cpp)
        self.modal_stiffness[i, :m, :m] = c.modal_stiffness
        self.modal_damping[i, :m, :m] = c.modal_damping

    def _fill_attachment(self, i, b):
        if b.at is None:
            return
        p = self.parent[i]
        parent = self.components[p] if p >= 0 else None
        if parent is None:
            raise ModelError(f"body '{b.name}': at={b.at!r} names an interface, but its parent '{b.parent}' has no "
                             "component; leave at=None and give the joint placement in the parent's frame")
        k = interface_index(parent, b.at)
        m = parent.n_modes
        self.at_origin[i] = parent.interface_origins[k]
        self.at_translation[i, :, :m] = parent.interface_shapes[k, :3]
        self.at_rotation[i, :, :m] = parent.interface_shapes[k, 3:]

    index = TreeModel.index          # position of a body in the parent-first order

    def eta_slice(self, name, velocity=False):
        """Slice of body ``name``'s modal coordinates in q (or in v with ``velocity=True``).

        Parameters
        ----------
        name : str
            A flexible body's name.
        velocity : bool, optional
            Index the velocity vector v (joint velocities first) instead of q."""
        i = self.index(name)
        start = (self.ev_index if velocity else self.eq_index)[i]
        return slice(int(start), int(start + self.n_modes[i]))

    def neutral_configuration(self):
        """q with every joint at zero, free joints at the identity quaternion, η = 0."""
        q = np.zeros(self.nq)
        for i in self.free_joints:
            q[self.q_index[i] + 6] = 1.0
        return q


def flexible_chain(components, joints, placements=None, inner=0, outer=1, modes=None, gravity=(0.0, 0.0, -9.81),
                   names=None):
    """A serial chain of flexible bodies: body k's joint sits on interface ``outer`` of body k − 1.

    Parameters
    ----------
    components : list of Component (one per body; None for a rigid body is not accepted here)
    joints : list of Joint (joint k connects body k to body k − 1, the first to the world)
    placements : list of (R, p) per joint, relative to the parent's interface frame; default identity
    inner, outer : interface (name or index) of each component at its inner and outer joint
    modes : modes kept per body (int or None)
    gravity : (3,) m/s²
    names : body names (default 'link1', 'link2', ...)

    Returns
    -------
    FlexibleTreeModel
    """
    if len(components) != len(joints):
        raise ModelError(f"flexible_chain: {len(components)} components but {len(joints)} joints; give one joint "
                         "per body")
    names = names or [f"link{k + 1}" for k in range(len(components))]
    placements = placements or [(_IDENTITY, (0.0, 0.0, 0.0))] * len(components)
    bodies = []
    for k, (c, joint, (R, p)) in enumerate(zip(components, joints, placements)):
        bodies.append(ModalBody(names[k], WORLD if k == 0 else names[k - 1], joint, component=c, inner=inner,
                                modes=modes, at=None if k == 0 else outer, placement_R=R, placement_p=p))
    return FlexibleTreeModel(bodies, gravity)
