"""Servo drives (femdyn.model.drives) against closed forms: a single geared joint under PD and PID,
continuous (the exact second- and third-order closed-loop responses) and sampled with a zero-order
hold (the exact z-domain recursion of the discretized plant and controller); encoder quantization,
torque limit with anti-windup; the reflected inertia's mass derivative and the tangents against
finite differences; and the feedforward of a robot's own inverse dynamics, which leaves the loop
nothing to correct."""
import numpy as np
import pytest
from scipy.linalg import expm

import femdyn
from femdyn.errors import ModelError
from femdyn.model.drives import CONTROLLER_PERIOD, ENCODER_RESOLUTION
from femdyn.motion import Sine, Tabulated
from femdyn.solvers.generalized_alpha import integrate

ROD_MASS, MOTOR, GEAR = 3.0, 1e-4, 50.0
J = ROD_MASS / 3 + GEAR ** 2 * MOTOR          # rod about its end (m L²/3, L = 1 m) + reflected N² J_m, kg·m²
KP, KI, KD, STEP = 2000.0, 20000.0, 80.0, 0.1


def joint(**kw):
    """A 1 m rod turning about the vertical z axis (gravity along the axis: no gravity torque) under a drive."""
    m = femdyn.Model("joint", gravity=(0, 0, -9.81))
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=ROD_MASS)
    m.revolute("pivot", "ground", rod, point=(0, 0, 0), axis=(0, 0, 1))
    kw = {"reference": STEP, "kp": KP, "motor_inertia": MOTOR, "gear_ratio": GEAR, **kw}
    m.servo_drive("drive", "pivot", **kw)
    return m


def closed_loop(t, kp, ki, kd):
    """θ(t) of J θ̈ = k_p e + k_i ∫e − k_d θ̇, e = r − θ, from rest (state [θ, θ̇, ∫e, 1], matrix exponential)."""
    A = np.zeros((4, 4))
    A[0, 1] = 1.0
    A[1] = [-kp / J, -kd / J, ki / J, kp * STEP / J]
    A[2] = [-1.0, 0.0, 0.0, STEP]
    return np.array([(expm(A * s) @ [0, 0, 0, 1.0])[0] for s in t])


@pytest.mark.parametrize("ki", [0.0, KI])
def test_continuous_pd_and_pid_follow_the_closed_form_second_order_in_h(ki):
    # generalized-α is second order: halving h quarters the error; 1e-4 of the step's amplitude at h = 1 ms
    errors = []
    for h in (1e-3, 5e-4):
        res = integrate(joint(ki=ki, kd=KD).assemble(), 0.3, h)
        errors.append(np.abs(res["drive.angle"] - closed_loop(res.t, KP, ki, KD)).max())
    assert errors[0] < 1e-4 * STEP
    assert 3.5 < errors[0] / errors[1] < 4.5


def z_domain(n, T, kp, ki, kd, resolution=0.0):
    """θ_k of the ZOH-discretized plant (θ⁺ = θ + Tω + T²u/2J, ω⁺ = ω + Tu/J) under the sampled PID: exact."""
    theta, omega, z, old, out = 0.0, 0.0, 0.0, 0.0, []
    for k in range(n):
        out.append(theta)
        measured = resolution * np.round(theta / resolution) if resolution else theta
        e = STEP - measured
        speed = omega if k == 0 else (measured - old) / T
        z += T * e
        u = kp * e + ki * z - kd * speed
        old = measured
        theta, omega = theta + T * omega + T * T * u / (2 * J), omega + T * u / J
    return np.array(out)


def test_sampled_pid_matches_the_exact_discretization():
    # between samples the torque is held: the plant's exact discretization, so femdyn agrees at the samples to
    # its Newton tolerance (‖Φ‖ ≤ 1e-8 m on the 1 m rod: ~1e-9 rad), with one or two steps per period
    T = CONTROLLER_PERIOD
    errors = []
    for sub in (1, 2):
        res = integrate(joint(ki=KI, kd=KD, period=T).assemble(), 0.05, T / sub)
        exact = z_domain(len(res.t[::sub]), T, KP, KI, KD)
        errors.append(np.abs(res["drive.angle"][::sub] - exact).max())
        torque = res["drive.torque"]
        assert np.all(torque[:-1:sub] == torque[1::sub]) if sub > 1 else True    # held over the period
    assert max(errors) < 1e-8


