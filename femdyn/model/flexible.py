"""Flexible ANCF beams in a model: element sets on shared nodes, and node frames.

An :class:`ElementSet` wraps one batched kernel of :mod:`femdyn.elements` (all elements
of one beam share a type; its kernel evaluates every element at once) and scatters it
into the global vectors through a fixed (n_el, ndof) map of coordinate indices:
constant mass (assembled once by the System), gravity, internal forces, tangent
stiffness and damping on fixed patterns, strain energy. SI units.

A :class:`NodeFrame` lets joints act on an ANCF node as on a body: its points are
r + c·r_x (+ c_y r_y + c_z r_z for a fully parameterized node), its material vectors
combinations of the position gradients (for the cable only the tangent r_x).
"""
import numpy as np

from .bodies import Frame
from .nodes import Expr
from .protocol import Part
from ..errors import ModelError


class ElementKind:
    """A registered kind of flexible element: the node kind it uses, the components of each
    node's coordinates its kernel takes (None: all), whether the model keeps it in a plane,
    and ``factory(q_ref, E, rho, section, nu, damping, y_axis)`` building the batched kernel
    from the reference coordinates q_ref (n_el, ndof).

    Parameters
    ----------
    name, node_kind, factory, components, planar, nodes
        As in :func:`register_element_kind`, which creates the kinds.
    """

    def __init__(self, name, node_kind, factory, components=None, planar=False, nodes=2):
        self.name, self.node_kind, self.factory = name, node_kind, factory
        self.components, self.planar, self.nodes = components, planar, nodes


ELEMENT_KINDS = {}


def register_element_kind(name, node_kind, factory, components=None, planar=False, nodes=2):
    """Register a flexible element kind for ``Model.ancf_beam(..., element=name)``.

    Parameters
    ----------
    name : str
        The ``element`` argument that selects it.
    node_kind : str
        Kind of node the elements connect (see :func:`femdyn.model.nodes.register_node_kind`).
    factory : callable
        ``factory(q_ref, E, rho, section, nu, damping, y_axis)`` → batched kernel; q_ref is
        (n_el, ndof) in m, E in Pa, ρ in kg/m³, ν Poisson's ratio, damping in s.
    components : sequence of int, optional
        Indices within each node's coordinates the kernel takes (default all).
    planar : bool
        The model keeps the nodes in their plane z = const (auxiliary rows).
    nodes : int
        Nodes per element along a chain (2: end to end; 3: end, midpoint, end).

    Returns
    -------
    ElementKind
    """
    ELEMENT_KINDS[name] = ElementKind(name, node_kind, factory, components, planar, nodes)
    return ELEMENT_KINDS[name]


def _beam3d(q_ref, E, rho, section, nu, damping, y_axis):
    from femdyn.elements.ancf_beam import ANCFBeam3D
    return ANCFBeam3D(q_ref, E, rho, section, nu=nu, damping=damping)


def _cable3d(q_ref, E, rho, section, nu, damping, y_axis):
    from femdyn.elements.ancf_cable import ANCFCable3D
    return ANCFCable3D(q_ref, E, rho, section, damping=damping, y_axis=y_axis)


def _cable2d(q_ref, E, rho, section, nu, damping, y_axis):
    from femdyn.elements.ancf_cable import ANCFCable2D
    return ANCFCable2D(q_ref, E, rho, section, damping=damping)


register_element_kind("cable", "cable", _cable3d)
register_element_kind("cable2d", "cable", _cable2d, components=(0, 1, 3, 4), planar=True)
def _beam_quadratic(q_ref, E, rho, section, nu, damping, y_axis):
    from femdyn.elements.ancf_beam_quadratic import ANCFBeamQuadratic
    return ANCFBeamQuadratic(q_ref, E, rho, section, nu=nu, damping=damping)


register_element_kind("beam", "beam", _beam3d)
register_element_kind("beam3", "director", _beam_quadratic, nodes=3)


