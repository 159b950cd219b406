"""Force elements (point mass, spring-damper with preload, table or user law, rotational
spring-damper, bushing) against closed forms: the damped oscillator, static lengths, the
table, the damped pendulum, the bushing matrix; every tangent against finite differences;
the energy balance of an undamped chain."""
import numpy as np
import pytest
from scipy.optimize import brentq

import femdyn
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.static import static_equilibrium

G = 9.81


def tangents_against_differences(s, q, v, h=1e-6, rtol=1e-6):
    """System K, C against central differences of Q (steps h: truncation and round-off ≲ 1e-8 of the scale)."""
    k, c = s.tangent_values(q, v, 0.0)
    K, C = s.patterns.stiffness.matrix(k).toarray(), s.patterns.damping.matrix(c).toarray()
    fdK = np.column_stack([(s.forces(q - e, v, 0.0) - s.forces(q + e, v, 0.0)) / (2 * h) for e in h * np.eye(s.n)])
    fdC = np.column_stack([(s.forces(q, v - e, 0.0) - s.forces(q, v + e, 0.0)) / (2 * h) for e in h * np.eye(s.n)])
    for A, fd in ((K, fdK), (C, fdC)):
        scale = max(np.abs(fd).max(), 1e-12)
        assert np.abs(A - fd).max() <= rtol * scale, np.abs(A - fd).max() / scale
    return K, C


def energy_gradient_is_minus_force(s, q, h=1e-6, rtol=1e-6):
    """Q(q, 0) − Q_gravity = −∂V/∂q: the energies belong to the forces (central differences)."""
    Q = s.forces(q, np.zeros(s.n), 0.0) - s.gravity_force
    V = lambda x: s.potential_energy(x) + s.gravity_force @ x
    dV = np.array([(V(q + e) - V(q - e)) / (2 * h) for e in h * np.eye(s.n)])
    assert np.abs(Q + dV).max() <= rtol * max(np.abs(Q).max(), 1e-9)


# --- the damped oscillator ---------------------------------------------------------------------
def oscillator(mass=2.0, k=50.0, c=1.0, x0=0.01):
    m = femdyn.Model("oscillator", gravity=(0, 0, 0))
    m.point_mass("bob", (1.0 + x0, 0, 0), mass)
    m.spring("spring", "ground", (0, 0, 0), "bob", (1.0 + x0, 0, 0), stiffness=k, damping=c, rest_length=1.0)
    m.fix("bob", components=(1, 2))
    m.sensor_force("spring", "spring")
    return m


def crossings(t, x):
    """Times where x changes sign (linear interpolation)."""
    k = np.nonzero(np.sign(x[:-1]) != np.sign(x[1:]))[0]
    return t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])


def test_mass_on_a_spring_damper_oscillates_and_decays_as_the_closed_form():
    mass, k, c, x0 = 2.0, 50.0, 1.0, 0.01
    r = integrate(oscillator(mass, k, c, x0).assemble(), 4.0, 1e-3, Options(rho_inf=0.9))
    wn, zeta = np.sqrt(k / mass), c / (2 * np.sqrt(k * mass))
    wd = wn * np.sqrt(1 - zeta ** 2)
    x = r["bob.rx"] - 1.0
    exact = np.exp(-zeta * wn * r.t) * (x0 * np.cos(wd * r.t) + zeta * wn * x0 / wd * np.sin(wd * r.t))
    # generalized-α's phase error (ωh)²/12 = 2e-6 per radian over 20 rad: measured 1.5e-5 x0
    assert np.abs(x - exact).max() < 1e-4 * x0
    # frequency from the zero crossings of the velocity (the extrema), O(h²): measured 2.1e-6
    tv = crossings(r.t, r["spring.rate"])
    assert np.pi / np.diff(tv).mean() == pytest.approx(wd, rel=1e-5)
    # decay from the extrema's envelope: |x| at the velocity zeros, log-linear fit (measured 3.3e-6)
    peaks = np.abs(np.interp(tv, r.t, x))
    rate = -np.polyfit(tv, np.log(peaks), 1)[0]
    assert rate == pytest.approx(zeta * wn, rel=1e-4)
    # the force channel is the tension k δ + c δ̇
    assert r["spring.force"] == pytest.approx(k * r["spring.deflection"] + c * r["spring.rate"], abs=1e-12)


