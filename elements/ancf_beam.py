"""Fully parameterized 3-D ANCF beam (24 dof), shear deformable, free of Poisson and
shear locking.

Kinematics (Shabana & Yakoub 2001, "Three dimensional absolute nodal coordinate
formulation for beam elements: theory", J. Mech. Des. 123:606–613, shape function matrix): nodal
coordinates [r, r_x, r_y, r_z] at both nodes (node 1 then node 2), and with ξ = x/L,

    r(ξ, y, z) = N₁ r₁ + N₂ L r₁,ₓ + N₃ r₂ + N₄ L r₂,ₓ + y[(1−ξ) r₁,ᵧ + ξ r₂,ᵧ] + z[(1−ξ) r₁,𝓏 + ξ r₂,𝓏]

(N_i the cubic Hermite functions of the cable): a cubic axis and linearly interpolated
cross-section directors r_y, r_z.

Locking remedy: structural-mechanics strain measures (Nachbagauer, Gruber & Gerstmayr
2013, "Structural and continuum mechanics approaches for a 3D shear deformable ANCF beam
finite element: application to static and linearized dynamic examples", J. Comput.
Nonlinear Dynam. 8:021004, structural mechanics approach). On the axis, with a = r_x, b = r_y, c = r_z and primes
for ∂/∂x, every strain is a function of dot products, hence objective, and the
reference value is subtracted. With j = ‖a⁰‖ = ds/dx the reference slope length, each
strain is divided by the power of j that makes it physical (γ a dimensionless angle, κ
a rate per unit reference arc length s, κ = dθ/ds), so that a given reference curve has
the same stiffness whatever its parameterization x (e.g. nodal slopes of length ≠ 1,
or L differing from the arc length)::

    axial          ε   = ‖a‖/j − 1                      → ½ EA ε²
    shear          γ_y = a·b/j,  γ_z = a·c/j              → ½ k_y GA γ_y² + ½ k_z GA γ_z²
    torsion        κ_x = ½(c·b' − b·c')/j                 → ½ GJ κ_x²
    bending        κ_y = (a·c')/(‖a‖‖c‖ j),  κ_z = −(a·b')/(‖a‖‖b‖ j)
                                                          → ½ EI_y κ_y² + ½ EI_z κ_z²
    (bending is the rotation rate of the unit directors per unit reference length,
    the bending strain of the geometrically exact rod (Reissner 1972, ZAMP 23:795–804;
    Simo 1985): written as a·c'/j² it would carry the stretch ‖a‖/j and the director
    length as factors of the moment; tests/test_validation_cable.py)
    cross-section  e_yy = ½(b·b − 1), e_zz = ½(c·c − 1), γ_yz = b·c
                   → ½ A [E/(1−ν²)(e_yy² + e_zz² + 2ν e_yy e_zz) + G γ_yz²],
                   sampled at the two nodes (trapezoidal rule): between the nodes the
                   linearly interpolated directors of a rotating section are shorter
                   than unity by ~Δφ²/8 (Δφ the rotation across the element), which a
                   Gauss-point evaluation would penalize with the membrane stiffness
                   EA ≫ EI/L² and so lock large rotations.

Poisson locking: the axial and bending terms use E alone (uniaxial stress); ν acts only
on the in-plane strains of the cross section, which therefore can contract freely.
A continuum (St Venant–Kirchhoff) element couples ε_xx to the cross-section strains
through λ, but the linear director field cannot represent the linear-in-y lateral
contraction of a bent section, so its bending stiffness is too large by
(1−ν)/((1+ν)(1−2ν)) = 1.346 for ν = 0.3 (Sopanen & Mikkola 2003, "Description of
elastic forces in absolute nodal coordinate formulation", Nonlinear Dyn. 34:53–74;
Nachbagauer et al. 2013).

Shear locking: bending is measured by the rotation rate of the cross-section directors
(κ_y = a·c' is θ' for a section rotated by θ), not by the axis curvature. The shear
constraint a·c = 0 then ties the quadratic slope of the axis to the linear director
field; the slender limit keeps every piecewise-constant curvature, so nothing locks:
for a tip-loaded cantilever the deflection is δ_EB (1 − 1/(4n²)) + PL/(kGA) for n
elements whatever the slenderness (checked in the tests at L/h = 100 and 10⁴). Had the
bending been taken from the axis curvature, the shear constraint would have to be
relaxed by reduced integration, which here either re-imposes the same constraint
(continuous linear directors) or leaves a zero-energy slope mode. The price is
second-order convergence in bending where the cable converges with h⁴: tip deflection
0.4 % at 8 elements, 0.1 % at 16; bending frequencies converge at second order too, the
third clamped-free and free-free ones being 1.3 % and 1.6 % high at 16 elements and
0.30 % and 0.39 % at 32 (tests/test_ancf_beam.py).

Large rotations: the linear interpolation of rotating directors shortens them between
the nodes (by ~Δφ²/8 for a rotation Δφ across the element). The cross-section strains
are therefore sampled at the nodes only (trapezoidal rule), where the directors are
nodal values. A residual coupling of the axis length and the interpolated director
directions remains for very slender beams: at PL²/EI = 10 with L/h = 1000 the tip
errors are 0.25, 0.050, 2.6e-3, 2.0e-4 L at 4, 8, 16, 32 elements (L/h = 100: ≤ 1e-2 L
at 4 and 8). The three-node element (:mod:`femdyn.elements.ancf_beam_quadratic`) has
1.2e-3, 9e-5, 6e-6 L there.

Integration along the axis: ``n_gauss`` = 3 Gauss points by default, exact for the
linear-regime energy (degree ≤ 4 in ξ); mass and gravity use a 5-point rule.

Sign conventions (as the cable): κ_z > 0 bends the axis towards +y, κ_y > 0 towards −z,
κ_x > 0 right-handed twist about x; fibre strain ε(y, z) ≈ ε − y κ_z + z κ_y.

Strain recovery: the curvature is (nearly) constant per element, hence first-order
accurate at a point; the strain and curvature sensors use :meth:`ANCFBeam3D.recovered_curvature`
(superconvergent patch recovery from the element midpoints, second order).

Curved references: a quarter-circle cantilever converges at second order to the
thin-ring (Castigliano) deflections in and out of plane (tests/test_ancf_beam.py). Very
slender curved elements lock on coarse meshes (membrane locking of the quadratic axis
against the linear directors): at R/h = 1000, in-plane tip-load errors of −90 %, −25 %,
−0.67 % at 4, 8, 16 elements per quarter circle (R/h = 100: −15 %, −0.67 %, −0.087 %);
the three-node element is free of it (−0.057 %, −0.0036 % at 4, 8 for both ratios).

Kelvin–Voigt damping (coefficient ``damping`` = c [s]): dissipation ½ c Σ C_k ṡ_k²
over the strains above (σ_d = c E ε̇ and c G γ̇), F_d = D(q) v with D exact; the
q-derivative of F_d is left out of K. Units: SI.
"""
import numpy as np

