"""Proofs for the ANCF cable kernels (2-D and 3-D)."""
import numpy as np
import pytest

from femdyn.elements import sections
from femdyn.elements.ancf_cable import ANCFCable2D, ANCFCable3D
from femdyn.errors import ModelError

from support.ancf_chain import Chain, central_difference, rotation, straight_nodes
from support.elastica import MATTIASSON, cantilever_tip

E, RHO, RADIUS = 2.1e11, 7850.0, 0.01
CABLES = [ANCFCable2D, ANCFCable3D]
# reference shapes of each kernel: the 3-D cable is a straight-reference element
SHAPES = [(ANCFCable2D, False), (ANCFCable2D, True), (ANCFCable3D, False)]


def arc_reference(cls, n_el=3, radius=0.7):
    """Elements along a circular arc (curved, stress-free reference); slopes unit tangents."""
    d = cls.dim
    phi = np.linspace(0, 1.2, n_el + 1)
    pts = np.zeros((n_el + 1, d))
    tan = np.zeros((n_el + 1, d))
    pts[:, 0], pts[:, 1] = radius * np.sin(phi), radius * (1 - np.cos(phi))
    tan[:, 0], tan[:, 1] = np.cos(phi), np.sin(phi)
    nodes = np.hstack([pts, tan])
    return np.hstack([nodes[:-1], nodes[1:]]), radius * np.diff(phi)


def random_elements(cls, seed=1, n_el=5, damping=0.0, curved=False):
    rng = np.random.default_rng(seed)
    if curved:
        q_ref, length = arc_reference(cls, n_el)
    else:
        d = cls.dim
        L = rng.uniform(0.5, 1.5, n_el)
        q_ref = np.zeros((n_el, cls.ndof))
        q_ref[:, d] = 1.0
        q_ref[:, 2 * d] = L
        q_ref[:, 3 * d] = 1.0
        q_ref = np.einsum('ij,enj->eni', rotation(d, seed), q_ref.reshape(n_el, 4, d)).reshape(n_el, -1)
        length = None
    el = cls(q_ref, E, RHO, sections.circular(RADIUS), damping=damping, length=length)
    # moderate deformation: 5 % of the length in positions, 0.05 in slopes
    q = q_ref + 0.05 * rng.normal(size=q_ref.shape)
    return el, q_ref, q


@pytest.mark.parametrize("cls, curved", SHAPES)
def test_force_is_energy_gradient_and_stiffness_is_force_jacobian(cls, curved):
    el, _, q = random_elements(cls, curved=curved)
    F = el.internal_force(q)
    F_fd = central_difference(el.strain_energy, q, 1e-6)
    # central differences with h = 1e-6 m: truncation ~h² U''' and round-off ~1e-16 U/h stay < 1e-8 relative
    assert np.abs(F - F_fd).max() <= 1e-6 * np.abs(F).max()
    K, D = el.stiffness(q)
    K_fd = central_difference(el.internal_force, q, 1e-7)
    assert D is None
    assert np.abs(K - K_fd).max() <= 1e-6 * np.abs(K).max()
    # the tangent of a conservative force is symmetric (to round-off)
    assert np.abs(K - np.swapaxes(K, 1, 2)).max() <= 1e-10 * np.abs(K).max()


@pytest.mark.parametrize("cls", CABLES)
def test_damping_matrix_is_velocity_jacobian_and_rigid_velocity_is_not_damped(cls):
    el, q_ref, q = random_elements(cls, damping=0.02)
    rng = np.random.default_rng(7)
    v = rng.normal(size=q.shape)
    K, D = el.stiffness(q, v)
    Fd = lambda vv: el.internal_force(q, vv) - el.internal_force(q)
    D_fd = central_difference(Fd, v, 1e-3)
    # F_d is linear in v, so central differences are exact up to round-off
    assert np.abs(D - D_fd).max() <= 1e-6 * np.abs(D).max()
    assert np.abs(D - np.swapaxes(D, 1, 2)).max() <= 1e-10 * np.abs(D).max()
    K0, _ = el.stiffness(q)
    assert np.array_equal(K, K0)            # K omits the q-derivative of the damping force (documented)
    # rigid velocity of the straight reference: translation + rotation; positions r → ω×r, slopes r_x → ω×r_x
    d = el.dim
    nodes = q_ref.reshape(el.n_el, 4, d)
    if d == 2:
        v_rigid = np.stack([-nodes[..., 1], nodes[..., 0]], -1)
    else:
        v_rigid = np.cross(np.array([0.3, -1.2, 0.7]), nodes)
    v_rigid[:, [0, 2]] += 0.5                  # translation of the positions only
    f_rigid = el.internal_force(q_ref, v_rigid.reshape(el.n_el, -1))
    # scale: damping force of a unit random velocity; rigid motion must produce only round-off
    assert np.abs(f_rigid).max() <= 1e-10 * np.abs(el.internal_force(q_ref, v) ).max()


