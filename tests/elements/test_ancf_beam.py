"""Proofs for the fully parameterized ANCF beam (ANCFBeam3D)."""
import numpy as np
import pytest

from femdyn.elements import sections
from femdyn.elements.ancf_beam import ANCFBeam3D
from femdyn.errors import ModelError

from support.ancf_chain import Chain, central_difference, rotation, straight_nodes
from support.elastica import MATTIASSON, cantilever_tip, quarter_ring_tip

E, RHO, NU = 2.1e11, 7850.0, 0.3


def frame_nodes(points, frames):
    """Nodal vectors [r, r_x, r_y, r_z] from points (n+1, 3) and frames (n+1, 3, 3) (columns t, e_y, e_z)."""
    nodes = np.concatenate([points, frames[:, :, 0], frames[:, :, 1], frames[:, :, 2]], axis=1)
    return np.hstack([nodes[:-1], nodes[1:]])


def arc_beam(n_el=3, radius=0.8):
    """Beam along a circular arc in the x–y plane; e_y towards the centre, e_z = global z."""
    phi = np.linspace(0, 1.0, n_el + 1)
    pts = np.stack([radius * np.sin(phi), radius * (1 - np.cos(phi)), 0 * phi], -1)
    t = np.stack([np.cos(phi), np.sin(phi), 0 * phi], -1)
    ey = np.stack([-np.sin(phi), np.cos(phi), 0 * phi], -1)
    ez = np.broadcast_to([0.0, 0.0, 1.0], t.shape)
    return frame_nodes(pts, np.stack([t, ey, ez], -1)), radius * np.diff(phi)


def random_beams(seed=1, n_el=4, damping=0.0, curved=False):
    rng = np.random.default_rng(seed)
    section = sections.rectangular(0.02, 0.03)
    if curved:
        q_ref, length = arc_beam(n_el)
    else:
        L = rng.uniform(0.5, 1.5, n_el)
        R = rotation(3, seed)
        q_ref = np.zeros((n_el, 24))
        for node in (0, 12):
            q_ref[:, node + 3:node + 12] = R.T.reshape(1, 9)      # r_x, r_y, r_z = columns of R
        q_ref[:, 12:15] = L[:, None] * R[:, 0]
        length = None
    el = ANCFBeam3D(q_ref, E, RHO, section, nu=NU, damping=damping, length=length)
    q = q_ref + 0.05 * rng.normal(size=q_ref.shape)              # moderate deformation
    return el, q_ref, q


@pytest.mark.parametrize("curved", [False, True])
def test_force_is_energy_gradient_and_stiffness_is_force_jacobian(curved):
    el, _, q = random_beams(curved=curved)
    F = el.internal_force(q)
    # central differences, h = 1e-6: truncation and round-off both below 1e-8 relative
    assert np.abs(F - central_difference(el.strain_energy, q, 1e-6)).max() <= 1e-6 * np.abs(F).max()
    K, D = el.stiffness(q)
    assert D is None
    assert np.abs(K - central_difference(el.internal_force, q, 1e-7)).max() <= 1e-6 * np.abs(K).max()
    assert np.abs(K - np.swapaxes(K, 1, 2)).max() <= 1e-10 * np.abs(K).max()


def rigid_velocity(q, omega, translation):
    """v of a rigid motion at configuration q: positions ω×r + v₀, gradient vectors ω×r_(·)."""
    nodes = q.reshape(len(q), 8, 3)
    v = np.cross(omega, nodes)
    v[:, [0, 4]] += translation
    return v.reshape(len(q), -1)


def test_damping_matrix_is_velocity_jacobian_and_rigid_velocity_is_not_damped():
    el, _, q = random_beams(damping=0.01)
    v = np.random.default_rng(5).normal(size=q.shape)
    K, D = el.stiffness(q, v)
    D_fd = central_difference(lambda vv: el.internal_force(q, vv) - el.internal_force(q), v, 1e-3)
    # F_d = D(q) v is linear in v: differences are exact to round-off
    assert np.abs(D - D_fd).max() <= 1e-6 * np.abs(D).max()
    assert np.array_equal(K, el.stiffness(q)[0])         # K omits ∂(D v)/∂q, as documented
    # the strains are dot products of material vectors: a rigid velocity of the *deformed*
    # state leaves every strain rate zero, so no damping force (round-off only)
    f = el.internal_force(q, rigid_velocity(q, np.array([0.4, -1.0, 2.0]), np.array([1.0, 0.5, -0.3])))
    f_scale = np.abs(el.internal_force(q, v) - el.internal_force(q)).max()
    assert np.abs(f - el.internal_force(q)).max() <= 1e-10 * f_scale


