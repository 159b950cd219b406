"""Nodes and affine coordinate expressions.

All coordinates live in one global vector q (SI units: m for positions, dimensionless
for unit vectors and position gradients). A node owns one or more *slots* of three
consecutive coordinates: an NCF point (slot ``r``), an NCF unit vector (slot ``u``),
an ANCF cable node (``r``, ``rx``), a fully parameterized ANCF node (``r``, ``rx``,
``ry``, ``rz``) or a node of the quadratic beam (``r``, ``ry``, ``rz``).

An :class:`Expr` is an affine 3-vector function of q,
``e(q) = Σ_k c_k · q[s_k : s_k+3] + offset``, where s_k is the first index of a slot.
Material points and vectors of natural-coordinate bodies are such expressions
(García de Jalón & Bayo, *Kinematic and Dynamic Simulation of Multibody Systems*, 1994,
ch. 2), and so are ground points (offset only). Every constraint and load is written in
terms of Exprs, which makes their Jacobians exact and constant-patterned.
"""
import numpy as np

from ..errors import ModelError
from ..validation import vector3

class NodeKind:
    """A registered kind of node: its slot names (three coordinates each), whether joints
    may use a node of this kind as a frame (its gradients as material vectors, e.g. ANCF
    nodes), and whether its first slot is a unit vector (one unit-length row per node).
    """

    def __init__(self, name, slots, frame=False, unit=False):
        self.name, self.slots, self.frame, self.unit = name, tuple(slots), frame, unit


KINDS = {}


def register_node_kind(name, slots, frame=False, unit=False):
    """Register a node kind so that models can hold its nodes; returns the :class:`NodeKind`.

    Parameters
    ----------
    name : str
        Kind name, as given to ``Node`` and shown in messages.
    slots : sequence of str
        Names of the node's 3-coordinate slots (e.g. ``("r", "rx")``).
    frame : bool
        Joints may act on the node as on a body (position + gradient vectors).
    unit : bool
        The node is a unit vector: the System adds one unit-length constraint per node.

    Example
    -------
    >>> register_node_kind("polar", ("p",)).slots
    ('p',)
    """
    KINDS[name] = NodeKind(name, slots, frame, unit)
    return KINDS[name]


register_node_kind("point", ("r",))
register_node_kind("vector", ("u",), unit=True)
register_node_kind("cable", ("r", "rx"), frame=True)
register_node_kind("beam", ("r", "rx", "ry", "rz"), frame=True)
register_node_kind("director", ("r", "ry", "rz"), frame=True)   # node of the three-node quadratic beam (no slope)


class Node:
    """A named owner of coordinates of a registered kind. ``start`` is its first index in q.

    Create nodes with the :class:`~femdyn.model.builder.Model` methods (``point``,
    ``vector``, ``cable_node``, …), which assign ``start``.

    Examples
    --------
    >>> node = Node("tip", "cable", [1.0, 0, 0, 1.0, 0, 0], start=6)
    >>> node.dofs, node.slot("rx")
    (array([ 6,  7,  8,  9, 10, 11]), Expr({9: 1.0}, offset=[0.0, 0.0, 0.0]))
    """

    def __init__(self, name, kind, values, start):
        if kind not in KINDS:
            raise ModelError(f"node '{name}': unknown node kind '{kind}'; registered kinds: {sorted(KINDS)} "
                             "(add one with femdyn.model.nodes.register_node_kind)")
        self.name, self.kind, self.start = name, kind, start
        self.slots = KINDS[kind].slots
        values = np.asarray(values, float)
        if values.size != 3 * len(self.slots):
            raise ModelError(f"node '{name}' ({kind}): expected {3 * len(self.slots)} coordinates, got {values.size}")
        self.initial = values.reshape(3 * len(self.slots))

    @property
    def is_frame(self):
        """Whether joints can use this node as a frame (ANCF nodes)."""
        return KINDS[self.kind].frame

    @property
    def is_unit(self):
        """Whether this node is a unit vector (its length is constrained to 1)."""
        return KINDS[self.kind].unit

    @property
    def dofs(self):
        """Global indices of the node's coordinates in q."""
        return np.arange(self.start, self.start + 3 * len(self.slots))

    def slot(self, name="r"):
        """The expression of one slot, e.g. ``node.slot('rx')``."""
        if name not in self.slots:
            raise ModelError(f"node '{self.name}' ({self.kind}) has no slot '{name}'; it has {self.slots}")
        return Expr({self.start + 3 * self.slots.index(name): 1.0})

    @property
    def expr(self):
        """Expr of the first slot: the position of a point, the direction of a vector."""
        return self.slot(self.slots[0])

    def __repr__(self):
        return f"Node({self.name!r}, {self.kind}, start={self.start})"