# --- statics -----------------------------------------------------------------------------------
def test_a_preloaded_spring_hangs_at_its_static_length():
    mass, k, preload, rest = 1.5, 300.0, 5.0, 1.0
    m = femdyn.Model("hanging", gravity=(0, 0, -G))
    m.point_mass("bob", (0, 0, -rest), mass)
    m.spring("spring", "ground", (0, 0, 0), "bob", (0, 0, -rest), stiffness=k, preload=preload)
    m.sensor_force("spring", "spring")
    s = m.assemble()
    q, lam = static_equilibrium(s)
    # ℓ = L₀ + (m g − f₀)/k exactly; Newton's tolerance 1e-10 of the force
    assert -q[2] == pytest.approx(rest + (mass * G - preload) / k, abs=1e-12)
    force, deflection, rate = s.sensors[0].measure(q, np.zeros(3), None, lam, 0.0)
    assert force == pytest.approx(mass * G, rel=1e-12) and rate == 0.0


@pytest.mark.parametrize("kind", ["linear", "spline"])
def test_a_tabulated_spring_holds_each_weight_at_its_table_deflection(kind):
    """Weights equal to the table's forces hang at the table's deflections (both interpolants
    pass through the knots); between knots the piecewise-linear law inverts exactly."""
    stretch = np.array([-0.02, 0.0, 0.01, 0.03, 0.06, 0.1])
    force = np.array([-10.0, 0.0, 4.0, 9.0, 12.0, 14.0])            # softening
    law = femdyn.Table(stretch, force, kind=kind)
    weights = list(force[2:]) + [6.5, 10.2]
    m = femdyn.Model("table", gravity=(0, 0, -G))
    for i, w in enumerate(weights):
        x = (float(i), 0.0, -1.0)
        m.point_mass(f"bob{i}", x, w / G)
        m.spring(f"s{i}", "ground", (float(i), 0, 0), f"bob{i}", x, law=law)
        m.fix(f"bob{i}", components=(0, 1))          # unstretched, the spring has no lateral stiffness
    s = m.assemble()
    q, _ = static_equilibrium(s, load_steps=4)
    found = -q[2::3] - 1.0
    np.testing.assert_allclose(found[:4], stretch[2:], atol=1e-11)          # Newton tolerance 1e-10 N / k
    if kind == "linear":
        np.testing.assert_allclose(found[4:], np.interp(weights[4:], force, stretch), atol=1e-11)
    else:
        np.testing.assert_allclose([law(d, 0.0)[0] for d in found[4:]], weights[4:], rtol=1e-10)


def test_a_rotational_spring_turns_by_torque_over_stiffness():
    """Joint torque T against the spring k: θ = T/k exactly (the joint angle is exact, no small-angle step)."""
    m = femdyn.Model("dial", gravity=(0, 0, 0))
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    m.revolute("hinge", "ground", rod, (0, 0, 0), (0, 0, 1), angle0=0.3)
    m.rotational_spring("spring", "hinge", stiffness=10.0, rest_angle=0.3, preload=-2.0)
    m.torque("motor", "hinge", 5.0)
    m.sensor_angle("hinge", "hinge")
    m.sensor_force("spring", "spring")
    s = m.assemble()
    q, lam = static_equilibrium(s, load_steps=4)
    angle = s.sensors[0].measure(q, np.zeros(s.n), None, lam, 0.0)[0]
    torque, deflection, _ = s.sensors[1].measure(q, np.zeros(s.n), None, lam, 0.0)
    assert angle == pytest.approx(0.3 + (5.0 + 2.0) / 10.0, abs=1e-12)
    assert deflection == pytest.approx(0.7, abs=1e-12) and torque == pytest.approx(5.0, abs=1e-10)


