"""Mass properties of rigid bodies in natural coordinates (NCF).

A natural-coordinate body is described by a base point p₀ and k ≤ 3 basis vectors
b_j (differences of further points, p_j − p₀, or unit vectors u_j). A material point is
r = p₀ + Σ_j c_j b_j with constant local coordinates c, so r = C q is linear in the
body's coordinates and the mass matrix M = ∫ρ CᵀC dV is constant
(García de Jalón & Bayo 1994, §2.3 and §5.3; Liu et al. 2018, eqs. for S_r and the platform C).

With weights w = (1 − Σ_{points} c_j, c_1, …, c_k) on the k+1 basis nodes,
M = Z ⊗ I₃ with Z = ∫ρ w wᵀ dV, computed from the mass m, the centre of mass and the
second moment ∫ρ x̄x̄ᵀ dV = m ḡḡᵀ + ½ tr(I_G) 1 − I_G (I_G inertia tensor about the
centre of mass). All quantities in SI units (kg, m, kg·m²).
"""
import numpy as np

from femdyn.errors import ModelError


def second_moment(mass, com_offset, inertia_com):
    """Second moment ∫ρ x̄x̄ᵀ dV about a base point: m ḡḡᵀ + ½ tr(I_G) 1 − I_G."""
    inertia_com = np.asarray(inertia_com, float)
    return mass * np.outer(com_offset, com_offset) + 0.5 * np.trace(inertia_com) * np.eye(3) - inertia_com


def basis_mass_matrix(mass, com_offset, inertia_com, basis, is_point, name="body"):
    """Mass matrix factor Z = ∫ρ w wᵀ dV and first moment of a natural-coordinate body.

    García de Jalón & Bayo 1994, §5.3.
    """
    B = np.asarray(basis, float).reshape(3, -1)
    k = B.shape[1]
    pinv = np.linalg.pinv(B)
    J = second_moment(mass, com_offset, inertia_com)
    outside = J - B @ (pinv @ J @ pinv.T) @ B.T
    if np.abs(outside).max() > 1e-9 * max(np.abs(J).max(), 1e-300):
        raise ModelError(f"{name}: part of its mass lies outside the span of its {k} basis vector(s); "
                         "add a point or unit vector to its basis (a full body needs 3 independent directions)")
    Jc = pinv @ J @ pinv.T
    first_c = mass * (pinv @ com_offset)
    T = np.vstack([-np.asarray(is_point, float), np.eye(k)])
    e0 = np.zeros(k + 1)
    e0[0] = 1.0
    Z = mass * np.outer(e0, e0) + np.outer(T @ first_c, e0) + np.outer(e0, T @ first_c) + T @ Jc @ T.T
    return 0.5 * (Z + Z.T), mass * e0 + T @ first_c


def slender_rod(mass, length):
    """Centre of mass and inertia tensor of a uniform slender rod along x from the origin."""
    return np.array([length / 2, 0.0, 0.0]), np.diag([0.0, 1.0, 1.0]) * mass * length**2 / 12


def cylinder(mass, length, radius, axis, inner_radius=0.0):
    """Centroidal inertia tensor of a uniform cylinder (solid, or a tube) along a unit axis e:
    I = m(R² + r²)/2 about e and m(3(R² + r²) + L²)/12 across it.

    Parameters
    ----------
    mass : float
        kg.
    length, radius, inner_radius : float
        L, outer radius R and inner radius r (0: solid), m.
    axis : (3,) array_like
        The cylinder's axis in the frame the tensor is wanted in (normalized here).

    Returns
    -------
    (3, 3) ndarray
        kg·m², about the centre of mass.

    Examples
    --------
    >>> np.diag(cylinder(12.0, 1.0, 0.0, (0, 0, 1))).round(12).tolist()      # a slender rod: m L²/12 across
    [1.0, 1.0, 0.0]
    """
    e = np.asarray(axis, float) / np.linalg.norm(axis)
    squares = radius**2 + inner_radius**2
    axial, transverse = mass * squares / 2, mass * (3 * squares + length**2) / 12
    return transverse * np.eye(3) + (axial - transverse) * np.outer(e, e)


def equilateral_plate(circumradius, thickness, density=None, mass=None, name="equilateral plate"):
    """Mass and centroidal inertia of a uniform equilateral triangular plate."""
    area = 3 * np.sqrt(3) / 4 * circumradius**2
    if (density is None) == (mass is None):
        raise ModelError(f"{name}: give exactly one of density (kg/m³) or mass (kg)")
    m = density * area * thickness if mass is None else float(mass)
    if not m > 0 or not circumradius > 0 or thickness < 0:
        raise ModelError(f"{name}: need positive mass, circumradius and thickness ≥ 0, "
                         f"got m={m}, R={circumradius}, t={thickness}")
    inplane = m * circumradius**2 / 8 + m * thickness**2 / 12
    return m, np.diag([inplane, inplane, m * circumradius**2 / 4])