from numba import njit

from femdyn.elements.ancf_element import ANCFElement, check, hermite, per_element
from femdyn.elements.compiled import axial_strain, density_outputs
from femdyn.elements.quadrature import InvariantQuadrature

# vectors: 0 a = r_x, 1 b = r_y, 2 c = r_z, 3 b' = r_yx, 4 c' = r_zx
_I3 = np.eye(3)
_AXIS_INVARIANTS = ((0, 0, _I3), (0, 1, _I3), (0, 2, _I3), (2, 3, _I3), (1, 4, _I3), (0, 4, _I3), (0, 3, _I3),
                    (1, 1, _I3), (2, 2, _I3))
_SECTION_INVARIANTS_BC = ((0, 0, _I3), (1, 1, _I3), (0, 1, _I3))      # b·b, c·c, b·c on the vectors (b, c)


def _axis_strain_map():
    """Constant rows ∂s/∂I of the axis strains s₁…s₅ (row 0, the axial strain, is nonlinear).
    Invariants: α = a·a, a·b, a·c, c·b', b·c', a·c', a·b', b·b, c·c."""
    P = np.zeros((6, 9))
    P[1, 1] = P[2, 2] = 1.0                     # γ_y = a·b, γ_z = a·c
    P[3, 3], P[3, 4] = 0.5, -0.5                # κ_x = ½(c·b' − b·c')
    P[4, 5] = 1.0                               # κ_y = a·c'
    P[5, 6] = -1.0                              # κ_z = −a·b'
    return P