# --- the damped pendulum ------------------------------------------------------------------------
def test_a_rotational_spring_damper_on_a_pendulum_hinge_gives_the_closed_form_oscillation():
    length, mass, k, c, amplitude = 1.0, 1.0, 2.0, 0.05, 1e-3
    m = femdyn.Model("pendulum", gravity=(0, 0, -G))
    tip = length * np.array([-np.sin(amplitude), 0.0, -np.cos(amplitude)])
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", tip), mass=mass)
    m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0), angle0=amplitude)
    m.rotational_spring("spring", "pivot", stiffness=k, damping=c, rest_angle=0.0)
    m.sensor_angle("pivot", "pivot")
    m.sensor_force("spring", "spring")
    r = integrate(m.assemble(), 4.0, 1e-3, Options(rho_inf=0.9))
    inertia, stiffness = mass * length ** 2 / 3, k + mass * G * length / 2
    wn, zeta = np.sqrt(stiffness / inertia), c / (2 * np.sqrt(stiffness * inertia))
    wd = wn * np.sqrt(1 - zeta ** 2)
    exact = amplitude * np.exp(-zeta * wn * r.t) * (np.cos(wd * r.t) + zeta * wn / wd * np.sin(wd * r.t))
    theta = r["pivot.angle"]
    # sin θ ≈ θ leaves θ²/6 ≈ 2e-7; generalized-α's phase error (ωh)²/12 per radian over 18 rad:
    # measured 7.3e-5 of the amplitude; frequency 6.0e-6, decay rate 7.5e-5 (ρ∞ = 0.9's own damping)
    assert np.abs(theta - exact).max() < 2e-4 * amplitude
    tv = crossings(r.t, r["pivot.rate"])
    assert np.pi / np.diff(tv).mean() == pytest.approx(wd, rel=3e-5)
    rate = -np.polyfit(tv, np.log(np.abs(np.interp(tv, r.t, theta))), 1)[0]
    assert rate == pytest.approx(zeta * wn, rel=5e-4)
    assert r["spring.torque"] == pytest.approx(k * theta + c * r["pivot.rate"], abs=1e-9)


# --- the bushing ------------------------------------------------------------------------------
def box(m, name, centre, mass=2.0):
    """A full rigid body (2 points + 2 unit vectors) around ``centre``."""
    centre = np.asarray(centre, float)
    P, Q = m.point(f"{name}.P", centre), m.point(f"{name}.Q", centre + (0.5, 0, 0))
    u, v = m.vector(f"{name}.u", (0, 1, 0)), m.vector(f"{name}.v", (0, 0, 1))
    return m.rigid_body(name, [P, Q], [u, v], mass=mass, com=centre + (0.25, 0, 0),
                        inertia=np.diag([0.02, 0.05, 0.06]))


