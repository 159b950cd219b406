"""ANCF cable elements (gradient-deficient, Euler–Bernoulli) in 2-D and 3-D.

Kinematics: Gerstmayr & Shabana 2006 (Nonlinear Dyn. 45:109–130), a cubic Hermite axis
r(ξ) = N₁ r₁ + N₂ L r₁' + N₃ r₂ + N₄ L r₂' with nodal [r, r_x] (8 dof in 2-D, 12 in 3-D);
L defaults to the reference arc length (:func:`~femdyn.elements.ancf_element.reference_arc_length`).
Strains per unit reference arc length (j = ‖r⁰_x‖): ε = ‖r_x‖/j − 1 and the tangent's
rotation rate κ = ‖r_x × r_xx‖ / (‖r_x‖² j) of the Reissner rod (Reissner 1972; Simo 1985;
Irschik & Gerstmayr 2009), signed in 2-D. ANCFCable3D needs a straight reference.
Kelvin–Voigt damping c [s]; ``n_gauss`` = 3, mass and gravity 5 points. Derivation,
locking and validation figures: docs/elements.md.
"""
import numpy as np
from numba import njit

from femdyn.elements.ancf_element import ANCFElement, check, check_section, hermite
from femdyn.elements.compiled import (axial_strain, density_outputs, gather, identities, point_force, point_invariants,
                                      point_vectors, scatter, term_kinematics, term_result, zero)
from femdyn.errors import ModelError
from femdyn.geometry import transported

STRAIGHT_TOLERANCE = 1e-9      # |κ₀| L below this is round-off of a straight element


class ANCFCable(ANCFElement):
    """Shared physics of the 2-D and 3-D ANCF cable: energy density ½ EA ε² + ½ EI (κ − κ₀)²."""

    nodal_order = (0, 1, 0, 1)
    vector_order = (1, 2)                      # r_x, r_xx

    def __init__(self, q_ref, E, rho, section, damping=0.0, length=None, n_gauss=3):
        self._setup(q_ref, E, rho, section, damping, length, n_gauss)
        self.EA = self.E * self.A
        kappa = self._curvature_value(self.z_ref, self.jac)         # (n_el, n_g)
        # round-off of straight elements (|κ₀| L < STRAIGHT_TOLERANCE) becomes exactly 0
        self.kappa_ref = np.where(np.abs(kappa) * self.length[:, None] < STRAIGHT_TOLERANCE, 0.0, kappa)

    @staticmethod
    def _coefficients(xi):
        _, dN, ddN = hermite(xi)
        return np.stack([dN, ddN], axis=1)                          # (n_x, 2, 4)

    def _density(self, I, z, order):
        """½ EA ε² + ½ EI (κ − κ₀)² and its invariant derivatives (compiled, per Gauss point)."""
        W, W_I, W_II = cable_density(I, self.jac, self.EA, self.EI, self.kappa_ref, self.planar, order)
        return W, (W_I if order >= 1 else None), (W_II if order >= 2 else None)

    def _set_entry(self, dofs):
        return cable_set, (*self._term_arguments(self.quad, self.jac, dofs, None), self.jac, self.EA, self.EI,
                           np.ascontiguousarray(self.kappa_ref), self.planar)

    def _damping(self, I, z):
        """c EA ε_I ε_Iᵀ + c EI (κ-rate Gram matrix) in invariant or gradient-vector space."""
        c = self.damping[:, None]
        e_a = 0.5 / (self.jac * np.sqrt(I[..., 0]))                   # ∂ε/∂α, ε = √α/ℓ₀ − 1
        H = np.zeros(I.shape + (I.shape[-1],))
        H[..., 0, 0] = c * self.EA[:, None] * e_a * e_a
        H += (c * self.EI[:, None])[..., None, None] * self._bending_rate_gram(I, z)
        H_z = self._bending_rate_gram_vectors(z, self.jac)
        return H, (None if H_z is None else (c * self.EI[:, None])[..., None, None] * H_z)

    def axial_strain(self, qe, xi, y=0.0, z=0.0):
        """Fibre strain ε − y (κ_z − κ⁰_z) + z (κ_y − κ⁰_y) at a section point (Euler–Bernoulli)."""
        eps, bend = self._axial_and_bending(qe, xi, y, z)
        return eps + bend

    def _axis_strain(self, a, a0):
        return np.linalg.norm(a, axis=-1) / np.linalg.norm(a0, axis=-1) - 1


