"""ANCF cable elements (gradient-deficient, Euler–Bernoulli) in 2-D and 3-D.

Kinematics (Gerstmayr & Shabana 2006, "Analysis of thin beams and cables using the
absolute nodal co-ordinate formulation", Nonlinear Dyn. 45:109–130, shape functions of the cable element): the axis
is a cubic Hermite curve in ξ = x/L ∈ [0, 1],

    r(ξ) = N₁ r₁ + N₂ L r₁' + N₃ r₂ + N₄ L r₂',
    N₁ = 1 − 3ξ² + 2ξ³,  N₂ = ξ − 2ξ² + ξ³,  N₃ = 3ξ² − 2ξ³,  N₄ = −ξ² + ξ³,

with nodal coordinates [r, r_x] (2-D: 8 dof, 3-D: 12 dof; node 1 then node 2). L is the
element's parameter length: by default the arc length of the reference axis itself, the
fixed point L = ∫₀¹ |∂r⁰/∂ξ| dξ of the cubic built with that L (:func:`reference_arc_length`;
the chord |r₂ − r₁| for straight elements), so that x is close to the arc length and a
curve given by points and unit tangents is followed closely; ``length`` overrides it.
Every strain below is measured per unit reference arc length, so L only selects the
reference curve through the nodal data, not the stiffness of a given curve.

Strains (per unit reference arc length s, ds = |r⁰_x| dx):
- axial strain, engineering measure  ε = |r_x| / |r⁰_x| − 1  (what a strain gauge on
  the axis reads; N = EA ε);
- curvature of the axis, κ² = |r_x × r_xx|² / |r_x|⁶ = (r_xx·r_xx)/(r_x·r_x)²
  − (r_x·r_xx)²/(r_x·r_x)³ (Lagrange identity, valid in 2-D and 3-D). In 2-D the signed
  value κ = (r_x × r_xx)/|r_x|³ is used (positive when the axis turns counter-clockwise,
  i.e. v'' > 0 for an axis along +x); in 3-D the magnitude.

Energy  U = ½ ∫ (EA ε² + EI (κ − κ₀)²) ds  (Gerstmayr & Shabana 2006;
Gerstmayr & Irschik 2008, "On the correct representation of bending and axial
deformation in the absolute nodal coordinate formulation with an elastic line approach",
J. Sound Vib. 318:461–487, elastic line approach), κ₀ the reference curvature. In 2-D EI = E I_z
(bending in the x–y plane). The 3-D cable has one isotropic bending stiffness EI and no
torsion: it suits circular (and other I_y = I_z) sections; use ANCFBeam3D otherwise.

Reference curvature. Reference curvatures with |κ₀| L < 1e-9 (STRAIGHT_TOLERANCE) are
round-off of a straight element (e.g. ~3e-14 1/m for a cable along (0.6, 0.8, 0)) and
are set to exactly 0 at set-up. The 3-D cable is a straight-reference element: its
energy depends on |κ| only, so about a curved reference (κ₀ ≠ 0) the linearized
out-of-plane bending and the twist have no stiffness (singular K); ANCFCable3D refuses
such references (use ANCFCable2D for curves in a plane, ANCFBeam3D for spatial curves).

Kelvin–Voigt damping (coefficient ``damping`` = c [s], σ_d = c E ε̇): dissipation
½ c ∫ (EA ε̇² + EI κ̇²) ds (2-D) with damping force F_d = D(q) v, D exact. In 3-D the
bending part uses the rate of the curvature vector k = r_x × r_xx / |r_x|³ (a cable has
no section frame, and the rate of |k| is undefined at κ = 0); this is invariant under
translation and under rigid rotation of straight configurations, while a bent cable in
rigid rotation with angular velocity ω is damped by c EI |ω × k|². The q-derivative of
the damping force is left out of K (as in Rayleigh-type damping).

Integration: ``n_gauss`` = 3 Gauss points by default, exact in the linear regime
(axial ε² and κ² are polynomials of degree ≤ 4 there); the mass matrix and gravity use
their own 5-point rule (exact for the degree-6 Hermite products). Slender cables
(EA L²/EI ~ 1e6) show the membrane locking typical of this element (Gerstmayr &
Irschik 2008): large-deflection errors fall fast with refinement (8.4e-3, 2.2e-3,
3.8e-4 L at 4, 8, 16 elements for PL²/EI = 10, EA L²/EI = 4e6) but grow with slenderness.

Sign conventions: see :meth:`ANCFCable3D.curvature` and :meth:`ANCFCable.axial_strain`.
Units: SI (m, N, Pa, kg/m³, s).
"""
import numpy as np

