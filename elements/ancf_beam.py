"""Fully parameterized 3-D ANCF beam (24 dof), shear deformable, free of Poisson and
shear locking.

Kinematics: Shabana & Yakoub 2001 (J. Mech. Des. 123:606–613), nodal coordinates
[r, r_x, r_y, r_z] per node, a cubic Hermite axis and linear section directors. Strains:
the structural-mechanics approach of Nachbagauer, Gruber & Gerstmayr 2013 (J. Comput.
Nonlinear Dynam. 8:021004), with a = r_x, b = r_y, c = r_z, j = ‖a⁰‖:
ε = ‖a‖/j − 1, γ_y = a·b/j, γ_z = a·c/j, κ_x = ½(c·b' − b·c')/j,
κ_y = (a·c')/(‖a‖‖c‖ j), κ_z = −(a·b')/(‖a‖‖b‖ j) (Reissner 1972; Simo 1985), and the
cross-section strains sampled at the nodes. Gauss rule of ``n_gauss`` = 3 points, mass
and gravity 5; Kelvin–Voigt damping c [s]; sensors use superconvergent patch recovery
(Zienkiewicz & Zhu 1992). Derivation, locking, convergence figures and sign conventions:
docs/elements.md.
"""
import numpy as np

from numba import njit

from femdyn.elements.ancf_element import ANCFElement, check, hermite, per_element
from femdyn.elements.compiled import axial_strain, density_outputs, term_kinematics, term_result, zero
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
    """Batch of fully parameterized 3-D ANCF beams, 24 dof each (method and sources: docs/elements.md).

    Parameters
    ----------
    q_ref : (n_el, 24) array_like
        Reference [r₁, r₁,ₓ, r₁,ᵧ, r₁,𝓏, r₂, …] (m, 1); r_y, r_z the unit principal section axes.
    E : float or (n_el,) array_like
        Young's modulus, Pa.
    rho : float or (n_el,) array_like
        Density, kg/m³.
    section : sections.CrossSection
    nu : float or (n_el,) array_like, optional
        Poisson ratio (G = E/(2(1 + ν)) and the cross-section strains).
    damping : float or (n_el,) array_like, optional
        Kelvin–Voigt coefficient, s.
    length : float or (n_el,) array_like, optional
        Parameter length L, m (default: the reference arc length).
    n_gauss : int, optional
        Gauss points along the axis.

    Raises
    ------
    ModelError
        Bad material data, coinciding nodes, slopes against the chord, left-handed director frames.
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

    def _set_entry(self, dofs):
        axis = tuple((*self._term_arguments(t.quad, t.jac, dofs, None), t.jac, t.P, t.s_ref, t.C_gauss, t.W_II,
                      _UNIT_VECTORS) for t in self.axis_terms)
        st = self.section_term
        return beam_set, (axis, (*self._term_arguments(st.quad, st.jac, dofs, st.dofs), st.I_ref,
                                 st.W_II))

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
        """Fibre strain ‖r_x(y, z)‖ / ‖r⁰_x(y, z)‖ − 1 at a section point, with the element's own curvature.

        Parameters
        ----------
        qe : (n_el, ndof) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        y, z : float, optional
            Fibre position along the section directors r_y, r_z, m.
        """
        def fibre(q):
            v = self.vectors_at(q, xi)
            return np.linalg.norm(v[:, 0] + y * v[:, 3] + z * v[:, 4], axis=-1)
        if np.ndim(y) or np.ndim(z):
            return fibre(qe) / fibre(self.q_ref) - 1
        return fibre(qe) / self.reference_value(("fibre", float(y), float(z)), xi, lambda: fibre(self.q_ref)) - 1

    def curvature(self, qe, xi):
        """Bending strains (κ_y, κ_z) = ((a·c')/‖c‖, −(a·b')/‖b‖)/(‖a‖ ‖a⁰‖) at ξ, 1/m.

        Nachbagauer, Gruber & Gerstmayr 2013; κ_z > 0 bends the axis towards +y, κ_y > 0 towards −z.

        Parameters
        ----------
        qe : (n_el, ndof) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        """
        v = self.vectors_at(qe, xi)
        length = lambda k: np.linalg.norm(v[:, k], axis=-1)
        kappa = np.stack([np.sum(v[:, 0] * v[:, 4], -1) / length(2), -np.sum(v[:, 0] * v[:, 3], -1) / length(1)], -1)
        return kappa / (length(0) * self._slope_length(xi))[:, None]

    def twist(self, qe, xi):
        """Twist rate κ_x = ½(r_z·r_y,x − r_y·r_z,x)/‖r⁰_x‖ at ξ, rad/m, right-handed about the axis.

        Parameters
        ----------
        qe : (n_el, ndof) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        """
        v = self.vectors_at(qe, xi)
        return 0.5 * (np.sum(v[:, 2] * v[:, 3], -1) - np.sum(v[:, 1] * v[:, 4], -1)) / self._slope_length(xi)

    def recovered_curvature(self, qe, xi):
        """Bending curvatures (κ_y, κ_z) at ξ, 1/m, second-order accurate (patch recovery, Zienkiewicz & Zhu 1992).

        κ⁰(ξ) plus the change Δκ interpolated linearly in arc length between the midpoints of the
        element and its neighbour (docs/elements.md).

        Parameters
        ----------
        qe : (n_el, 24) array_like
            Element coordinates of the whole batch (neighbours are used), global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        """
        return self._reference_curvature(xi) + self._recovered_change(qe, xi)

    def recovered_axial_strain(self, qe, xi, y=0.0, z=0.0):
        """Fibre strain with the bending part −y Δκ_z + z Δκ_y from :meth:`recovered_curvature`.

        Parameters
        ----------
        qe : (n_el, 24) array_like
            Element coordinates of the whole batch, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        y, z : float, optional
            Fibre position along the section directors r_y, r_z, m.
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
        """Shear angles (γ_y, γ_z), rad: arcsin(r_x·r_k / (‖r_x‖ ‖r_k‖)) minus the reference value.

        Parameters
        ----------
        qe : (n_el, ndof) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        """
        def angles(q):
            v = self.vectors_at(q, xi)
            na = np.linalg.norm(v[:, 0], axis=-1)
            return np.stack([np.arcsin(np.sum(v[:, 0] * v[:, k], -1) / (na * np.linalg.norm(v[:, k], axis=-1)))
                             for k in (1, 2)], -1)
        return angles(qe) - angles(self.q_ref)