class ElementSet(Part):
    """A chain (or any connectivity) of flexible elements of one kernel type, each on any number of nodes.

    The batched kernel computes element matrices and forces on the element coordinates
    q_e; the set scatters them to the global coordinates through the fixed map
    ``dofs`` (count, ndof). A kernel with ``neighbours`` (strain recovery along a chain)
    gets the previous and next element of each element from the shared end nodes. Built
    by :meth:`Model.ancf_beam <femdyn.model.builder.Model.ancf_beam>` and the meshing
    helpers.

    Parameters
    ----------
    name : str
        Unique element-set name.
    kernel : object
        Batched element kernel (e.g. :class:`femdyn.elements.ancf_cable.ANCFCable3D`)
        for ``count`` elements, with ``ndof``, ``dim``, ``mass()``, ``gravity(g)``,
        ``internal_force``, ``stiffness``, ``strain_energy`` and ``shape``.
    nodes_per_element : sequence of sequences of Node
        The nodes of each element, in the kernel's order.
    n : int, optional
        Number of coordinates of the System (set by ``bind``).
    components : sequence of int, optional
        Indices within each node's coordinates that the kernel uses (default all; the
        planar cable takes x, y of r and r_x: (0, 1, 3, 4)).

    Raises
    ------
    ModelError
        If the nodes give another number of coordinates per element than the kernel needs.
    """

    def __init__(self, name, kernel, nodes_per_element, n=None, components=None):
        self.name, self.kernel = name, kernel
        self.element_nodes = [tuple(nodes) for nodes in nodes_per_element]
        pick = (lambda nd: nd.dofs) if components is None else (lambda nd: nd.dofs[list(components)])
        self.dofs = np.array([np.concatenate([pick(nd) for nd in nodes]) for nodes in self.element_nodes])
        self.dim = kernel.dim
        if self.dofs.shape[1] != kernel.ndof:
            raise ModelError(f"element set '{name}': nodes give {self.dofs.shape[1]} coordinates per element, "
                             f"the {type(kernel).__name__} needs {kernel.ndof}; check the node kind and the "
                             "number of nodes per element")
        self.count, self.n = len(self.dofs), n
        if hasattr(kernel, "neighbours"):
            kernel.neighbours = _chain_neighbours(self.element_nodes)
        nd = kernel.ndof
        self.k_rows = np.repeat(self.dofs, nd, axis=1).ravel()
        self.k_cols = np.tile(self.dofs, (1, nd)).ravel()
        damped = np.any(getattr(kernel, "damping", 0.0) > 0)
        self.c_rows, self.c_cols = (self.k_rows, self.k_cols) if damped else (np.zeros(0, int), np.zeros(0, int))

    @property
    def mass(self):
        """Total mass (kg): tᵀ M_e t summed over the elements, t the element coordinates of a
        unit rigid translation along x (S(ξ) t = e_x at every ξ, solved by least squares)."""
        S = self.kernel.shape(np.linspace(0.0, 1.0, 5))[0]      # (n_xi, dim, ndof) of element 0
        target = np.tile(np.eye(self.dim)[0], len(S))
        t = np.linalg.lstsq(S.reshape(-1, self.kernel.ndof), target, rcond=None)[0]
        return float(np.einsum("i,eij,j->", t, self.kernel.mass(), t))

    def mass_coo(self):
        return self.k_rows, self.k_cols, self.kernel.mass().ravel()

    def gravity(self, g):
        """Generalized gravity force (dofs, ∫ρ Sᵀ g dV) of all elements.

        A planar cable takes the in-plane part of g (its plane constraint carries the
        rest).

        Parameters
        ----------
        g : ndarray (3,)
            m/s², global frame.

        Returns
        -------
        dofs : ndarray of int
        values : ndarray
            N per unit of each coordinate.
        """
        return self.dofs.ravel(), self.kernel.gravity(np.asarray(g, float)[:self.dim]).ravel()

    def _velocity(self, v):
        return v[self.dofs] if self.c_rows.size else None

    def force(self, q, v, t):
        """Minus the internal (elastic and damping) forces, scattered to the coordinates.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and their velocities.
        t : float
            Time, s (unused).

        Returns
        -------
        ndarray (n,)
        """
        return -self.internal_force(q, v)

    def internal_force(self, q, v):
        """Internal (elastic plus Kelvin–Voigt damping) forces ∂U/∂q + damping, scattered to q.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and their velocities (v is ignored without damping).

        Returns
        -------
        ndarray (n,)
            N per unit of each coordinate.
        """
        F = self.kernel.internal_force(q[self.dofs], self._velocity(v))
        return np.bincount(self.dofs.ravel(), weights=F.ravel(), minlength=self.n)

    def tangent_pattern(self):
        return self.k_rows, self.k_cols, self.c_rows, self.c_cols

    def tangent_values(self, q, v, t=0.0):
        K, D = self.kernel.stiffness(q[self.dofs], self._velocity(v))
        return K.ravel(), (D.ravel() if self.c_rows.size else np.zeros(0))

    def strain_energy(self, q):
        return float(self.kernel.strain_energy(q[self.dofs]).sum())

    def centreline(self, q, points_per_element=8):
        """Positions along the axis, for pictures.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.
        points_per_element : int, optional
            Segments per element.

        Returns
        -------
        ndarray (count · points_per_element + 1, 3)
            m, global frame, from the first element's first node.
        """
        xi = np.linspace(0.0, 1.0, points_per_element + 1)
        S = self.kernel.shape(xi)                       # (n_el, n_xi, dim, ndof)
        pts = np.einsum("exij,ej->exi", S, q[self.dofs])
        pts = np.vstack([pts[:, :-1].reshape(-1, self.dim), pts[-1, -1]])
        if self.dim == 2:   # planar cable: its nodes keep the plane's z
            pts = np.column_stack([pts, np.full(len(pts), q[self.element_nodes[0][0].start + 2])])
        return pts

    def locate(self, element, xi):
        """Check a material position along the set and return it as (int, float).

        Parameters
        ----------
        element : int
            Element index, a whole number in 0 … count − 1.
        xi : float
            ξ ∈ [0, 1] along the element from its first node.

        Returns
        -------
        (int, float)

        Raises
        ------
        ModelError
            If either is out of range or not a number.
        """
        try:
            ok = float(element).is_integer() and 0 <= element < self.count and 0.0 <= float(xi) <= 1.0
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ModelError(f"element set '{self.name}': element {element!r} / ξ = {xi!r} outside "
                             f"0..{self.count - 1} (whole numbers) / [0, 1]")
        return int(element), float(xi)

    def material_point(self, element, xi, y=0.0, z=0.0):
        """The material point (element, ξ, y, z) as an expression of q: r = S(ξ, y, z) q_e.

        Parameters
        ----------
        element : int
            Element index, 0 … count − 1.
        xi : float
            ξ ∈ [0, 1].
        y, z : float, optional
            Section coordinates, m (beams).

        Returns
        -------
        femdyn.model.nodes.Expr

        Raises
        ------
        ModelError
            If the position is out of range or the shape functions are not isotropic
            (S = s·I per node slot).
        """
        element, xi = self.locate(element, xi)
        d = self.dim
        S = self.kernel.shape(float(xi), y, z)[element]          # (dim, ndof)
        terms = {}
        for j in range(0, self.kernel.ndof, d):
            c = S[0, j]
            if not np.allclose(S[:, j:j + d], c * np.eye(d), atol=1e-14):
                raise ModelError(f"element set '{self.name}': shape functions are not isotropic")
            if c:   # the slot starts at the x component; a planar node's z stays the plane's
                terms[int(self.dofs[element, j])] = c
        return Expr(terms)