from femdyn.elements import compiled
from femdyn.elements.quadrature import InvariantQuadrature, gauss_legendre
from femdyn.elements.sections import CrossSection
from femdyn.errors import ModelError


def hermite(xi):
    """Cubic Hermite functions on [0, 1] (slope dofs scaled by L) and their first two
    ξ-derivatives; each (n_x, 4) in the order r₁, L r₁', r₂, L r₂'."""
    xi = np.atleast_1d(np.asarray(xi, float))
    N = np.stack([1 - 3 * xi**2 + 2 * xi**3, xi - 2 * xi**2 + xi**3, 3 * xi**2 - 2 * xi**3, -xi**2 + xi**3], -1)
    dN = np.stack([-6 * xi + 6 * xi**2, 1 - 4 * xi + 3 * xi**2, 6 * xi - 6 * xi**2, -2 * xi + 3 * xi**2], -1)
    ddN = np.stack([-6 + 12 * xi, -4 + 6 * xi, 6 - 12 * xi, -2 + 6 * xi], -1)
    return N, dN, ddN


def skew(v):
    """Cross-product matrix [v]× (…, 3, 3) with [v]× w = v × w."""
    out = np.zeros(v.shape + (3,))
    out[..., 0, 1], out[..., 0, 2] = -v[..., 2], v[..., 1]
    out[..., 1, 0], out[..., 1, 2] = v[..., 2], -v[..., 0]
    out[..., 2, 0], out[..., 2, 1] = -v[..., 1], v[..., 0]
    return out


STRAIGHT_TOLERANCE = 1e-9      # |κ₀| L below this is round-off of a straight element


def _per_element(value, n_el, label, kind):
    """``value`` (a scalar or one value per element) as an (n_el,) float array."""
    try:
        arr = np.asarray(value, float)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.ndim > 1 or arr.size not in (1, n_el):
        raise ModelError(f"{kind}: {label} must be a number or a list of one number per element "
                         f"({n_el} values), got {value!r}")
    return np.broadcast_to(arr.reshape(-1), (n_el,)).copy()


def _check_section(section, kind):
    if not isinstance(section, CrossSection):
        raise ModelError(f"{kind}: section must be a femdyn.elements.sections.CrossSection, got {section!r} "
                         "(use sections.circular(radius) or sections.rectangular(b, h))")


def reference_arc_length(p1, t1, p2, t2, n_points=16, max_iterations=50):
    """Parameter length L (n_el,) [m] equal to the arc length of the cubic Hermite axis it
    defines, r(ξ) = N₁ p₁ + N₂ L t₁ + N₃ p₂ + N₄ L t₂ (positions p, slopes t, each (n_el, d)):
    the fixed point of L ↦ ∫₀¹ |∂r/∂ξ| dξ (Gauss–Legendre, ``n_points``), iterated from the
    chord. For a straight element with slopes along the chord the map is constant (the
    slope terms integrate to zero along the chord), so L is the chord; for curved
    elements its derivative is of the order of the squared turning angle, so a few
    iterations reach round-off."""
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


def _check(condition, values, kind, message):
    bad = np.flatnonzero(~condition)
    if bad.size:
        raise ModelError(f"{kind} element {bad[0]}: {message} (got {float(values[bad[0]]):.6g})")