class AxisTerm:
    """The axis strains of a fully parameterized beam integrated by one quadrature.

    Energy ½ Σ_k C_k Δs_k² per unit reference length (Nachbagauer, Gruber & Gerstmayr 2013).
    """

    def __init__(self, beam, quad, jac, rows):
        self.beam, self.quad, self.jac = beam, quad, jac
        self.P = _axis_strain_map()
        self.s_ref = np.ascontiguousarray(self.strains(quad.invariants(quad.vectors(beam.q_ref))))
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
        """Kelvin–Voigt damping matrix c Σ_k C_k s_k,I s_k,Iᵀ in invariant space."""
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
    """Cross-section strains e_yy = ½(b·b − 1), e_zz = ½(c·c − 1), γ_yz = b·c of the nodal directors.

    Sampled at the nodes (Newton–Cotes; docs/elements.md says why not at Gauss points).
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
    """Superconvergent patch recovery of a field from element midpoint samples (Zienkiewicz & Zhu 1992)."""
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
        zero(s_II)
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
    W, W_I, W_II = density_outputs(I.shape[0], I.shape[1], I.shape[2], order)
    _axis_strain_density_into(I, jac, P, s_ref, C, W_II_const, unit, order, W, W_I, W_II)
    return W, W_I, W_II


@njit(cache=True)
def _axis_strain_density_into(I, jac, P, s_ref, C, W_II_const, unit, order, W, W_I, W_II):
    """:func:`axis_strain_density` into the given (W, W_I, W_II), up to ``order``."""
    n_el, n_g, n_inv = I.shape
    n_s = P.shape[0]
    s_I = np.zeros(n_inv)
    s_II = np.zeros((n_inv, n_inv))
    for e in range(n_el):
        for g in range(n_g):
            eps, e_a, e_aa = axial_strain(I[e, g, 0], jac[e, g])
            sigma0 = C[e, g, 0] * eps
            w = 0.5 * eps * sigma0
            if order >= 1:
                zero(W_I[e, g])
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


@njit(cache=True)
def quadratic_density(I, I_ref, Q, order):
    """½ ΔIᵀ Q ΔI with ΔI = I − I_ref and a constant (per element) Q (n_el, n_inv, n_inv):
    strains linear in the invariants (beam cross-section term)."""
    W, W_I, W_II = density_outputs(I.shape[0], I.shape[1], I.shape[2], order)
    _quadratic_density_into(I, I_ref, Q, order, W, W_I, W_II)
    return W, W_I, W_II


@njit(cache=True)
def _quadratic_density_into(I, I_ref, Q, order, W, W_I, W_II):
    """:func:`quadratic_density` into the given (W, W_I, W_II), up to ``order``."""
    n_el, n_g, n_inv = I.shape
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


@njit(cache=True)
def beam_set(q, order, scale, out, axis_terms, section):
    """One compiled evaluation of a set of beams, its axis terms and its section term
    (:func:`femdyn.elements.compiled.term_result`); returns the energy for ``order`` 0."""
    total = 0.0
    for term in axis_terms:
        geo, dofs, loc, scratch, jac, P, s_ref, C, W_II_const, unit = term
        z, I, W, W_I, W_II = scratch
        term_kinematics(geo, q, dofs, z, I)
        _axis_strain_density_into(I, jac, P, s_ref, C, W_II_const, unit, order, W, W_I, W_II)
        total += term_result(geo, z, W, W_I, W_II, order, dofs, loc, scale, out)
    geo, dofs, loc, scratch, I_ref, Q = section
    z, I, W, W_I, W_II = scratch
    term_kinematics(geo, q, dofs, z, I)
    _quadratic_density_into(I, I_ref, Q, order, W, W_I, W_II)
    return total + term_result(geo, z, W, W_I, W_II, order, dofs, loc, scale, out)


class RecoveredStrains:
    """Recovered fibre strains (:meth:`ANCFBeam3D.recovered_axial_strain`) at several points of beams in one
    compiled call; each point (kernel, dofs of its element set, element, ξ, y, z)."""

    # the strain needs the gradient vectors at three places (the sensor's ξ, the midpoints of its
    # element and of the neighbour the patch recovery uses); they are formed as the kernel forms them
    # (scaled coordinates, its shape coefficients at ξ, its vector scales), and the reference values
    # (slope lengths, curvatures, fibre lengths) and the recovery factor are the kernel's own
    def __init__(self, points):
        count, ndof = len(points), points[0][1].shape[1]
        d = points[0][0].dim
        self.dofs = np.zeros((count, 3, ndof), np.int64)
        self.coef = np.zeros((count, 3, 5, ndof // d))
        self.scales = np.zeros((count, 3, ndof // d + 5))
        self.consts = np.zeros((count, 13))
        for k, (kernel, set_dofs, e, xi, y, z) in enumerate(points):
            W = patch_recovery(np.eye(len(set_dofs)), kernel.arc_length, *kernel.neighbours, float(xi))[e]
            others = [i for i in np.flatnonzero(W) if i != e]
            o = others[0] if others else e
            places = ((e, xi), (e, 0.5), (o, 0.5))
            for p, (element, at) in enumerate(places):
                self.dofs[k, p] = set_dofs[element]
                self.coef[k, p] = kernel._scalar_coefficients(float(at))[0, :5]
                self.scales[k, p] = np.concatenate([kernel.quad.dof_scale[element, ::d],
                                                    kernel.quad.vec_scale[element, :5]])
            v = kernel.vectors_at(kernel.q_ref, xi)
            fibre = np.linalg.norm(v[:, 0] + y * v[:, 3] + z * v[:, 4], axis=-1)[e]
            kref = [kernel._reference_curvature(at)[element] for element, at in places]
            j = [kernel._slope_length(at)[element] for element, at in places]
            self.consts[k] = [y, z, W[o] if o != e else 0.0, fibre, *j, *np.ravel(kref)]

    def read(self, q):
        """The strains at the batch's points (dimensionless) at q."""
        return _recovered_strains(q, self.dofs, self.coef, self.scales, self.consts)


