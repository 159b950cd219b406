"""Joints with clearance (femdyn.model.clearance): a ball dropped in its socket against the free-flight
closed form and an independent ODE solution of the same contact; the restitution the
Lankarani–Nikravesh and Flores laws imply; zero clearance and a stiff contact against the ideal
revolute; the tangents against finite differences, in contact and across the onset."""
import warnings

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import femdyn
from femdyn.errors import ModelError, StepSizeWarning
from femdyn.solvers.generalized_alpha import Options, integrate
from tests.model.test_force_elements import box, tangents_against_differences

G, C, R, MASS = 9.81, 5e-4, 0.01, 1.0       # m/s², clearance m, ball radius m, kg
STABLE = Options(rho_inf=1.0, formulation="stabilized")     # no numerical damping: the law's own dissipation


def drop(**contact):
    """A steel ball (1 kg, R 10 mm) released centred in a socket with 0.5 mm clearance."""
    m = femdyn.Model("drop", gravity=(0, 0, -G))
    m.point_mass("ball", (0, 0, 0), MASS)
    joint = m.spherical_clearance("socket", "ground", "ball", (0, 0, 0), C, R, **contact)
    m.sensor_clearance("socket", "socket")
    return m, joint


def reference_rebound(K, p, chi, v):
    """Restitution v⁺/v⁻ and contact time of m δ̈ = m g − F(δ, δ̇) from δ = 0, δ̇ = v (solve_ivp, rtol 1e-11)."""
    def rhs(t, y):
        d, r = y
        return [r, G - (max(K * d ** p * (1 + chi / v * r), 0.0) if d > 0 else 0.0) / MASS]
    out = lambda t, y: y[0] if t > 0 else 1.0
    out.terminal, out.direction = True, -1
    sol = solve_ivp(rhs, (0, 1), [0.0, v], events=out, rtol=1e-11, atol=1e-16, max_step=1e-6)
    return -sol.y_events[0][0][1] / v, sol.t_events[0][0]


def impacts(r):
    """(start, end) indices of the contact intervals of a run."""
    on = (r["socket.force"] > 0).astype(int)
    starts, ends = np.nonzero(np.diff(on) == 1)[0] + 1, np.nonzero(np.diff(on) == -1)[0] + 1
    return list(zip(starts, ends))


@pytest.mark.parametrize("law, restitution, law_tol", [("lankarani-nikravesh", 0.9, 0.015),
                                                        ("flores", 0.7, 0.03)])
def test_a_ball_dropped_in_its_socket_flies_impacts_and_rebounds_as_the_law_implies(law, restitution, law_tol):
    m, joint = drop(law=law, restitution=restitution)
    h, v_impact, t_flight = 1e-5, np.sqrt(2 * G * C), np.sqrt(2 * C / G)
    tc = joint.check_step(h, MASS, v_impact)                    # ≈ 0.24 ms: 24 steps per contact, no warning
    r = integrate(m.assemble(), t_end=0.022, h=h, options=STABLE)
    (k0, k1), *_ = impacts(r)
    t, e, rate = r.t, r["socket.eccentricity"], r["socket.rate"]
    # free flight: impact after √(2c/g) at √(2gc), to the step h (and g h in the velocity)
    assert abs(t[k0] - t_flight) <= h
    assert rate[k0 - 1] == pytest.approx(v_impact, abs=1.5 * G * h)
    # rebound: the apex after the impact gives v⁺ = √(2 g (c − e_min)) (exact for the free parabola)
    after = slice(k1, k1 + int(0.9 * 2 * restitution * v_impact / G / h))
    v_out = np.sqrt(2 * G * (C - e[after].min()))
    chi = {"lankarani-nikravesh": 0.75 * (1 - restitution ** 2), "flores": 8 * (1 - restitution) / (5 * restitution)}
    e_ref, tc_ref = reference_rebound(joint.K, 1.5, chi[law], v_impact)
    # the same contact ODE solved independently, to 2.5e-3: δ̇⁻ is the rate one step before the impact
    # (≤ g h/v ≈ 1e-3 low) and the contact spans ~24 steps of the second-order integrator
    assert v_out / v_impact == pytest.approx(e_ref, rel=2.5e-3)
    assert (t[k1] - t[k0]) == pytest.approx(tc_ref, abs=2 * h)
    # the undamped Hertz time the step check reads: the hysteresis lengthens it, 1 % at c_r 0.9, 6 % at 0.7
    assert tc == pytest.approx(tc_ref, rel=0.07)
    # energy dissipated in the impact against 1 − e² of the same run, and the law's nominal c_r
    energy = r["energy"]
    lost = (energy[k0 - 1] - energy[after].mean()) / (0.5 * MASS * v_impact ** 2)
    assert lost == pytest.approx(1 - (v_out / v_impact) ** 2, abs=5e-3)
    assert abs(v_out / v_impact - restitution) <= law_tol


