"""Flexible ANCF beams in a model: element sets on shared nodes, and node frames.

An :class:`ElementSet` scatters one batched kernel of :mod:`femdyn.elements` through a fixed
(n_el, ndof) index map; a :class:`NodeFrame` lets joints act on an ANCF node as on a body.
"""
import numpy as np

from femdyn.elements.ancf_element import ANCFElement
from femdyn.mesh.lines import (centreline_element, centreline_points, polyline_tangents, section_y_axes,
                               transported_y_axes, unit_rows)

from .bodies import Frame
from .joints import Fix
from .nodes import Expr
from .protocol import Part
from ..errors import ModelError
from ..input_checks import count, vector3


class ElementKind:
    """A registered kind of flexible element: node kind, kernel components and factory, and how nodes are made."""

    def __init__(self, name, node_kind, factory, components=None, planar=False, nodes=2, gradients=None,
                 section_frame=False, y_axis=False):
        self.name, self.node_kind, self.factory = name, node_kind, factory
        self.components, self.planar, self.nodes = components, planar, nodes
        self.gradients = gradients or (lambda t, y: t)
        self.section_frame, self.y_axis = section_frame, y_axis

    def node_values(self, position, tangent, y):
        """A node's initial coordinates: r, then the kind's gradients from the unit tangent and section y axis."""
        return np.concatenate([position, np.ravel(self.gradients(np.asarray(tangent, float), np.asarray(y, float)))])


ELEMENT_KINDS = {}


def register_element_kind(name, node_kind, factory, components=None, planar=False, nodes=2, gradients=None,
                          section_frame=False, y_axis=False):
    """Register a flexible element kind for ``Model.ancf_beam(..., element=name)``.

    Parameters
    ----------
    name : str
        The ``element`` argument that selects it.
    node_kind : str
        Kind of node the elements connect (:func:`femdyn.model.nodes.register_node_kind`).
    factory : callable
        ``factory(q_ref, E, rho, section, nu, damping, y_axis)`` → batched kernel; q_ref (n_el, ndof).
    components : sequence of int, optional
        Indices within each node's coordinates the kernel takes (default all).
    planar, section_frame, y_axis : bool
        Nodes kept in a plane z = const; nodes carry section axes; the factory takes a section y axis.
    nodes : int
        Nodes per element along a chain (2: end to end; 3: end, midpoint, end).
    gradients : callable, optional
        ``gradients(t, y)`` → the node's coordinates after r from unit tangent and section y (default t).
    """
    ELEMENT_KINDS[name] = ElementKind(name, node_kind, factory, components, planar, nodes, gradients,
                                      section_frame, y_axis)
    return ELEMENT_KINDS[name]


def _beam3d(q_ref, E, rho, section, nu, damping, y_axis):
    """Kernel of the fully parameterized ANCF beam."""
    from femdyn.elements.ancf_beam import ANCFBeam3D
    return ANCFBeam3D(q_ref, E, rho, section, nu=nu, damping=damping)


def _cable3d(q_ref, E, rho, section, nu, damping, y_axis):
    """Kernel of the 3-D ANCF cable."""
    from femdyn.elements.ancf_cable import ANCFCable3D
    return ANCFCable3D(q_ref, E, rho, section, damping=damping, y_axis=y_axis)


def _cable2d(q_ref, E, rho, section, nu, damping, y_axis):
    """Kernel of the planar ANCF cable."""
    from femdyn.elements.ancf_cable import ANCFCable2D
    return ANCFCable2D(q_ref, E, rho, section, damping=damping)


def _beam_quadratic(q_ref, E, rho, section, nu, damping, y_axis):
    """Kernel of the three-node quadratic ANCF beam."""
    from femdyn.elements.ancf_beam_quadratic import ANCFBeamQuadratic
    return ANCFBeamQuadratic(q_ref, E, rho, section, nu=nu, damping=damping)


register_element_kind("cable", "cable", _cable3d, y_axis=True)
register_element_kind("cable2d", "cable", _cable2d, components=(0, 1, 3, 4), planar=True)
register_element_kind("beam", "beam", _beam3d, gradients=lambda t, y: (t, y, np.cross(t, y)),
                      section_frame=True)                               # nodes r, r_x, r_y, r_z