@njit(cache=True)
def _dot3(a, b):
    """a·b of two 3-vectors, summed in index order (as numpy's reductions over three values)."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True)
def _recovered_strains(q, dofs, coef, scales, consts):
    """ε = ‖r_x + y r_y,x + z r_z,x‖/‖…‖⁰ − 1 − y Δκ_z + z Δκ_y for each sensor (the kernel's recovered strain)."""
    out = np.empty(len(dofs))
    n_nodal = coef.shape[3]
    V = np.empty((5, 3))
    qt = np.empty((n_nodal, 3))
    kappa = np.empty((3, 2))
    for k in range(len(dofs)):
        y, z, f, fibre0 = consts[k, 0], consts[k, 1], consts[k, 2], consts[k, 3]
        for p in range(3):
            for a in range(n_nodal):
                for i in range(3):
                    qt[a, i] = q[dofs[k, p, 3 * a + i]] * scales[k, p, a]
            for r in range(5):
                for i in range(3):
                    acc = 0.0
                    for a in range(n_nodal):
                        acc += coef[k, p, r, a] * qt[a, i]
                    V[r, i] = acc / scales[k, p, n_nodal + r]
            n0, n1, n2 = np.sqrt(_dot3(V[0], V[0])), np.sqrt(_dot3(V[1], V[1])), np.sqrt(_dot3(V[2], V[2]))
            scale = n0 * consts[k, 4 + p]
            kappa[p, 0] = _dot3(V[0], V[4]) / n2 / scale - consts[k, 7 + 2 * p]
            kappa[p, 1] = -_dot3(V[0], V[3]) / n1 / scale - consts[k, 8 + 2 * p]
            if p == 0:
                w = V[0] + y * V[3] + z * V[4]
                fibre = np.sqrt(_dot3(w, w))
        d0 = kappa[1, 0] + (kappa[2, 0] - kappa[1, 0]) * f - kappa[0, 0]
        d1 = kappa[1, 1] + (kappa[2, 1] - kappa[1, 1]) * f - kappa[0, 1]
        out[k] = fibre / fibre0 - 1 - y * d1 + z * d0
    return out
