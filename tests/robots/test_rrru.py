"""The 3-RRRU robot of Liu et al. 2018: inverse kinematics, the model, the rigid inverse-dynamics
study and the flexible robot's static start.

Truths used: the closure equations of each limb (inverse kinematics solved back into
them), finite differences of the exact rates, the rank of Φ_q (3 degrees of freedom),
energy conservation (power balance and work–energy theorem), the instantaneous KKT
solution of the rigid dynamics (no integrator), forward dynamics replaying the torques,
and the rigid limit of the flexible robot (holding torques converge like 1/E).
"""
import doctest

import numpy as np
import pytest

import femdyn.robots.rrru as rrru_module
from femdyn.errors import ModelError
from femdyn.robots.rrru import ActuatedAngle, RRRUGeometry, inverse_kinematics, limb_rates, rrru
from femdyn.studies.rrru import circle_motion, flexible_statics, rigid_inverse_dynamics, study_config
from support import ROOT

GEOMETRY = RRRUGeometry()


def closure(g, i, x):
    """A4 from the joint variables: A1 + L1 u(θ1) + (L2 + L3 cos γ) u(ψ) + L3 sin γ a."""
    A1, e_r, a, e_z = g.limb_frame(i)
    u = lambda th: np.cos(th) * e_r - np.sin(th) * e_z
    th, psi, gam = x
    return A1 + g.link1_length * u(th) + (g.link2_length + g.link3_length * np.cos(gam)) * u(psi) \
        + g.link3_length * np.sin(gam) * a


def test_inverse_kinematics_solves_the_closure_and_keeps_link_lengths():
    """Round trip over the whole study circle (and its centre): every limb's joint variables
    reproduce the platform joint A4 = P + r e_r to round-off, and the points keep the
    link lengths; tolerance 1e-14 m (round-off on O(1) m coordinates)."""
    motion = circle_motion(study_config(None))
    poses = [motion.position(t) for t in np.linspace(0, motion.end, 41)] + [np.array([0.0, 0.0, -0.8])]
    for P in poses:
        ik = inverse_kinematics(P)
        for i, limb in enumerate(ik.limbs):
            assert np.abs(closure(GEOMETRY, i, limb.x) - limb.A4).max() < 1e-14
            assert np.linalg.norm(limb.A4 - P) == pytest.approx(GEOMETRY.platform_radius, abs=1e-15)
            for p, q, L in ((limb.A1, limb.B, GEOMETRY.link1_length), (limb.B, limb.A2, GEOMETRY.link2_length),
                            (limb.A2, limb.A4, GEOMETRY.link3_length)):
                assert np.linalg.norm(q - p) == pytest.approx(L, abs=1e-14)
            assert abs(limb.b @ limb.a) < 1e-15 and abs(limb.b @ (limb.A4 - limb.A2)) < 1e-14   # b ⟂ a, link 3


def test_rates_against_finite_differences_of_inverse_kinematics():
    """ẋ = F_x⁻¹ Ȧ4 and ẍ from the exact second derivative of the closure, against central
    differences of the closed-form inverse kinematics along the trajectory (step 1e-5 s:
    truncation ~1e-10·|x⃛| and round-off ~1e-11, so 1e-6 relative separates right from wrong)."""
    motion = circle_motion(study_config(None))
    d = 1e-5
    for t in (0.1, 0.33, 0.7, 1.1, 1.4):
        for i in range(3):
            f = ActuatedAngle(GEOMETRY, i, motion)
            x = lambda s: inverse_kinematics(motion.position(s)).limbs[i].x
            P, V, A = motion.state(t)
            xd, xdd = limb_rates(GEOMETRY, i, x(t), V, A)
            assert np.abs((x(t + d) - x(t - d)) / (2 * d) - xd).max() <= 1e-6 * max(1.0, np.abs(xd).max())
            rate = lambda s: limb_rates(GEOMETRY, i, x(s), *motion.state(s)[1:])[0]
            assert np.abs((rate(t + d) - rate(t - d)) / (2 * d) - xdd).max() <= 1e-6 * max(1.0, np.abs(xdd).max())
            assert (f.value(t), f.d1(t), f.d2(t)) == pytest.approx((x(t)[0], xd[0], xdd[0]), abs=1e-15)


@pytest.mark.parametrize("pose, point", [((0.0, 0.0, -1.6), "A4_0"), ((0.0, 0.0, 0.5), "A4_0"),
                                         ((0.0, 0.9, -0.8), "A4_0")])
