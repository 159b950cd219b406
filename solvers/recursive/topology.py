"""Topology from configuration parameters (Wang, Liu, Yue & Cao, variable-topology multi-arm spacecraft).

Each link carries an ID and one pointer per interface (the attached link's ID, 0 for a free
end, ``s + 1`` for inertial space). :func:`build_topology` traverses breadth-first from
inertial space (Wittenburg 2008, ch. 5), cuts loops into closures (:mod:`.closed_loop`),
builds the incidence and path matrices (S·P = E) and the kinematic tree, each body framed at
its inner joint's interface. Details: docs/solvers.md ("Recursive trees").
"""
from dataclasses import dataclass

import numpy as np

from femdyn.errors import ModelError
from femdyn.input_checks import finite

from .closed_loop import POINT_ROWS, LoopClosure
from .model import Body, Joint, TreeModel, inertia_matrix, proper_rotation

FREE_END = 0


@dataclass(frozen=True)
class Interface:
    """A joint site of a link: the interface frame in the link frame and the joint made there.

    Joined frames coincide at q = 0; at a cut joint both name the same kind and parallel axes.

    Parameters
    ----------
    position : (3,) tuple, optional
        Origin of the interface frame [m], link frame.
    R : (3, 3) tuple, optional
        Axes of the interface frame (columns) in link-frame coordinates.
    joint : str, optional
        Kind of the joint made when this interface is the link's inner one ('revolute',
        'prismatic', 'fixed'; at cut joints also 'spherical').
    axis : (3,) tuple, optional
        Joint axis in interface-frame coordinates.
    """
    position: tuple = (0.0, 0.0, 0.0)
    R: tuple = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    joint: str = "revolute"
    axis: tuple = (0.0, 0.0, 1.0)


@dataclass(frozen=True)
class InertiaSet:
    """Mass properties of a link expressed in one interface frame."""
    mass: float
    com: tuple
    inertia: tuple


@dataclass(frozen=True)
class Link:
    """Configuration parameters of one link (Wang et al.).

    Parameters
    ----------
    id : int
        Distinct positive integer.
    pointers : tuple of int
        One per interface: the attached link's ID, 0 for a free end, max ID + 1 for inertial space.
    interfaces : tuple of Interface
        The interfaces (same length as ``pointers``).
    inertias : tuple of InertiaSet
        The link's mass properties in each interface frame (:func:`inertia_sets`).
    """
    id: int
    pointers: tuple
    interfaces: tuple
    inertias: tuple

    @property
    def degree(self):
        """Number of interfaces."""
        return len(self.pointers)


def interface_frame(itf, where):
    """(R, p) of an interface in its link's frame, checked."""
    return proper_rotation(itf.R, f"{where}: R"), finite(itf.position, f"{where}: position (m)", (3,))


def _in_body_frame(link, inner_interface, interface):
    """(R, p) of ``interface`` of ``link`` in the link's body frame, the frame of its inner interface."""
    Rf, pf = interface_frame(link.interfaces[inner_interface], f"link {link.id}, interface {inner_interface}")
    R, p = interface_frame(link.interfaces[interface], f"link {link.id}, interface {interface}")
    return Rf.T @ R, Rf.T @ (p - pf)


def inertia_sets(mass, com, inertia, interfaces):
    """One :class:`InertiaSet` per interface from link-frame mass properties.

    Parameters
    ----------
    mass, com : float, (3,) array_like
        Mass [kg] and centre of mass [m], link frame.
    inertia : array_like
        About the centre of mass [kg·m²], link axes: 3×3, (Ixx, Iyy, Izz) or six entries as for ``Body``.
    interfaces : sequence of Interface
        The link's interfaces.

    Returns
    -------
    tuple of InertiaSet

    Raises
    ------
    ModelError
        For non-finite values, another inertia shape or a bad interface frame.
    """
    com = finite(com, "inertia_sets: com (m)", (3,))
    values = finite(inertia, "inertia_sets: inertia (kg·m²)", None)
    if values.shape not in ((3,), (6,), (3, 3)):
        raise ModelError(f"inertia_sets: inertia must be 3×3, (Ixx, Iyy, Izz) or (Ixx, Iyy, Izz, Ixy, Ixz, Iyz), "
                         f"got shape {values.shape}")
    Ic = np.diag(values) if values.shape == (3,) else inertia_matrix(values, "inertia_sets")
    out = []
    for k, itf in enumerate(interfaces):
        R, p = interface_frame(itf, f"inertia_sets: interface {k}")
        out.append(InertiaSet(mass, tuple(R.T @ (com - p)), R.T @ Ic @ R))
    return tuple(out)


@dataclass(frozen=True)
class Cut:
    """A cut joint closing a loop: interface ``a_interface`` of link ``a`` meets ``b_interface`` of link ``b``."""
    a: int
    a_interface: int
    b: int
    b_interface: int


