"""Inverse dynamics of the 3-RRRU robot by servo constraints and actuator inputs
(Liu et al. 2018), against the motor-angle-driven rigid solution and between the rigid and
the stiff flexible robot."""
import numpy as np
import pytest

from femdyn.robots.rrru import RRRUGeometry
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.static import static_equilibrium
from femdyn.studies.rrru import circle_motion, driven_robot, servo_robot, study_config

T_END = 0.08      # s: through the first jerk phases of the S-curve start


@pytest.fixture(scope="module")
def rigid_driven():
    config = study_config({})
    motion = circle_motion(config)
    robot = driven_robot(config, motion)
    r = integrate(robot.model.assemble(), T_END, config.h, Options(rho_inf=0.5, tol_dynamic=1e-10))
    return config, motion, r, np.column_stack([r[f"torque {i}.torque"] for i in range(3)])


def test_servo_inverse_dynamics_equals_the_driven_motor_solution(rigid_driven):
    """Two independent formulations of the rigid robot's inverse problem — the motor angles
    driven along their closed-form inverse kinematics (torques = drive multipliers), and
    the platform centre prescribed with the torques as unknowns (servo rows) — give the
    same torques to 1e-6 relative (both solve the same DAE solution; they differ by the
    Newton tolerances) and the platform on its path to 1e-12 m."""
    config, motion, driven, torques = rigid_driven
    robot = servo_robot(config, motion)
    s = robot.model.assemble()
    assert s.m - len(s.input_rows) == s.n - 3          # 3 servo rows take the place of 3 DOF
    r = integrate(s, T_END, config.h, Options(rho_inf=0.5, tol_dynamic=1e-10, tol_constraint=1e-12))
    servo = np.column_stack([r[f"actuator {i}.torque"] for i in range(3)])
    assert np.abs(servo - torques).max() < 1e-6 * np.abs(torques).max()
    P = np.column_stack([r[f"P.{c}"] for c in "xyz"])
    assert np.abs(P - np.array([motion.position(t) for t in r.t])).max() < 1e-12


def test_flexible_inverse_dynamics_tends_to_the_rigid_one(rigid_driven):
    """Links 3 a thousand times stiffer than the simulation's (E = 6.9e11 Pa, 4 ANCF beam
    elements each), starting from the static equilibrium: the platform centre tracks the
    path to 1e-8 m, and the torques, averaged over 15 ms (two periods of the links' first
    bending mode), are within 1e-3 of the rigid ones (measured 8e-4) once 10 ms have passed
    since the last jerk step. Unaveraged they differ by up to 0.4 %: the jerk steps of the
    S-curve excite undamped link vibrations whose inertia forces (ω²δ) do not shrink as the
    links stiffen; ρ∞ = 0 (the damping a non-collocated inverse problem needs)."""
    config, motion, _, torques = rigid_driven
    stiff = study_config({"geometry": RRRUGeometry(E=6.9e11)})
    system = servo_robot(stiff, motion, flexible=True, n_elements=4).model.assemble()
    q0, _ = static_equilibrium(system)         # start from rest in equilibrium, as the paper does
    r = integrate(system, T_END, config.h, Options(rho_inf=0.0, tol_dynamic=1e-8, tol_constraint=1e-12), q0=q0)
    flexible = np.column_stack([r[f"actuator {i}.torque"] for i in range(3)])
    window = np.ones(15) / 15                       # 15 ms: two periods of the links' first bending mode

    def mean(x):
        return np.convolve(x, window, mode="valid")
    t = mean(r.t)
    error = np.max([np.abs(mean(flexible[:, i]) - mean(torques[:, i])) for i in range(3)], axis=0)
    assert error[t > 0.06].max() < 1e-3 * np.abs(torques).max()
    P = np.column_stack([r[f"P.{c}"] for c in "xyz"])
    assert np.abs(P - np.array([motion.position(t) for t in r.t])).max() < 1e-8