def test_pose_outside_the_workspace_names_the_point(pose, point):
    with pytest.raises(ModelError, match=point):
        inverse_kinematics(pose)
    with pytest.raises(ModelError, match=point):
        rrru(pose=pose)


def test_bad_options_are_refused():
    with pytest.raises(ModelError, match="cable"):
        rrru(flexible=True, element="cable")
    with pytest.raises(ModelError, match="payload"):
        rrru(payload=-1.0)
    with pytest.raises(ModelError, match="unknown settings"):
        study_config({"sped": 0.5})


def test_rigid_robot_has_three_degrees_of_freedom_and_stays_well_conditioned():
    """66 coordinates, 63 independent equations (rank) → 3 degrees of freedom; with the
    three motors driven, 0, and Φ_q stays far from singular all around the circle
    (smallest/largest singular value > 1e-3: a translational robot away from its
    constraint singularities)."""
    robot = rrru(pose=(0.1, 0.0, -0.8), payload=1.6)
    system = robot.model.assemble()
    assert (system.n, system.m) == (66, 63)
    assert system.degrees_of_freedom() == 3
    phi, _ = system.constraints.evaluate(system.q0, 0.0)
    assert np.abs(phi).max() < 1e-14
    motion = circle_motion(study_config(None))
    for t in np.linspace(0, motion.end, 9):
        ik = inverse_kinematics(motion.position(t))
        q = rrru(pose=motion.position(t)).model.assemble().q0
        s = np.linalg.svd(system.constraints.jacobian(q, 0.0).toarray(), compute_uv=False)
        assert s[62] / s[0] > 1e-3 and s[63:].size == 0
        assert np.all(np.isfinite(ik.angles))


@pytest.fixture(scope="module")
def study():
    """The rigid study at h = 2 ms (about 10 s; the 1 ms run is the slow test below)."""
    return rigid_inverse_dynamics({"h": 2e-3})


def test_inverse_dynamics_follows_the_circle(study):
    """The platform centre follows the circle at 0.5 m/s: with the motor angles driven
    along the exact inverse kinematics the tracking error is round-off (< 1e-12 m)."""
    s = study["summary"]
    assert s["degrees_of_freedom"] == 3 and s["degrees_of_freedom_driven"] == 0
    assert s["cruise_speed"] == 0.5
    assert s["tracking_error"] < 1e-12 and s["angle_error"] < 1e-12
    assert -12.0 < s["torque_min"] < s["torque_max"] < -5.0      # holding gravity: negative torques


def test_power_balance_and_work_energy(study):
    """Σ τᵢ θ̇ᵢ = dE/dt to 0.3 % of the peak power away from the profile's jerk steps
    (O(h) transients there), and the work of the motors equals the change of mechanical
    energy to 5e-4 of its range at every time (trapezoid rule, O(h²))."""
    s = study["summary"]
    assert s["power_max"] > 1.0                                   # a real exchange of energy
    assert s["power_balance_error"] < 3e-3
    assert s["work_energy_error"] < 5e-4


def test_torques_agree_with_the_instantaneous_solution(study):
    """The multipliers of the time integration against M q̈ + Φ_qᵀλ = Q, Φ_q q̈ = γ solved
    at each state: within 5e-3 N·m away from the jerk steps, 0.05 N·m right after them
    (the integrator's O(h) transient)."""
    s = study["summary"]
    assert s["torque_difference_smooth"] < 5e-3
    assert s["torque_difference_max"] < 0.05


def test_replayed_torques_track_the_circle(study):
    """Forward dynamics with the tabulated torques (cubic splines) stays on the circle to
    1e-8 m over the whole motion (measured ~1e-10 m)."""
    assert study["summary"]["replay_tracking_error"] < 1e-8


@pytest.mark.slow
def test_study_at_one_millisecond_writes_figures(tmp_path):
    """At h = 1 ms the pointwise power balance tightens to 1e-3 and the torques to 2e-3 N·m
    away from the jerk steps (about 30 s with the replay)."""
    study = rigid_inverse_dynamics({"h": 1e-3, "output": str(tmp_path)})
    s = study["summary"]
    assert s["power_balance_error"] < 1e-3 and s["torque_difference_smooth"] < 2e-3
    assert s["replay_tracking_error"] < 1e-8
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["path.png", "torques.png"]