@pytest.mark.parametrize("curved", [False, True])
def test_rigid_motion_gives_zero_internal_force(curved):
    el, q_ref, _ = random_beams(curved=curved)
    nodes = q_ref.reshape(el.n_el, 8, 3) @ rotation(3, 11).T
    nodes[:, [0, 4]] += np.array([0.4, -2.0, 1.1])
    F = el.internal_force(nodes.reshape(el.n_el, -1))
    scale = np.abs(el.internal_force(q_ref * (1 + 1e-3))).max()   # force of a 1e-3 deformation
    assert np.abs(F).max() <= 1e-10 * scale


def test_mass_matrix_reproduces_rigid_body_mass_properties():
    el, q_ref, _ = random_beams()
    M = el.mass()
    assert np.abs(M - np.swapaxes(M, 1, 2)).max() <= 1e-14 * np.abs(M).max()
    assert np.linalg.eigvalsh(M).min() > 0
    nodes = q_ref.reshape(el.n_el, 8, 3)
    Z = M.reshape(el.n_el, 8, 3, 8, 3)[:, :, 0, :, 0]
    unit = np.array([1.0, 0, 0, 0, 1.0, 0, 0, 0])
    p, L = nodes[:, 0], el.length
    t, ey, ez = nodes[:, 1], nodes[:, 2], nodes[:, 3]
    m = RHO * el.A * L
    outer = lambda a, b: np.einsum('ei,ej->eij', a, b)
    # ∫ρ r rᵀ dV for r = p + s t + y e_y + z e_z: the rod part plus ρL(I_z e_y e_yᵀ + I_y e_z e_zᵀ)
    second_exact = (m[:, None, None] * (outer(p, p) + 0.5 * L[:, None, None] * (outer(p, t) + outer(t, p))
                                        + L[:, None, None] ** 2 / 3 * outer(t, t))
                    + (RHO * L * el.Iz)[:, None, None] * outer(ey, ey) + (RHO * L * el.Iy)[:, None, None] * outer(ez, ez))
    # 5-point Gauss integrates every product exactly: round-off only
    assert np.abs(np.einsum('a,eab,b->e', unit, Z, unit) - m).max() <= 1e-12 * m.max()
    first = np.einsum('a,eab,ebi->ei', unit, Z, nodes)
    first_exact = m[:, None] * (p + 0.5 * L[:, None] * t)
    assert np.abs(first - first_exact).max() <= 1e-12 * np.abs(first_exact).max()
    second = np.einsum('eai,eab,ebj->eij', nodes, Z, nodes)
    assert np.abs(second - second_exact).max() <= 1e-12 * np.abs(second_exact).max()
    fg = el.gravity(np.array([0.0, 0.0, -9.81])).reshape(el.n_el, 8, 3)
    assert np.allclose(np.einsum('a,eai->ei', unit, fg), m[:, None] * [0.0, 0.0, -9.81], rtol=1e-12, atol=0)


def cantilever(n_el, section, length=1.0, nu=NU):
    q_e, q0 = straight_nodes(ANCFBeam3D, n_el, length)
    el = ANCFBeam3D(q_e, E, RHO, section, nu=nu)
    chain = Chain(el)
    # Timoshenko clamp: position and the section directors r_y, r_z fixed; r_x (axis slope) free
    node = chain.node_dofs(0)
    return el, chain, q0, np.r_[node[:3], node[6:]]


def tip_load(chain, n_el, dof, value):
    f = np.zeros(chain.n)
    f[chain.node_dofs(n_el)[dof]] = value
    return f