# power p of |a⁰| = ds/dx dividing each strain of _axis_strain_map to make it physical:
# ε (already |a|/|a⁰| − 1), γ_y, γ_z (a/|a⁰| is the unit tangent), κ_x (one x-derivative),
# κ_y, κ_z (one x-derivative; tangent and director made unit vectors, _UNIT_VECTORS)
_ARC_POWER = np.array([0, 1, 1, 1, 1, 1])
# the bending strains are written with unit vectors, κ_y = (a/|a|)·(c'/|c|), κ_z = −(a/|a|)·(b'/|b|)
# (per unit x; divided by j below): each row is divided by the square roots of the listed
# invariants (−1: none), so that it is the section's rotation rate with no factor of the
# stretch |a|/j or of the director lengths (Reissner 1972; see the module docstring)
_UNIT_VECTORS = np.array([[-1, -1], [-1, -1], [-1, -1], [-1, -1], [0, 8], [0, 7]])
_UNIT_TANGENT = _UNIT_VECTORS[:, 0] >= 0

# cross-section strains e_yy = ½(b·b − 1), e_zz = ½(c·c − 1), γ_yz = b·c
_SECTION_STRAIN_MAP = np.diag([0.5, 0.5, 1.0])


class ANCFBeam3D(ANCFElement):
    """Batch of fully parameterized 3-D ANCF beams, 24 dof each (see the module docstring).

    Parameters
    ----------
    q_ref : (n_el, 24) array_like
        Reference coordinates [r₁, r₁,ₓ, r₁,ᵧ, r₁,𝓏, r₂, r₂,ₓ, r₂,ᵧ, r₂,𝓏] (positions in m,
        gradients dimensionless), global frame; the reference directors r_y, r_z should be
        the unit principal axes of the section (y, z of ``section``), right-handed with r_x.
    E : float or (n_el,) array_like
        Young's modulus [Pa].
    rho : float or (n_el,) array_like
        Density [kg/m³].
    section : sections.CrossSection
        Cross section (area, I_y, I_z, J, shear factors).
    nu : float or (n_el,) array_like, optional
        Poisson ratio (shear modulus G = E/(2(1 + ν)) and cross-section strains).
    damping : float or (n_el,) array_like, optional
        Kelvin–Voigt coefficient [s].
    length : float or (n_el,) array_like, optional
        Parameter length L [m] (default: the arc length of the reference axis, see
        :func:`~femdyn.elements.ancf_element.reference_arc_length`).
    n_gauss : int, optional
        Gauss points along the axis.

    Raises
    ------
    ModelError
        For bad material data, coinciding nodes, slopes against the chord or left-handed or
        degenerate nodal director frames.

    Examples
    --------
    >>> from femdyn.elements import sections
    >>> node = lambda x: [x, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]
    >>> beam = ANCFBeam3D([node(0) + node(1)], 2.1e11, 7850, sections.rectangular(0.02, 0.01))
    >>> beam.mass().shape, float(beam.strain_energy(beam.q_ref)[0])
    ((1, 24, 24), 0.0)
    """

    ndof, dim, kind = 24, 3, "ANCFBeam3D"
    # recorded quantities: kernel method (qe, ξ[, y, z]) → (n_el, …) and the names of its values;
    # bending is recovered from the element midpoints (see recovered_curvature)
    sensor_quantities = {"strain": ("recovered_axial_strain", ("strain",)),
                         "curvature": ("recovered_curvature", ("kappa_y", "kappa_z")),
                         "twist": ("twist", ("twist",)), "shear": ("shear_angles", ("gamma_y", "gamma_z"))}
    nodal_order = (0, 1, 0, 0, 0, 1, 0, 0)
    vector_order = (1, 0, 0, 1, 1)
    invariant_pairs = _AXIS_INVARIANTS

    def __init__(self, q_ref, E, rho, section, nu=0.3, damping=0.0, length=None, n_gauss=3):
        self._setup(q_ref, E, rho, section, damping, length, n_gauss, nu=nu)
        self._check_handedness(self.q_ref.reshape(self.n_el, 2, 4, 3)[:, :, 1:])     # (r_x, r_y, r_z) per node
        self._constitutive(section)
        self.axis_terms = [AxisTerm(self, self.quad, self.jac, np.ones(6, bool))]
        # cross-section strains sampled at the nodes (trapezoidal rule) on the director
        # coordinates only: the linear interpolation of rotating directors shortens them
        # between the nodes, which must not count as section deformation (it would lock
        # large rotations)
        self.section_term = SectionTerm(self, np.array([0.0, 1.0]), np.array([0.5, 0.5]), slice(6, 12))
        self._set_neighbours()

    def _check_handedness(self, frames):
        """Refuse left-handed or degenerate nodal frames (n_el, n_nodes, 3, 3)."""
        handed = np.linalg.det(frames).min(axis=1)
        check(handed > 0, handed, self.kind, "the nodal gradients (r_x, r_y, r_z) are left-handed or "
              "degenerate (det shown); give r_z = r_x × r_y")

    def _constitutive(self, section):
        """Diagonal axis stiffnesses C_axis_diag (n_el, 6) for (ε, γ_y, γ_z, κ_x, κ_y, κ_z) =
        (EA, k_y GA, k_z GA, GJ, EI_y, EI_z) and the plane-stress section stiffness
        C_section (n_el, 3, 3) for (e_yy, e_zz, γ_yz), all per unit reference length."""
        G = self.E / (2 * (1 + self.nu))
        ky, kz = (per_element(k, self.n_el, "shear factor", self.kind) for k in section.shear_factor(self.nu))
        self.C_axis_diag = np.ascontiguousarray(np.stack([self.E * self.A, ky * G * self.A, kz * G * self.A,
                                                          G * self.J, self.E * self.Iy, self.E * self.Iz], -1))
        Ep = self.E / (1 - self.nu**2)
        self.C_section = np.zeros((self.n_el, 3, 3))
        self.C_section[:, 0, 0] = self.C_section[:, 1, 1] = Ep * self.A
        self.C_section[:, 0, 1] = self.C_section[:, 1, 0] = self.nu * Ep * self.A
        self.C_section[:, 2, 2] = G * self.A
        self.G = G

    def _set_neighbours(self):
        """Element arc lengths and the previous and next element along the chain (−1:
        none), for strain recovery; a model's element set replaces the neighbours with its
        connectivity (e.g. closed rings)."""
        self.arc_length = self.quad.energy(np.ones_like(self.jac), self.jac)      # ∫ |r⁰_x| dx per element
        index = np.arange(self.n_el)
        self.neighbours = (np.where(index > 0, index - 1, -1), np.where(index < self.n_el - 1, index + 1, -1))

    def _energy_terms(self):
        return [term.entry() for term in self.axis_terms] + [self.section_term.entry()]

    @staticmethod
    def _coefficients(xi):
        _, dN, _ = hermite(xi)
        n = len(xi)
        coef = np.zeros((n, 5, 8))
        coef[:, 0, [0, 1, 4, 5]] = dN
        coef[:, 1, 2], coef[:, 1, 6] = 1 - xi, xi
        coef[:, 2, 3], coef[:, 2, 7] = 1 - xi, xi
        coef[:, 3, 2], coef[:, 3, 6] = -1.0, 1.0
        coef[:, 4, 3], coef[:, 4, 7] = -1.0, 1.0
        return coef

    def _nodal_shape(self, xi, y, z):
        N = hermite(xi)[0]
        out = np.zeros((len(xi), 8))
        out[:, [0, 1, 4, 5]] = N
        out[:, 2], out[:, 6] = y * (1 - xi), y * xi
        out[:, 3], out[:, 7] = z * (1 - xi), z * xi
        return out

    def _mass_terms(self):
        N0 = self._nodal_shape(self.xi_mass, 0.0, 0.0)
        Ny = self._nodal_shape(self.xi_mass, 1.0, 0.0) - N0
        Nz = self._nodal_shape(self.xi_mass, 0.0, 1.0) - N0
        return [(self.rho * self.A, N0), (self.rho * self.Iz, Ny), (self.rho * self.Iy, Nz)]

    # ------------------------------------------------------------------ recovery
    def axial_strain(self, qe, xi, y=0.0, z=0.0):
        """Strain of the material fibre along x at a section point.

        ‖r_x(y, z)‖ / ‖r⁰_x(y, z)‖ − 1 with r_x(y, z) = r_x + y r_y,x + z r_z,x; positive in
        tension. Bending is taken from the element's own (nearly constant) curvature; the
        sensors use :meth:`recovered_axial_strain`.

        Parameters
        ----------
        qe : (n_el, 24) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        y, z : float, optional
            Fibre position [m] along the section directors r_y, r_z.

        Returns
        -------
        (n_el,) ndarray
            Strain, dimensionless.
        """
        def fibre(q):
            v = self.vectors_at(q, xi)
            return np.linalg.norm(v[:, 0] + y * v[:, 3] + z * v[:, 4], axis=-1)
        if np.ndim(y) or np.ndim(z):
            return fibre(qe) / fibre(self.q_ref) - 1
        return fibre(qe) / self.reference_value(("fibre", float(y), float(z)), xi, lambda: fibre(self.q_ref)) - 1

    def curvature(self, qe, xi):
        """Bending strains (κ_y, κ_z) = ((a·c')/‖c‖, −(a·b')/‖b‖)/(‖a‖ ‖a⁰‖) at ξ.

        The section's rotation rate per unit reference arc length (a = r_x, b = r_y, c = r_z,
        primes ∂/∂x; Nachbagauer, Gruber & Gerstmayr 2013, structural mechanics approach);
        total values. κ_z > 0 bends the axis towards +y, κ_y > 0 towards −z.

        Parameters
        ----------
        qe : (n_el, ndof) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].

        Returns
        -------
        (n_el, 2) ndarray
            (κ_y, κ_z) [1/m].
        """
        v = self.vectors_at(qe, xi)
        length = lambda k: np.linalg.norm(v[:, k], axis=-1)
        kappa = np.stack([np.sum(v[:, 0] * v[:, 4], -1) / length(2), -np.sum(v[:, 0] * v[:, 3], -1) / length(1)], -1)
        return kappa / (length(0) * self._slope_length(xi))[:, None]

    def twist(self, qe, xi):
        """Twist rate κ_x = ½(r_z·r_y,x − r_y·r_z,x)/‖r⁰_x‖ at ξ, total value.

        Positive for a right-handed rotation of the section about the axis with increasing x.

        Parameters
        ----------
        qe : (n_el, ndof) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].

        Returns
        -------
        (n_el,) ndarray
            Twist per unit reference arc length [rad/m].
        """
        v = self.vectors_at(qe, xi)
        return 0.5 * (np.sum(v[:, 2] * v[:, 3], -1) - np.sum(v[:, 1] * v[:, 4], -1)) / self._slope_length(xi)

    def recovered_curvature(self, qe, xi):
        """Bending curvatures (κ_y, κ_z) at ξ with second-order accuracy.

        The element's curvature is (nearly) constant, so :meth:`curvature` is first-order
        accurate at a point (at a clamp it reads the element mean: 0.9375 of the exact root
        value at 8 elements under a tip load). At the element midpoints the constant curvature
        is superconvergent (it is the element mean of the exact field, which differs from the
        midpoint value by O(h²)); superconvergent patch recovery (Zienkiewicz & Zhu 1992, "The
        superconvergent patch recovery and a posteriori error estimates. Part 1", Int. J.
        Numer. Meth. Eng. 33:1331–1364) fits the change from the reference, Δκ, through these
        samples: linearly in arc length between the midpoints of an element and of its
        neighbour on the side of ξ (``neighbours``: previous and next element along the chain,
        −1 at an end), extrapolated in the end elements. Total value: κ⁰(ξ) + recovered Δκ.

        Parameters
        ----------
        qe : (n_el, 24) array_like
            Element coordinates of the whole batch (the neighbours are used), global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].

        Returns
        -------
        (n_el, 2) ndarray
            (κ_y, κ_z) [1/m], signs as in :meth:`curvature`.
        """
        return self._reference_curvature(xi) + self._recovered_change(qe, xi)

    def recovered_axial_strain(self, qe, xi, y=0.0, z=0.0):
        """Fibre strain at a section point with the recovered bending part.

        As :meth:`axial_strain`, with the bending part −y Δκ_z + z Δκ_y taken from
        :meth:`recovered_curvature`; this is what a strain gauge sensor on the beam reads.

        Parameters
        ----------
        qe : (n_el, 24) array_like
            Element coordinates of the whole batch, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        y, z : float, optional
            Fibre position [m] along the section directors r_y, r_z.

        Returns
        -------
        (n_el,) ndarray
            Strain, dimensionless, positive in tension.
        """
        here = self.curvature(qe, xi) - self._reference_curvature(xi)
        dk = self._recovered_change(qe, xi) - here
        return self.axial_strain(qe, xi, y, z) - np.asarray(y, float) * dk[:, 1] + np.asarray(z, float) * dk[:, 0]

    def _reference_curvature(self, xi):
        return self.reference_value("curvature", xi, lambda: self.curvature(self.q_ref, xi))

    def _recovered_change(self, qe, xi):
        mid = self.curvature(qe, 0.5) - self._reference_curvature(0.5)
        return patch_recovery(mid, self.arc_length, *self.neighbours, float(xi))

    def shear_angles(self, qe, xi):
        """Shear angles (γ_y, γ_z): change of the angles between the axis tangent and r_y, r_z.

        Each angle is arcsin(r_x·r_k / (‖r_x‖ ‖r_k‖)) minus its reference value (zero for the
        usual orthogonal reference frame).

        Parameters
        ----------
        qe : (n_el, ndof) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].

        Returns
        -------
        (n_el, 2) ndarray
            (γ_y, γ_z) [rad].
        """
        def angles(q):
            v = self.vectors_at(q, xi)
            na = np.linalg.norm(v[:, 0], axis=-1)
            return np.stack([np.arcsin(np.sum(v[:, 0] * v[:, k], -1) / (na * np.linalg.norm(v[:, k], axis=-1)))
                             for k in (1, 2)], -1)
        return angles(qe) - angles(self.q_ref)