class ANCFElement:
    """Common machinery of femdyn's ANCF kernels (a batch of n_el elements).

    A subclass sets ``dim``, ``nodal_order`` (power of L in each nodal vector),
    ``vector_order`` and ``invariant_pairs`` and implements ``_coefficients(xi)``
    (gradient vectors at ξ from the nodal vectors), ``_density`` and ``_damping`` (or ``_energy_terms``).
    """

    dim = 3
    kind = "ANCF element"

    def _setup(self, q_ref, E, rho, section, damping, length, n_gauss, nu=0.0):
        q_ref = np.asarray(q_ref, float)
        if q_ref.ndim != 2 or q_ref.shape[1] != self.ndof:
            raise ModelError(f"{self.kind}: q_ref must have shape (n_el, {self.ndof}), got {q_ref.shape}")
        if not np.all(np.isfinite(q_ref)):
            raise ModelError(f"{self.kind} element {np.flatnonzero(~np.all(np.isfinite(q_ref), 1))[0]}: "
                             "reference coordinates contain NaN or inf")
        n_el = len(q_ref)
        _check_section(section, self.kind)
        self.q_ref, self.n_el = q_ref, n_el
        self.E = _per_element(E, n_el, "E", self.kind)
        self.rho = _per_element(rho, n_el, "rho", self.kind)
        self.damping = _per_element(damping, n_el, "damping", self.kind)
        self.nu = _per_element(nu, n_el, "nu", self.kind)
        _check(self.E > 0, self.E, self.kind, "Young's modulus E must be positive; give it in Pa")
        _check(self.rho > 0, self.rho, self.kind, "density rho must be positive; give it in kg/m³")
        _check(self.damping >= 0, self.damping, self.kind, "damping coefficient must be ≥ 0 (seconds)")
        _check((self.nu > -1) & (self.nu < 0.5), self.nu, self.kind, "Poisson ratio must lie in (−1, 0.5)")
        self.A = _per_element(section.area, n_el, "section area", self.kind)
        self.Iy = _per_element(section.Iy, n_el, "section Iy", self.kind)
        self.Iz = _per_element(section.Iz, n_el, "section Iz", self.kind)
        self.J = _per_element(section.J, n_el, "section J", self.kind)
        self.section = section
        d = self.dim
        axis = self._reference_axis()
        if length is None:
            self.length = reference_arc_length(*axis)
        else:
            self.length = _per_element(length, n_el, "length", self.kind)
            _check(self.length > 0, self.length, self.kind, "length must be positive (metres)")
        self.xi_gauss, w = gauss_legendre(n_gauss)
        self.quad = InvariantQuadrature(self._coefficients(self.xi_gauss), self.vector_order, self.nodal_order,
                                        self.invariant_pairs, w, self.length, d)
        self.z_ref = self.quad.vectors(q_ref)
        self.jac = np.linalg.norm(self.z_ref[:, :, 0], axis=-1)          # ds/dx = |r⁰_x|
        # inertia: its own 5-point rule, exact for the degree-6 products of Hermite functions
        self.xi_mass, self.w_mass = gauss_legendre(5)
        self.jac_mass = np.linalg.norm(self.fields(q_ref, self.xi_mass)[:, :, 0], axis=-1)
        _check(np.all(self.jac > 1e-9, axis=1), self.jac.min(1), self.kind,
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
        _check(chord > 0, chord, self.kind, "end nodes coincide (zero length); move a node")
        for k, t in ((1, t1), (2, t2)):
            cosine = np.sum(t * (p2 - p1), 1) / (chord * np.maximum(np.linalg.norm(t, axis=1), 1e-300))
            _check(cosine > 0, cosine, self.kind,
                   f"the slope r_x at its node {k} is zero or points against (or across) the element, "
                   "whose axis would fold back on itself; give nodal tangents pointing from the "
                   "element's first node towards its second (cosine with the chord)")
        return p1, t1, p2, t2

    # ------------------------------------------------------------------ fields
    def fields(self, qe, xi):
        """Physical gradient vectors at the points ξ (n_x,): (n_el, n_x, n_vec, dim)."""
        coef = self._coefficients(np.atleast_1d(np.asarray(xi, float)))      # (n_x, n_vec, n_nodal)
        d = self.dim
        qt = np.asarray(qe, float).reshape(self.n_el, -1, d) * self.quad.dof_scale[:, ::d, None]
        z = np.einsum('xka,eai->exki', coef, qt)
        return z / self.quad.vec_scale[:, None, :, None]

    def vectors_at(self, qe, xi):
        """Physical gradient vectors at a single ξ: (n_el, n_vec, dim)."""
        return self.fields(qe, float(xi))[:, 0]

    def shape(self, xi, y=0.0, z=0.0):
        """Shape matrix S with r(ξ, y, z) = S q_e: (n_el, dim, ndof) for scalar ξ,
        (n_el, n_x, dim, ndof) for an array of n_x values."""
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
        """w_m L |r⁰_x| at the mass points (n_el, n_m) and the nodal scaling L^o (n_el, n_nodal)."""
        return self.w_mass[None, :] * self.jac_mass * self.length[:, None], self.quad.dof_scale[:, ::self.dim]

    def mass(self):
        """Constant mass matrix ∫ρ SᵀS dV = Z ⊗ 1 (n_el, ndof, ndof) [kg]."""
        wt, scale = self._mass_weights()
        Z = sum(np.einsum('em,ma,mb->eab', wt * rho_line[:, None], N, N) for rho_line, N in self._mass_terms())
        Z = Z * scale[:, :, None] * scale[:, None, :]
        return np.einsum('eab,ij->eaibj', Z, np.eye(self.dim)).reshape(self.n_el, self.ndof, self.ndof)

    def gravity(self, g):
        """Generalized gravity force ∫ρ Sᵀ g dV (n_el, ndof) [N]; g (dim,) in m/s²."""
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
        """Elastic strain energy per element (n_el,) [J]."""
        qe = self._coordinates(qe)
        total = np.zeros(self.n_el)
        for quad, jac, density, _, dofs in self._energy_terms():
            q = qe if dofs is None else qe.reshape(self.n_el, 2, -1)[:, :, dofs].reshape(self.n_el, -1)
            z, I = quad.kinematics(q)
            total += quad.energy(density(I, z, 0)[0], jac)
        return total

    def _assemble(self, qe, order, damped):
        F = K = D = None
        for quad, jac, density, damping, dofs in self._energy_terms():
            q = qe if dofs is None else qe.reshape(self.n_el, 2, -1)[:, :, dofs].reshape(self.n_el, -1)
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
        n_el, nn = total.shape[0], total.shape[1] // 2            # two nodes per element
        k = dofs.stop - dofs.start
        if part.ndim == 2:
            total.reshape(n_el, 2, nn)[:, :, dofs] += part.reshape(n_el, 2, k)
        else:
            total.reshape(n_el, 2, nn, 2, nn)[:, :, dofs, :, dofs] += part.reshape(n_el, 2, k, 2, k)
        return total

    def _damped(self, ve):
        return ve is not None and np.any(self.damping > 0)

    def internal_force(self, qe, ve=None):
        """∂U/∂q (n_el, ndof) [N], plus the damping force D(q) v when ``ve`` is given."""
        damped = self._damped(ve)
        F, _, D = self._assemble(self._coordinates(qe), 1, damped)
        if damped:
            F = F + np.einsum('eab,eb->ea', D, np.asarray(ve, float))
        return F

    def stiffness(self, qe, ve=None):
        """(K, D): tangent stiffness ∂F/∂q (n_el, ndof, ndof) [N/m] and damping matrix
        ∂F/∂v (or None without ``ve`` or damping). K omits the q-derivative of the damping force."""
        damped = self._damped(ve)
        _, K, D = self._assemble(self._coordinates(qe), 2, damped)
        return K, (D if damped else None)


class ANCFCable(ANCFElement):
    """Shared physics of the 2-D and 3-D cable (see module docstring); the density is
    evaluated by :func:`femdyn.elements.compiled.cable_density`, with the signed planar
    curvature where ``planar`` and κ² = |r_x × r_xx|²/|r_x|⁶ otherwise."""

    nodal_order = (0, 1, 0, 1)
    vector_order = (1, 2)                      # r_x, r_xx

    def __init__(self, q_ref, E, rho, section, damping=0.0, length=None, n_gauss=3):
        self._setup(q_ref, E, rho, section, damping, length, n_gauss)
        self.EA = self.E * self.A
        kappa = self._curvature_value(self.z_ref)                   # (n_el, n_g)
        # round-off of straight elements (|κ₀| L < STRAIGHT_TOLERANCE) becomes exactly 0
        self.kappa_ref = np.where(np.abs(kappa) * self.length[:, None] < STRAIGHT_TOLERANCE, 0.0, kappa)

    @staticmethod
    def _coefficients(xi):
        _, dN, ddN = hermite(xi)
        return np.stack([dN, ddN], axis=1)                          # (n_x, 2, 4)

    def _density(self, I, z, order):
        """½ EA ε² + ½ EI (κ − κ₀)² and its invariant derivatives (compiled, per Gauss point)."""
        W, W_I, W_II = compiled.cable_density(I, self.jac, self.EA, self.EI, self.kappa_ref, self.planar, order)
        return W, (W_I if order >= 1 else None), (W_II if order >= 2 else None)

    def _damping(self, I, z):
        """c EA ε_I ε_Iᵀ + c EI (κ-rate Gram matrix) in invariant or gradient-vector space."""
        c = self.damping[:, None]
        e_a = 0.5 / (self.jac * np.sqrt(I[..., 0]))                   # ∂ε/∂α, ε = √α/ℓ₀ − 1
        H = np.zeros(I.shape + (I.shape[-1],))
        H[..., 0, 0] = c * self.EA[:, None] * e_a * e_a
        H += (c * self.EI[:, None])[..., None, None] * self._bending_rate_gram(I, z)
        H_z = self._bending_rate_gram_vectors(z)
        return H, (None if H_z is None else (c * self.EI[:, None])[..., None, None] * H_z)

    def axial_strain(self, qe, xi, y=0.0, z=0.0):
        """Axial strain (n_el,) of the fibre at section point (y, z) [m] at ξ:
        ε − y (κ_z − κ⁰_z) + z (κ_y − κ⁰_y) (Euler–Bernoulli; positive = tension)."""
        eps, bend = self._axial_and_bending(qe, xi, y, z)
        return eps + bend

    def _axis_strain(self, a, a0):
        return np.linalg.norm(a, axis=-1) / np.linalg.norm(a0, axis=-1) - 1


class ANCFCable2D(ANCFCable):
    """Planar ANCF cable, 8 dof [r₁, r₁,ₓ, r₂, r₂,ₓ] (each 2 components), signed curvature."""

    ndof, dim, kind, planar = 8, 2, "ANCFCable2D", True
    # recorded quantities: kernel method (qe, ξ[, y, z]) → (n_el, …) and the names of its values
    sensor_quantities = {"strain": ("axial_strain", ("strain",)), "curvature": ("curvature", ("kappa_z",))}
    invariant_pairs = ((0, 0, np.eye(2)), (0, 1, np.array([[0.0, 1.0], [-1.0, 0.0]])))   # α = a·a, δ = a × b

    def __init__(self, q_ref, E, rho, section, damping=0.0, length=None, n_gauss=3):
        super().__init__(q_ref, E, rho, section, damping, length, n_gauss)
        self.EI = self.E * self.Iz

    @staticmethod
    def _curvature_value(z):
        a, b = z[..., 0, :], z[..., 1, :]
        return (a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]) / np.sum(a * a, -1) ** 1.5

    def _bending_rate_gram(self, I, z):
        _, k_I, _ = compiled.planar_curvature(I)          # signed κ(α, δ) = δ α^(−3/2)
        return k_I[..., :, None] * k_I[..., None, :]

    @staticmethod
    def _bending_rate_gram_vectors(z):
        return None

    def curvature(self, qe, xi):
        """Signed curvature κ = (r_x × r_xx)/|r_x|³ (n_el,) [1/m]; positive counter-clockwise."""
        return self._curvature_value(self.vectors_at(qe, xi))

    def _axial_and_bending(self, qe, xi, y, z):
        zc, z0 = self.vectors_at(qe, xi), self.vectors_at(self.q_ref, xi)
        eps = self._axis_strain(zc[:, 0], z0[:, 0])
        # fibre at distance y along n = e_z × t: ε_f = ε − y (κ − κ₀)
        return eps, -np.asarray(y, float) * (self._curvature_value(zc) - self._curvature_value(z0))