class ANCFCable2D(ANCFCable):
    """Planar ANCF cable, 8 dof [r₁, r₁,ₓ, r₂, r₂,ₓ] (2 components each), signed curvature.

    Parameters
    ----------
    q_ref : (n_el, 8) array_like
        Reference coordinates (m, 1) in the global x–y plane.
    E : float or (n_el,) array_like
        Young's modulus, Pa.
    rho : float or (n_el,) array_like
        Density, kg/m³.
    section : sections.CrossSection
        Bending uses I_z.
    damping : float or (n_el,) array_like, optional
        Kelvin–Voigt coefficient, s.
    length : float or (n_el,) array_like, optional
        Parameter length L, m (default: the reference arc length).
    n_gauss : int, optional
        Gauss points of the elastic terms.

    Raises
    ------
    ModelError
        Bad material data or reference geometry.

    Examples
    --------
    >>> from femdyn.elements import sections
    >>> cable = ANCFCable2D([[0, 0, 1, 0, 1, 0, 1, 0]], 2.1e11, 7850, sections.circular(0.01))
    >>> cable.mass().shape, cable.length
    ((1, 8, 8), array([1.]))
    """

    ndof, dim, kind, planar = 8, 2, "ANCFCable2D", True
    # recorded quantities: kernel method (qe, ξ[, y, z]) → (n_el, …) and the names of its values
    sensor_quantities = {"strain": ("axial_strain", ("strain",)), "curvature": ("curvature", ("kappa_z",))}
    invariant_pairs = ((0, 0, np.eye(2)), (0, 1, np.array([[0.0, 1.0], [-1.0, 0.0]])))   # α = a·a, δ = a × b

    def __init__(self, q_ref, E, rho, section, damping=0.0, length=None, n_gauss=3):
        super().__init__(q_ref, E, rho, section, damping, length, n_gauss)
        self.EI = self.E * self.Iz

    @staticmethod
    def _curvature_value(z, jac):
        """Signed rotation rate κ = (a × b)/(‖a‖² j) [1/m], a = r_x, b = r_xx, j = ‖r⁰_x‖."""
        a, b = z[..., 0, :], z[..., 1, :]
        return (a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]) / (np.sum(a * a, -1) * jac)

    def _bending_rate_gram(self, I, z):
        _, k_I, _ = planar_curvature(I, self.jac)          # signed κ(α, δ) = δ/(α j)
        return k_I[..., :, None] * k_I[..., None, :]

    @staticmethod
    def _bending_rate_gram_vectors(z, jac):
        return None

    def curvature(self, qe, xi):
        """Signed bending strain κ = (r_x × r_xx)/(‖r_x‖² ‖r⁰_x‖) at ξ, 1/m (> 0 counter-clockwise).

        Parameters
        ----------
        qe : (n_el, ndof) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        """
        return self._curvature_value(self.vectors_at(qe, xi), self._slope_length(xi))

    def _axial_and_bending(self, qe, xi, y, z):
        zc, z0 = self.vectors_at(qe, xi), self.vectors_at(self.q_ref, xi)
        eps = self._axis_strain(zc[:, 0], z0[:, 0])
        j = np.linalg.norm(z0[:, 0], axis=-1)
        # fibre at distance y along n = e_z × t: ε_f = ε − y (κ − κ₀)
        return eps, -np.asarray(y, float) * (self._curvature_value(zc, j) - self._curvature_value(z0, j))