class AxisTerm:
    """The axis strains of a fully parameterized beam integrated by one quadrature.

    Energy ½ Σ_k C_k Δs_k² per unit reference length, with the physical strains
    s_k = (P I)_k / j^p_k (j = ‖r⁰_x‖, p_k = _ARC_POWER), the bending ones divided by ‖a‖
    and the director length as well (_UNIT_VECTORS), and the reference values subtracted
    (Nachbagauer, Gruber & Gerstmayr 2013).
    """

    def __init__(self, beam, quad, jac, rows):
        self.beam, self.quad, self.jac = beam, quad, jac
        self.P = _axis_strain_map()
        self.s_ref = self.strains(quad.invariants(quad.vectors(beam.q_ref)))
        C = beam.C_axis_diag * np.asarray(rows, float)
        # the energy ½ C_k Δs_k² is ½ (C_k/j^2p_k) (P ΔI)_k²: per-point stiffnesses on the strains in x-units
        self.C_gauss = np.ascontiguousarray(C[:, None, :] / jac[:, :, None] ** (2 * _ARC_POWER))
        # constant part of the Hessian in invariant space: the strains linear in the
        # invariants (shear, torsion); axial and bending strains are added per point
        linear = ~_UNIT_TANGENT
        linear[0] = False
        P1 = self.P[linear]
        self.W_II = np.ascontiguousarray(np.einsum('sm,egs,sn->egmn', P1, self.C_gauss[:, :, linear], P1))

    def strains(self, I):
        """Axis strains before reference subtraction, in x-units."""
        s = np.einsum('sm,...m->...s', self.P, I)
        for k in np.flatnonzero(_UNIT_TANGENT):
            s[..., k] /= np.sqrt(np.prod(I[..., _UNIT_VECTORS[k]], axis=-1))
        s[..., 0] = np.sqrt(I[..., 0])
        return s

    def density(self, I, z, order):
        """Energy density ½ Σ C_k Δs_k² and its invariant derivatives (compiled, per Gauss point)."""
        W, W_I, W_II = axis_strain_density(I, self.jac, self.P, self.s_ref, self.C_gauss, self.W_II, _UNIT_VECTORS,
                                           order)
        return W, (W_I if order >= 1 else None), (W_II if order >= 2 else None)

    def damping(self, I, z):
        """Kelvin–Voigt damping matrix c Σ_k C_k s_k,I s_k,Iᵀ in invariant space.

        With s_I = ∂s/∂I: constant rows for shear and torsion (W_II), the axial row ∂ε/∂α e₀
        and the bending rows of s = (P_k·I) g, g = (I_p I_q)^(−½): P_k g − ½ (P_k·I) g
        (e_p/I_p + e_q/I_q).
        """
        H = self.W_II.copy()
        e_a = 0.5 / (self.jac * np.sqrt(I[..., 0]))                       # ∂ε/∂α, ε = √α/j − 1
        H[..., 0, 0] += self.C_gauss[..., 0] * e_a * e_a
        for k in np.flatnonzero(_UNIT_TANGENT):
            p, r = _UNIT_VECTORS[k]
            g = 1.0 / np.sqrt(I[..., p] * I[..., r])
            lin = I @ self.P[k]
            s_I = self.P[k] * g[..., None]
            s_I[..., p] -= 0.5 * lin * g / I[..., p]
            s_I[..., r] -= 0.5 * lin * g / I[..., r]
            H += self.C_gauss[..., k, None, None] * s_I[..., :, None] * s_I[..., None, :]
        return H * self.beam.damping[:, None, None, None], None

    def entry(self):
        """The term as an entry of ``ANCFElement._energy_terms``."""
        return self.quad, self.jac, self.density, self.damping, None