def rotation(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    W = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * W + (1 - np.cos(angle)) * W @ W


def spd(rng, scale):
    A = rng.standard_normal((6, 6))
    return scale * (A @ A.T + 6 * np.eye(6))


def test_a_bushing_small_displacement_stiffness_is_its_matrix():
    """K of the System mapped onto the body's small motions (δu, δφ) in the bushing axes,
    TᵀKT, equals the bushing's 6×6 matrix at the drawn pose (to round-off, 1e-12)."""
    rng = np.random.default_rng(3)
    Kb, frame, point = spd(rng, 100.0), rotation((1, 2, 3), 0.7), np.array([0.1, 0.2, 0.3])
    m = femdyn.Model("bushed", gravity=(0, 0, 0))
    body = box(m, "box", (0.3, 0.0, 0.0))
    m.bushing("mount", "ground", body, point, stiffness=Kb, frame=frame)
    s = m.assemble()
    T = np.zeros((s.n, 6))
    for node in body.points + body.vectors:
        x = node.initial
        for j in range(3):
            du, dphi = frame[:, j], np.cross(frame[:, j], x - point if node in body.points else x)
            T[node.start:node.start + 3, j] = du if node in body.points else 0.0
            T[node.start:node.start + 3, 3 + j] = dphi
    K = s.patterns.stiffness.matrix(s.tangent_values(s.q0, s.v0, 0.0)[0]).toarray()
    np.testing.assert_allclose(T.T @ K @ T, Kb, atol=1e-12 * np.abs(Kb).max())


def test_a_bushing_reads_the_displacement_and_sin_phi_of_a_finite_rotation():
    m = femdyn.Model("bushed", gravity=(0, 0, 0))
    body = box(m, "box", (0.0, 0.0, 0.0))
    frame = rotation((0, 0, 1), 0.4)
    m.bushing("mount", "ground", body, (0, 0, 0), stiffness=np.arange(1.0, 7.0), frame=frame)
    m.sensor_force("mount", "mount")
    s = m.assemble()
    n, phi, shift = np.array([1.0, -2.0, 0.5]) / np.linalg.norm([1.0, -2.0, 0.5]), 0.8, np.array([0.01, -0.02, 0.03])
    R, q = rotation(n, phi), s.q0.copy()
    for node in body.points + body.vectors:
        x = node.initial
        q[node.start:node.start + 3] = R @ x + (shift if node in body.points else 0.0)
    reading = s.sensors[0].measure(q, np.zeros(s.n), None, None, 0.0)
    np.testing.assert_allclose(reading[6:9], frame.T @ shift, atol=1e-15)          # u in the bushing axes
    np.testing.assert_allclose(reading[9:], np.sin(phi) * frame.T @ n, atol=1e-15)  # θ = sin φ n
    np.testing.assert_allclose(reading[:6], np.arange(1.0, 7.0) * reading[6:], atol=1e-14)


# --- tangents ------------------------------------------------------------------------------------
def every_element(law_kind):
    """One model holding each force element, its laws chosen by ``law_kind``."""
    laws = {"linear": dict(stiffness=80.0, damping=1.5, preload=3.0),
            "table": dict(law=femdyn.Table([-0.5, 0.0, 0.05, 0.1, 0.3], [-30.0, 0.0, 3.0, 9.0, 12.0]), damping=0.7),
            "spline": dict(law=femdyn.Table([-0.5, 0.0, 0.05, 0.1, 0.3], [-30.0, 0.0, 3.0, 9.0, 12.0], "spline")),
            "user": dict(law=lambda d, r: 40.0 * d + 300.0 * d ** 3 + 2.0 * r * (1 + d * d)),
            "user with derivatives": dict(law=femdyn.UserForce(
                lambda d, r: 40.0 * d + 300.0 * d ** 3 + 2.0 * r * (1 + d * d),
                lambda d, r: (40.0 + 900.0 * d * d + 4.0 * r * d, 2.0 * (1 + d * d))))}[law_kind]
    m = femdyn.Model("elements", gravity=(0, 0, -G))
    m.point_mass("p1", (1.0, 0.2, -0.1), 1.0)
    m.point_mass("p2", (1.8, 0.5, 0.3), 0.5)
    m.spring("s1", "ground", (0, 0, 0), "p1", (1.0, 0.2, -0.1), **laws)
    m.spring("s2", "p1", (1.0, 0.2, -0.1), "p2", (1.8, 0.5, 0.3), **laws)
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 1.0)), m.point("A", (0.6, 0.3, 1.0)), mass=1.0,
                       axis=m.vector("axis", (0, 0, 1)))
    m.revolute("hinge", "ground", rod, (0, 0, 1.0), (0, 0, 1))
    m.rotational_spring("rs", "hinge", rest_angle=0.1, **laws)
    rng = np.random.default_rng(1)
    b1, b2 = box(m, "b1", (0, 2.0, 0)), box(m, "b2", (0.4, 2.1, 0.2))
    m.bushing("bush", b1, b2, (0.2, 2.0, 0.1), stiffness=spd(rng, 50.0), damping=spd(rng, 0.5),
              frame=rotation((0.3, 1, 0.2), 1.1), preload=rng.standard_normal(6))
    m.spring("s3", "p2", (1.8, 0.5, 0.3), rod, (0.6, 0.3, 1.0), **laws)
    return m.assemble()


@pytest.mark.parametrize("law_kind", ["linear", "table", "spline", "user", "user with derivatives"])
def test_every_tangent_matches_finite_differences(law_kind):
    s = every_element(law_kind)
    rng = np.random.default_rng(7)
    q, v = s.q0 + 0.03 * rng.standard_normal(s.n), rng.standard_normal(s.n)
    # a user force without derivatives is itself differenced (error ~1e-10 relative): the same 1e-6 holds
    K, C = tangents_against_differences(s, q, v)
    assert np.abs(K).max() > 10 and np.abs(C).max() > 0.1
    energy_gradient_is_minus_force(s, q)


# --- energy ------------------------------------------------------------------------------------
def test_an_undamped_chain_keeps_its_energy():
    """Point masses on a preloaded linear and a spline spring, a pendulum on a rotational
    spring and a body on a bushing, all undamped: kinetic + gravity + spring energies stay
    constant up to generalized-α's O(h²) error and its ρ∞ = 0.95 damping of the fastest mode."""
    m = femdyn.Model("chain", gravity=(0, 0, -G))
    m.point_mass("m1", (0, 0, -1.0), 1.0)
    m.point_mass("m2", (0, 0, -2.0), 0.5)
    m.spring("s1", "ground", (0, 0, 0), "m1", (0, 0, -1.0), stiffness=200.0, preload=4.0)
    m.spring("s2", "m1", (0, 0, -1.0), "m2", (0, 0, -2.0),
             law=femdyn.Table([-0.2, 0.0, 0.05, 0.1, 0.3], [-40.0, 0.0, 6.0, 15.0, 70.0], "spline"))
    m.set_velocity("m1", (0.3, 0.1, 0.2))
    m.set_velocity("m2", (-0.2, 0.3, 0.0))
    rod = m.rigid_beam("rod", m.point("O", (2.0, 0, 0)), m.point("A", (2.0, 0, -1.0)), mass=1.0)
    m.revolute("pivot", "ground", rod, (2.0, 0, 0), (0, 1, 0))
    m.rotational_spring("rs", "pivot", stiffness=3.0, preload=0.5)
    m.set_rigid_velocity(rod, (0, 1.0, 0), reference=(2.0, 0, 0))
    body = box(m, "box", (4.0, 0, 0))
    m.bushing("mount", "ground", body, (4.0, 0, 0), stiffness=[400, 500, 600, 20, 30, 40])
    m.set_rigid_velocity(body, (0.5, -0.3, 0.2), (0.05, 0.0, 0.1), reference=(4.0, 0, 0))
    r = integrate(m.assemble(), 2.0, 5e-4, Options(rho_inf=0.95))
    energy = r["energy"]
    scale = np.ptp(r["kinetic_energy"])
    assert scale > 0.1
    assert np.ptp(energy) < 2e-5 * scale          # measured 3.4e-6 of the kinetic energy's swing (1.25 J)


