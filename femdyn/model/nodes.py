"""Nodes and affine coordinate expressions.

A node owns slots of three consecutive coordinates of q (``r``, ``u``, ``rx``, ``ry``, ``rz``).
An :class:`Expr` is an affine 3-vector e(q) = Σ_k c_k · q[s_k : s_k+3] + offset: material points
and vectors of bodies (García de Jalón & Bayo 1994, ch. 2), so Jacobians are exact and constant-patterned.
"""
import numpy as np

from ..errors import ModelError
from ..input_checks import vector3

class NodeKind:
    """A registered kind of node: slot names, whether joints may use it as a frame, whether it is a unit vector."""

    def __init__(self, name, slots, frame=False, unit=False):
        self.name, self.slots, self.frame, self.unit = name, tuple(slots), frame, unit


KINDS = {}


def register_node_kind(name, slots, frame=False, unit=False):
    """Register a node kind so that models can hold its nodes; returns the :class:`NodeKind`.

    Parameters
    ----------
    name : str
        Kind name.
    slots : sequence of str
        Names of the node's 3-coordinate slots (e.g. ``("r", "rx")``).
    frame : bool
        Joints may act on the node as on a body.
    unit : bool
        The node is a unit vector (one unit-length constraint per node).
    """
    KINDS[name] = NodeKind(name, slots, frame, unit)
    return KINDS[name]


register_node_kind("point", ("r",))
register_node_kind("vector", ("u",), unit=True)
register_node_kind("cable", ("r", "rx"), frame=True)
register_node_kind("beam", ("r", "rx", "ry", "rz"), frame=True)
register_node_kind("director", ("r", "ry", "rz"), frame=True)   # node of the three-node quadratic beam (no slope)


class Node:
    """A named owner of coordinates of a registered kind. ``start`` is its first index in q."""

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
    """Affine 3-vector expression ``Σ c_k q[s_k:s_k+3] + offset`` (see module docstring)."""

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
        position : (3,) array_like
            m.
        """
        return self.add_node(name, "point", vector3(position, f"point node '{name}': position (m)"))

    def vector(self, name, direction):
        """Add an NCF unit-vector node (3 coordinates, unit length constrained), e.g. a body's joint axis.

        Parameters
        ----------
        name : str
        direction : (3,) array_like
            Unit vector.
        """
        d = vector3(direction, f"vector node '{name}': direction")
        if abs(np.linalg.norm(d) - 1.0) > 1e-9:
            raise ModelError(f"vector node '{name}': direction must be a unit vector, |d| = {np.linalg.norm(d):.12g}; "
                             "normalise it")
        return self.add_node(name, "vector", d)

    def cable_node(self, name, position, tangent=(1.0, 0.0, 0.0)):
        """Add an ANCF cable node: position r and gradient r_x (6 coordinates).

        Parameters
        ----------
        name : str
        position : (3,) array_like
            r, m.
        tangent : (3,) array_like, optional
            r_x, the unit tangent in the stress-free state (default global x).
        """
        return self.add_node(name, "cable", np.concatenate([vector3(position, f"cable node '{name}': position (m)"),
                                                             vector3(tangent, f"cable node '{name}': tangent")]))

    def beam_node(self, name, position, rx=(1.0, 0.0, 0.0), ry=(0.0, 1.0, 0.0), rz=(0.0, 0.0, 1.0)):
        """Add a fully parameterized ANCF node: r and the gradients r_x, r_y, r_z (12 coordinates).

        Parameters
        ----------
        name : str
        position : (3,) array_like
            r, m.
        rx, ry, rz : (3,) array_like, optional
            Gradients along the beam axis and the section axes; orthonormal when stress-free (default global axes).
        """
        return self.add_node(name, "beam", np.concatenate([vector3(v, f"beam node '{name}': {slot}")
                                                            for v, slot in zip((position, rx, ry, rz),
                                                                               ("position (m)", "rx", "ry", "rz"))]))

    def director_node(self, name, position, ry=(0.0, 1.0, 0.0), rz=(0.0, 0.0, 1.0)):
        """Add a node of the quadratic ANCF beam: r and the directors r_y, r_z (9 coordinates, no slope).

        Parameters
        ----------
        name : str
        position : (3,) array_like
            r, m.
        ry, rz : (3,) array_like, optional
            Section directors, unit, ⟂ the axis when stress-free (default global y and z).
        """
        return self.add_node(name, "director", np.concatenate([vector3(v, f"director node '{name}': {slot}")
                                                                for v, slot in zip((position, ry, rz),
                                                                                   ("position (m)", "ry", "rz"))]))