class ANCFCable3D(ANCFCable):
    """Spatial ANCF cable, 12 dof [r₁, r₁,ₓ, r₂, r₂,ₓ], isotropic bending, no torsion; a
    straight-reference element (curved references are refused, see the module docstring).

    ``y_axis`` (3,) or (n_el, 3): direction of the section's y axis in the reference
    configuration, used only for strain recovery (default: the global Y axis projected
    normal to the axis, or the global Z axis when the element is along Y).
    """

    ndof, dim, kind, planar = 12, 3, "ANCFCable3D", False
    sensor_quantities = {"strain": ("axial_strain", ("strain",)), "curvature": ("curvature", ("kappa_y", "kappa_z"))}
    invariant_pairs = ((0, 0, np.eye(3)), (0, 1, np.eye(3)), (1, 1, np.eye(3)))   # α, β, γ

    def __init__(self, q_ref, E, rho, section, damping=0.0, length=None, n_gauss=3, y_axis=None):
        _check_section(section, self.kind)
        Iy, Iz = np.broadcast_arrays(np.asarray(section.Iy, float), np.asarray(section.Iz, float))
        if not np.allclose(Iy, Iz, rtol=1e-12, atol=0.0):
            raise ModelError("ANCFCable3D: its bending stiffness is isotropic, but the section has I_y ≠ I_z; "
                             "use a section with equal moments (e.g. sections.circular) or ANCFBeam3D")
        super().__init__(q_ref, E, rho, section, damping, length, n_gauss)
        self._require_straight()
        self.EI = self.E * self.Iy
        self.y_axis = None if y_axis is None else np.broadcast_to(np.asarray(y_axis, float), (self.n_el, 3))

    def _require_straight(self):
        """Refuse curved references. r_x × r_xx of a cubic is a quadratic polynomial in ξ, so
        it vanishes on the whole element if it does at ξ = 0, ½, 1."""
        kappa = self._curvature_value(self.fields(self.q_ref, np.array([0.0, 0.5, 1.0])))
        turn = kappa.max(axis=1) * self.length
        _check(turn < STRAIGHT_TOLERANCE, turn, self.kind,
               "the reference axis is curved (κ₀ L shown), but the 3-D cable is a straight-reference element "
               "(its energy depends on |κ| only: no out-of-plane or torsional stiffness about a curved "
               "reference). Use element 'cable2d' (ANCFCable2D) for curves in a plane z = const or 'beam' "
               "(ANCFBeam3D) for spatial curves; for a straight cable give nodal tangents along the axis")

    @staticmethod
    def _curvature_value(z):
        a, b = z[..., 0, :], z[..., 1, :]
        return np.linalg.norm(np.cross(a, b), axis=-1) / np.sum(a * a, -1) ** 1.5

    @staticmethod
    def _bending_rate_gram(I, z):
        return 0.0

    @staticmethod
    def _bending_rate_gram_vectors(z):
        """J_kᵀ J_k (n_el, n_g, 6, 6) for the curvature vector k = a × b / |a|³ (compiled)."""
        return compiled.curvature_rate_gram(z)

    def curvature_vector(self, qe, xi):
        """Curvature vector k = r_x × r_xx / |r_x|³ (n_el, 3) [1/m], global axes."""
        z = self.vectors_at(qe, xi)
        return np.cross(z[:, 0], z[:, 1]) / np.sum(z[:, 0] ** 2, -1)[:, None] ** 1.5

    def section_axes(self, qe, xi):
        """Section axes (e_y, e_z) (each (n_el, 3)) at ξ: the reference axes carried to the
        current tangent by the smallest rotation t₀ → t (the cable has no torsion)."""
        t0 = self._unit(self.vectors_at(self.q_ref, xi)[:, 0])
        t = self._unit(self.vectors_at(qe, xi)[:, 0])
        if self.y_axis is None:
            Y = np.broadcast_to([0.0, 1.0, 0.0], t0.shape)
            Z = np.broadcast_to([0.0, 0.0, 1.0], t0.shape)
            guess = np.where((np.abs(t0[:, 1]) > 0.9)[:, None], Z, Y)
        else:
            guess = self.y_axis
        ey0 = self._unit(guess - np.sum(guess * t0, -1)[:, None] * t0)
        ez0 = np.cross(t0, ey0)
        v, c = np.cross(t0, t), np.sum(t0 * t, -1)
        V = skew(v)
        R = np.eye(3) + V + (V @ V) / (1 + c)[:, None, None]                 # Rodrigues, t = R t₀
        return (R @ ey0[..., None])[..., 0], (R @ ez0[..., None])[..., 0], ey0, ez0

    @staticmethod
    def _unit(v):
        return v / np.linalg.norm(v, axis=-1, keepdims=True)

    def curvature(self, qe, xi):
        """Bending curvatures (κ_y, κ_z) (n_el, 2) [1/m] in the section frame
        (:meth:`section_axes`): κ_z > 0 bends the axis towards +y, κ_y > 0 towards −z."""
        ey, ez, _, _ = self.section_axes(qe, xi)
        k = self.curvature_vector(qe, xi)
        return np.stack([np.sum(k * ey, -1), np.sum(k * ez, -1)], -1)

    def _axial_and_bending(self, qe, xi, y, z):
        zc, z0 = self.vectors_at(qe, xi), self.vectors_at(self.q_ref, xi)
        eps = self._axis_strain(zc[:, 0], z0[:, 0])
        ey, ez, ey0, ez0 = self.section_axes(qe, xi)
        k, k0 = self.curvature_vector(qe, xi), self.curvature_vector(self.q_ref, xi)
        dky = np.sum(k * ey, -1) - np.sum(k0 * ey0, -1)
        dkz = np.sum(k * ez, -1) - np.sum(k0 * ez0, -1)
        return eps, -np.asarray(y, float) * dkz + np.asarray(z, float) * dky