@dataclass
class Topology:
    """Result of :func:`build_topology`.

    Joint k is the inner joint of link k.

    Parameters
    ----------
    tree : TreeModel
        The kinematic tree (body names 'link<ID>').
    ids : tuple of int
        Sorted link IDs (the index order of ``incidence`` and ``path``).
    inner : dict
        Joint ID → (inner body ID or 0, interface on the inner body, interface on the outer body).
    outer : dict
        Joint ID → its outer body ID (k itself, by this numbering).
    incidence : (s, s) ndarray
        S (links × joints): +1 where the link is the joint's outer body, −1 where it is the inner body.
    path : (s, s) ndarray
        P (joints × links): 1 where the joint is on the path to the link; S·P = E (Wittenburg 2008).
    cuts : tuple of Cut
        Loop-closing joints.
    v_index : dict
        Link ID → first velocity index of its inner joint.
    links : dict
        Link ID → :class:`Link`.
    """
    tree: TreeModel
    ids: tuple
    inner: dict
    outer: dict
    incidence: np.ndarray
    path: np.ndarray
    cuts: tuple
    v_index: dict
    links: dict

    def body(self, link_id):
        """Tree index of a link.

        Parameters
        ----------
        link_id : int
            Link ID.
        """
        return self.tree.index(f"link{link_id}")

    def interface_frame(self, link_id, interface):
        """(R, p) of an interface of a link in that link's body frame (its inner interface frame).

        Parameters
        ----------
        link_id : int
            Link ID.
        interface : int
            Interface index on the link.

        Returns
        -------
        R, p : (3, 3), (3,) ndarray
            Axes and origin [m] of the interface frame in body coordinates.
        """
        return _in_body_frame(self.links[link_id], self.inner[link_id][2], interface)

    def closures(self):
        """One :class:`~.closed_loop.LoopClosure` per cut joint, of the kind and axis its interfaces name.

        All candidate rows; :func:`~.closed_loop.close_loops` drops the dependent ones.
        """
        out = []
        for c in self.cuts:
            itf = self.links[c.a].interfaces[c.a_interface]
            out.append(LoopClosure(itf.joint, self.body(c.a), self.interface_frame(c.a, c.a_interface),
                                   self.body(c.b), self.interface_frame(c.b, c.b_interface), itf.axis))
        return tuple(out)


def _check_links(links):
    """Check the links (distinct IDs, symmetric pointers, one root): (links by ID, root, s)."""
    ids = sorted(l.id for l in links)
    if not ids or ids[0] < 1 or len(set(ids)) != len(ids):
        raise ModelError(f"link IDs must be distinct positive integers; got {ids}")
    s = ids[-1]
    by_id = {l.id: l for l in links}
    for l in links:
        if not (len(l.interfaces) == len(l.inertias) == l.degree):
            raise ModelError(f"link {l.id}: {l.degree} pointers but {len(l.interfaces)} interfaces and "
                             f"{len(l.inertias)} inertia sets; give one of each per interface")
        for k, p in enumerate(l.pointers):
            if p in (FREE_END, s + 1):
                continue
            if p == l.id:
                raise ModelError(f"link {l.id}, interface {k}: the pointer names link {l.id} itself; point to "
                                 f"another link, 0 (free end) or {s + 1} (inertial space)")
            if p not in by_id:
                raise ModelError(f"link {l.id}, interface {k}: pointer {p} is no link ID; use one of {ids}, "
                                 f"0 (free end) or {s + 1} (inertial space)")
            back = [j for j, b in enumerate(by_id[p].pointers) if b == l.id]
            if len(back) != 1 or l.pointers.count(p) != 1:
                raise ModelError(f"link {l.id}, interface {k}: link {p} must point back to link {l.id} "
                                 "exactly once (pointers are symmetric; one joint per link pair)")
    roots = [(l.id, k) for l in links for k, p in enumerate(l.pointers) if p == s + 1]
    if len(roots) != 1:
        raise ModelError(f"exactly one interface must point to inertial space ({s + 1}); found {roots}")
    return by_id, roots[0], s


def _traverse(by_id, root, s, cut_pairs):
    """Breadth-first traversal: inner joints {link: (inner link, its interface, own interface)} and cuts."""
    root_id, root_itf = root
    inner, order, seen = {root_id: (0, -1, root_itf)}, [root_id], set()
    wanted = _pairs(cut_pairs)
    cuts = []
    head = 0
    while head < len(order):
        a = order[head]
        head += 1
        for k, b in enumerate(by_id[a].pointers):
            pair = (min(a, b), max(a, b))
            if b in (FREE_END, s + 1) or pair in seen:
                continue
            seen.add(pair)
            kb = by_id[b].pointers.index(a)
            if b in inner or pair in wanted:
                cuts.append(Cut(a, k, b, kb))          # a traversal reached a visited link: a loop
            else:
                inner[b] = (a, k, kb)
                order.append(b)
    missing = sorted(set(by_id) - set(inner))
    if missing:
        raise ModelError(f"links {missing} are not connected to inertial space; attach them, remove them, "
                         "or cut only joints that lie on a loop")
    unknown = wanted - {(min(c.a, c.b), max(c.a, c.b)) for c in cuts}
    if unknown:
        raise ModelError(f"cut_pairs {sorted(unknown)} are not joints of this topology")
    return inner, order, tuple(cuts)