register_element_kind("beam3", "director", _beam_quadratic, nodes=3, gradients=lambda t, y: (y, np.cross(t, y)),
                      section_frame=True)                               # nodes r, r_y, r_z


class ElementSet(Part):
    """A chain (or any connectivity) of flexible elements of one kernel type, each on any number of nodes."""

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
        if isinstance(kernel, ANCFElement) and kernel.neighbours is not None:
            kernel.neighbours = _chain_neighbours(self.element_nodes)
        nd = kernel.ndof
        self.k_rows = np.repeat(self.dofs, nd, axis=1).ravel()
        self.k_cols = np.tile(self.dofs, (1, nd)).ravel()
        damped = np.any(getattr(kernel, "damping", 0.0) > 0)
        self.c_rows, self.c_cols = (self.k_rows, self.k_cols) if damped else (np.zeros(0, int), np.zeros(0, int))

    @property
    def mass(self):
        """Total mass, kg: tᵀ M_e t summed over the elements, t a unit rigid translation along x."""
        S = self.kernel.shape(np.linspace(0.0, 1.0, 5))[0]      # (n_xi, dim, ndof) of element 0
        target = np.tile(np.eye(self.dim)[0], len(S))
        t = np.linalg.lstsq(S.reshape(-1, self.kernel.ndof), target, rcond=None)[0]
        return float(np.einsum("i,eij,j->", t, self.kernel.mass(), t))

    def mass_coo(self):
        return self.k_rows, self.k_cols, self.kernel.mass().ravel()

    def gravity(self, g):
        return self.dofs.ravel(), self.kernel.gravity(np.asarray(g, float)[:self.dim]).ravel()

    def _velocity(self, v):
        return v[self.dofs] if self.c_rows.size else None

    def _compiled(self):
        """The kernel's one-call evaluation of the whole set (:meth:`ANCFElement.set_evaluation`), or None for
        a damped set or a kernel without one: those take the staged path (:meth:`_staged_force`)."""
        if "_evaluation" not in self.__dict__:
            usable = isinstance(self.kernel, ANCFElement) and not self.c_rows.size
            self._evaluation = self.kernel.set_evaluation(self.dofs) if usable else None
        return self._evaluation

    def force(self, q, v, t):
        return -self.internal_force(q, v)

    def internal_force(self, q, v):
        """Internal (elastic plus Kelvin–Voigt damping) forces ∂U/∂q + damping, scattered to q."""
        evaluation = self._compiled()
        if evaluation is None:
            return self._staged_force(q, v)
        out = np.zeros(len(q))
        evaluation.add_force(np.ascontiguousarray(q, dtype=float), 1.0, out)
        return out

    def _staged_force(self, q, v):
        """:meth:`internal_force` stage by stage: gather, kernel, scatter (the reference of the compiled path)."""
        F = self.kernel.internal_force(q[self.dofs], self._velocity(v))
        return np.bincount(self.dofs.ravel(), weights=F.ravel(), minlength=self.n)

    def tangent_pattern(self):
        return self.k_rows, self.k_cols, self.c_rows, self.c_cols

    def tangent_values(self, q, v, t=0.0):
        evaluation = self._compiled()
        if evaluation is None:
            return self._staged_tangent_values(q, v)
        return evaluation.tangent(np.ascontiguousarray(q, dtype=float)), np.zeros(0)

    def _staged_tangent_values(self, q, v):
        """:meth:`tangent_values` stage by stage (the reference of the compiled path)."""
        K, D = self.kernel.stiffness(q[self.dofs], self._velocity(v))
        return K.ravel(), (D.ravel() if self.c_rows.size else np.zeros(0))

    def strain_energy(self, q):
        evaluation = self._compiled()
        if evaluation is None:
            return self._staged_strain_energy(q)
        return float(evaluation.energy(np.ascontiguousarray(q, dtype=float)))

    def _staged_strain_energy(self, q):
        """:meth:`strain_energy` stage by stage (the reference of the compiled path)."""
        return float(self.kernel.strain_energy(q[self.dofs]).sum())

    def centreline(self, q, points_per_element=8):
        """Positions along the axis, for pictures."""
        xi = np.linspace(0.0, 1.0, points_per_element + 1)
        S = self.kernel.shape(xi)                       # (n_el, n_xi, dim, ndof)
        pts = np.einsum("exij,ej->exi", S, q[self.dofs])
        pts = np.vstack([pts[:, :-1].reshape(-1, self.dim), pts[-1, -1]])
        if self.dim == 2:   # planar cable: its nodes keep the plane's z
            pts = np.column_stack([pts, np.full(len(pts), q[self.element_nodes[0][0].start + 2])])
        return pts

    def locate(self, element, xi):
        """Check a material position along the set and return it as (int, float)."""
        try:
            ok = float(element).is_integer() and 0 <= element < self.count and 0.0 <= float(xi) <= 1.0
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ModelError(f"element set '{self.name}': element {element!r} / ξ = {xi!r} outside "
                             f"0..{self.count - 1} (whole numbers) / [0, 1]")
        return int(element), float(xi)

    def material_point(self, element, xi, y=0.0, z=0.0):
        """The material point (element, ξ, y, z) as an expression of q: r = S(ξ, y, z) q_e."""
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
    """Body-like view of an ANCF node for joints: base point r, basis vectors the gradients."""

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
    """(previous, next) element of each element, −1 for none (closed rings included)."""
    starts = {id(nodes[0]): e for e, nodes in enumerate(nodes_per_element)}
    ends = {id(nodes[-1]): e for e, nodes in enumerate(nodes_per_element)}
    previous = np.array([ends.get(id(nodes[0]), -1) for nodes in nodes_per_element])
    following = np.array([starts.get(id(nodes[-1]), -1) for nodes in nodes_per_element])
    return previous, following


