"""Proofs for the three-node quadratic ANCF beam (ANCFBeamQuadratic)."""

import numpy as np
import pytest

from femdyn.elements import sections
from femdyn.elements.ancf_beam_quadratic import ANCFBeamQuadratic
from femdyn.errors import ModelError

from support.ancf_chain import Chain, check_energy_derivatives, rotation
from support.elastica import cantilever_tip, quarter_ring_tip

import beam_frequencies          

E, RHO, NU = 2.1e11, 7850.0, 0.3


def arc_nodes(n_el, radius=1.0, angle=np.pi / 2):
    """Nodes (2 n_el + 1, 9) [r, r_y, r_z] on a circular arc in the x–y plane, r_y towards the centre."""
    phi = np.linspace(0, angle, 2 * n_el + 1)
    return np.column_stack([radius * np.sin(phi), radius * (1 - np.cos(phi)), 0 * phi,
                            -np.sin(phi), np.cos(phi), 0 * phi, 0 * phi, 0 * phi, 1 + 0 * phi])


def straight_nodes(n_el, length=1.0):
    x = np.linspace(0, length, 2 * n_el + 1)
    return np.column_stack([x, 0 * x, 0 * x] + [np.full_like(x, v) for v in (0, 1, 0, 0, 0, 1)])


def elements(nodes):
    n_el = (len(nodes) - 1) // 2
    return np.array([nodes[2 * e:2 * e + 3].ravel() for e in range(n_el)])


def random_beams(seed=1, curved=False, damping=0.0):
    rng = np.random.default_rng(seed)
    nodes = arc_nodes(3) if curved else straight_nodes(3, 1.3)
    R = rotation(3, seed)
    nodes = (nodes.reshape(-1, 3, 3) @ R.T).reshape(-1, 9)
    q_ref = elements(nodes)
    el = ANCFBeamQuadratic(q_ref, E, RHO, sections.rectangular(0.02, 0.03), nu=NU, damping=damping)
    return el, q_ref, q_ref + 0.03 * rng.normal(size=q_ref.shape)


@pytest.mark.parametrize("curved", [False, True])
def test_force_is_energy_gradient_and_stiffness_is_force_jacobian(curved):
    """Central differences, 1e-6 relative (see ancf_chain.check_energy_derivatives)."""
    el, _, q = random_beams(curved=curved)
    check_energy_derivatives(el, q)


def test_damping_matrix_is_velocity_jacobian():
    el, _, q = random_beams(damping=1e-3)
    v = np.random.default_rng(3).normal(size=q.shape)
    _, D = el.stiffness(q, v)
    F0 = el.internal_force(q)
    Fd = el.internal_force(q, v) - F0
    assert np.abs(np.einsum('eab,eb->ea', D, v) - Fd).max() <= 1e-10 * np.abs(Fd).max()


@pytest.mark.parametrize("curved", [False, True])
def test_rigid_motion_is_stress_free_and_exactly_six_zero_modes(curved):
    """A rotated and shifted reference has zero force (to round-off); the tangent of one element has six
    zero eigenvalues (rigid motions, ≤ 1e-12 of the largest) and no spurious seventh (the
    reduced integration of axial and shear strains leaves no hourglass mode: > 1e-8)."""
    el, q_ref, _ = random_beams(curved=curved)
    R = rotation(3, 7)
    moved = (q_ref.reshape(-1, 9, 3) @ R.T).reshape(q_ref.shape)
    moved[:, 0::9] += 0.3
    assert np.abs(el.internal_force(moved)).max() <= 1e-13 * E * 6e-4       # round-off of EA ε (measured 4e-15 EA)
    w = np.sort(np.abs(np.linalg.eigvalsh(el.stiffness(q_ref)[0][0])))
    assert w[5] <= 1e-12 * w[-1] and w[6] > 1e-8 * w[-1]