def test_flexible_robot_assembles_and_its_static_start_converges():
    """8 ANCF beam elements per link 3: 9 nodes × 12 coordinates each replace the rigid
    link → 381 coordinates, 72 equations, 309 degrees of freedom. The static equilibrium
    under gravity converges at the paper's E = 6.9e8 Pa (12 mm platform sag, holding
    torques 2 % off the rigid ones). In the small-deflection range the flexible robot
    tends to the rigid one like 1/E: from E = 6.9e10 to 6.9e11 Pa the torque deviation,
    the platform sag and the gauge strains all fall tenfold (to 1 %; the residual is the
    O(1/E²) geometric nonlinearity)."""
    soft = flexible_statics()
    assert (soft["coordinates"], soft["equations"], soft["degrees_of_freedom"]) == (381, 72, 309)
    assert soft["converged"], soft.get("error")
    assert 0.05 < np.abs(soft["torques"] - soft["rigid_torques"]).max() < 0.5      # visible, not absurd
    assert len(soft["gauges"]) == 9
    rig, lab = (flexible_statics({"geometry": RRRUGeometry(E=E)}) for E in (6.9e10, 6.9e11))
    deviation = [np.abs(r["torques"] - r["rigid_torques"]).max() for r in (rig, lab)]
    assert deviation[1] == pytest.approx(deviation[0] / 10, rel=0.01)
    assert np.linalg.norm(lab["displacement"]) == pytest.approx(np.linalg.norm(rig["displacement"]) / 10, rel=0.01)
    for name, strain in rig["gauges"].items():
        assert lab["gauges"][name] == pytest.approx(strain / 10, rel=0.01)


def test_docstring_examples():
    assert doctest.testmod(rrru_module).failed == 0


@pytest.mark.slow
def test_example_runs(tmp_path):
    """examples/rrru_rigid.py runs to completion and writes its two figures (~40 s)."""
    import subprocess
    import sys
    script = ROOT / "examples" / "rrru_rigid.py"
    done = subprocess.run([sys.executable, str(script), str(tmp_path)], check=True, capture_output=True, text=True,
                          timeout=600)
    assert "replay_tracking_error" in done.stdout and "gauge 0.1" in done.stdout
    assert {p.name for p in tmp_path.glob("*.png")} == {"path.png", "torques.png"}


def test_platform_driven_along_the_trajectory_reproduces_the_inverse_kinematics():
    """Liu et al.'s (2018) inverse-dynamics constraints Φ_T: the platform centre prescribed along
    the circle by three coordinate drives (the Cartesian components of the trajectory as
    time functions). femdyn then solves the mechanism itself; its motor angles must equal
    the closed-form inverse kinematics (to 1e-9 rad: the Newton tolerance on Φ, 1e-8 m,
    over the link lengths) over the first 0.4 s (speed-up and cruise)."""
    from femdyn.solvers.generalized_alpha import Options, integrate
    motion = circle_motion(study_config(None))
    robot = rrru(pose=motion.position(0.0))
    m = robot.model
    for k, direction in enumerate(np.eye(3)):
        m.drive_coordinate(f"P{'xyz'[k]}", robot.platform, robot.centre, direction, motion.along(direction))
    for i, motor in enumerate(robot.motors):
        m.sensor_angle(f"motor {i}", motor)
    system = m.assemble()
    assert (system.n, system.m, system.degrees_of_freedom()) == (66, 66, 0)
    res = integrate(system, 0.4, 2e-3, Options(rho_inf=0.5))
    ik = np.array([[ActuatedAngle(GEOMETRY, i, motion).value(t) for i in range(3)] for t in res.t])
    angles = np.column_stack([res[f"motor {i}.angle"] for i in range(3)])
    assert np.abs(angles - ik).max() < 1e-9
    assert np.ptp(ik) > 0.1                      # the angles do move (about 10°)


def test_link_damping_reaches_the_elements_and_leaves_the_statics_unchanged():
    """``RRRUGeometry.damping`` is link 3's Kelvin–Voigt coefficient: every flexible link's
    element set carries it, and (a rate term) it changes no static equilibrium: the same
    holding torques and gauge strains to 1e-12 relative."""
    damped = RRRUGeometry(damping=0.01)
    robot = rrru(flexible=True, n_elements=2, geometry=damped)
    kernels = [robot.model.element_set(f"link3_{i}").kernel for i in range(3)]
    assert all(np.all(k.damping == 0.01) for k in kernels)
    plain, with_damping = (flexible_statics({"geometry": g}, n_elements=2) for g in (RRRUGeometry(), damped))
    assert with_damping["torques"] == pytest.approx(plain["torques"], rel=1e-12)
    for name, strain in plain["gauges"].items():
        assert with_damping["gauges"][name] == pytest.approx(strain, rel=1e-12)