class SectionTerm:
    """Cross-section strains of a beam's nodal directors, sampled at the nodes.

    e_yy = ½(b·b − 1), e_zz = ½(c·c − 1), γ_yz = b·c with b = r_y, c = r_z; energy
    ½ Δeᵀ C_section Δe per unit reference length (Δe linear in the invariants),
    integrated with a Newton–Cotes rule on the nodes (see the module docstring of
    :mod:`femdyn.elements.ancf_beam` for why not at Gauss points).
    """

    def __init__(self, beam, node_xi, weights, dofs):
        n_nodes = len(node_xi)
        coef = np.zeros((n_nodes, 2, 2 * n_nodes))             # at node k: b = r_y of node k, c = r_z of node k
        for k in range(n_nodes):
            coef[k, 0, 2 * k] = coef[k, 1, 2 * k + 1] = 1.0
        self.beam, self.dofs = beam, dofs
        self.quad = InvariantQuadrature(coef, (0, 0), (0,) * (2 * n_nodes), _SECTION_INVARIANTS_BC, weights,
                                        beam.length, 3)
        self.jac = np.linalg.norm(beam.fields(beam.q_ref, node_xi)[:, :, 0], axis=-1)
        directors = beam.q_ref.reshape(beam.n_el, n_nodes, -1)[:, :, dofs].reshape(beam.n_el, -1)
        self.I_ref = self.quad.invariants(self.quad.vectors(directors))
        self.W_II = np.ascontiguousarray(np.einsum('sm,est,tn->emn', _SECTION_STRAIN_MAP, beam.C_section,
                                                   _SECTION_STRAIN_MAP))

    def density(self, I, z, order):
        """Energy density ½ Δeᵀ C Δe and its invariant derivatives."""
        W, W_I, W_II = quadratic_density(I, self.I_ref, self.W_II, order)
        return W, (W_I if order >= 1 else None), (W_II if order >= 2 else None)

    def damping(self, I, z):
        """Kelvin–Voigt damping matrix of the section strains in invariant space."""
        return np.repeat((self.W_II * self.beam.damping[:, None, None])[:, None], I.shape[1], axis=1), None

    def entry(self):
        """The term as an entry of ``ANCFElement._energy_terms``."""
        return self.quad, self.jac, self.density, self.damping, self.dofs