@pytest.mark.parametrize("cls, curved", SHAPES)
def test_rigid_motion_gives_zero_internal_force(cls, curved):
    el, q_ref, _ = random_elements(cls, curved=curved)
    d = el.dim
    R = rotation(d, 3)
    nodes = q_ref.reshape(el.n_el, 4, d) @ R.T
    nodes[:, [0, 2]] += np.array([0.4, -2.0, 1.1][:d])      # translate positions, not slopes
    F = el.internal_force(nodes.reshape(el.n_el, -1))
    # force scale: a 1e-3 relative deformation of the reference
    F_small = el.internal_force(q_ref * (1 + 1e-3))
    assert np.abs(F).max() <= 1e-10 * np.abs(F_small).max()
    # energy: (κ − κ₀)² cancels to round-off of EI κ₀² ~ 1e-16 relative
    assert np.abs(el.strain_energy(nodes.reshape(el.n_el, -1))).max() <= 1e-12 * el.strain_energy(q_ref * 1.001).max()


@pytest.mark.parametrize("cls", CABLES)
def test_mass_matrix_reproduces_rod_mass_moments(cls):
    el, q_ref, _ = random_elements(cls)
    d = el.dim
    M = el.mass()
    assert np.abs(M - np.swapaxes(M, 1, 2)).max() <= 1e-14 * np.abs(M).max()
    assert np.linalg.eigvalsh(M).min() > 0
    nodes = q_ref.reshape(el.n_el, 4, d)
    p, L = nodes[:, 0], el.length
    t = (nodes[:, 2] - p) / L[:, None]
    m = RHO * np.pi * RADIUS**2 * L
    Z = M.reshape(el.n_el, 4, d, 4, d)[:, :, 0, :, 0]          # M = Z ⊗ 1
    unit = np.array([1.0, 0.0, 1.0, 0.0])                      # rigid translation pattern
    mass = np.einsum('a,eab,b->e', unit, Z, unit)
    first = np.einsum('a,eab,ebi->ei', unit, Z, nodes)
    second = np.einsum('eai,eab,ebj->eij', nodes, Z, nodes)
    # analytic: ∫ρA r ds, ∫ρA r rᵀ ds for r = p + s t, s ∈ [0, L]
    first_exact = m[:, None] * (p + 0.5 * L[:, None] * t)
    second_exact = m[:, None, None] * (np.einsum('ei,ej->eij', p, p)
                                       + 0.5 * L[:, None, None] * (np.einsum('ei,ej->eij', p, t) + np.einsum('ei,ej->eij', t, p))
                                       + L[:, None, None] ** 2 / 3 * np.einsum('ei,ej->eij', t, t))
    # 5-point Gauss integrates the degree-6 Hermite products exactly: only round-off remains
    assert np.abs(mass - m).max() <= 1e-12 * m.max()
    assert np.abs(first - first_exact).max() <= 1e-12 * np.abs(first_exact).max()
    assert np.abs(second - second_exact).max() <= 1e-12 * np.abs(second_exact).max()
    g = np.array([0.0, -9.81, 0.0][:d])
    fg = el.gravity(g).reshape(el.n_el, 4, d)
    assert np.allclose(np.einsum('a,eai->ei', unit, fg), m[:, None] * g, rtol=1e-12, atol=0)


def cantilever(cls, n_el, length=1.0, radius=RADIUS, damping=0.0):
    q_e, q0 = straight_nodes(cls, n_el, length)
    el = cls(q_e, E, RHO, sections.circular(radius), damping=damping)
    chain = Chain(el)
    # clamp: position and the direction of r_x; its axial component (the stretch) stays free
    clamp = np.delete(chain.node_dofs(0), cls.dim)
    return el, chain, q0, clamp