@pytest.mark.parametrize("n_el", [1, 2, 4, 8])
def test_cantilever_small_loads(n_el):
    section = sections.rectangular(0.01, 0.02)
    el, chain, q0, clamp = cantilever(n_el, section)
    L, G = 1.0, E / (2 * (1 + NU))
    ky, kz = section.shear_factor(NU)
    tip = chain.node_dofs(n_el)
    for dof, EI, k in ((1, E * section.Iz, ky), (2, E * section.Iy, kz)):
        P = 1e-5 * EI / L**2                            # PL²/EI = 1e-5: nonlinearity ~1e-10
        q = chain.solve_static(q0, tip_load(chain, n_el, dof, P), clamp, tol=1e-12)
        # constant curvature per element (linear directors): δ = PL³/3EI (1 − 1/(4n²)) + PL/(kGA),
        # i.e. 25, 6.3, 1.6, 0.39 % below Euler–Bernoulli at 1, 2, 4, 8 elements; checked to 1e-6
        expected = P * L**3 / (3 * EI) * (1 - 1 / (4 * n_el**2)) + P * L / (k * G * section.area)
        assert q[tip[dof]] == pytest.approx(expected, rel=1e-6)
        assert abs(q[tip[dof]] / (P * L**3 / (3 * EI)) - 1) <= 1 / (4 * n_el**2) + 1e-3
    N = 1e-5 * E * section.area
    q = chain.solve_static(q0, tip_load(chain, n_el, 0, N), clamp, tol=1e-12)
    # uniform stretch is in the element space, engineering strain: exact to Newton tolerance
    assert q[tip[0]] - L == pytest.approx(N * L / (E * section.area), rel=1e-9)
    T = 1e-5 * G * section.J
    f = np.zeros(chain.n)
    f[tip[8]], f[tip[10]] = T / 2, -T / 2             # torque: r_y,z ← +T/2, r_z,y ← −T/2
    q = chain.solve_static(q0, f, clamp, tol=1e-12)
    twist = np.arctan2(q[tip[8]], q[tip[7]])
    # constant twist rate is in the element space (linear directors): exact up to the 1e-10 nonlinearity
    assert twist == pytest.approx(T * L / (G * section.J), rel=1e-6)
    assert el.twist(chain.gather(q), 0.5)[-1] == pytest.approx(T / (G * section.J), rel=1e-6)


@pytest.mark.parametrize("slenderness", [100, 10000])
def test_no_poisson_or_shear_locking(slenderness):
    """ν = 0.3, 8 elements: within 1 % of Euler–Bernoulli, independent of L/h.

    A continuum (St Venant–Kirchhoff) element with full integration is Poisson-locked:
    its constant-over-the-section director stretch forbids the lateral contraction of
    bending, raising the bending stiffness by (1−ν)/((1+ν)(1−2ν)) = 1.346, i.e. 26 %
    too small deflections at ν = 0.3 on any mesh (Sopanen & Mikkola 2003).
    """
    L, h, n_el = 1.0, 1.0 / slenderness, 8
    section = sections.rectangular(h, h)
    el, chain, q0, clamp = cantilever(n_el, section)
    EI = E * section.Iy
    P = 1e-5 * EI / L**2
    q = chain.solve_static(q0, tip_load(chain, n_el, 2, P), clamp, tol=1e-12)
    ratio = q[chain.node_dofs(n_el)[2]] / (P * L**3 / (3 * EI))
    assert abs(ratio - 1) <= 0.01
    # the ratio is the slenderness-independent discretization value 1 − 1/256 (+ shear 3EI/(kGAL²))
    shear = 3 * EI / (section.shear_factor(NU)[1] * E / (2 * (1 + NU)) * section.area * L**2)
    assert ratio == pytest.approx(1 - 1 / 256 + shear, rel=1e-6)


def test_large_deflection_converges_to_elastica():
    # L/h = 100 (rectangle 0.01 × 0.01, L = 1). At PL²/EI = 10 the errors are 4.4e-3, 9.5e-3,
    # 2.5e-3 L at 4, 8, 16 elements (signs of the v and u errors differ on coarse meshes),
    # 4.7e-4 and 2.4e-4 L at 32 and 64, where shear and extension (absent in the elastica) remain
    section = sections.rectangular(0.01, 0.01)
    for load_parameter in sorted(MATTIASSON):
        v_ref, u_ref = cantilever_tip(load_parameter)
        errors = []
        for n_el in (4, 8, 16):
            el, chain, q0, clamp = cantilever(n_el, section)
            f = tip_load(chain, n_el, 1, -load_parameter * E * section.Iz)
            q = chain.solve_static(q0, f, clamp, steps=int(2 * load_parameter) + 2, tol=1e-10)
            tip = chain.node_dofs(n_el)
            errors.append(max(abs(-q[tip[1]] - v_ref), abs(1 - q[tip[0]] - u_ref)))
        # 16 elements beat 4 and lie within 3e-3 L of the elastica
        assert errors[2] < errors[0] and errors[2] <= 3e-3, (load_parameter, errors)


