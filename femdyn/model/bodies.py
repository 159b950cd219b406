"""Rigid bodies in natural coordinates and the ground.

:class:`NaturalBody`: Liu et al.'s (2018) rigid beam (two points), a beam with an axis vector, or a
full spatial body; constant mass matrix, rigid conditions b_i·b_j = const (García de Jalón & Bayo 1994, §2.2).
"""
import numpy as np

from femdyn.elements import ncf

from .constraints import Equation
from .nodes import Expr
from .protocol import Body
from ..errors import ModelError
from ..input_checks import inconsistent, positive, refuse_non_finite, unit_vector, vector3
from .checks import check_density
from .vectorfunctions import Dot


class Ground:
    """The inertial frame: its points and vectors are constant expressions."""

    name = "ground"
    nodes = ()
    span_rank = 3

    def material_point(self, x):
        """The fixed point x as a constant expression."""
        return Expr.constant(vector3(x, "ground point (m)"))

    def material_vector(self, w):
        """The fixed vector w as a constant expression."""
        return Expr.constant(vector3(w, "ground vector"))

    def span_basis(self):
        """The global axes as constant expressions, with their values (3 × 3 identity)."""
        return [Expr.constant(e) for e in np.eye(3)], np.eye(3)

    def contains_direction(self, w):
        """Always True: the ground carries every direction."""
        return True


class Frame:
    """Material points and vectors x = origin + Σ c_j b_j of a base point and basis vectors affine in q."""

    outside_hint = "the point or direction must lie in the span of its basis"

    @property
    def label(self):
        return f"body '{self.name}'"

    def local(self, w):
        """Basis coordinates c of a vector w: w = B0 c."""
        c, *_ = np.linalg.lstsq(self.B0, w, rcond=None)
        if np.linalg.norm(self.B0 @ c - w) > 1e-9 * max(1.0, np.linalg.norm(w)):
            raise ModelError(f"{self.label}: {np.round(w, 6).tolist()} is outside the span of its basis; "
                             f"{self.outside_hint}")
        return c

    def material_point(self, x):
        """The material point at global position x, as an affine expression of q."""
        return self.origin + self._combine(self.local(vector3(x, f"{self.label}: point (m)") - self.origin0))

    def material_vector(self, w):
        """The material vector equal to w in the initial configuration, as an expression of q."""
        return self._combine(self.local(vector3(w, f"{self.label}: vector")))

    def _combine(self, c):
        e = Expr()
        for cj, b in zip(c, self.basis):
            e = e + cj * b
        return e

    @property
    def span_rank(self):
        return self.B0.shape[1]

    def span_basis(self):
        """Orthonormal material vectors spanning the basis, with their initial values."""
        Q, _ = np.linalg.qr(self.B0)
        return [self.material_vector(Q[:, j]) for j in range(Q.shape[1])], Q

    def contains_direction(self, w):
        """Whether the direction w lies in the span of the basis (can be a material vector)."""
        c, *_ = np.linalg.lstsq(self.B0, w, rcond=None)
        return np.linalg.norm(self.B0 @ c - w) <= 1e-9 * np.linalg.norm(w)