@pytest.mark.parametrize("cls", CABLES)
@pytest.mark.parametrize("n_el", [1, 2, 4, 8])
def test_cantilever_small_tip_loads_match_beam_theory(cls, n_el):
    el, chain, q0, clamp = cantilever(cls, n_el)
    d, L = el.dim, 1.0
    EI, EA = el.EI[0], el.EA[0]
    P = 1e-4 * EI / L**2                    # PL²/EI = 1e-4: geometric nonlinearity ~ (PL²/EI)² = 1e-8 relative
    tip = chain.node_dofs(n_el)
    for direction in range(1, d):
        f = np.zeros(chain.n)
        f[tip[direction]] = P
        q = chain.solve_static(q0, f, clamp, tol=1e-12)
        # cubic Hermite contains the exact cubic deflection: only solver tolerance and the 1e-8 nonlinearity
        assert q[tip[direction]] == pytest.approx(P * L**3 / (3 * EI), rel=1e-6)
    N = 1e-4 * EA
    f = np.zeros(chain.n)
    f[tip[0]] = N
    q = chain.solve_static(q0, f, clamp, tol=1e-12)
    # engineering strain: |r_x| = 1 + N/EA is represented exactly at any load; Newton tolerance 1e-12
    assert q[tip[0]] - L == pytest.approx(N * L / EA, rel=1e-9)


def test_out_of_plane_load_on_3d_cable_keeps_isotropy():
    el, chain, q0, clamp = cantilever(ANCFCable3D, 4)
    tip = chain.node_dofs(4)
    P = 1e-4 * el.EI[0]
    f = np.zeros(chain.n)
    f[tip[1]], f[tip[2]] = P, P
    q = chain.solve_static(q0, f, clamp, tol=1e-12)
    # isotropic bending: an oblique load gives equal deflections (round-off level)
    assert q[tip[1]] == pytest.approx(q[tip[2]], rel=1e-10)


def large_deflection_errors(cls, load_parameter, n_list, steps):
    errors = []
    for n_el in n_list:
        el, chain, q0, clamp = cantilever(cls, n_el, radius=1e-3)   # EA L²/EI = 4e6: extension ≤ 2.5e-6
        tip = chain.node_dofs(n_el)
        f = np.zeros(chain.n)
        f[tip[1]] = -load_parameter * el.EI[0]
        q = chain.solve_static(q0, f, clamp, steps=steps, tol=1e-10)
        errors.append((-q[tip[1]], 1 - q[tip[0]]))
    return np.array(errors)


@pytest.mark.parametrize("cls", CABLES)
@pytest.mark.parametrize("load_parameter", sorted(MATTIASSON))
def test_large_deflection_cantilever_converges_to_elastica(cls, load_parameter):
    v_ref, u_ref = cantilever_tip(load_parameter)
    # independent elastica quadrature reproduces Mattiasson's 5-digit table
    assert abs(v_ref - MATTIASSON[load_parameter][0]) <= 6e-6
    assert abs(u_ref - MATTIASSON[load_parameter][1]) <= 6e-6
    res = large_deflection_errors(cls, load_parameter, [4, 8, 16], steps=int(2 * load_parameter) + 2)
    err = np.abs(res - [v_ref, u_ref]).max(axis=1)
    # refinement reduces the error; with EA L²/EI = 4e6 the cable shows membrane locking
    # (axial–bending coupling, Gerstmayr & Irschik 2008): at PL²/EI = 10 the errors are
    # 8.4e-3, 2.2e-3, 3.8e-4 L at 4, 8, 16 elements
    assert err[0] > err[1] > err[2]
    # 16 elements: within 1e-3 L of the elastica (extensibility contributes ≤ 2.5e-6 L)
    assert err[2] <= 1e-3