def test_a_system_runs_twice_alike():
    # start() resets the controller, so a second run of the same System repeats the first
    s = joint(ki=KI, kd=KD).assemble()
    first, second = integrate(s, 0.05, 1e-3), integrate(s, 0.05, 1e-3)
    assert np.array_equal(first["drive.angle"], second["drive.angle"])


def test_quantization_error_is_bounded_by_the_resolution():
    res = integrate(joint(ki=KI, kd=KD, period=CONTROLLER_PERIOD, resolution=ENCODER_RESOLUTION).assemble(),
                    0.05, CONTROLLER_PERIOD)
    measured, angle = res["drive.measured"], res["drive.angle"]
    assert np.abs(measured - angle).max() <= 0.5 * ENCODER_RESOLUTION * (1 + 1e-12)
    assert np.allclose(measured / ENCODER_RESOLUTION, np.round(measured / ENCODER_RESOLUTION), atol=1e-9)
    exact = z_domain(len(res.t), CONTROLLER_PERIOD, KP, KI, KD)     # the unquantized loop: within a few counts
    assert np.abs(angle - exact)[-50:].max() < 10 * ENCODER_RESOLUTION


def test_torque_limit_and_anti_windup():
    limit = 50.0
    res = integrate(joint(ki=KI, kd=KD, torque_limit=limit).assemble(), 0.3, 1e-3)
    assert np.abs(res["drive.torque"]).max() <= limit * (1 + 1e-12)
    assert np.isclose(res["drive.torque"][1], limit)
    assert np.isclose(res["drive.motor_torque"][1], limit / GEAR)
    # conditional integration: no wind-up, so the overshoot stays below that of a drive with ki = 0 saturated alike
    assert res["drive.angle"].max() < 1.3 * STEP
    assert abs(res["drive.angle"][-1] - STEP) < 0.05 * STEP


def test_reflected_inertia_tangents_and_mass_derivative_against_differences():
    s = joint(ki=KI, kd=KD, reference=Sine(0.2, 3.0)).assemble()
    rng = np.random.default_rng(3)
    q, v, a = s.q0 + 0.05 * rng.standard_normal(s.n), rng.standard_normal(s.n), rng.standard_normal(s.n)
    h, t = 1e-6, 0.01
    drive = next(p for p in s.parts if p.name == "drive")
    drive.t_old = 0.0          # a step from 0 to t: the trapezoid term of the integral enters the tangent
    k, c = s.tangent_values(q, v, t)
    K, C = s.patterns.stiffness.matrix(k).toarray(), s.patterns.damping.matrix(c).toarray()
    fdK = np.column_stack([(s.forces(q - e, v, t) - s.forces(q + e, v, t)) / (2 * h) for e in h * np.eye(s.n)])
    fdC = np.column_stack([(s.forces(q, v - e, t) - s.forces(q, v + e, t)) / (2 * h) for e in h * np.eye(s.n)])
    for A, fd in ((K, fdK), (C, fdC)):
        assert np.abs(A - fd).max() <= 1e-6 * np.abs(fd).max()
    D = s.patterns.mass_derivative.matrix(s.mass_derivative_values(q, a)).toarray()
    fdD = np.column_stack([(s.mass(q + e) @ a - s.mass(q - e) @ a) / (2 * h) for e in h * np.eye(s.n)])
    assert np.abs(D - fdD).max() <= 1e-6 * np.abs(fdD).max()
    # the kinetic energy counts ½ N² J_m θ̇² on top of the rod's
    bare = joint(motor_inertia=0.0).assemble()
    theta_dot = drive._state(q, v)[2]
    assert np.isclose(s.kinetic_energy(v, q), bare.kinetic_energy(v, q) + 0.5 * GEAR ** 2 * MOTOR * theta_dot ** 2)