def test_large_deflection_very_slender_beam():
    # L/h = 1000: large rotations per element lock partially (quadratic axis vs linear
    # directors); errors at PL²/EI = 10: 0.25, 0.050, 2.6e-3 L at 4, 8, 16 elements and
    # 2.0e-4 L at 32 (bending by the unit directors' rotation rate; with the former
    # κ = a·b' the shortening of the interpolated directors between the nodes relieved
    # bending: 0.25, 0.045, 3.1e-4). The quadratic beam: 1.2e-3, 9e-5, 6e-6 L at 4, 8, 16.
    section = sections.rectangular(1e-3, 1e-3)
    v_ref, u_ref = cantilever_tip(10.0)
    errors = []
    for n_el in (4, 8, 16):
        el, chain, q0, clamp = cantilever(n_el, section)
        q = chain.solve_static(q0, tip_load(chain, n_el, 1, -10.0 * E * section.Iz), clamp, steps=22, tol=1e-10)
        tip = chain.node_dofs(n_el)
        errors.append(max(abs(-q[tip[1]] - v_ref), abs(1 - q[tip[0]] - u_ref)))
    assert errors[0] > errors[1] > errors[2] and errors[2] <= 3e-3


@pytest.mark.parametrize("n_el, tolerance", [(16, 0.017), (32, 0.005)])
def test_eigenfrequencies_match_euler_bernoulli(n_el, tolerance):
    """Slender (L/d = 300, circular) so that shear/rotary inertia shift ≲ 0.02 %.

    Second-order convergence (piecewise-constant curvature): at 16 elements the third
    clamped-free and free-free pairs are 1.3 % and 1.6 % high, so the 0.5 % level needs
    32 elements (0.30 % and 0.39 %).
    """
    L = 1.0
    section = sections.circular(L / 600)
    el, chain, q0, clamp = cantilever(n_el, section, length=L)
    scale = np.sqrt(E * section.Iy / (RHO * section.area)) / L**2
    beta_cf = np.array([1.87510407, 4.69409113, 7.85475744])
    beta_ff = np.array([4.73004074, 7.85320462, 10.99560784])
    w = chain.frequencies(q0, clamp)
    assert np.allclose(w[:6], np.repeat(beta_cf**2 * scale, 2), rtol=tolerance)
    w = chain.frequencies(q0)
    # 6 rigid modes at round-off level √(eps λ_max) (stiff section modes: ~2e-3 of the first bending one)
    assert np.abs(w[:6]).max() <= 5e-3 * w[6]
    assert np.allclose(w[6:12], np.repeat(beta_ff**2 * scale, 2), rtol=tolerance)


def test_surface_strain_under_tip_moments():
    n_el = 4
    section = sections.rectangular(0.01, 0.02)
    el, chain, q0, clamp = cantilever(n_el, section)
    tip = chain.node_dofs(n_el)
    for M_dof, EI, c, sign in ((6, E * section.Iz, section.cy, -1.0), (9, E * section.Iy, section.cz, 1.0)):
        M = 1e-7 * EI                       # κL = 1e-7: linear regime, strains linear to 1e-7
        f = np.zeros(chain.n)
        # moment M_z → generalized force −M on r_y,x; moment M_y → +M on r_z,x (∫y σ dA, ∫z σ dA)
        f[tip[M_dof]] = sign * M
        q = chain.solve_static(q0, f, clamp, tol=1e-13)
        qe = chain.gather(q)
        for e, xi in [(0, 0.2), (2, 0.5), (3, 0.95)]:
            if M_dof == 6:   # κ_z = M/EI > 0 (towards +y): fibres at +y compressed
                assert el.curvature(qe, xi)[e, 1] == pytest.approx(M / EI, rel=1e-6)
                assert el.axial_strain(qe, xi, c, 0.0)[e] == pytest.approx(-M * c / EI, rel=1e-6)
                assert el.axial_strain(qe, xi, -c, 0.0)[e] == pytest.approx(M * c / EI, rel=1e-6)
            else:            # κ_y = M/EI > 0 (towards −z): fibres at +z stretched
                assert el.curvature(qe, xi)[e, 0] == pytest.approx(M / EI, rel=1e-6)
                assert el.axial_strain(qe, xi, 0.0, c)[e] == pytest.approx(M * c / EI, rel=1e-6)
                assert el.axial_strain(qe, xi, 0.0, -c)[e] == pytest.approx(-M * c / EI, rel=1e-6)
            # pure bending: no shear
            assert np.abs(el.shear_angles(qe, xi)[e]).max() <= 1e-9 * M / EI