def test_the_lankarani_nikravesh_restitution_approaches_c_r_only_near_one():
    K = drop()[1].K
    v = np.sqrt(2 * G * C)
    # Lankarani & Nikravesh (1990) assume c_r near 1: within 0.015 from 0.9 up, 0.09 off at 0.7
    for cr, tol in ((0.9, 0.015), (0.95, 0.005), (0.99, 1e-3)):
        assert abs(reference_rebound(K, 1.5, 0.75 * (1 - cr * cr), v)[0] - cr) <= tol
    assert reference_rebound(K, 1.5, 0.75 * (1 - 0.49), v)[0] - 0.7 > 0.08


def pendulum(clearance):
    """A 1 m, 1 kg rod released at 60° on an ideal hinge or on one with zero clearance and a stiff contact."""
    m = femdyn.Model("pendulum", gravity=(0, 0, -G))
    a = np.radians(60.0)
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (-np.sin(a), 0, -np.cos(a))), mass=1.0)
    if clearance:
        m.revolute_clearance("pivot", "ground", rod, (0, 0, 0), (0, 1, 0), 0.0, 0.01, angle0=a, stiffness=1e13)
    else:
        m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0), angle0=a)
    m.sensor_angle("pivot", "pivot")
    return m.assemble()


def test_zero_clearance_and_a_stiff_contact_swing_as_the_ideal_revolute():
    runs = [integrate(pendulum(c), t_end=1.0, h=2e-4, options=Options(rho_inf=0.6)) for c in (False, True)]
    ideal, loose = (r["pivot.angle"] for r in runs)
    # K = 1e13 N/m^1.5 under ~20 N: δ ≈ (20/K)^(2/3) ≈ 1.6e-8 m of pin play on a 0.5 m lever; the
    # contact mode (~3e4 rad/s) is damped by ρ∞ = 0.6; the angles agree to 1e-5 rad over a swing
    assert np.abs(loose - ideal).max() < 1e-5
    assert np.ptp(ideal) > 2.0


def rigid_pair(friction_velocities, **contact):
    """Two full rigid bodies on a revolute clearance about z and a spherical clearance between point masses."""
    m = femdyn.Model("pair", gravity=(0, 0, -G))
    b1, b2 = box(m, "b1", (0, 0, 0)), box(m, "b2", (0.1, 0.05, 0.02))
    m.revolute_clearance("hinge", b1, b2, (0.1, 0.05, 0.02), (0, 0, 1), 0.02, 0.05, stiffness=1e6, friction=0.3,
                         friction_velocities=friction_velocities, **contact)
    m.point_mass("p", (1.0, 0, 0), 1.0)
    m.spherical_clearance("ball", b2, "p", (1.0, 0, 0), 0.02, 0.05, stiffness=2e6, friction=0.2,
                          friction_velocities=friction_velocities, **contact)
    return m.assemble()


@pytest.mark.parametrize("friction_velocities", [(1e-4, 1e-3), (0.01, 50.0)], ids=["sliding", "ramp"])
@pytest.mark.parametrize("impact_velocity", [None, 0.3], ids=["remembered", "fixed"])
def test_clearance_tangents_match_finite_differences_in_contact(friction_velocities, impact_velocity):
    s = rigid_pair(friction_velocities, impact_velocity=impact_velocity)
    rng = np.random.default_rng(3)
    q, v = s.q0 + 0.04 * rng.standard_normal(s.n), rng.standard_normal(s.n)
    joints = [s.joints["hinge"], s.joints["ball"]]
    for j in joints:
        j.approach = 0.4        # the remembered δ̇⁻ stays put while in contact
        e, _, _, rate, (f, _, _), _ = j._state(q, v)
        assert e > j.c and f > 0, (j.name, e, f)
    tangents_against_differences(s, q, v, rtol=1e-6)


def test_the_contact_tangent_is_continuous_through_the_onset():
    """F = K δ^1.5: ∂F/∂δ = 1.5 K √δ → 0, so differences across δ = 0 agree to O(K √h)."""
    m = femdyn.Model("onset", gravity=(0, 0, 0))
    m.point_mass("p", (0, 0, 0), 1.0)
    K, c, h = 1e6, 1e-3, 1e-8
    m.spherical_clearance("ball", "ground", "p", (0, 0, 0), c, 0.01, stiffness=K, impact_velocity=0.1)
    s = m.assemble()
    direction = np.array([0.6, 0.0, 0.8])
    for delta in (-2 * h, -0.5 * h, 0.0, 0.5 * h, 2 * h, 1e-6):
        q = (c + delta) * direction
        v = 1e-3 * np.array([0.3, 1.0, -0.2])
        k, _ = s.tangent_values(q, v, 0.0)
        Kq = s.patterns.stiffness.matrix(k).toarray()
        fd = np.column_stack([(s.forces(q - e, v, 0.0) - s.forces(q + e, v, 0.0)) / (2 * h) for e in h * np.eye(3)])
        assert np.abs(Kq - fd).max() <= K * np.sqrt(h), delta