def _pairs(cut_pairs):
    """{(smaller ID, larger ID)} from (link ID, link ID) pairs, or ModelError."""
    out = set()
    for pair in cut_pairs:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise ModelError(f"cut_pairs: {pair!r} is not a pair (link ID, link ID); give e.g. cut_pairs=[(3, 8)]")
        out.add((min(pair), max(pair)))
    return out


def _check_cut(by_id, cut):
    """ModelError unless the two interfaces of a cut joint name the same cut-joint kind and parallel axes."""
    a, b = by_id[cut.a].interfaces[cut.a_interface], by_id[cut.b].interfaces[cut.b_interface]
    where = f"cut joint between links {cut.a} and {cut.b}"
    if a.joint != b.joint or a.joint not in POINT_ROWS:
        raise ModelError(f"{where}: its interfaces name the joints '{a.joint}' and '{b.joint}'; give both the same "
                         f"kind, one of {sorted(POINT_ROWS)}")
    axes = [finite(x.axis, f"{where}: axis", (3,)) for x in (a, b)]
    if min(np.linalg.norm(axes, axis=1)) == 0 or np.linalg.norm(np.cross(*axes)) > 1e-9 * np.prod(
            np.linalg.norm(axes, axis=1)):
        raise ModelError(f"{where}: the interface axes {a.axis} and {b.axis} must be nonzero and parallel (the two "
                         "interface frames coincide at q = 0)")


def _incidence_and_path(ids, inner):
    """S (links × joints) and P (joints × links) for joints numbered by their outer link."""
    pos = {l: k for k, l in enumerate(ids)}
    s = len(ids)
    S, P = np.zeros((s, s)), np.zeros((s, s))
    for link in ids:
        parent = inner[link][0]
        S[pos[link], pos[link]] = 1.0
        if parent:
            S[pos[parent], pos[link]] = -1.0
        node = link
        while node:                                # joints on the path from inertial space to `link`
            P[pos[node], pos[link]] = 1.0
            node = inner[node][0]
    return S, P


def build_topology(links, base_joint="fixed", base_R=None, base_p=(0.0, 0.0, 0.0),
                   gravity=(0.0, 0.0, 0.0), cut_pairs=()):
    """Kinematic tree, incidence and path matrices and loop cuts from configuration parameters (Wang et al.).

    Parameters
    ----------
    links : iterable of Link
        The links with their pointers, interfaces and inertia sets.
    base_joint : {"fixed", "free", "revolute"}, optional
        Joint of the root link to inertial space (revolute about the root interface's axis).
    base_R : (3, 3) array_like, optional
        That joint's frame axes in the world (default identity).
    base_p : (3,) array_like, optional
        That joint's frame origin [m] in the world.
    gravity : (3,) array_like, optional
        Gravity [m/s²], world frame (default zero: a spacecraft).
    cut_pairs : iterable of (int, int), optional
        Joints (link ID, link ID) to cut by preference; other loops are cut where found.

    Returns
    -------
    Topology

    Raises
    ------
    ModelError
        For bad IDs, asymmetric or dangling pointers, not exactly one interface to inertial
        space, unconnected links, unknown cut pairs, or cut joints whose interfaces disagree.

    Examples
    --------
    A chain of two links, the first on a fixed base:

    >>> ends = (Interface((0, 0, 0)), Interface((1.0, 0, 0)))
    >>> sets = inertia_sets(1.0, (0.5, 0, 0), (1e-3, 0.1, 0.1), ends)
    >>> top = build_topology([Link(1, (3, 2), ends, sets), Link(2, (1, 0), ends, sets)])
    >>> top.tree.names, top.incidence.tolist(), top.path.tolist()
    (('link1', 'link2'), [[1.0, -1.0], [0.0, 1.0]], [[1.0, 1.0], [0.0, 1.0]])
    """
    links = list(links)
    by_id, root, s = _check_links(links)
    inner, order, cuts = _traverse(by_id, root, s, cut_pairs)
    for cut in cuts:
        _check_cut(by_id, cut)
    bodies = []
    for link_id in order:
        parent, parent_itf, own_itf = inner[link_id]
        me = by_id[link_id]
        itf, inertia = me.interfaces[own_itf], me.inertias[own_itf]
        if parent:
            R, p = _in_body_frame(by_id[parent], inner[parent][2], parent_itf)
            joint = Joint(itf.joint, itf.axis)
        else:
            R = np.eye(3) if base_R is None else base_R
            p, joint = base_p, Joint(base_joint, itf.axis)
        bodies.append(Body(f"link{link_id}", f"link{parent}" if parent else "world", joint, inertia.mass,
                           inertia.com, inertia.inertia, R, p))
    tree = TreeModel(bodies, gravity)
    ids = tuple(sorted(by_id))
    S, P = _incidence_and_path(ids, inner)
    v_index = {l: int(tree.v_index[tree.index(f"link{l}")]) for l in ids}
    return Topology(tree, ids, inner, {l: l for l in ids}, S, P, cuts, v_index, by_id)