def patch_recovery(mid, arc, previous, following, xi):
    """Superconvergent patch recovery of a field from element midpoint samples.

    Each element's value at ξ lies on the straight line in arc length through its midpoint
    sample and the one of its neighbour on the side of ξ (``following`` for ξ ≥ ½,
    ``previous`` otherwise; the other one at a chain end: extrapolation; the constant
    without neighbours). Zienkiewicz & Zhu 1992.

    Examples
    --------
    >>> import numpy as np
    >>> mid = np.array([[1.0], [2.0]])                   # a field linear in arc length
    >>> patch_recovery(mid, np.ones(2), np.array([-1, 0]), np.array([1, -1]), 1.0)
    array([[1.5],
           [2.5]])
    """
    index = np.arange(len(mid))
    ahead = xi >= 0.5
    other = np.where(ahead, following, previous)
    other = np.where(other >= 0, other, np.where(ahead, previous, following))
    other = np.where(other >= 0, other, index)
    sign = np.where(other == following, 1.0, -1.0)
    distance = sign * 0.5 * (arc + arc[other])                 # midpoint to midpoint, signed
    return mid + (mid[other] - mid) * ((xi - 0.5) * arc / distance)[:, None]


@njit(cache=True)
def _unit_scaled(lin, I, p, r, P_s, s_I, s_II, order):
    """s = lin g with g = (I_p I_r)^(−½) (a strain written with unit vectors, lin = P_s·I),
    filling ∂s/∂I (s_I) and ∂²s/∂I² (s_II)."""
    g = 1.0 / np.sqrt(I[p] * I[r])
    n_inv = len(P_s)
    if order >= 1:
        for m in range(n_inv):
            s_I[m] = P_s[m] * g
        s_I[p] -= 0.5 * lin * g / I[p]
        s_I[r] -= 0.5 * lin * g / I[r]
    if order >= 2:
        s_II[:, :] = 0.0
        for q in (p, r):
            dg = -0.5 * g / I[q]
            for m in range(n_inv):
                s_II[m, q] += dg * P_s[m]
                s_II[q, m] += dg * P_s[m]
        s_II[p, p] += lin * 0.75 * g / (I[p] * I[p])
        s_II[r, r] += lin * 0.75 * g / (I[r] * I[r])
        s_II[p, r] += lin * 0.25 * g / (I[p] * I[r])
        s_II[r, p] += lin * 0.25 * g / (I[p] * I[r])
    return lin * g