# --- input checks ------------------------------------------------------------------------------
def test_bad_force_element_input_is_refused_by_name():
    m = femdyn.Model("bad")
    m.point_mass("bob", (1.0, 0, 0), 1.0)
    with pytest.raises(femdyn.ModelError, match="strictly increasing"):
        femdyn.Table([0.0, 0.2, 0.1], [0.0, 1.0, 2.0])
    with pytest.raises(femdyn.ModelError, match="kind must be 'linear' or 'spline'"):
        femdyn.Table([0.0, 0.1], [0.0, 1.0], kind="cubic")
    with pytest.raises(femdyn.ModelError, match="point mass 'bob' has one material point"):
        m.spring("s", "ground", (0, 0, 0), "bob", (1.0, 0.1, 0), stiffness=1.0)
    with pytest.raises(femdyn.ModelError, match="bushing 'b': 'bob' has fewer than three material directions"):
        m.bushing("b", "ground", "bob", (1.0, 0, 0), stiffness=np.ones(6))
    with pytest.raises(femdyn.ModelError, match="must be symmetric"):
        m.bushing("b", "ground", m.ground, (0, 0, 0), stiffness=np.triu(np.ones((6, 6))))
    with pytest.raises(femdyn.ModelError, match="law must be"):
        m.spring("s", "ground", (0, 0, 0), "bob", (1.0, 0, 0), law=3.0)
    with pytest.raises(femdyn.ModelError, match="is not a force element of this model"):
        m.sensor_force("f", "nothing")
    with pytest.raises(femdyn.ModelError, match="stiffness"):
        m.spring("s", "ground", (0, 0, 0), "bob", (1.0, 0, 0), stiffness=-1.0)


# --- the laws themselves ------------------------------------------------------------------------
def test_laws_give_their_values_slopes_and_energies():
    law = femdyn.Table([-0.1, 0.0, 0.1, 0.2], [-20.0, 0.0, 10.0, 40.0])
    assert law(0.15, 0.0) == pytest.approx((25.0, 300.0, 0.0), abs=1e-12)
    assert law(0.3, 0.0) == pytest.approx((70.0, 300.0, 0.0), abs=1e-12)           # the end tangent beyond the table
    assert law.energy(0.15) == pytest.approx(0.5 * 0.1 * 10 + 0.05 * (10 + 25) / 2, abs=1e-14)
    assert law.energy(-0.2) == pytest.approx(0.5 * 0.2 * 40, abs=1e-14)            # 200 N/m on both sides
    spline = femdyn.Table([0.0, 0.1, 0.2, 0.3, 0.4], [0.0, 1.0, 8.0, 27.0, 64.0], "spline")   # 1000 δ³ exactly
    assert spline(0.25, 0.0) == pytest.approx((15.625, 187.5, 0.0), rel=1e-12)
    assert spline.energy(0.25) == pytest.approx(250 * 0.25 ** 4, rel=1e-12)
    f = lambda d, r: 100.0 * d + 1000.0 * d ** 3 + 2.0 * r * np.exp(d)
    differenced = femdyn.UserForce(f)(0.1, 0.5)
    exact = (f(0.1, 0.5), 100.0 + 3000.0 * 0.01 + 2.0 * 0.5 * np.exp(0.1), 2.0 * np.exp(0.1))
    assert differenced == pytest.approx(exact, rel=1e-9)          # central differences: ~1e-10 (stated)
    assert femdyn.UserForce(f).energy(0.1) == pytest.approx(50.0 * 0.01 + 250.0 * 1e-4, rel=1e-14)


