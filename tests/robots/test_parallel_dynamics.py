"""Rigid efforts of the parallel robots against independent truths, and their femdyn models.

- Massless legs carry exactly the platform's Newton–Euler load (Stewart): an independent balance.
- Along a trajectory, the actuators' power equals d/dt of kinetic plus potential energy (every robot with
  massive links).
- The virtual-work efforts equal the servo-constraint DAE inverse of ``model(flexible=False)``: two
  independent paths in femdyn (closure coordinates vs natural coordinates).
"""
from dataclasses import replace

import numpy as np
import pytest

from femdyn.robots.parallel import ParallelRobot, parallel_robot
from femdyn.robots.parallel.chain import left_jacobian, rotation
from femdyn.robots.parallel.dynamics import energy

READY = ("delta", "linear_delta", "stewart", "3rrr", "3rps", "3rrru")


def smooth_path(robot, ts, amplitude=0.3):
    """A smooth motion x(t) inside the workspace bounds, with exact ẋ, ẍ: sines about the home pose."""
    home = robot.home[robot.task]
    bounds = robot.workspace_bounds()
    half = amplitude * 0.5 * (bounds[:, 1] - bounds[:, 0])
    centre = np.clip(home, bounds[:, 0] + half, bounds[:, 1] - half)
    w = 2 * np.pi * np.array([1.0, 1.3, 0.7, 1.1, 0.9, 1.7])[:len(home)]
    phase = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 2.5])[:len(home)]
    arg = np.outer(ts, w) + phase
    return centre + half * np.sin(arg), half * w * np.cos(arg), -half * w**2 * np.sin(arg)


def servo_inverse(robot, h=1e-3, end=0.1):
    """The rigid model's servo-constraint DAE along :func:`smooth_path` (generalized-α, ρ∞ = 0.5): (built
    RobotModel, results)."""
    from femdyn.solvers.generalized_alpha import Options, integrate

    class Task:
        def state(self, t):
            x, v, a = smooth_path(robot, [t])
            return x[0], v[0], a[0]

    built = robot.model(Task().state(0.0)[0], flexible=False, servo=Task())
    return built, integrate(built.model.assemble(), end, h, Options(rho_inf=0.5, tol_dynamic=1e-11))


def test_massless_stewart_legs_carry_the_platform_newton_euler_load():
    """Two-force legs: Σ F_i [u_i; (s_i − p) × u_i] = [m(a_c − g); I α + ω × I ω + c × m(a_c − g)] exactly,
    with ω = J_l(φ) φ̇, α = J_l φ̈ + J̇_l φ̇ (J̇_l φ̇ by the complex step: exact)."""
    inertia = ((0.08, 0.01, 0.0), (0.01, 0.12, 0.002), (0.0, 0.002, 0.15))
    robot = parallel_robot("stewart", leg_mass=0.0, platform_inertia=inertia)
    d = robot.description
    com = np.array(d.platform.com)
    rng = np.random.default_rng(7)
    for pose in robot.sample_poses(5, seed=3):
        vel, acc = rng.normal(scale=0.3, size=6), rng.normal(scale=2.0, size=6)
        u = robot.efforts(pose, vel, acc)
        phi, R = pose[3:], rotation(pose[3:])
        omega = left_jacobian(phi) @ vel[3:]
        alpha = left_jacobian(phi) @ acc[3:] + left_jacobian(phi + 1e-30j * vel[3:]).imag / 1e-30 @ vel[3:]
        c = R @ com
        a_c = acc[:3] + np.cross(alpha, c) + np.cross(omega, np.cross(omega, c))
        I = R @ np.array(inertia) @ R.T
        m, g = d.platform.mass + d.platform.payload, np.array(d.gravity)
        needed = np.r_[m * (a_c - g), I @ alpha + np.cross(omega, I @ omega) + np.cross(c, m * (a_c - g))]
        legs = robot.skeleton(pose)["limbs"]
        columns = []
        for leg in legs:
            e = (leg[-1] - leg[0]) / np.linalg.norm(leg[-1] - leg[0])
            columns.append(np.r_[e, np.cross(leg[-1] - pose[:3], e)])
        np.testing.assert_allclose(np.array(columns).T @ u, needed, rtol=1e-10, atol=1e-10 * np.abs(needed).max())