class BeamBuilder:
    """The ANCF-beam constructors of :class:`~femdyn.model.Model` (``m.ancf_beam`` and the meshing helpers)."""

    def ancf_beam(self, name, nodes, E, rho, section, element="cable", nu=0.3, damping=0.0, y_axis=None):
        """Add a chain of ANCF elements between consecutive ``nodes`` (shared nodes; initial coordinates stress-free).

        Parameters
        ----------
        name : str
            Element-set name (used by sensors and loads).
        nodes : sequence of str or Node
            At least two nodes of the kind's node kind, along the axis ("beam3": an odd number).
        E : float
            Young's modulus, Pa.
        rho : float
            Density, kg/m³.
        section : femdyn.elements.sections.CrossSection
            Cross-section properties, e.g. ``sections.circular(r)``.
        element : str, optional
            "cable" (ANCFCable3D, straight reference; default), "cable2d" (plane z = const), "beam" (ANCFBeam3D,
            locking-free), "beam3" (ANCFBeamQuadratic, nodes end–midpoint–end) or a registered kind.
        nu : float, optional
            Poisson ratio (beams: G = E / 2(1 + ν)).
        damping : float, optional
            Kelvin–Voigt coefficient c, s (σ_d = c E ε̇ for the axial strain).
        y_axis : (3,) array_like, optional
            Section y direction of a 3-D cable (strain recovery only).
        """
        nodes = [self.node(nd) for nd in nodes]
        if len(nodes) < 2:
            raise ModelError(f"ANCF beam '{name}': needs at least two nodes")
        kind = _element_kind(name, element)
        for nd in nodes:
            if nd.kind != kind.node_kind:
                raise ModelError(f"ANCF beam '{name}': node '{nd.name}' is a {nd.kind} node; "
                                 f"{element} elements need {kind.node_kind} nodes")
        if any(e.name == name for e in self.elements):
            raise ModelError(f"element set '{name}' exists already; names must be unique")
        if kind.nodes == 3 and len(nodes) % 2 == 0:
            raise ModelError(f"ANCF beam '{name}': '{element}' elements take an odd number of nodes (end, midpoint, "
                             f"end, midpoint, …, end), got {len(nodes)}")
        groups = list(zip(nodes[:-2:2], nodes[1:-1:2], nodes[2::2]) if kind.nodes == 3 else zip(nodes[:-1], nodes[1:]))
        if kind.planar:
            self._make_planar(name, nodes)
        columns = list(kind.components) if kind.components is not None else slice(None)
        q_ref = np.array([np.concatenate([nd.initial[columns] for nd in group]) for group in groups])
        try:
            kernel = kind.factory(q_ref, E, rho, section, nu, damping, y_axis)
        except ModelError as err:
            raise type(err)(f"ANCF beam '{name}': {err}") from None
        return self._add_element(ElementSet(name, kernel, groups, None, kind.components))

    def _make_planar(self, name, nodes):
        """Fix a planar cable's out-of-plane components by one auxiliary joint "plane <node>" per node."""
        z0 = nodes[0].initial[2]
        for nd in nodes:
            if abs(nd.initial[2] - z0) > 1e-12 or abs(nd.initial[5]) > 1e-12:
                raise ModelError(f"planar cable '{name}': node '{nd.name}' leaves the plane z = {z0:g} "
                                 "(its r_z or r_x,z differs); planar cables lie in a plane z = const")
            if f"plane {nd.name}" not in self.joints:
                self._add_joint(Fix(f"plane {nd.name}", nd, components=(2, 5))).auxiliary = True

    def straight_beam(self, name, start, end, n_elements, E, rho, section, element="cable", nu=0.3,
                      damping=0.0, first=None, last=None, y_axis=None):
        """Mesh a straight beam from ``start`` to ``end`` into ``n_elements`` equal ANCF elements.

        Nodes ``<name>.0`` … ``<name>.<n>`` ("beam3": midpoints too, ends at even indices); section
        axes ``y_axis`` (projected ⟂ the axis) and z = x × y.

        Parameters
        ----------
        name : str
            Element-set name (prefix of the node names).
        start, end : (3,) array_like
            End points of the axis, m, stress-free.
        n_elements : int
            Number of elements.
        E, rho, section, element, nu, damping
            As in :meth:`ancf_beam`.
        first, last : str or Node, optional
            Existing end nodes to reuse; they must carry this beam's tangent (a corner needs a :meth:`clamp`).
        y_axis : (3,) array_like, optional
            Section y direction (default global y, or global z for a beam along y).
        """
        start = vector3(start, f"beam '{name}': start (m)")
        end = vector3(end, f"beam '{name}': end (m)")
        n_el = count(n_elements, f"beam '{name}': n_elements")
        axis = end - start
        length = np.linalg.norm(axis)
        if not length > 0:
            raise ModelError(f"beam '{name}': start and end coincide; give distinct end points (m)")
        ex = axis / length
        if y_axis is None:   # global y projected onto the section plane (global z for a beam along y)
            y_axis = (0.0, 0.0, 1.0) if abs(ex[1]) > 0.9 else (0.0, 1.0, 0.0)
        ey = section_y_axes(f"beam '{name}'", ex[None, :], y_axis)[0]
        kind = _element_kind(name, element)
        n_nodes = (kind.nodes - 1) * n_el + 1                 # three-node elements: midpoint nodes too
        nodes = []
        for i in range(n_nodes):
            values = kind.node_values(start + axis * i / (n_nodes - 1), ex, ey)
            given = first if i == 0 else last if i == n_nodes - 1 else None
            if given is not None:
                nodes.append(self._reused_node(name, given, "first" if i == 0 else "last", f"{name}.{i}", values[:3],
                                               values[3:]))
                continue
            nodes.append(self.add_node(f"{name}.{i}", kind.node_kind, values))
        return self.ancf_beam(name, nodes, E, rho, section, element, nu, damping, y_axis=ey)

    def _reused_node(self, name, node, role, own_name, position, gradients):
        """An existing node shared as the ``role`` end of beam ``name``, checked against its end and gradients."""
        node = self.node(node)
        have = node.initial[3:3 + gradients.size] if node.initial.size >= 3 + gradients.size else None
        if not np.allclose(node.initial[:3], position, rtol=0, atol=1e-9 * max(1.0, np.abs(position).max())):
            raise ModelError(f"beam '{name}': node '{node.name}' (given as {role}) is at "
                             f"{node.initial[:3].tolist()}, not at the beam's end {position.tolist()}; "
                             "reuse a node only where the beam ends")
        if have is not None and not np.allclose(have, gradients, rtol=0, atol=1e-9):
            raise ModelError(f"beam '{name}': node '{node.name}' (given as {role}) has the gradients "
                             f"{np.round(have, 6).tolist()} but this beam needs {np.round(gradients, 6).tolist()} "
                             "(tangent, section axes) there: a shared node has one slope, so reusing it would "
                             "make a kinked element. For a corner give this beam its own end node (leave "
                             f"{role}= out) and join the two nodes rigidly: clamp both to one rigid body "
                             "(m.clamp), or for element='beam' clamp the new node to the old one "
                             f"(m.clamp(name, '{own_name}', '{node.name}'))")
        return node

    def beam_through_points(self, name, points, E, rho, section, damping=0.0, tangents=None, element=None,
                            y_axis=None, nu=0.3):
        """Add an ANCF chain through centreline points, one element between neighbours (nodes ``<name>.0``, …).

        A centreline whose last point repeats the first is a closed loop.

        Parameters
        ----------
        name : str
            Element-set name (prefix of the node names).
        points : (n, 3) array_like
            Centreline points, m, stress-free.
        E, rho, section, damping, nu
            As in :meth:`ancf_beam`.
        tangents : (n, 3) array_like, optional
            Node tangents (default second-order estimates, exact on circles: ``polyline_tangents``).
        element : str, optional
            As in :meth:`ancf_beam`; "beam"/"beam3" transport the section y axis along the curve (no twist).
            Default: "cable" for straight centrelines, "cable2d" for planar curves, else an error asking for "beam".
        y_axis : (3,) or (n, 3) array_like, optional
            Section y direction hint, projected ⟂ the tangent (default global y, or z if the curve starts along y).
        """
        what = f"beam '{name}'"
        points, closed = centreline_points(what, points)
        if tangents is None:
            tangents = polyline_tangents(points, closed=closed)
        else:
            tangents = unit_rows(f"{what}: tangents", tangents, len(points) + closed)[:len(points)]
        element = centreline_element(what, points, tangents, closed) if element is None else element
        kind = _element_kind(name, element)
        ey = np.zeros_like(tangents)
        if kind.section_frame:
            ey = section_y_axes(what, tangents, y_axis) if y_axis is not None else transported_y_axes(tangents)
        nodes = [self.add_node(f"{name}.{i}", kind.node_kind, kind.node_values(p, t, y))
                 for i, (p, t, y) in enumerate(zip(points, tangents, ey))]
        if y_axis is not None and kind.y_axis:      # strain-gauge frame of the 3-D cable
            y_axis = section_y_axes(what, tangents, y_axis)[:len(nodes) - 1 + closed]
        return self.ancf_beam(name, nodes + nodes[:1] * closed, E, rho, section, element, nu, damping,
                              y_axis=y_axis if kind.y_axis else None)

    def beam_from_mesh(self, name, path, E, rho, section, damping=0.0, scale=1.0, element=None, y_axis=None,
                       nu=0.3):
        """Add ANCF chains from a line mesh file read with meshio (VTK, Gmsh, …); returns one ElementSet per chain.

        One element per line cell; chains become ``name``, ``name#1``, …; closed loops close on their first node.

        Parameters
        ----------
        name : str
            Name of the first element set.
        path : str or os.PathLike
            Line mesh file with 2-node "line" cells.
        E, rho, section, damping
            As in :meth:`ancf_beam`.
        scale : float, optional
            The file's length unit in m (e.g. 1e-3 for mm).
        element, y_axis, nu
            As in :meth:`beam_through_points`.
        """
        from femdyn.mesh.lines import read_line_mesh
        points, chains = read_line_mesh(path)
        return [self.beam_through_points(name if k == 0 else f"{name}#{k}", scale * points[c], E, rho, section,
                                         damping, element=element, y_axis=y_axis, nu=nu)
                for k, c in enumerate(chains)]


def _element_kind(name, element):
    """The registered kind ``element`` of beam ``name``."""
    kind = ELEMENT_KINDS.get(element)
    if kind is None:
        raise ModelError(f"ANCF beam '{name}': element must be one of {sorted(ELEMENT_KINDS)}, got {element!r}")
    return kind