class ANCFCable3D(ANCFCable):
    """Spatial ANCF cable, 12 dof [r₁, r₁,ₓ, r₂, r₂,ₓ], isotropic bending, straight reference.

    Parameters
    ----------
    q_ref : (n_el, 12) array_like
        Reference coordinates (m, 1), global frame; straight axis, slopes along it.
    E : float or (n_el,) array_like
        Young's modulus, Pa.
    rho : float or (n_el,) array_like
        Density, kg/m³.
    section : sections.CrossSection
        With I_y = I_z (e.g. :func:`~femdyn.elements.sections.circular`).
    damping : float or (n_el,) array_like, optional
        Kelvin–Voigt coefficient, s.
    length : float or (n_el,) array_like, optional
        Parameter length L, m (default: the reference arc length).
    n_gauss : int, optional
        Gauss points of the elastic terms.
    y_axis : (3,) or (n_el, 3) array_like, optional
        Reference section y axis, global frame, for strain recovery (default: global Y ⟂ axis, or Z).

    Raises
    ------
    ModelError
        I_y ≠ I_z, a curved reference axis, bad material data or geometry.
    """

    ndof, dim, kind, planar = 12, 3, "ANCFCable3D", False
    sensor_quantities = {"strain": ("axial_strain", ("strain",)), "curvature": ("curvature", ("kappa_y", "kappa_z"))}
    invariant_pairs = ((0, 0, np.eye(3)), (0, 1, np.eye(3)), (1, 1, np.eye(3)))   # α, β, γ

    def __init__(self, q_ref, E, rho, section, damping=0.0, length=None, n_gauss=3, y_axis=None):
        check_section(section, self.kind)
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
        z0 = self.fields(self.q_ref, np.array([0.0, 0.5, 1.0]))
        kappa = self._curvature_value(z0, np.linalg.norm(z0[:, :, 0], axis=-1))
        turn = kappa.max(axis=1) * self.length
        check(turn < STRAIGHT_TOLERANCE, turn, self.kind,
               "the reference axis is curved (κ₀ L shown), but the 3-D cable is a straight-reference element "
               "(its energy depends on |κ| only: no out-of-plane or torsional stiffness about a curved "
               "reference). Use element 'cable2d' (ANCFCable2D) for curves in a plane z = const or 'beam' "
               "(ANCFBeam3D) for spatial curves; for a straight cable give nodal tangents along the axis")

    @staticmethod
    def _curvature_value(z, jac):
        """Bending strain ‖a × b‖/(‖a‖² j) [1/m], a = r_x, b = r_xx, j = ‖r⁰_x‖."""
        a, b = z[..., 0, :], z[..., 1, :]
        return np.linalg.norm(np.cross(a, b), axis=-1) / (np.sum(a * a, -1) * jac)

    @staticmethod
    def _bending_rate_gram(I, z):
        return 0.0

    @staticmethod
    def _bending_rate_gram_vectors(z, jac):
        """J_kᵀ J_k (n_el, n_g, 6, 6) for the curvature vector k = a × b / (‖a‖² j) (compiled)."""
        return curvature_rate_gram(z, jac)

    def curvature_vector(self, qe, xi):
        """Bending strain vector k = r_x × r_xx / (‖r_x‖² ‖r⁰_x‖) at ξ, 1/m, global frame, total.

        Parameters
        ----------
        qe : (n_el, ndof) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        """
        z = self.vectors_at(qe, xi)
        return np.cross(z[:, 0], z[:, 1]) / (np.sum(z[:, 0] ** 2, -1) * self._slope_length(xi))[:, None]

    def section_axes(self, qe, xi):
        """Section axes (e_y, e_z, e_y0, e_z0) at ξ: the reference ones carried by the smallest rotation t₀ → t.

        Parameters
        ----------
        qe : (n_el, ndof) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        """
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
        return transported(t0, t, ey0), transported(t0, t, ez0), ey0, ez0

    @staticmethod
    def _unit(v):
        return v / np.linalg.norm(v, axis=-1, keepdims=True)

    def curvature(self, qe, xi):
        """Bending curvatures (κ_y, κ_z) at ξ, 1/m, in the frame of :meth:`section_axes`; signs as ANCFBeam3D.

        Parameters
        ----------
        qe : (n_el, ndof) array_like
            Element coordinates, global frame.
        xi : float
            Local coordinate ξ = x/L ∈ [0, 1].
        """
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


# ---------------------------------------------------------------------- compiled density
# The cable's energy density per unit reference length and its derivatives in the
# invariants (α, δ) (2-D) or (α, β, γ) (3-D), j = |r⁰_x| at each Gauss point; the
# quadrature loops that turn them into forces and tangents are shared
# (:mod:`femdyn.elements.compiled`).

@njit(cache=True)
def curvature_rate_gram(z, jac):
    """J_kᵀ J_k (n_el, n_g, 6, 6) for the bending strain vector k = a × b / (α j) of a 3-D
    cable (a = r_x, b = r_xx, α = a·a, j = ‖r⁰_x‖): J_k = ∂k/∂(a, b) =
    [−[b]×/(α j) − 2 k aᵀ/α,  [a]×/(α j)]."""
    n_el, n_g = z.shape[:2]
    out = np.empty((n_el, n_g, 6, 6))
    J = np.empty((3, 6))
    k = np.empty(3)
    for e in range(n_el):
        for g in range(n_g):
            a, b = z[e, g, 0], z[e, g, 1]
            alpha = a[0] * a[0] + a[1] * a[1] + a[2] * a[2]
            scale = 1.0 / (alpha * jac[e, g])
            k[0] = (a[1] * b[2] - a[2] * b[1]) * scale
            k[1] = (a[2] * b[0] - a[0] * b[2]) * scale
            k[2] = (a[0] * b[1] - a[1] * b[0]) * scale
            _skew_into(b, -scale, J, 0)
            _skew_into(a, scale, J, 3)
            for i in range(3):
                for j in range(3):
                    J[i, j] -= 2.0 * k[i] * a[j] / alpha
            for r in range(6):
                for c in range(6):
                    s = 0.0
                    for i in range(3):
                        s += J[i, r] * J[i, c]
                    out[e, g, r, c] = s
    return out