class Expr:
    """Affine 3-vector expression ``Σ c_k q[s_k:s_k+3] + offset`` (see module docstring).

    Expressions add, subtract and scale like vectors; calling one with q evaluates it.

    Examples
    --------
    >>> import numpy as np
    >>> mid = 0.5 * Expr({0: 1.0}) + 0.5 * Expr({3: 1.0})      # midpoint of two point nodes
    >>> mid(np.array([0.0, 0, 0, 2.0, 4.0, 0]))
    array([1., 2., 0.])
    """

    __slots__ = ("terms", "offset")

    def __init__(self, terms=None, offset=None):
        # coefficients below 1e-12 are round-off of the basis solve (a point at a node): dropped, so
        # that a joint at a node two bodies share has no rows
        self.terms = {int(s): float(c) for s, c in (terms or {}).items() if abs(c) > 1e-12}
        self.offset = np.zeros(3) if offset is None else np.asarray(offset, float).reshape(3)

    @classmethod
    def constant(cls, vector):
        """A constant expression (a ground point or vector)."""
        return cls({}, vector)

    def __add__(self, other):
        other = _as_expr(other)
        terms = dict(self.terms)
        for s, c in other.terms.items():
            terms[s] = terms.get(s, 0.0) + c
        return Expr(terms, self.offset + other.offset)

    def __radd__(self, other):
        return self + other

    def __neg__(self):
        return self * -1.0

    def __sub__(self, other):
        return self + (-_as_expr(other))

    def __rsub__(self, other):
        return _as_expr(other) - self

    def __mul__(self, k):
        k = float(k)
        return Expr({s: c * k for s, c in self.terms.items()}, self.offset * k)

    __rmul__ = __mul__

    def __call__(self, q):
        out = self.offset.copy()
        for s, c in self.terms.items():
            out += c * q[s:s + 3]
        return out

    @property
    def is_constant(self):
        return not self.terms

    def same_as(self, other, tol=1e-14):
        """Whether two expressions have the same coefficients and offset (within ``tol``)."""
        keys = set(self.terms) | set(other.terms)
        return all(abs(self.terms.get(k, 0.0) - other.terms.get(k, 0.0)) <= tol for k in keys) and \
            np.allclose(self.offset, other.offset, atol=tol, rtol=0)

    def coo(self, row0):
        """COO triplets of the constant Jacobian ∂e/∂q, with rows row0 … row0 + 2."""
        starts = np.fromiter(self.terms.keys(), int, len(self.terms))
        coefs = np.fromiter(self.terms.values(), float, len(self.terms))
        comp = np.tile(np.arange(3), len(starts))
        return row0 + comp, np.repeat(starts, 3) + comp, np.repeat(coefs, 3)

    def __repr__(self):
        return f"Expr({self.terms}, offset={self.offset.tolist()})"


def _as_expr(x):
    """An Expr as it is, or a constant 3-vector as an Expr."""
    if isinstance(x, Expr):
        return x
    arr = np.asarray(x, float)
    if arr.shape != (3,):
        raise ModelError(f"cannot combine a coordinate expression with {x!r}: expected a 3-vector")
    return Expr.constant(arr)


class NodeBuilder:
    """The node constructors of :class:`~femdyn.model.Model` (``m.point``, ``m.vector``, ANCF nodes)."""

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
        >>> from femdyn.model import Model
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
        >>> from femdyn.model import Model
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
        >>> from femdyn.model import Model
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
        >>> from femdyn.model import Model
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
        >>> from femdyn.model import Model
        >>> m = Model()
        >>> m.director_node("d0", (0, 0, 0)).slots
        ('r', 'ry', 'rz')
        """
        return self.add_node(name, "director", np.concatenate([vector3(v, f"director node '{name}': {slot}")
                                                                for v, slot in zip((position, ry, rz),
                                                                                   ("position (m)", "ry", "rz"))]))