def test_eigenfrequencies_of_3d_cable_match_euler_bernoulli():
    n_el, L = 16, 1.0
    el, chain, q0, clamp = cantilever(ANCFCable3D, n_el, length=L)
    scale = np.sqrt(el.EI[0] / (RHO * el.A[0])) / L**2
    beta_cf = np.array([1.87510407, 4.69409113, 7.85475744])
    beta_ff = np.array([4.73004074, 7.85320462, 10.99560784])
    w = chain.frequencies(q0, clamp)
    # two bending planes per frequency; cubic Hermite discretization errors ~1e-5 here
    assert np.allclose(w[:6], np.repeat(beta_cf**2 * scale, 2), rtol=1e-4)
    w = chain.frequencies(q0)
    # free-free: 3 translations + 2 rotations (no torsion dof), then bending pairs
    # rigid modes come out at round-off level √(eps λ_max) ~ 1e-5 of the first bending frequency
    assert np.abs(w[:5]).max() <= 1e-4 * w[5]
    # cubic Hermite error at 16 elements: ≤ 1.5e-4 (third free-free mode)
    assert np.allclose(w[5:11], np.repeat(beta_ff**2 * scale, 2), rtol=3e-4)


def test_eigenfrequencies_of_2d_cable_match_euler_bernoulli():
    n_el, L = 16, 1.0
    el, chain, q0, clamp = cantilever(ANCFCable2D, n_el, length=L)
    scale = np.sqrt(el.EI[0] / (RHO * el.A[0])) / L**2
    w = chain.frequencies(q0, clamp)
    assert np.allclose(w[:3], np.array([1.87510407, 4.69409113, 7.85475744]) ** 2 * scale, rtol=1e-4)
    w = chain.frequencies(q0)
    assert np.abs(w[:3]).max() <= 1e-4 * w[3]          # 2 translations + 1 rotation, round-off level
    assert np.allclose(w[3:6], np.array([4.73004074, 7.85320462, 10.99560784]) ** 2 * scale, rtol=3e-4)


@pytest.mark.parametrize("cls", CABLES)
def test_surface_strain_under_tip_moment(cls):
    n_el, L = 4, 1.0
    el, chain, q0, clamp = cantilever(cls, n_el, length=L)
    d, EI, c = el.dim, el.EI[0], RADIUS
    M = 1e-7 * EI / L                      # κL = 1e-7: strains are linear in the load to ~1e-7 relative
    tip = chain.node_dofs(n_el)
    # a moment about z turns the tangent towards +y: generalized force M on r_x,y (linear regime)
    f = np.zeros(chain.n)
    f[tip[d + 1]] = M
    q = chain.solve_static(q0, f, clamp, tol=1e-13)
    for e, xi in [(0, 0.1), (1, 0.5), (3, 0.9)]:
        strain = lambda y, z: el.axial_strain(chain.gather(q), xi, y, z)[e]
        # κ_z = M/EI > 0: fibres at +y are compressed
        assert strain(c, 0.0) == pytest.approx(-M * c / EI, rel=1e-6)
        assert strain(-c, 0.0) == pytest.approx(M * c / EI, rel=1e-6)
    if d == 3:
        f = np.zeros(chain.n)
        f[tip[d + 2]] = -M                 # moment about +y turns the tangent towards −z
        q = chain.solve_static(q0, f, clamp, tol=1e-13)
        kappa = el.curvature(chain.gather(q), 0.5)
        assert kappa[2, 0] == pytest.approx(M / EI, rel=1e-6) and abs(kappa[2, 1]) <= 1e-9 * M / EI
        for e, xi in [(0, 0.1), (2, 0.5), (3, 0.9)]:
            assert el.axial_strain(chain.gather(q), xi, 0.0, c)[e] == pytest.approx(M * c / EI, rel=1e-6)
            assert el.axial_strain(chain.gather(q), xi, 0.0, -c)[e] == pytest.approx(-M * c / EI, rel=1e-6)
    else:
        assert el.curvature(chain.gather(q), 0.3)[1] == pytest.approx(M / EI, rel=1e-6)