@pytest.mark.parametrize("cross", ["a", "b"])
def test_rotational_springs_on_a_universal_joint_hold_a_pendulum_against_a_side_force(cross):
    """A 1 m rod on a Hooke joint (cross axes x on the ground, y on the rod), a force F at its
    tip along y (turns it about x, cross a) or −x (about y, cross b): k θ = F L cos θ exactly."""
    k, F, L = 30.0, 12.0, 1.0
    m = femdyn.Model("hooke", gravity=(0, 0, 0))
    P, Q = m.point("P", (0, 0, 0)), m.point("Q", (0, 0, -L))
    rod = m.rigid_body("rod", [P, Q], [m.vector("y", (0, 1, 0)), m.vector("x", (1, 0, 0))], mass=1.0,
                       com=(0, 0, -L / 2), inertia=np.diag([0.08, 0.08, 0.001]))
    m.universal("cross", "ground", rod, (0, 0, 0), axis_a=(1, 0, 0), axis_b=(0, 1, 0))
    m.rotational_spring("sa", "cross", stiffness=k, cross="a")
    m.rotational_spring("sb", "cross", stiffness=2 * k, cross="b")
    m.force("push", rod, (0, 0, -L), (0, F, 0) if cross == "a" else (-F, 0, 0))
    m.sensor_force("sa", "sa")
    m.sensor_force("sb", "sb")
    s = m.assemble()
    q, lam = static_equilibrium(s, load_steps=2)
    stiff = k if cross == "a" else 2 * k
    theta = brentq(lambda x: stiff * x - F * L * np.cos(x), 0.0, 1.0)
    (ta, aa, _), (tb, ab, _) = (sensor.measure(q, np.zeros(s.n), None, lam, 0.0) for sensor in s.sensors)
    turned, idle = ((aa, ta), (ab, tb)) if cross == "a" else ((ab, tb), (aa, ta))
    assert turned[0] == pytest.approx(theta, abs=1e-10) and turned[1] == pytest.approx(stiff * theta, abs=1e-8)
    assert abs(idle[0]) < 1e-12 and abs(idle[1]) < 1e-10
    tangents_against_differences(s, q + 0.01 * np.random.default_rng(2).standard_normal(s.n),
                                 np.random.default_rng(3).standard_normal(s.n))


def test_a_joint_force_on_a_tilted_slider_matches_its_tangent_and_moves_the_slider_by_f_over_m():
    """The prismatic joint force: Q = F ∂s/∂q with its tangent against differences (on a turned guide, so that
    ∂²s/∂q² is not zero), and a free slider pushed by F gains x = F t² / 2m along the axis."""
    m = femdyn.Model("slider", gravity=(0, 0, 0))
    axis = np.array([1.0, 2.0, 2.0]) / 3.0
    side = np.array([2.0, -1.0, 0.0]) / np.sqrt(5.0)
    frame = (axis, side, np.cross(axis, side))

    def body(name, point, mass):
        return m.rigid_body(name, [m.point(f"{name}.O", point)], [m.vector(f"{name}.e{k}", e) for k, e in
                                                                 enumerate(frame)], mass=mass, inertia=np.eye(3) * 0.01)
    guide, block = body("guide", (0, 0, 0), 1.0), body("block", (0.3, 0.1, 0.2), 2.0)
    m.fix("guide.O")
    m.prismatic("rail", guide, block, (0.3, 0.1, 0.2), axis)
    m.joint_force("push", "rail", 4.0)
    s = m.assemble()
    rng = np.random.default_rng(3)
    tangents_against_differences(s, s.q0 + 1e-2 * rng.standard_normal(s.n), np.zeros(s.n))
    for k in range(3):
        m.fix(f"guide.e{k}")
    r = integrate(m.assemble(), 1.0, 0.01)
    moved = r.q[-1, 12:15] - r.q[0, 12:15]
    np.testing.assert_allclose(moved, axis * 4.0 / (2 * 2.0), atol=1e-10)


def test_a_joint_force_needs_a_prismatic_joint():
    m = femdyn.Model("dial")
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    m.revolute("hinge", "ground", rod, (0, 0, 0), (0, 0, 1))
    with pytest.raises(femdyn.ModelError, match="'hinge' is not a prismatic joint.*Model.torque"):
        m.joint_force("push", "hinge", 1.0)