class NaturalBody(Frame, Body):
    """A rigid body on point nodes ``points`` (≥ 1) and unit-vector nodes ``vectors``.

    ``vertices`` (positions at t = 0, m), when set, draw the body as that closed polygon.
    """

    vertices = None

    def __init__(self, name, points, vectors, mass, com, inertia, point_masses=None, strict=True):
        self.name = name
        self.points, self.vectors = list(points), list(vectors)
        if not self.points:
            raise ModelError(f"body '{name}': needs at least one point node")
        for node in self.points + self.vectors:
            if node.kind != ("point" if node in self.points else "vector"):
                raise ModelError(f"body '{name}': node '{node.name}' is a {node.kind}, not a "
                                 f"{'point' if node in self.points else 'vector'}")
        self.nodes = self.points + self.vectors
        self.basis = [p.expr - self.points[0].expr for p in self.points[1:]] + [u.expr for u in self.vectors]
        self.is_point = np.array([True] * (len(self.points) - 1) + [False] * len(self.vectors))
        self.origin0 = self.points[0].initial[:3]
        self.origin = self.points[0].expr
        self.outside_hint = "for a rigid beam the point must lie on its axis"
        self.B0 = np.column_stack([b(_initial_q(self)) for b in self.basis]) if self.basis else np.zeros((3, 0))
        self._check_basis()
        self.mass, self.com = positive(mass, f"body '{name}': mass", "kg"), vector3(com, f"body '{name}': com (m)")
        try:
            self.inertia = np.asarray(inertia, float)
        except (TypeError, ValueError):
            raise ModelError(f"body '{name}': inertia must be a symmetric 3×3 tensor (kg·m²), got {inertia!r}") from None
        refuse_non_finite(self.inertia, f"body '{name}': inertia (kg·m²)")
        self._check_inertia(strict)
        self.point_masses = dict(point_masses or {})
        self.Z, self.first = ncf.basis_mass_matrix(self.mass, self.com - self.origin0, self.inertia,
                                                   self.B0, self.is_point, name)
        self._add_point_masses()

    # --- checks -----------------------------------------------------------------
    def _check_basis(self):
        k = self.B0.shape[1]
        if k > 3:
            raise ModelError(f"body '{self.name}': {k} basis vectors; natural coordinates need at most 3 "
                             "(e.g. 2 points + 2 unit vectors)")
        if k == 0:
            raise ModelError(f"body '{self.name}': a single point has no orientation; add a second point")
        sv = np.linalg.svd(self.B0, compute_uv=False)
        if sv[-1] < 1e-9 * max(sv[0], 1e-300):
            raise ModelError(f"body '{self.name}': its points/vectors are coincident or collinear "
                             f"(singular values {sv}); choose independent basis nodes")

    def _check_inertia(self, strict):
        I = self.inertia
        if I.shape != (3, 3) or not np.allclose(I, I.T, atol=1e-12 * max(1.0, np.abs(I).max())):
            raise ModelError(f"body '{self.name}': inertia must be a symmetric 3×3 tensor (kg·m²)")
        ev = np.linalg.eigvalsh(I)
        tol = 1e-12 * max(ev.max(), 1e-300)
        if ev.min() < -tol or ev[0] + ev[1] < ev[2] - tol:
            inconsistent(f"body '{self.name}': inertia {ev} violates positivity or the triangle "
                         "inequality I1 + I2 ≥ I3; check the values and their axes", strict)

    def _add_point_masses(self):
        for node, m in self.point_masses.items():
            if node not in self.points:
                raise ModelError(f"body '{self.name}': point mass on '{node.name}', which is not one of its points")
            w = self.weights(node.initial[:3])
            self.Z += m * np.outer(w, w)
            self.first += m * w
            self.mass += m

    def turning_vectors(self):
        return self.basis

    def outline(self, q):
        if self.vertices is not None:
            pts = [self.material_point(v)(q) for v in self.vertices]
            return np.array(pts + pts[:1])
        return np.array([p.expr(q) for p in self.points])

    def weights(self, x):
        """Weights of the body's nodes in the material point x: r(x) = Σ w_i x_i."""
        c = self.local(np.asarray(x, float) - self.origin0)
        return np.concatenate([[1.0 - c[self.is_point].sum()], c])

    # --- assembly ---------------------------------------------------------------
    def node_starts(self):
        """First global index in q of each of the body's nodes (points, then vectors)."""
        return np.array([n.start for n in self.nodes])

    def mass_coo(self):
        s = self.node_starts()
        a, b, comp = np.meshgrid(np.arange(len(s)), np.arange(len(s)), np.arange(3), indexing="ij")
        return (s[a] + comp).ravel(), (s[b] + comp).ravel(), self.Z[a, b].ravel()

    def gravity(self, g):
        s = self.node_starts()
        return (s[:, None] + np.arange(3)).ravel(), np.outer(self.first, g).ravel()

    def equations(self):
        return [Equation(Dot, (a, b), None, value, None, label) for a, b, value, label in self.rigid_conditions()]

    def rigid_conditions(self):
        """(a, b, value, label) for every pair of basis vectors: a·b = value."""
        out = []
        for i in range(len(self.basis)):
            for j in range(i, len(self.basis)):
                if i == j and not self.is_point[i]:
                    continue  # unit length of a vector node is imposed once by the model
                out.append((self.basis[i], self.basis[j], float(self.B0[:, i] @ self.B0[:, j]),
                            f"{self.name}: rigid condition b{i}·b{j}"))
        return out

    def __repr__(self):
        return f"NaturalBody({self.name!r}, points={[p.name for p in self.points]}, vectors={[v.name for v in self.vectors]})"