@njit(cache=True)
def _skew_into(v, scale, J, col):
    """J[:, col:col+3] = scale [v]×, with [v]× w = v × w."""
    J[0, col], J[0, col + 1], J[0, col + 2] = 0.0, -scale * v[2], scale * v[1]
    J[1, col], J[1, col + 1], J[1, col + 2] = scale * v[2], 0.0, -scale * v[0]
    J[2, col], J[2, col + 1], J[2, col + 2] = -scale * v[1], scale * v[0], 0.0


@njit(cache=True, inline='always')
def _planar_curvature(alpha, delta, j, k_I, k_II):
    """Signed κ = δ/(α j) (δ = r_x × r_xx, α = r_x·r_x, j = ‖r⁰_x‖); fills ∂κ/∂(α, δ) and
    the Hessian."""
    inv = 1.0 / alpha
    k = delta * inv / j
    k_I[0], k_I[1] = -k * inv, inv / j
    k_II[0, 0] = 2.0 * k * inv * inv
    k_II[0, 1] = k_II[1, 0] = -inv * inv / j
    k_II[1, 1] = 0.0
    return k


@njit(cache=True)
def planar_curvature(I, jac):
    """κ (n_el, n_g), ∂κ/∂I (…, 2), ∂²κ/∂I² (…, 2, 2) from the invariants (α, δ)."""
    n_el, n_g = I.shape[:2]
    k = np.empty((n_el, n_g))
    k_I = np.empty((n_el, n_g, 2))
    k_II = np.empty((n_el, n_g, 2, 2))
    for e in range(n_el):
        for g in range(n_g):
            k[e, g] = _planar_curvature(I[e, g, 0], I[e, g, 1], jac[e, g], k_I[e, g], k_II[e, g])
    return k, k_I, k_II


@njit(cache=True, inline='always')
def _planar_bending(I, j, k0, W_I, W_II, k_I, k_II):
    """½(κ − κ₀)² with κ signed (2-D), adding its invariant derivatives to W_I, W_II (if
    sized); k_I (2,), k_II (2, 2) scratch."""
    dk = _planar_curvature(I[0], I[1], j, k_I, k_II) - k0
    if W_I.size:
        for m in range(2):
            W_I[m] += dk * k_I[m]
    if W_II.size:
        for m in range(2):
            for n in range(2):
                W_II[m, n] += k_I[m] * k_I[n] + dk * k_II[m, n]
    return 0.5 * dk * dk


@njit(cache=True, inline='always')
def _spatial_bending(I, j, W_I, W_II, f_I, f_II):
    """½κ² = ½f with f = κ² = (γ/α − β²/α²)/j² (3-D, invariants α, β, γ; straight
    reference, κ₀ = 0), adding its invariant derivatives to W_I, W_II (if sized);
    f_I (3,), f_II (3, 3) scratch."""
    alpha, beta, gamma = I[0], I[1], I[2]
    s = 1.0 / (j * j)
    i1 = 1.0 / alpha
    i2 = i1 * i1
    i3 = i2 * i1
    f_I[0] = (-gamma * i2 + 2.0 * beta * beta * i3) * s
    f_I[1] = -2.0 * beta * i2 * s
    f_I[2] = i1 * s
    if W_I.size:
        for m in range(3):
            W_I[m] += 0.5 * f_I[m]
    if W_II.size:
        f_II[:, :] = 0.0
        f_II[0, 0] = (2.0 * gamma * i3 - 6.0 * beta * beta * i2 * i2) * s
        f_II[0, 1] = f_II[1, 0] = 4.0 * beta * i3 * s
        f_II[0, 2] = f_II[2, 0] = -i2 * s
        f_II[1, 1] = -2.0 * i2 * s
        for m in range(3):
            for n in range(3):
                W_II[m, n] += 0.5 * f_II[m, n]
    return 0.5 * (gamma * i1 - beta * beta * i2) * s