def test_mass_matrix_reproduces_rigid_body_mass_properties():
    """Total mass ρAL, first moment (centre) and rotary inertia of a straight beam (exact: the
    5-point rule integrates the degree-4 products)."""
    section = sections.rectangular(0.02, 0.03)
    nodes = straight_nodes(2, 1.0)
    el = ANCFBeamQuadratic(elements(nodes), E, RHO, section, nu=NU)
    chain = Chain(el)
    M = chain.matrix(el.mass())
    q0 = nodes.ravel()
    x_dofs = np.arange(0, chain.n, 9)
    ones = np.zeros(chain.n)
    ones[x_dofs] = 1.0
    assert ones @ M @ ones == pytest.approx(RHO * section.area, rel=1e-12)
    positions = np.zeros(chain.n)
    positions[x_dofs] = q0[x_dofs]
    assert ones @ M @ positions == pytest.approx(RHO * section.area * 0.5, rel=1e-12)
    assert positions @ M @ positions == pytest.approx(RHO * section.area / 3, rel=1e-12)
    ry = np.zeros(chain.n)
    ry[4::9] = 1.0                                   # y component of r_y at every node
    assert ry @ M @ ry == pytest.approx(RHO * section.Iz, rel=1e-12)


def test_eigenfrequencies_converge_at_fourth_order_to_the_two_node_limit():
    """Clamped–free, L/r = 100 (benchmarks/validation/beam_frequencies.py). Against
    Euler–Bernoulli the first two are −0.023 % and −0.157 % at 16 elements (measured; goal
    ≤ 0.2 %): below, by the Timoshenko (shear, rotary inertia) correction. The third
    frequency converges at fourth order (errors against the 32-element value: 0.18, 0.011 %
    at 8, 16 elements; bound: observed order ≥ 3.5), and the converged values agree with the
    Richardson limit of the two-node ANCFBeam3D (second order) to 2e-5 relative: two
    different elements, one continuum."""
    exact = beam_frequencies.euler_bernoulli()
    w = {n: beam_frequencies.frequencies(ANCFBeamQuadratic, n)[::2][:3] for n in (8, 16, 32)}
    assert np.all(np.abs(w[16][:2] / exact[:2] - 1) <= 2e-3)
    e8, e16 = np.abs(w[8] - w[32]), np.abs(w[16] - w[32])
    assert np.log2(e8[2] / e16[2]) >= 3.5
    two_node = {n: beam_frequencies.frequencies(beam_frequencies.ANCFBeam3D, n)[::2][:3] for n in (32, 64)}
    richardson = two_node[64] + (two_node[64] - two_node[32]) / 3
    assert np.allclose(w[32], richardson, rtol=2e-5)


def cantilever(n_el, section):
    nodes = straight_nodes(n_el)
    el = ANCFBeamQuadratic(elements(nodes), E, RHO, section, nu=NU)
    chain = Chain(el)
    return el, chain, nodes.ravel(), chain.node_dofs(0)          # clamp: r, r_y, r_z of the root


def test_large_deflection_converges_to_the_elastica():
    """L/h = 100, PL²/EI = 5 against Mattiasson's elastica: (v, u) errors 4.2e-4/4.2e-4,
    3.2e-5/1.4e-5, 6.5e-5/1.4e-5 L at 4, 8, 16 elements and 6.7e-5/1.5e-5 at 32 (measured):
    converged by 16 elements to the shear and extension offset (~1e-4 L at L/h = 100) that
    the inextensible, shear-rigid elastica lacks. Bounds: 2e-4 L at 8 and 16 elements, and
    16 → 32 elements changes the tip by < 1e-5 L."""
    section = sections.rectangular(0.01, 0.01)
    v_ref, u_ref = cantilever_tip(5.0)
    tips = {}
    for n_el in (8, 16, 32):
        el, chain, q0, clamp = cantilever(n_el, section)
        f = np.zeros(chain.n)
        f[chain.node_dofs(2 * n_el)[1]] = -5.0 * E * section.Iz
        q = chain.solve_static(q0, f, clamp, steps=12, tol=1e-10)
        tips[n_el] = np.array([-q[chain.node_dofs(2 * n_el)[1]], 1 - q[chain.node_dofs(2 * n_el)[0]]])
    for n_el in (8, 16):
        assert np.abs(tips[n_el] - (v_ref, u_ref)).max() <= 2e-4, tips
    assert np.abs(tips[32] - tips[16]).max() <= 1e-5