class NodeFrame(Frame):
    """Body-like view of an ANCF node for joints: base point r, basis vectors the gradients.

    Joints and loads given an ANCF node (by name or object) act on this frame; the
    material points are r + Σ c_j r_j with the node's gradients r_x, r_y, r_z (those it
    has).

    Parameters
    ----------
    node : femdyn.model.nodes.Node
        A node of a frame kind (cable, beam, director).

    Raises
    ------
    ModelError
        If the node kind is not a frame kind.
    """

    outside_hint = ("a cable node only carries its tangent r_x: points and vectors off it need element='beam' or "
                    "'beam3' nodes (full frames), or a rigid body clamped to the node (Model.clamp)")

    @property
    def label(self):
        return f"ANCF node '{self.node.name}'"

    def __init__(self, node):
        if not node.is_frame:
            raise ModelError(f"node '{node.name}' is a {node.kind} node, not an ANCF node")
        self.node, self.name = node, f"node {node.name}"
        self.nodes = [node]
        self.origin = node.slot("r")
        self.basis = [node.slot(s) for s in node.slots[1:]]
        self.B0 = np.column_stack([node.initial[3 * i:3 * i + 3] for i in range(1, len(node.slots))])
        self.origin0 = node.initial[:3]


def _chain_neighbours(nodes_per_element):
    """(previous, next) element of each element (−1: none): the element ending on its first
    node and the one starting on its last node (closed rings included)."""
    starts = {id(nodes[0]): e for e, nodes in enumerate(nodes_per_element)}
    ends = {id(nodes[-1]): e for e, nodes in enumerate(nodes_per_element)}
    previous = np.array([ends.get(id(nodes[0]), -1) for nodes in nodes_per_element])
    following = np.array([starts.get(id(nodes[-1]), -1) for nodes in nodes_per_element])
    return previous, following

