"""Rigid bodies in natural coordinates and the ground.

:class:`NaturalBody` covers the rigid beam of Liu et al. 2018 (two points, 6 coordinates,
1 rigid condition), a beam that also carries a joint-axis unit vector (two points + one
vector, 9 coordinates, 3 conditions) and the full spatial body (two points + two unit
vectors, or three points + one vector: 12 coordinates, 6 conditions), with constant mass
matrix (see :mod:`femdyn.elements.ncf`). Rigid conditions: every pair of basis vectors
keeps its dot product, b_i·b_j = const (García de Jalón & Bayo 1994, §2.2); unit length
of vector nodes is imposed once per node by the model.
"""
import numpy as np

from femdyn.elements import ncf

from .constraints import Equation
from .nodes import Expr
from .protocol import Part
from ..errors import ModelError
from ..validation import inconsistent, positive, refuse_non_finite, vector3
from .vectorfunctions import Dot


class Ground:
    """The inertial frame: its points and vectors are constant expressions."""

    name = "ground"
    nodes = ()
    span_rank = 3

    def material_point(self, x):
        """The fixed point x as a constant expression.

        Parameters
        ----------
        x : (3,) array_like
            m, global frame.

        Returns
        -------
        femdyn.model.nodes.Expr
        """
        return Expr.constant(vector3(x, "ground point (m)"))

    def material_vector(self, w):
        """The fixed vector w as a constant expression.

        Parameters
        ----------
        w : (3,) array_like
            Global frame.

        Returns
        -------
        femdyn.model.nodes.Expr
        """
        return Expr.constant(vector3(w, "ground vector"))

    def span_basis(self):
        """The global axes as constant expressions, with their values (3 × 3 identity)."""
        return [Expr.constant(e) for e in np.eye(3)], np.eye(3)

    def contains_direction(self, w):
        """Always True: the ground carries every direction.

        Parameters
        ----------
        w : (3,) array_like
            A direction, global frame.
        """
        return True


class Frame:
    """Material points and vectors of anything described by a base point and basis
    vectors that are affine in q: x = origin + Σ c_j b_j with constant c (natural-coordinate
    bodies, ANCF nodes). Subclasses set ``name``, ``origin`` (Expr), ``basis`` (Exprs),
    ``B0`` (3×k initial basis) and ``origin0`` (initial base point)."""

    outside_hint = "the point or direction must lie in the span of its basis"

    @property
    def label(self):
        return f"body '{self.name}'"

    def local(self, w):
        """Basis coordinates c of a vector w: w = B0 c.

        Parameters
        ----------
        w : ndarray (3,)
            Global frame, initial configuration.

        Returns
        -------
        ndarray (k,)
            The coefficients of the basis vectors.

        Raises
        ------
        ModelError
            If w is outside the span of the basis (relative residual > 1e-9).
        """
        c, *_ = np.linalg.lstsq(self.B0, w, rcond=None)
        if np.linalg.norm(self.B0 @ c - w) > 1e-9 * max(1.0, np.linalg.norm(w)):
            raise ModelError(f"{self.label}: {np.round(w, 6).tolist()} is outside the span of its basis; "
                             f"{self.outside_hint}")
        return c

    def material_point(self, x):
        """The material point at global position x, as an affine expression of q.

        Parameters
        ----------
        x : (3,) array_like
            m, global frame, initial configuration.

        Returns
        -------
        femdyn.model.nodes.Expr
            origin + Σ c_j b_j with constant c.

        Raises
        ------
        ModelError
            If x − origin is outside the span of the basis (e.g. off a rigid beam's axis).
        """
        return self.origin + self._combine(self.local(vector3(x, f"{self.label}: point (m)") - self.origin0))

    def material_vector(self, w):
        """The material vector equal to w in the initial configuration, as an expression of q.

        Parameters
        ----------
        w : (3,) array_like
            Global frame, initial configuration.

        Returns
        -------
        femdyn.model.nodes.Expr
            Σ c_j b_j with constant c.

        Raises
        ------
        ModelError
            If w is outside the span of the basis.
        """
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
        """Whether the direction w lies in the span of the basis (can be a material vector).

        Parameters
        ----------
        w : ndarray (3,)
            Global frame, initial configuration.

        Returns
        -------
        bool
        """
        c, *_ = np.linalg.lstsq(self.B0, w, rcond=None)
        return np.linalg.norm(self.B0 @ c - w) <= 1e-9 * np.linalg.norm(w)