def test_shear_angle_under_tip_force():
    section = sections.rectangular(0.01, 0.02)
    el, chain, q0, clamp = cantilever(8, section)
    G = E / (2 * (1 + NU))
    ky, _ = section.shear_factor(NU)
    P = 1e-5 * E * section.Iz
    q = chain.solve_static(q0, tip_load(chain, 8, 1, P), clamp, tol=1e-12)
    gamma = el.shear_angles(chain.gather(q), 0.5)[:, 0]
    # Timoshenko: γ = Q/(k G A) with Q = P all along; sampled at element midpoints,
    # where the quadratic shear field of the element meets its mean (to 2 %)
    assert np.allclose(gamma, P / (ky * G * section.area), rtol=0.02)


def test_bad_input():
    q_e, _ = straight_nodes(ANCFBeam3D, 3, 1.0)
    sec = sections.circular(0.01)
    with pytest.raises(ModelError, match="element 2.*Poisson"):
        ANCFBeam3D(q_e, E, RHO, sec, nu=[0.3, 0.3, 0.5])
    with pytest.raises(ModelError, match="element 0.*Poisson"):
        ANCFBeam3D(q_e, E, RHO, sec, nu=-1.0)
    with pytest.raises(ModelError, match="element 1.*Young"):
        ANCFBeam3D(q_e, [E, 0.0, E], RHO, sec)
    with pytest.raises(ModelError, match="shape"):
        ANCFBeam3D(q_e[:, :12], E, RHO, sec)
    with pytest.raises(ModelError, match="CrossSection"):
        ANCFBeam3D(q_e, E, RHO, 0.01)
    with pytest.raises(ModelError, match="width"):
        sections.rectangular(0.01, 0.0)
    with pytest.raises(ModelError, match="shape"):
        ANCFBeam3D(q_e, E, RHO, sec).internal_force(np.zeros((2, 24)))


def test_mass_matrix_is_integral_of_shape_matrix():
    """M = ∫ρ SᵀS dV with S from shape(ξ, y, z), integrated by 5×3×3 Gauss over a rectangle."""
    el, _, _ = random_beams(n_el=2)
    b, h = 0.02, 0.03
    xg, wg = np.polynomial.legendre.leggauss(5)
    yg, wy = np.polynomial.legendre.leggauss(3)
    M = np.zeros((el.n_el, 24, 24))
    for xi, wx in zip((xg + 1) / 2, wg / 2):
        for y, w1 in zip(yg * b / 2, wy * b / 2):
            for z, w2 in zip(yg * h / 2, wy * h / 2):
                S = el.shape(xi, y, z)
                M += RHO * wx * w1 * w2 * el.length[:, None, None] * np.swapaxes(S, 1, 2) @ S
    # the rule is exact for these polynomial integrands: only round-off remains
    assert np.abs(M - el.mass()).max() <= 1e-12 * np.abs(M).max()


@pytest.mark.parametrize("stretch", [1.1, 0.8])
def test_strains_do_not_depend_on_the_reference_parameterization(stretch):
    """The same straight cantilever with reference slopes |r⁰_x| = s ≠ 1 (parameter length
    L/(n s) per element, so the axis is the same straight line): strains are per unit arc
    length, so tip deflections (both planes), twist and elongation, and the recovered
    curvature and twist rate, equal those of the s = 1 mesh to 1e-8 (Newton tolerance
    1e-12; before, bending scaled with s⁴: 0.680 of PL³/3EI at s = 1.1)."""
    section, n, L = sections.rectangular(0.01, 0.02), 4, 1.0
    G = E / (2 * (1 + NU))
    results = []
    for s in (1.0, stretch):
        q_e, q0 = straight_nodes(ANCFBeam3D, n, L)
        q_e[:, [3, 15]] = s
        q0.reshape(n + 1, 12)[:, 3] = s
        el = ANCFBeam3D(q_e, E, RHO, section, nu=NU, length=np.full(n, L / (n * s)))
        chain = Chain(el)
        clamp = np.r_[chain.node_dofs(0)[:3], chain.node_dofs(0)[6:]]
        loads = [(1, 1e-5 * E * section.Iz), (2, 1e-5 * E * section.Iy), (0, 1e-5 * E * section.area)]
        row = []
        for dof, value in loads:
            q = chain.solve_static(q0, tip_load(chain, n, dof, value), clamp, tol=1e-12)
            row.append(q[chain.node_dofs(n)[dof]] - q0[chain.node_dofs(n)[dof]])
            row.append(el.curvature(chain.gather(q), 0.3)[0, 2 - dof] if dof else 0.0)
        f = np.zeros(chain.n)
        f[chain.node_dofs(n)[8]], f[chain.node_dofs(n)[10]] = 0.5e-5 * G * section.J, -0.5e-5 * G * section.J
        q = chain.solve_static(q0, f, clamp, tol=1e-12)
        row += [np.arctan2(q[chain.node_dofs(n)[8]], q[chain.node_dofs(n)[7]]), el.twist(chain.gather(q), 0.3)[0]]
        results.append(row)
    assert np.allclose(results[1], results[0], rtol=1e-8, atol=0)