@pytest.mark.parametrize("slenderness", [100, 1000])
def test_curved_cantilever_is_free_of_membrane_locking(slenderness):
    """Quarter circle R = 1 m, square section R/slenderness, in-plane tip force along the
    radius: against Castigliano's thin ring (tests/elastica.py). The two-node ANCFBeam3D
    locks at R/h = 1000 (−90 % at 4 elements); here the errors are −8.9e-3, −5.7e-4, −3.6e-5
    at 2, 4, 8 elements for R/h = 100 and 1000 alike (measured): fourth order, independent
    of the slenderness (selective reduced integration of the axial strain). Bounds: 1e-3 at
    4 elements, 1e-4 at 8 (the thin-ring formula leaves out ~I/(AR²) ≤ 1e-5)."""
    R, h = 1.0, 1.0 / slenderness
    section = sections.rectangular(h, h)
    G = E / (2 * (1 + NU))
    k = section.shear_factor(NU)[0]
    F = 1e-7 * E * section.Iz / R**2
    exact = quarter_ring_tip(F, R, E * section.Iz, E * section.Iy, G * section.J, E * section.area,
                             k * G * section.area)[0]
    for n_el, bound in ((4, 1e-3), (8, 1e-4)):
        nodes = arc_nodes(n_el, R)
        el = ANCFBeamQuadratic(elements(nodes), E, RHO, section, nu=NU)
        chain = Chain(el)
        f = np.zeros(chain.n)
        f[chain.node_dofs(2 * n_el)[0]] = F              # the tip's radius points along x
        q = chain.solve_static(nodes.ravel(), f, chain.node_dofs(0), tol=1e-12)
        tip = (q - nodes.ravel())[chain.node_dofs(2 * n_el)[0]]
        assert abs(tip / exact - 1) <= bound, (n_el, tip / exact - 1)


def test_bad_input_names_the_element():
    nodes = straight_nodes(1)
    q = elements(nodes)
    bad = q.copy()
    bad[0, 9] = 0.9                                  # midpoint node at 90 % of the chord
    with pytest.raises(ModelError, match="ANCFBeamQuadratic element 0: the midpoint node"):
        ANCFBeamQuadratic(bad, E, RHO, sections.circular(0.01))
    flipped = q.copy()
    flipped[0, 6:9] *= -1                            # r_z of the first node reversed
    with pytest.raises(ModelError, match="left-handed"):
        ANCFBeamQuadratic(flipped, E, RHO, sections.circular(0.01))


def test_model_cantilever_with_beam3_elements_and_sensors():
    """Model layer: ``straight_beam(..., element="beam3")``, a clamp on the root director
    node, a tip force and strain/curvature sensors. At PL²/EI = 1e-5 the quadratic element
    represents the linear Timoshenko solution exactly (linear curvature, constant shear):
    tip deflection PL³/3EI + PL/(kGA) to 1e-6 relative (the geometric nonlinearity is
    ~1e-10); the surface gauge on top of the root reads M c/EI (tension, M = PL) and the
    curvature sensor M/EI at ξ = 0.5 of the first element: measured 4e-6 and 8e-12
    relative (the element's curvature is exact at its midpoint, 4e-6 off at its ends);
    bounds 1e-5 and 1e-9."""
    import femdyn
    from femdyn.solvers.static import static_equilibrium
    L, n, section = 1.0, 4, sections.circular(0.01)
    EI = E * float(section.Iy)
    P = 1e-5 * EI / L**2
    m = femdyn.Model("beam3 cantilever", gravity=(0, 0, 0))
    m.straight_beam("b", (0, 0, 0), (L, 0, 0), n, E=E, rho=RHO, section=section, element="beam3", nu=NU)
    m.clamp("root", "b.0")
    m.beam_force("tip", "b", n - 1, 1.0, (0, 0, -P))
    m.sensor_strain("gauge", "b", 0, 0.0, z=0.01)
    m.sensor_beam("kappa", "b", 0, 0.5, "curvature")
    system = m.assemble()
    q, lam = static_equilibrium(system)
    G, k = E / (2 * (1 + NU)), section.shear_factor(NU)[0]
    expected = P * L**3 / (3 * EI) + P * L / (k * G * float(section.area))
    assert -q[m.node(f"b.{2 * n}").dofs[2]] == pytest.approx(expected, rel=1e-6)
    readings = {s.name: s.measure(q, None, None, lam, 0.0) for s in m.sensors}
    assert readings["gauge"][0] == pytest.approx(P * L * 0.01 / EI, rel=1e-5)
    assert readings["kappa"][0] == pytest.approx(P * (L - L / (2 * n)) / EI, rel=1e-9)