def _initial_q(body):
    """A q-like lookup holding only the body's initial node values."""
    size = max(n.start + n.initial.size for n in body.nodes)
    q = np.zeros(size)
    for n in body.nodes:
        q[n.start:n.start + n.initial.size] = n.initial
    return q


class BodyBuilder:
    """The rigid-body constructors of :class:`~femdyn.model.Model` (``m.rigid_beam``, ``m.rigid_body``, …)."""

    def rigid_beam(self, name, p1, p2, mass=None, density=None, area=None, end_masses=(0.0, 0.0), axis=None):
        """Add Liu et al.'s (2018) rigid link: a uniform slender rod between two point nodes.

        6 coordinates, constant mass matrix m[[1/3, 1/6], [1/6, 1/3]]⊗I₃ plus the end masses, one
        rigid condition; no spin about its own axis, so a revolute joint needs its axis carried by
        the rod (``axis``) or by the other body. ``body.length`` is its length, m.

        Parameters
        ----------
        name : str
        p1, p2 : str or Node
            The end point nodes; p1 is the body's first point (reference of :meth:`set_rigid_velocity`).
        mass : float, optional
            Rod mass, kg (without the end masses).
        density, area : float, optional
            kg/m³ and m², used when ``mass`` is not given: mass = ρ A L.
        end_masses : (2,) array_like, optional
            Point masses at p1 and p2, kg.
        axis : str or Node, optional
            A unit-vector node added to the rod's basis (a revolute axis not along the rod).
        """
        p1, p2 = self.node(p1), self.node(p2)
        length = np.linalg.norm(p2.initial - p1.initial)
        if not length > 1e-12:
            raise ModelError(f"rigid beam '{name}': zero length (nodes '{p1.name}' and '{p2.name}' coincide); "
                             "move one of them")
        mass = _mass_of(f"rigid beam '{name}'", mass, density, area, length)
        end_masses = _end_masses(name, end_masses)
        offset, inertia_local = ncf.slender_rod(mass, length)
        e = (p2.initial - p1.initial) / length
        R = _frame_with_x(e)
        vectors = [self.node(axis)] if axis is not None else []
        body = NaturalBody(name, [p1, p2], vectors, mass, p1.initial + e * offset[0], R @ inertia_local @ R.T,
                           point_masses={n: m for n, m in zip((p1, p2), end_masses) if m})
        body.length = length
        return self._add_body(body)

    def rigid_body(self, name, points, vectors=(), mass=1.0, com=None, inertia=None, strict=True):
        """Add a rigid body on natural coordinates (García de Jalón & Bayo 1994, ch. 2).

        A full spatial body takes 2 points + 2 unit vectors or 3 points + 1 vector (12 coordinates,
        6 rigid conditions b_i·b_j = const); fewer basis vectors leave it unable to turn about some axis.

        Parameters
        ----------
        name : str
        points : sequence of str or Node
            Point nodes (≥ 1); the first is the body's origin.
        vectors : sequence of str or Node, optional
            Unit-vector nodes.
        mass : float, optional
            kg.
        com : (3,) array_like, optional
            Centre of mass, m (default the first point).
        inertia : (3, 3) array_like, optional
            Inertia tensor about the centre of mass, kg·m² (default zero: a point mass).
        strict : bool, optional
            False accepts a non-physical inertia with a PhysicalConsistencyWarning instead of an error.
        """
        points, vectors = [self.node(p) for p in points], [self.node(v) for v in vectors]
        com = points[0].initial if com is None else vector3(com, f"rigid body '{name}': com (m)")
        inertia = np.zeros((3, 3)) if inertia is None else inertia
        return self._add_body(NaturalBody(name, points, vectors, positive(mass, f"rigid body '{name}': mass", "kg"),
                                          com, inertia, strict=strict))

    def triangle_platform(self, name, center, normal, circumradius, thickness=0.0, density=None, mass=None,
                          first_vertex=(1.0, 0.0, 0.0)):
        """Add Liu et al.'s (2018) moving platform: a uniform equilateral triangle.

        Nodes ``<name>.A1``, ``<name>.A2`` (vertices), ``<name>.u`` (normal), ``<name>.v`` (in-plane ⟂ A1A2);
        ``body.vertices`` at t = 0, counter-clockwise about the normal.

        Parameters
        ----------
        name : str
        center, normal : (3,) array_like
            Centroid, m, and plate normal.
        circumradius : float
            Distance from the centroid to each vertex, m.
        thickness : float, optional
            m; adds m t²/12 to the in-plane moments of inertia.
        density, mass : float, optional
            kg/m³ (with ``thickness`` > 0) or kg: exactly one.
        first_vertex : (3,) array_like, optional
            Direction from the centroid to A1, projected on the plate plane.
        """
        center, n = vector3(center, f"platform '{name}': center (m)"), unit_vector(normal, f"platform '{name}' normal")
        first_vertex = vector3(first_vertex, f"platform '{name}': first_vertex")
        d = first_vertex - n * (n @ first_vertex)
        if np.linalg.norm(d) < 1e-9:
            raise ModelError(f"platform '{name}': first_vertex direction is parallel to the normal")
        d /= np.linalg.norm(d)
        e2 = np.cross(n, d)
        verts = [center + circumradius * (np.cos(a) * d + np.sin(a) * e2) for a in (0, 2 * np.pi / 3, 4 * np.pi / 3)]
        if density is not None:
            check_density(f"platform '{name}'", density)
        m, I_local = ncf.equilateral_plate(circumradius, thickness, density, mass, f"platform '{name}'")
        R = np.column_stack([d, e2, n])
        A1, A2 = self.point(f"{name}.A1", verts[0]), self.point(f"{name}.A2", verts[1])
        v = verts[2] - 0.5 * (verts[0] + verts[1])
        u_node, v_node = self.vector(f"{name}.u", n), self.vector(f"{name}.v", v / np.linalg.norm(v))
        body = self._add_body(NaturalBody(name, [A1, A2], [u_node, v_node], m, center, R @ I_local @ R.T))
        body.vertices = verts
        return body


def _mass_of(what, mass, density, area, length):
    """The rod mass in kg: ``mass``, or ρ A L."""
    if mass is None:
        if density is None or area is None:
            raise ModelError(f"{what}: give mass (kg) or density (kg/m³) and area (m²)")
        if not density > 0 or not area > 0:
            raise ModelError(f"{what}: density and area must be positive, got ρ={density}, A={area}")
        check_density(what, density)
        mass = density * area * length
    if not mass > 0:
        raise ModelError(f"{what}: mass must be positive (kg), got {mass}")
    return float(mass)


def _end_masses(name, end_masses):
    """Two point masses (kg, ≥ 0) at the beam's end nodes."""
    if np.size(end_masses) != 2:
        raise ModelError(f"rigid beam '{name}': end_masses must be two values (kg) for its two end nodes, "
                         f"got {end_masses!r}")
    return [positive(m, f"rigid beam '{name}': end mass", "kg", allow_zero=True) for m in np.ravel(end_masses)]


def _frame_with_x(e):
    """Rotation matrix whose first column is the unit vector e."""
    helper = np.eye(3)[np.argmin(np.abs(e))]
    y = np.cross(e, helper)
    y /= np.linalg.norm(y)
    return np.column_stack([e, y, np.cross(e, y)])