@pytest.mark.parametrize("name", READY)
def test_actuator_power_is_the_rate_of_kinetic_plus_potential_energy(name):
    """Σ u_k ȧ_k = d(T + V)/dt along a smooth path; dE/dt by 4th-order central differences of E over
    dt = 1e-3 s (truncation ~ dt⁴ E⁽⁵⁾ ≈ 1e-9 of the power), so 1e-6 of the largest power."""
    robot = parallel_robot(name)
    dt = 1e-3
    ts = np.arange(-2, 202) * dt
    X, Xd, Xdd = smooth_path(robot, ts)
    u = robot.efforts(X, Xd, Xdd)
    _, ad, _ = robot.actuator_rates(X, Xd, Xdd)
    Z, Zd, _ = robot.motion(X, Xd, Xdd)
    kinetic, potential = energy(robot, Z, Zd)
    E = kinetic + potential
    dE = (E[:-4] - 8 * E[1:-3] + 8 * E[3:-1] - E[4:]) / (12 * dt)
    power = np.sum(u * ad, axis=1)[2:-2]
    assert np.abs(kinetic).max() > 0
    assert np.abs(power - dE).max() <= 1e-6 * np.abs(power).max()


def test_efforts_of_a_static_robot_hold_it_against_gravity():
    """A payload of 1 kg at the tool point of a translational robot adds Jᵀ Δu = −m g to the static efforts
    (J = ∂a/∂x): the payload's weight carried through the inverse kinematic Jacobian."""
    robot = parallel_robot("delta")
    d = robot.description
    heavy = ParallelRobot(replace(d, platform=replace(d.platform, payload=1.0)))
    pose = robot.sample_poses(3, seed=1)
    extra = heavy.efforts(pose) - robot.efforts(pose)
    J = robot.jacobian(pose)
    weight = np.array([0.0, 0.0, -9.81])
    expected = np.linalg.solve(np.swapaxes(J, 1, 2), np.broadcast_to(-weight, (3, 3))[..., None])[..., 0]
    np.testing.assert_allclose(extra, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", READY)
def test_virtual_work_efforts_equal_the_servo_dae_inverse_of_the_rigid_model(name):
    """Two independent paths: efforts by virtual work on the closure coordinates and the actuator inputs of
    the rigid natural-coordinate model's servo-constraint DAE (rows on the task coordinates, a lower-mobility
    robot's parasitic motion from the rigid kinematics; generalized-α, h = 1 ms, ρ∞ = 0.5). Exactly equal at
    the start (statics); over the smooth task the DAE's error is the integrator's, O(h²) (9e-5 of the
    largest effort for the Stewart platform), after its start transient: 1e-3."""
    robot = parallel_robot(name)
    built, res = servo_inverse(robot)
    kinds = ["torque" if built.model.joints[j].kind == "revolute" else "force" for j in built.actuated]
    dae = np.column_stack([res[f"{a}.{k}"] for a, k in zip(built.actuators, kinds)])
    X, Xd, Xdd = smooth_path(robot, res.t)
    efforts = robot.efforts(X, Xd, Xdd)
    scale = np.abs(efforts).max()
    assert np.abs(dae[0] - efforts[0]).max() <= 1e-8 * scale
    assert np.abs(dae - efforts)[10:].max() <= 1e-3 * scale


@pytest.mark.parametrize("name", READY)
def test_every_ready_robot_assembles_rigid_and_flexible_with_its_mobility(name):
    """model() builds a femdyn Model that closes at the pose (constraint residual at round-off) and has the
    robot's mobility as degrees of freedom when rigid (its actuated joints left free)."""
    robot = parallel_robot(name)
    pose = robot.sample_poses(1, seed=5)[0]
    for flexible in (False, True):
        system = robot.model(pose, flexible=flexible).model.assemble()
        assert np.abs(system.all_constraints.phi(system.q0, 0.0)).max() < 1e-10
    rigid = robot.model(pose, flexible=False).model.assemble()
    assert f"{len(robot.description.task)} degrees of freedom" in rigid.summary().splitlines()[0]