@pytest.mark.parametrize("cls", CABLES)
def test_bad_input_names_the_element(cls):
    q_e, _ = straight_nodes(cls, 3, 1.0)
    sec = sections.circular(RADIUS)
    with pytest.raises(ModelError, match="element 1.*Young"):
        cls(q_e, [E, -1.0, E], RHO, sec)
    with pytest.raises(ModelError, match="element 2.*density"):
        cls(q_e, E, [RHO, RHO, 0.0], sec)
    bad = q_e.copy()
    bad[0, cls.ndof // 2:cls.ndof // 2 + cls.dim] = bad[0, :cls.dim]
    with pytest.raises(ModelError, match="element 0.*zero length"):
        cls(bad, E, RHO, sec)
    with pytest.raises(ModelError, match="shape"):
        cls(q_e[:, :-1], E, RHO, sec)
    with pytest.raises(ModelError, match="damping"):
        cls(q_e, E, RHO, sec, damping=-1.0)
    with pytest.raises(ModelError, match="radius"):
        sections.circular(-0.01)
    with pytest.raises(ModelError, match="gravity"):
        cls(q_e, E, RHO, sec).gravity([0.0, 0.0, 0.0, 0.0])
    with pytest.raises(ModelError, match="E must be a number or a list of one number per element"):
        cls(q_e, [E, E], RHO, sec)
    with pytest.raises(ModelError, match="section must be a femdyn.elements.sections.CrossSection"):
        cls(q_e, E, RHO, 0.01)
    reversed_slope = q_e.copy()
    reversed_slope[1, cls.ndof // 2 + cls.dim:] *= -1                # node 2 of element 1 points back
    with pytest.raises(ModelError, match="element 1: the slope r_x at its node 2 is zero or points against"):
        cls(reversed_slope, E, RHO, sec)


def test_3d_cable_refuses_a_curved_reference():
    """About a curved reference the 3-D cable's energy (a function of |κ|) has no
    out-of-plane or torsional stiffness: 8 of 24 stiffness eigenvalues of a clamped 4-element
    quarter circle were zero. It is refused, naming the 2-D cable and the full beam."""
    q_ref, length = arc_reference(ANCFCable3D)
    with pytest.raises(ModelError, match="element 0: the reference axis is curved.*'cable2d'.*'beam'"):
        ANCFCable3D(q_ref, E, RHO, sections.circular(RADIUS), length=length)


@pytest.mark.parametrize("cls", CABLES)
def test_round_off_reference_curvature_is_exactly_zero(cls):
    """A straight cable along a direction whose coordinates are not exact in binary
    (0.6, 0.8, 0) has a computed reference curvature of ~3e-14 1/m; below |κ₀| L = 1e-9 it
    is set to 0, so the 3-D kernel is accepted and both give the x-axis stiffness
    (rotation invariance: the rotated tangent equals Rᵀ K R to round-off, 1e-12)."""
    direction = np.array([0.6, 0.8, 0.0])[:cls.dim]
    q_e, q0 = straight_nodes(cls, 4, 1.0, direction)
    el = cls(q_e, E, RHO, sections.circular(RADIUS))
    assert np.all(el.kappa_ref == 0.0)
    x_axis = cls(straight_nodes(cls, 4, 1.0)[0], E, RHO, sections.circular(RADIUS))
    R = np.eye(cls.dim)
    R[:2, :2] = [[0.6, -0.8], [0.8, 0.6]]                           # x axis → direction
    T = np.kron(np.eye(4), R)
    K, Kx = el.stiffness(q_e)[0], x_axis.stiffness(x_axis.q_ref)[0]
    assert np.abs(T.T @ K @ T - Kx).max() <= 1e-12 * np.abs(Kx).max()


def test_3d_cable_rejects_anisotropic_section():
    q_e, _ = straight_nodes(ANCFCable3D, 2, 1.0)
    with pytest.raises(ModelError, match="isotropic"):
        ANCFCable3D(q_e, E, RHO, sections.rectangular(0.01, 0.02))


@pytest.mark.parametrize("cls", CABLES)
def test_shape_matrix_interpolates_nodes_and_slopes(cls):
    el, _, q = random_elements(cls, curved=cls.planar)
    d = el.dim
    nodes = q.reshape(el.n_el, 4, d)
    S = el.shape(np.array([0.0, 1.0]))
    r = np.einsum('exij,ej->exi', S, q)
    # S q reproduces the nodal positions exactly (Hermite interpolation)
    assert np.allclose(r[:, 0], nodes[:, 0], rtol=0, atol=1e-14) and np.allclose(r[:, 1], nodes[:, 2], rtol=0, atol=1e-14)
    # d(S q)/dx equals the slope field used by the strains (central difference in ξ, h = 1e-5: error ~1e-10)
    h, xi = 1e-5, 0.37
    slope = np.einsum('eij,ej->ei', el.shape(xi + h) - el.shape(xi - h), q) / (2 * h * el.length[:, None])
    assert np.allclose(slope, el.vectors_at(q, xi)[:, 0], rtol=0, atol=1e-8)