@pytest.mark.parametrize("direction", [0, 2])
def test_curved_cantilever_converges_to_castigliano(direction):
    """Quarter circle R = 1 m, square section h = R/100, clamped (r, r_y, r_z) at one end, tip
    force F = 1e-7 EI/R² in plane (along the radius) or out of plane (bending and torsion):
    against Castigliano's thin-ring values (tests/elastica.py). Errors at 8, 16, 32 elements:
    in plane 1.3e-2, 4.0e-3, 1.0e-3; out of plane 2.3e-3, 5.1e-4, 1.2e-4: second order, as
    for the straight beam. Bounds: each refinement divides the error by > 3, and 32
    elements are within 1.5e-3 (the thin-ring formula leaves out terms ~I/(AR²) = 8e-6)."""
    R, h = 1.0, 0.01
    section = sections.rectangular(h, h)
    G = E / (2 * (1 + NU))
    k = section.shear_factor(NU)[0]
    F = 1e-7 * E * section.Iz / R**2
    exact = quarter_ring_tip(F, R, E * section.Iz, E * section.Iy, G * section.J, E * section.area,
                             k * G * section.area)[direction // 2]
    errors = []
    for n in (8, 16, 32):
        phi = np.linspace(0, np.pi / 2, n + 1)
        points = np.stack([R * np.sin(phi), R * (1 - np.cos(phi)), 0 * phi], -1)
        frames = np.stack([np.stack([np.cos(phi), np.sin(phi), 0 * phi], -1),
                           np.stack([-np.sin(phi), np.cos(phi), 0 * phi], -1),
                           np.broadcast_to([0.0, 0.0, 1.0], (n + 1, 3))], -1)
        el = ANCFBeam3D(frame_nodes(points, frames), E, RHO, section, nu=NU)
        chain = Chain(el)
        q0 = np.concatenate([points, frames[:, :, 0], frames[:, :, 1], frames[:, :, 2]], axis=1).ravel()
        q = chain.solve_static(q0, tip_load(chain, n, direction, F), np.r_[chain.node_dofs(0)[:3],
                                                                         chain.node_dofs(0)[6:]], tol=1e-12)
        errors.append(abs((q - q0)[chain.node_dofs(n)[direction]] / exact - 1))
    assert errors[0] > 3 * errors[1] and errors[1] > 3 * errors[2] and errors[2] < 1.5e-3, errors


def test_default_length_is_the_arc_length_of_the_reference_axis():
    """Without ``length`` the parameter length is the arc length of the cubic axis built
    with it (fixed point): checked against the length of a 4000-segment polyline on that
    cubic (short by ~(segment · κ)²/24 = 1.6e-10 relative, measured), and it lies within
    2e-5 of the circular arc R Δφ the nodes sample (the cubic's own deviation from the
    circle: 5.4e-6 at 4 elements; the chord, the former default, is 0.26 % short)."""
    q_ref, arc = arc_beam(n_el=4, radius=0.8)
    el = ANCFBeam3D(q_ref, E, RHO, sections.circular(0.01), nu=NU)
    xi = np.linspace(0, 1, 4001)
    points = np.einsum('exij,ej->exi', el.shape(xi), q_ref)
    polyline = np.linalg.norm(np.diff(points, axis=1), axis=-1).sum(axis=1)
    assert np.allclose(el.length, polyline, rtol=1e-8, atol=0)
    assert np.allclose(el.length, arc, rtol=2e-5, atol=0)
    straight, _ = straight_nodes(ANCFBeam3D, 3, 1.0)
    assert np.allclose(ANCFBeam3D(straight, E, RHO, sections.circular(0.01)).length, 1 / 3, rtol=1e-15, atol=0)
