"""Common machinery of femdyn's ANCF kernels: the base class :class:`ANCFElement`
(set-up checks, nodal shape matrices, constant mass and gravity, and the assembly of
energy, internal force, tangent and damping from an element's energy density through
:class:`~femdyn.elements.quadrature.InvariantQuadrature`), the cubic Hermite functions
and the arc-length parameterization shared by the cable and the beam.

The absolute nodal coordinate formulation (Shabana 1997, "Flexible multibody dynamics:
review of past and recent developments", Multibody Syst. Dyn. 1:189–222; Gerstmayr &
Shabana 2006, Nonlinear Dyn. 45:109–130) interpolates positions and position gradients;
the mass matrix is constant and every elastic term follows from a density W(I) of
dot-product invariants I of the gradient vectors, which each element defines next to
its class (``_density``, ``_damping``). Units: SI.
"""
import numpy as np

from femdyn.elements.quadrature import InvariantQuadrature, gauss_legendre
from femdyn.elements.sections import CrossSection
from femdyn.errors import ModelError
from femdyn.input_checks import refuse_non_finite


def hermite(xi):
    """Cubic Hermite shape functions on ξ ∈ [0, 1] and their first two ξ-derivatives.

    Slope functions scaled by L: r(ξ) = N₁ r₁ + N₂ L r₁' + N₃ r₂ + N₄ L r₂' (Gerstmayr & Shabana 2006).
    """
    xi = np.atleast_1d(np.asarray(xi, float))
    N = np.stack([1 - 3 * xi**2 + 2 * xi**3, xi - 2 * xi**2 + xi**3, 3 * xi**2 - 2 * xi**3, -xi**2 + xi**3], -1)
    dN = np.stack([-6 * xi + 6 * xi**2, 1 - 4 * xi + 3 * xi**2, 6 * xi - 6 * xi**2, -2 * xi + 3 * xi**2], -1)
    ddN = np.stack([-6 + 12 * xi, -4 + 6 * xi, 6 - 12 * xi, -2 + 6 * xi], -1)
    return N, dN, ddN


def per_element(value, n_el, label, kind):
    """Broadcast a scalar or per-element material or section value to one float per element."""
    try:
        arr = np.asarray(value, float)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.ndim > 1 or arr.size not in (1, n_el):
        raise ModelError(f"{kind}: {label} must be a number or a list of one number per element "
                         f"({n_el} values), got {value!r}")
    refuse_non_finite(arr, f"{kind}: {label}")
    return np.broadcast_to(arr.reshape(-1), (n_el,)).copy()


def check_section(section, kind):
    """Check that a section argument is a :class:`~femdyn.elements.sections.CrossSection`."""
    if not isinstance(section, CrossSection):
        raise ModelError(f"{kind}: section must be a femdyn.elements.sections.CrossSection, got {section!r} "
                         "(use sections.circular(radius) or sections.rectangular(b, h))")


def reference_arc_length(p1, t1, p2, t2, n_points=16, max_iterations=50):
    """Parameter length L of Hermite elements equal to the arc length of the axis they define.

    L is the fixed point of L ↦ ∫₀¹ ‖∂r/∂ξ‖ dξ (Gauss–Legendre), iterated from the chord.
    """
    xi, w = gauss_legendre(n_points)
    _, dN, _ = hermite(xi)
    chord_part = np.einsum('x,ed->exd', dN[:, 0], p1) + np.einsum('x,ed->exd', dN[:, 2], p2)
    slope_part = np.einsum('x,ed->exd', dN[:, 1], t1) + np.einsum('x,ed->exd', dN[:, 3], t2)
    L = np.linalg.norm(p2 - p1, axis=1)
    for _ in range(max_iterations):
        new = np.linalg.norm(chord_part + L[:, None, None] * slope_part, axis=-1) @ w
        done = np.all(np.abs(new - L) <= 1e-15 * np.abs(new))
        L = new
        if done:
            break
    return L


def check(condition, values, kind, message):
    """Raise a ModelError for the first element where ``condition`` is False."""
    bad = np.flatnonzero(~condition)
    if bad.size:
        raise ModelError(f"{kind} element {bad[0]}: {message} (got {float(values[bad[0]]):.6g})")


