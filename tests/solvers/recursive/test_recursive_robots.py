"""The source papers' mechanisms: PUMA 560 hybrid run (Tian et al. 2010), 7-DOF space arm control (Qiu et al.)."""
import numpy as np

from femdyn.solvers.recursive import Data, hybrid_dynamics, inverse_dynamics, mass_matrix, momentum
from femdyn.solvers.recursive.configuration import TreeSpace
from femdyn.solvers.recursive.control import track
from femdyn.solvers.recursive.floating import floating_base_inverse_dynamics
from femdyn.solvers.recursive.integrators import simulate, zhai_step
from femdyn.robots.serial import puma560, space_arm, space_arm_desired

TORQUE_GIVEN = np.array([True, False, True, False, False, True])      # joints 1, 3, 6 (Tian et al. 2010)


def seed000_torque(t):
    return np.array([3 * np.sin(np.pi * t / 3), 0, 0.3 * np.cos(np.pi * t / 6), 0, 0, 0.3 * np.cos(np.pi * t / 6)])


def puma_run(t_end=1.0, h=0.005):
    model = puma560()
    data = Data(model)
    q, v, a_prev = np.zeros(6), np.zeros(6), None
    samples = []
    for n in range(int(round(t_end / h))):
        qdd, tau = hybrid_dynamics(model, data, q, v, ~TORQUE_GIVEN, seed000_torque(n * h), np.zeros(6))
        samples.append((q, v, qdd, tau))
        q, v = zhai_step(q, v, qdd, a_prev, h)
        a_prev = qdd
    return model, data, samples


def test_puma_swapping_roles_reproduces_the_motion():
    """Tian et al.'s (2010) check: with joints 1, 3, 6 motion-given (the accelerations just found) and
    2, 4, 5 torque-given (the torques just found) the hybrid solution is the same.
    Tolerance 1e-10 relative: exact identity, round-off only."""
    model, data, samples = puma_run()
    for q, v, qdd, tau in samples[::20]:
        qdd2, tau2 = hybrid_dynamics(model, data, q, v, TORQUE_GIVEN, tau, qdd)
        scale = max(1.0, np.abs(tau).max(), np.abs(qdd).max())
        assert np.abs(qdd2 - qdd).max() <= 1e-10 * scale and np.abs(tau2 - tau).max() <= 1e-10 * scale


def test_puma_motion_given_joints_stay_put():
    """q̈ = 0 prescribed on joints 2, 4, 5 from rest: they never move (exactly, Zhai adds zeros);
    joint 1 follows its torque and turns."""
    _, _, samples = puma_run()
    q_end = samples[-1][0]
    assert np.all(q_end[~TORQUE_GIVEN] == 0.0) and abs(q_end[0]) > 1e-3


def test_puma_gravity_load_is_static_equilibrium():
    """The gravity torques at rest hold the PUMA still: forward dynamics with them gives q̈ = 0 (1e-12)."""
    model = puma560()
    data = Data(model)
    q = np.array([0.1, -0.7, 0.4, 0.2, 0.5, -0.3])
    g = inverse_dynamics(model, data, q, np.zeros(6), np.zeros(6))
    qdd, _ = hybrid_dynamics(model, data, q, np.zeros(6), np.zeros(6, bool), g, np.zeros(6))
    assert np.abs(qdd).max() < 1e-12
    assert abs(g[1]) > 10.0                  # the shoulder carries the 17.4 kg upper arm and the forearm


def test_computed_torque_tracks_seed001_trajectory():
    """Computed-torque control (Kp = 100 s⁻², Kd = 20 s⁻¹) from a 0.1 rad error: after 3 s the error
    must be below 1e-5 rad; the ideal closed loop gives 0.1 (1 + 10 t) e^{−10 t} ≈ 3e-13, so what
    remains is RK4's error at h = 0.01 s (observed ~1e-8)."""
    q0, v0, _ = space_arm_desired(0.0)
    run = track(space_arm(), space_arm_desired, q0 + 0.1, v0, 3.0, 0.01, kp=100.0, kd=20.0)
    error = np.abs(run.q[-1] - space_arm_desired(3.0)[0]).max()
    assert error < 1e-5


def test_floating_space_arm_inverse_dynamics_keeps_momentum():
    """Qiu et al. floating case: q = 0.1 sin t prescribed, base free. Integrating the base with the
    returned base accelerations (RK4, h = 0.01 s, 2 s) keeps the momentum at its initial zero
    to 1e-8 (RK4 error; momentum ~ 1 N·m·s scale)."""
    model = space_arm(floating=True)
    data = Data(model)
    space = TreeSpace(model)

    def acceleration(t, q, v):
        return np.r_[floating_base_inverse_dynamics(model, data, q, v, -0.1 * np.sin(t) * np.ones(7))[1],
                     -0.1 * np.sin(t) * np.ones(7)]

    q0 = model.neutral_configuration()
    v0 = np.r_[np.zeros(6), 0.1 * np.ones(7)]
    # choose the base twist that makes the total momentum zero: H_bb v_b = −H_bj v_j
    H = mass_matrix(model, data, q0)
    v0[:6] = -np.linalg.solve(H[:6, :6], H[:6, 6:] @ v0[6:])
    run = simulate(acceleration, q0, v0, 2.0, 0.01, space=space)
    worst = max(np.abs(momentum(model, data, q, v)).max() for q, v in zip(run.q, run.v))
    assert worst < 1e-8
    np.testing.assert_allclose(run.q[-1][7:], 0.1 * np.sin(2.0), atol=1e-6)   # joints followed q = 0.1 sin t