@njit(cache=True)
def cable_density(I, jac, EA, EI, kappa_ref, planar, order):
    """½ EA ε² + ½ EI (κ − κ₀)² per unit reference length and its invariant derivatives
    (see the module docstring for the strain measures); ``planar`` selects the signed
    2-D κ (κ₀ = ``kappa_ref``), otherwise κ = ‖k‖ of a straight-reference 3-D cable (κ₀ = 0)."""
    W, W_I, W_II = density_outputs(I.shape[0], I.shape[1], I.shape[2], order)
    _cable_density_into(I, jac, EA, EI, kappa_ref, planar, order, W, W_I, W_II)
    return W, W_I, W_II


@njit(cache=True)
def _cable_density_into(I, jac, EA, EI, kappa_ref, planar, order, W, W_I, W_II):
    """:func:`cable_density` into the given (W, W_I, W_II), up to ``order``."""
    n_el, n_g, n_inv = I.shape
    bI = np.zeros(n_inv if order >= 1 else 0)
    bII = np.zeros((n_inv, n_inv) if order >= 2 else (0, 0))
    work_I, work_II = np.empty(n_inv), np.empty((n_inv, n_inv))
    for e in range(n_el):
        for g in range(n_g):
            W[e, g] = _cable_point(I[e, g], jac[e, g], EA[e], EI[e], kappa_ref[e, g], planar, order, bI, bII,
                                   work_I, work_II, W_I[e, g] if order >= 1 else bI,
                                   W_II[e, g] if order >= 2 else bII)


@njit(cache=True, inline='always')
def _cable_point(Ig, j, EA, EI, kappa_ref, planar, order, bI, bII, work_I, work_II, W_I, W_II):
    """The cable's density W at one point (returned) and, up to ``order``, W_I (n_inv,) and W_II;
    bI, bII sized for ``order`` and work_I, work_II scratch."""
    n_inv = len(Ig)
    bI[:] = 0.0
    bII[:] = 0.0
    eps, e_a, e_aa = axial_strain(Ig[0], j)
    if planar:
        wb = _planar_bending(Ig, j, kappa_ref, bI, bII, work_I, work_II)
    else:
        wb = _spatial_bending(Ig, j, bI, bII, work_I, work_II)
    if order >= 1:
        for m in range(n_inv):
            W_I[m] = EI * bI[m]
        W_I[0] += EA * eps * e_a
    if order >= 2:
        for m in range(n_inv):
            for n in range(n_inv):
                W_II[m, n] = EI * bII[m, n]
        W_II[0, 0] += EA * (e_a * e_a + eps * e_aa)
    return 0.5 * EA * eps * eps + EI * wb


@njit(cache=True)
def cable_set(q, order, scale, out, geo, dofs, loc, scratch, jac, EA, EI, kappa_ref, planar):
    """One compiled evaluation of a set of cables (:func:`femdyn.elements.compiled.term_result`); the
    force element by element (gather, kinematics, density and force at each point, scatter)."""
    z, I, W, W_I, W_II = scratch
    if order != 1:
        term_kinematics(geo, q, dofs, z, I)
        _cable_density_into(I, jac, EA, EI, kappa_ref, planar, order, W, W_I, W_II)
        return term_result(geo, z, W, W_I, W_II, order, dofs, loc, scale, out)
    coef, k_idx, l_idx, R, factor = geo[0], geo[1], geo[2], geo[3], geo[4]
    eye = identities(R)
    n_inv = len(k_idx)
    qe, Fe, zg, fz = np.empty(dofs.shape[1]), np.empty(dofs.shape[1]), np.empty(z.shape[2:]), np.empty(z.shape[2:])
    Ig, wg, bI, bII = np.empty(n_inv), np.empty(n_inv), np.empty(n_inv), np.empty((0, 0))
    work_I, work_II = np.empty(n_inv), np.empty((n_inv, n_inv))
    for e in range(z.shape[0]):
        gather(q, dofs, e, qe)
        zero(Fe)
        for g in range(z.shape[1]):
            point_vectors(coef, e, g, qe, zg)
            point_invariants(k_idx, l_idx, R, eye, zg, Ig)
            _cable_point(Ig, jac[e, g], EA[e], EI[e], kappa_ref[e, g], planar, 1, bI, bII, work_I, work_II, wg, bII)
            point_force(coef, k_idx, l_idx, R, eye, e, g, zg, wg, scale * factor[e, g], fz, Fe)
        scatter(Fe, dofs, e, out)
    return 0.0