class NaturalBody(Frame, Part):
    """A rigid body on point nodes ``points`` (≥ 1) and unit-vector nodes ``vectors``.

    The basis vectors are b = (p_2 − p_1, …, p_k − p_1, u_1, …); the constant mass
    matrix is Z ⊗ I₃ with Z from the mass, first and second moments expressed in that
    basis (García de Jalón & Bayo 1994, §2.3 and §5.3; :func:`femdyn.elements.ncf.basis_mass_matrix`).
    Build bodies with :meth:`Model.rigid_body <femdyn.model.builder.Model.rigid_body>`,
    :meth:`~femdyn.model.builder.Model.rigid_beam` or
    :meth:`~femdyn.model.builder.Model.triangle_platform`.

    Parameters
    ----------
    name : str
        Unique body name.
    points : sequence of Node
        Point nodes (≥ 1); the first is the origin.
    vectors : sequence of Node
        Unit-vector nodes.
    mass : float
        kg.
    com : (3,) array_like
        Centre of mass, m, global frame, initial configuration.
    inertia : (3, 3) array_like
        Inertia tensor about the centre of mass, kg·m², global axes, initial
        configuration.
    point_masses : dict, optional
        {point node: mass in kg} added at those points.
    strict : bool, optional
        False accepts an inertia that violates positivity or the triangle inequality
        with a :class:`~femdyn.errors.PhysicalConsistencyWarning` instead of refusing it.

    Raises
    ------
    ModelError
        If the nodes are of the wrong kind, the basis is empty, has more than 3 or
        dependent vectors, or the mass or inertia are not physical.
    """

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

    def outline(self, q):
        """Points to draw the body at coordinates q.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.

        Returns
        -------
        ndarray (k, 3)
            m, global frame: its point nodes, or the closed polygon of its vertices (a
            platform).
        """
        if hasattr(self, "vertices"):
            pts = [self.material_point(v)(q) for v in self.vertices]
            return np.array(pts + pts[:1])
        return np.array([p.expr(q) for p in self.points])

    def weights(self, x):
        """Weights of the body's nodes in the material point x: r(x) = Σ w_i x_i.

        Parameters
        ----------
        x : (3,) array_like
            m, global frame, initial configuration.

        Returns
        -------
        ndarray (k + 1,)
            1 − Σ c over the points for the first point, then the basis coefficients c.
        """
        c = self.local(np.asarray(x, float) - self.origin0)
        return np.concatenate([[1.0 - c[self.is_point].sum()], c])

    # --- assembly ---------------------------------------------------------------
    def node_starts(self):
        """First global index in q of each of the body's nodes (points, then vectors)."""
        return np.array([n.start for n in self.nodes])

    def mass_coo(self):
        """COO of M = Z ⊗ I₃ on the body's node slots."""
        s = self.node_starts()
        a, b, comp = np.meshgrid(np.arange(len(s)), np.arange(len(s)), np.arange(3), indexing="ij")
        return (s[a] + comp).ravel(), (s[b] + comp).ravel(), self.Z[a, b].ravel()

    def gravity(self, g):
        """Generalized gravity force ∫ρ Cᵀ g dV = first ⊗ g (``first``: the mass-weighted node weights).

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
        s = self.node_starts()
        return (s[:, None] + np.arange(3)).ravel(), np.outer(self.first, g).ravel()

    def equations(self):
        """The rigid conditions as constraint equations b_i·b_j = const."""
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
