"""A point mass: one NCF point node with a constant lumped mass, gravity and no rotation.

M = m I₃ on the node's coordinates, Q_g = m g; joints and springs attach at its one material point.
"""
import numpy as np

from ..errors import ModelError
from ..input_checks import positive, vector3
from .nodes import Node
from .protocol import Body


class PointMass(Body):
    """A body of one point node carrying mass ``mass`` (kg); it has no material directions."""

    vectors = ()
    span_rank = 0
    inertia = None

    def __init__(self, name, node, mass):
        if node.kind != "point":
            raise ModelError(f"point mass '{name}': node '{node.name}' is a {node.kind}, not a point")
        self.name, self.node, self.points, self.nodes = name, node, [node], [node]
        self.mass = positive(mass, f"point mass '{name}': mass", "kg")

    def material_point(self, x):
        x = vector3(x, f"point mass '{self.name}': point (m)")
        if np.linalg.norm(x - self.node.initial) > 1e-9 * max(1.0, np.linalg.norm(x)):
            raise ModelError(f"point mass '{self.name}' has one material point, {self.node.initial.tolist()} m; "
                             f"got {x.tolist()}: attach at its position")
        return self.node.expr

    def material_vector(self, w):
        raise ModelError(f"point mass '{self.name}' has no material directions (it does not rotate); attach "
                         "joints that need an axis or a frame to a rigid body")

    def span_basis(self):
        """No material directions: an empty list and a (3, 0) array."""
        return [], np.zeros((3, 0))

    def contains_direction(self, w):
        """Always False: a point mass carries no direction."""
        return False

    def mass_coo(self):
        dofs = self.node.dofs
        return dofs, dofs, np.full(3, self.mass)

    def gravity(self, g):
        return self.node.dofs, self.mass * np.asarray(g, float)

    def outline(self, q):
        return self.node.expr(q)[None, :]


class PointMassBuilder:
    """The point-mass constructor of :class:`~femdyn.model.Model` (``m.point_mass``)."""

    def point_mass(self, name, position, mass):
        """Add a point mass: a point node ``name`` and a body ``name`` of mass m on it (3 coordinates, no rotation).

        Joints with a point (spherical, distance), springs, forces and point sensors attach at
        ``position``; ``set_velocity(name, v)`` gives its initial velocity.

        Parameters
        ----------
        name : str
            Name of the node and of the body.
        position : (3,) array_like or str
            Its position, m, or an existing point node (by name or object).
        mass : float
            m, kg.
        """
        if isinstance(position, (str, Node)):
            node = self.node(position)
        else:
            node = self.point(name, position)
        return self._add_body(PointMass(name, node, mass))