def test_the_energy_of_the_contact_is_minus_its_force_potential():
    m = femdyn.Model("onset", gravity=(0, 0, 0))
    m.point_mass("p", (0.0021, 0.001, 0), 1.0)
    m.spherical_clearance("ball", "ground", "p", (0.0021, 0.001, 0), 1e-3, 0.01, stiffness=1e8)
    s = m.assemble()
    q = s.q0 * 1.2
    hq = 1e-9
    dV = np.array([(s.potential_energy(q + e) - s.potential_energy(q - e)) / (2 * hq) for e in hq * np.eye(3)])
    np.testing.assert_allclose(-dV, s.forces(q, np.zeros(3), 0.0), rtol=1e-6)


def test_a_step_too_long_for_the_impact_warns_and_bad_input_is_refused():
    m, joint = drop()
    with pytest.warns(StepSizeWarning, match="socket"):
        joint.check_step(1e-4, MASS, np.sqrt(2 * G * C))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        joint.check_step(1e-5, MASS, np.sqrt(2 * G * C))
    for bad, match in ((dict(restitution=1.5), "restitution"), (dict(law="hertz"), "law"),
                       (dict(friction_velocities=(1e-3, 1e-4)), "v0 < v1"), (dict(exponent=0.5), "exponent"),
                       (dict(damping=3.0), "unknown options"),
                       (dict(materials=((2e11, 0.3), (0.0, 0.3))), "Young's modulus"),
                       (dict(materials=((2e11, 0.6), (2e11, 0.3))), "Poisson")):
        with pytest.raises(ModelError, match=match):
            drop(**bad)
    m = femdyn.Model()
    m.point_mass("p", (0, 0, 0), 1.0)
    with pytest.raises(ModelError, match="zero clearance"):
        m.spherical_clearance("s", "ground", "p", (0, 0, 0), 0.0, 0.01)
    with pytest.raises(ModelError, match="not a clearance joint"):
        m.sensor_clearance("s", "nothing")


def test_an_ideal_joint_gets_clearance_in_place():
    m = femdyn.Model("pair", gravity=(0, 0, -G))
    b1, b2 = box(m, "b1", (0, 0, 0)), box(m, "b2", (0.1, 0.05, 0.02))
    m.revolute("hinge", b1, b2, (0.1, 0.05, 0.02), (0, 0, 1), angle0=0.2)
    m.point_mass("p", (1.0, 0, 0), 1.0)
    m.spherical("ball", b2, "p", (1.0, 0, 0))
    m.sensor_angle("hinge", "hinge")
    hinge, ball = m.clearance("hinge", 1e-4, 0.01), m.clearance(m.joints["ball"], 1e-4, 0.01, restitution=0.8)
    assert list(m.joints) == ["hinge", "ball"] and m.joints["hinge"] is hinge
    assert (hinge.kind, hinge.angle0, ball.kind, ball.cr) == ("revolute clearance", 0.2, "spherical clearance", 0.8)
    s = m.assemble()
    assert len(s.joint_rows["hinge"]) == 3 and len(s.joint_rows["ball"]) == 0     # axial + two tilt rows
    with pytest.raises(ModelError, match="not a revolute or spherical"):
        m.clearance("hinge", 1e-4, 0.01)


def test_the_slider_crank_example_flies_impacts_and_stays_near_its_clearance(example, tmp_path):
    ex = example("clearance_slider_crank")
    out = ex.main(tmp_path, turns=0.5, h=2e-6)
    # free flight and impacts in half a turn at 5000 rpm; the contact resolved by ≥ 20 steps of 2 µs
    assert out["impacts"] >= 5 and out["contact_time"] >= 20 * 2e-6 and out["rejected"] == 0
    # the journal leaves the clearance circle only by the Hertz penetration of the largest force:
    # δ = (F/K)^(2/3) (about 0.08 mm at 46 kN)
    K = ex.build(ex.CLEARANCE).joints["pin"].K
    assert ex.CLEARANCE < out["max_eccentricity"] <= ex.CLEARANCE + 1.01 * (out["largest_force"] / K) ** (2 / 3)
    assert (tmp_path / "clearance-slider-crank.png").stat().st_size > 20_000


@pytest.mark.slow
def test_the_rig_example_settles_its_journals_into_contact(example, tmp_path):
    out = example("rrru_clearance").main(tmp_path, duration=0.1, settle=0.05)
    for name, e in out["eccentricity"].items():
        # released centred, each journal drops into contact and stays there: c plus a Hertz penetration
        # of ≲ 1 µm under the limb's loads (tens of N on K ≈ 2.8e11 N/m^1.5)
        late = e[out["t"] >= 0.05]
        assert 30e-6 < late.min() and late.max() < 31e-6, name
    assert (tmp_path / "rrru-clearance.png").stat().st_size > 20_000