@njit(cache=True)
def axis_strain_density(I, jac, P, s_ref, C, W_II_const, unit, order):
    """½ Σ_s C_s Δs_s² for strains s_s = Σ_m P_sm I_m − s⁰_s (s ≥ 1; divided by
    √(I_p I_r) where ``unit[s]`` = (p, r) ≥ 0: the bending strains written with unit
    vectors) and the axial strain s₀ = ε = √α/ℓ₀ − 1; C (n_el, n_g, n_s) the diagonal
    stiffnesses at each point, W_II_const (n_el, n_g, n_inv, n_inv) = Σ_s C_s P_sᵀ P_s over
    the rows linear in the invariants (s ≥ 1, unit[s, 0] < 0)."""
    n_el, n_g, n_inv = I.shape
    n_s = P.shape[0]
    W, W_I, W_II = density_outputs(n_el, n_g, n_inv, order)
    s_I = np.zeros(n_inv)
    s_II = np.zeros((n_inv, n_inv))
    for e in range(n_el):
        for g in range(n_g):
            eps, e_a, e_aa = axial_strain(I[e, g, 0], jac[e, g])
            sigma0 = C[e, g, 0] * eps
            w = 0.5 * eps * sigma0
            if order >= 2:
                W_II[e, g] = W_II_const[e, g]
                W_II[e, g, 0, 0] += C[e, g, 0] * (e_a * e_a + eps * e_aa)
            for s in range(1, n_s):
                lin = 0.0
                for m in range(n_inv):
                    lin += P[s, m] * I[e, g, m]
                scaled = unit[s, 0] >= 0
                if scaled:
                    value = _unit_scaled(lin, I[e, g], unit[s, 0], unit[s, 1], P[s], s_I, s_II, order)
                else:
                    value = lin
                    for m in range(n_inv):
                        s_I[m] = P[s, m]
                ds = value - s_ref[e, g, s]
                sigma = C[e, g, s] * ds
                w += 0.5 * ds * sigma
                if order >= 1:
                    for m in range(n_inv):
                        W_I[e, g, m] += sigma * s_I[m]
                if order >= 2 and scaled:
                    for m in range(n_inv):
                        for n in range(n_inv):
                            W_II[e, g, m, n] += C[e, g, s] * s_I[m] * s_I[n] + sigma * s_II[m, n]
            W[e, g] = w
            if order >= 1:
                W_I[e, g, 0] += sigma0 * e_a
    return W, W_I, W_II


@njit(cache=True)
def quadratic_density(I, I_ref, Q, order):
    """½ ΔIᵀ Q ΔI with ΔI = I − I_ref and a constant (per element) Q (n_el, n_inv, n_inv):
    strains linear in the invariants (beam cross-section term)."""
    n_el, n_g, n_inv = I.shape
    W, W_I, W_II = density_outputs(n_el, n_g, n_inv, order)
    dI = np.empty(n_inv)
    for e in range(n_el):
        for g in range(n_g):
            for m in range(n_inv):
                dI[m] = I[e, g, m] - I_ref[e, g, m]
            w = 0.0
            for m in range(n_inv):
                s = 0.0
                for n in range(n_inv):
                    s += Q[e, m, n] * dI[n]
                w += 0.5 * dI[m] * s
                if order >= 1:
                    W_I[e, g, m] = s
            W[e, g] = w
            if order >= 2:
                W_II[e, g] = Q[e]
    return W, W_I, W_II