class ANCFElement:
    """Common machinery of femdyn's ANCF kernels (a batch of n_el elements)."""

    dim = 3
    n_nodes = 2
    kind = "ANCF element"
    neighbours = None        # (previous, next) element of each, −1 for none, where strain recovery spans elements

    def _setup(self, q_ref, E, rho, section, damping, length, n_gauss, nu=0.0):
        q_ref = np.asarray(q_ref, float)
        if q_ref.ndim != 2 or q_ref.shape[1] != self.ndof:
            raise ModelError(f"{self.kind}: q_ref must have shape (n_el, {self.ndof}), got {q_ref.shape}")
        if not np.all(np.isfinite(q_ref)):
            raise ModelError(f"{self.kind} element {np.flatnonzero(~np.all(np.isfinite(q_ref), 1))[0]}: "
                             "reference coordinates contain NaN or inf")
        n_el = len(q_ref)
        check_section(section, self.kind)
        self.q_ref, self.n_el = q_ref, n_el
        self.E = per_element(E, n_el, "E", self.kind)
        self.rho = per_element(rho, n_el, "rho", self.kind)
        self.damping = per_element(damping, n_el, "damping", self.kind)
        self.nu = per_element(nu, n_el, "nu", self.kind)
        check(self.E > 0, self.E, self.kind, "Young's modulus E must be positive; give it in Pa")
        check(self.rho > 0, self.rho, self.kind, "density rho must be positive; give it in kg/m³")
        check(self.damping >= 0, self.damping, self.kind, "damping coefficient must be ≥ 0 (seconds)")
        check((self.nu > -1) & (self.nu < 0.5), self.nu, self.kind, "Poisson ratio must lie in (−1, 0.5)")
        self.A = per_element(section.area, n_el, "section area", self.kind)
        self.Iy = per_element(section.Iy, n_el, "section Iy", self.kind)
        self.Iz = per_element(section.Iz, n_el, "section Iz", self.kind)
        self.J = per_element(section.J, n_el, "section J", self.kind)
        self.section = section
        d = self.dim
        axis = self._reference_axis()
        if length is None:
            self.length = self._default_length(axis)
        else:
            self.length = per_element(length, n_el, "length", self.kind)
            check(self.length > 0, self.length, self.kind, "length must be positive (metres)")
        self.xi_gauss, w = gauss_legendre(n_gauss)
        self.quad = InvariantQuadrature(self._coefficients(self.xi_gauss), self.vector_order, self.nodal_order,
                                        self.invariant_pairs, w, self.length, d)
        self.z_ref = self.quad.vectors(q_ref)
        self.jac = np.linalg.norm(self.z_ref[:, :, 0], axis=-1)          # ds/dx = |r⁰_x|
        # inertia: its own 5-point rule, exact for the degree-6 products of Hermite functions
        self.xi_mass, self.w_mass = gauss_legendre(5)
        self.jac_mass = np.linalg.norm(self.fields(q_ref, self.xi_mass)[:, :, 0], axis=-1)
        check(np.all(self.jac > 1e-9, axis=1), self.jac.min(1), self.kind,
               "reference slope r_x (nearly) vanishes at a Gauss point; give nodal slopes of unit length along the axis")

    def _reference_axis(self):
        """(p₁, t₁, p₂, t₂) of the reference axis, each (n_el, d), after checking that the
        nodes are distinct and that each nodal slope points along the element (r_x·(p₂ − p₁)
        > 0): a slope reversed against (or across) the chord folds the cubic, whose slope
        then vanishes inside the element (NaN strains)."""
        d, half = self.dim, self.ndof // 2
        q = self.q_ref
        p1, t1, p2, t2 = q[:, :d], q[:, d:2 * d], q[:, half:half + d], q[:, half + d:half + 2 * d]
        chord = np.linalg.norm(p2 - p1, axis=1)
        check(chord > 0, chord, self.kind, "end nodes coincide (zero length); move a node")
        for k, t in ((1, t1), (2, t2)):
            cosine = np.sum(t * (p2 - p1), 1) / (chord * np.maximum(np.linalg.norm(t, axis=1), 1e-300))
            check(cosine > 0, cosine, self.kind,
                   f"the slope r_x at its node {k} is zero or points against (or across) the element, "
                   "whose axis would fold back on itself; give nodal tangents pointing from the "
                   "element's first node towards its second (cosine with the chord)")
        return p1, t1, p2, t2

    def _default_length(self, axis):
        """Parameter length L (n_el,) [m] of the reference axis returned by
        :meth:`_reference_axis`: its arc length (:func:`reference_arc_length`)."""
        return reference_arc_length(*axis)

    # ------------------------------------------------------------------ fields
    def fields(self, qe, xi):
        """Physical gradient vectors of every element at the local coordinates ξ."""
        if np.ndim(xi) == 0:
            key = float(xi)
            if qe is self.q_ref:
                return self.reference_value("fields", key, lambda: self._fields(qe, self._scalar_coefficients(key)))
            return self._fields(qe, self._scalar_coefficients(key))
        return self._fields(qe, self._coefficients(np.asarray(xi, float)))

    def _scalar_coefficients(self, xi):
        """:meth:`_coefficients` at one ξ (1, n_vec, n_nodal), kept per ξ like the reference values."""
        return self.reference_value("coefficients", xi, lambda: self._coefficients(np.array([xi])))

    def _fields(self, qe, coef):
        """Gradient vectors (n_el, n_x, n_vec, dim) from the coefficients (n_x, n_vec, n_nodal)."""
        d = self.dim
        qt = np.asarray(qe, float).reshape(self.n_el, -1, d) * self.quad.dof_scale[:, ::d, None]
        z = np.einsum('xka,eai->exki', coef, qt)
        return z / self.quad.vec_scale[:, None, :, None]

    def vectors_at(self, qe, xi):
        """Physical gradient vectors of every element at a single ξ."""
        return self.fields(qe, float(xi))[:, 0]

    def _slope_length(self, xi):
        """j = ‖r⁰_x‖ = ds₀/dx of the reference axis at ξ (n_el,)."""
        return self.reference_value("slope length", xi,
                                    lambda: np.linalg.norm(self.vectors_at(self.q_ref, xi)[:, 0], axis=-1))

    def reference_value(self, name, xi, evaluate):
        """A quantity fixed by the reference configuration and ξ, computed once and kept."""
        memo = self.__dict__.setdefault("_reference_values", {})
        key = (name, float(xi))
        if key not in memo:
            memo[key] = np.asarray(evaluate())
            memo[key].flags.writeable = False
        return memo[key]

    def shape(self, xi, y=0.0, z=0.0):
        """Shape matrix S with r(ξ, y, z) = S q_e."""
        scalar = np.ndim(xi) == 0
        N = self._nodal_shape(np.atleast_1d(np.asarray(xi, float)), y, z)    # (n_x, n_nodal)
        scale = self.quad.dof_scale[:, ::self.dim]
        S = np.einsum('xa,ea,ij->exiaj', N, scale, np.eye(self.dim)).reshape(self.n_el, len(N), self.dim, self.ndof)
        return S[:, 0] if scalar else S

    def _nodal_shape(self, xi, y, z):
        return hermite(xi)[0]

    # ------------------------------------------------------------------ inertia
    def _mass_terms(self):
        """[(ρ·(section integral) per unit length [kg/m] (n_el,), nodal shape values at the
        mass points (n_m, n_nodal))]; the first term is the axis (used for gravity)."""
        return [(self.rho * self.A, hermite(self.xi_mass)[0])]

    def _mass_weights(self):
        """w_m L ‖r⁰_x‖ at the mass points (n_el, n_m) and the nodal scaling L^o (n_el, n_nodal)."""
        return self.w_mass[None, :] * self.jac_mass * self.length[:, None], self.quad.dof_scale[:, ::self.dim]

    def mass(self):
        """Constant consistent mass matrix ∫ρ SᵀS dV = Z ⊗ 1 of every element."""
        wt, scale = self._mass_weights()
        Z = sum(np.einsum('em,ma,mb->eab', wt * rho_line[:, None], N, N) for rho_line, N in self._mass_terms())
        Z = Z * scale[:, :, None] * scale[:, None, :]
        return np.einsum('eab,ij->eaibj', Z, np.eye(self.dim)).reshape(self.n_el, self.ndof, self.ndof)

    def gravity(self, g):
        """Generalized gravity force ∫ρ Sᵀ g dV of every element."""
        g = np.asarray(g, float)
        if g.shape != (self.dim,):
            raise ModelError(f"{self.kind}: gravity vector must have {self.dim} components, got shape {g.shape}")
        rho_line, N = self._mass_terms()[0]
        wt, scale = self._mass_weights()
        f = np.einsum('em,ma->ea', wt * rho_line[:, None], N) * scale
        return np.einsum('ea,i->eai', f, g).reshape(self.n_el, self.ndof)

    # ------------------------------------------------------------------ elasticity
    def _energy_terms(self):
        """[(quadrature, ds/dx at its points, density, damping, dofs)]: density(I, z, order)
        → (W, W_I, W_II) per unit reference length; damping(I, z) → (H in invariant space,
        H_z on the gradient vectors or None), already multiplied by the damping
        coefficient; dofs the slice of each node's coordinates the term acts on (None: all)."""
        return [(self.quad, self.jac, self._density, self._damping, None)]

    def _coordinates(self, qe):
        qe = np.asarray(qe, float)
        if qe.shape != (self.n_el, self.ndof):
            raise ModelError(f"{self.kind}: element coordinates must have shape ({self.n_el}, {self.ndof}), got {qe.shape}")
        return qe

    def strain_energy(self, qe):
        """Elastic strain energy of every element."""
        qe = self._coordinates(qe)
        total = np.zeros(self.n_el)
        for quad, jac, density, _, dofs in self._energy_terms():
            q = qe if dofs is None else qe.reshape(self.n_el, self.n_nodes, -1)[:, :, dofs].reshape(self.n_el, -1)
            z, I = quad.kinematics(q)
            total += quad.energy(density(I, z, 0)[0], jac)
        return total

    def _assemble(self, qe, order, damped):
        F = K = D = None
        for quad, jac, density, damping, dofs in self._energy_terms():
            q = qe if dofs is None else qe.reshape(self.n_el, self.n_nodes, -1)[:, :, dofs].reshape(self.n_el, -1)
            z, I = quad.kinematics(q)
            _, W_I, W_II = density(I, z, order)
            if order == 1:
                F = self._add(F, quad.force(W_I, jac, z), dofs)
            else:
                K = self._add(K, quad.stiffness(W_I, W_II, jac, z), dofs)
            if damped:
                H, H_z = damping(I, z)
                D = self._add(D, quad.invariant_matrix(H, jac, z), dofs)
                if H_z is not None:
                    D = self._add(D, quad.project(H_z, jac), dofs)
        return F, K, D

    def _add(self, total, part, dofs):
        """total + a term acting on the coordinates ``dofs`` (slice within each node's
        coordinates, or None: all); total None means zero."""
        if dofs is None:
            if total is None:
                return part
            total += part
            return total
        if total is None:
            total = np.zeros((self.n_el,) + (self.ndof,) * (part.ndim - 1))
        n_el, n_nodes = total.shape[0], self.n_nodes
        nn, k = total.shape[1] // n_nodes, dofs.stop - dofs.start
        if part.ndim == 2:
            total.reshape(n_el, n_nodes, nn)[:, :, dofs] += part.reshape(n_el, n_nodes, k)
        else:
            total.reshape(n_el, n_nodes, nn, n_nodes, nn)[:, :, dofs, :, dofs] += \
                part.reshape(n_el, n_nodes, k, n_nodes, k)
        return total

    def set_evaluation(self, dofs):
        """The compiled evaluation of the whole batch with its coordinates at ``dofs`` (n_el, ndof) of a global q."""
        return SetEvaluation(self, np.ascontiguousarray(dofs, dtype=np.int64))

    def _term_arguments(self, quad, jac, dofs, term_dofs):
        """(geo, dofs, loc, scratch) of an energy term of :meth:`set_evaluation` acting on the coordinates
        ``term_dofs`` of each node (None: all)."""
        loc = np.arange(self.ndof)
        if term_dofs is not None:
            loc = np.ascontiguousarray(loc.reshape(self.n_nodes, -1)[:, term_dofs].ravel())
            dofs = np.ascontiguousarray(dofs[:, loc])
        return quad.packed(jac), dofs, loc, quad.scratch()

    def _damped(self, ve):
        return ve is not None and np.any(self.damping > 0)

    def internal_force(self, qe, ve=None):
        """Elastic (and damping) generalized force ∂U/∂q of every element."""
        damped = self._damped(ve)
        F, _, D = self._assemble(self._coordinates(qe), 1, damped)
        if damped:
            F = F + np.einsum('eab,eb->ea', D, np.asarray(ve, float))
        return F

    def stiffness(self, qe, ve=None):
        """Tangent stiffness and damping matrices of every element."""
        damped = self._damped(ve)
        _, K, D = self._assemble(self._coordinates(qe), 2, damped)
        return K, (D if damped else None)


class SetEvaluation:
    """Energy, force and tangent of a whole batch of elements, each in one compiled call that gathers
    from the global q and scatters into the global force or the element matrices itself."""

    def __init__(self, element, dofs):
        self.entry, self.arguments = element._set_entry(dofs)
        self.n_el, self.ndof = element.n_el, element.ndof
        self._nothing = np.zeros(0)

    def energy(self, q):
        """Strain energy of the batch, J, at the global coordinates q."""
        return self.entry(q, 0, 1.0, self._nothing, *self.arguments)

    def add_force(self, q, scale, out):
        """out += scale ∂U/∂q (global vector, in place)."""
        self.entry(q, 1, scale, out, *self.arguments)

    def tangent(self, q):
        """Element stiffness matrices ∂²U/∂q² (n_el·ndof·ndof,), flat, at the global coordinates q."""
        K = np.zeros(self.n_el * self.ndof * self.ndof)
        self.entry(q, 2, 1.0, K, *self.arguments)
        return K