def double_pendulum():
    """Two 0.5 m rods in the x–z plane, pinned about y, hanging under gravity."""
    m = femdyn.Model("double pendulum", gravity=(0, 0, -9.81))
    u = m.vector("u", (0, 1, 0))
    rod1 = m.rigid_beam("rod1", m.point("O", (0, 0, 0)), m.point("A", (0.5, 0, 0)), mass=2.0, axis=u)
    rod2 = m.rigid_beam("rod2", m.point("A2", (0.5, 0, 0)), m.point("B", (1.0, 0, 0)), mass=1.0)
    m.revolute("j1", "ground", rod1, point=(0, 0, 0), axis=(0, 1, 0))
    m.revolute("j2", rod1, rod2, point=(0.5, 0, 0), axis=(0, 1, 0))
    return m


REFERENCES = (Sine(0.4, 4.0, -np.pi / 2, 0.4), Sine(-0.6, 5.0, -np.pi / 2, -0.6))   # a(1 − cos ωt): from rest


def test_own_inverse_dynamics_as_feedforward_leaves_the_integrator_error():
    h, t_end = 1e-3, 1.0
    m = double_pendulum()
    for name, r in zip(("j1", "j2"), REFERENCES):
        m.drive_angle(f"drive {name}", name, r)
    inverse = integrate(m.assemble(), t_end, h)
    torques = [-inverse.multipliers(f"drive {name}")[:, 0] for name in ("j1", "j2")]
    runs = {}
    for ff in (True, False):
        m = double_pendulum()
        for name, r, tau in zip(("j1", "j2"), REFERENCES, torques):
            m.servo_drive(name, name, r, kp=500.0, kd=20.0, feedforward=Tabulated(inverse.t, tau) if ff else None,
                          motor_inertia=MOTOR, gear_ratio=GEAR)
        res = integrate(m.assemble(), t_end, h)
        runs[ff] = max(np.abs(res[f"{n}.error"]).max() for n in ("j1", "j2"))
    # inverse and closed loop differ by their discretizations only (index-3 angle rows vs the ODE): O(h²)
    assert runs[True] < 1e-5
    assert runs[False] > 1e3 * runs[True]


def test_bad_input_names_the_drive_and_the_fix():
    m = double_pendulum()
    with pytest.raises(ModelError, match="servo drive 'x'.*not a revolute"):
        m.servo_drive("x", "nope", 0.0, kp=1.0)
    with pytest.raises(ModelError, match="servo drive 'x': controller period"):
        m.servo_drive("x", "j1", 0.0, kp=1.0, period=-1.0)
    with pytest.raises(ModelError, match="servo drive 'x': gain kd"):
        m.servo_drive("x", "j1", 0.0, kp=1.0, kd=-1.0)


def test_servo_joint_example(example, tmp_path):
    out = example("servo_joint").main(tmp_path, t_end=0.05)
    assert out["z_error"] < 1e-8            # Newton's tolerance, as in the test above
    assert out["count_error"] <= 0.5 + 1e-9
    assert (tmp_path / "servo-joint.png").stat().st_size > 10_000


def test_rate_filter_is_the_first_order_low_pass_of_the_error_rate():
    # a sampled drive with T_f: ė_k = a ė_(k−1) + (1 − a)(ṙ − (θ̂_k − θ̂_(k−1))/T), a = T_f/(T_f + T)
    T, Tf = CONTROLLER_PERIOD, 2e-3
    res = integrate(joint(ki=KI, kd=KD, period=T, filter_time=Tf).assemble(), 0.02, T)
    theta, torque = res["drive.measured"], res["drive.torque"]
    a, rate, z = Tf / (Tf + T), 0.0, 0.0
    for k in range(len(res.t)):
        e = STEP - theta[k]
        rate = rate if k == 0 else a * rate - (1 - a) * (theta[k] - theta[k - 1]) / T
        z += T * e
        assert torque[k] == pytest.approx(KP * e + KI * z + KD * rate, rel=1e-12, abs=1e-9)
