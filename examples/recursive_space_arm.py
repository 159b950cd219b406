"""Qiu et al.: 7-DOF space manipulator, fixed and free-floating base.

Forward dynamics (ABA) integrated with RK4, h = 0.01 s, 10 s; inverse dynamics (RNEA,
and the hybrid problem with a free base); computed-torque tracking of Qiu et al.'s
desired trajectory. The arm's link table was lost; femdyn's arm is documented in
femdyn.robots.serial.space_arm.

    python examples/recursive_space_arm.py [out_folder]
"""
import os

import numpy as np

from femdyn.solvers.recursive import Data, forward_dynamics, inverse_dynamics, mass_matrix, momentum
from femdyn.solvers.recursive.configuration import TreeSpace
from femdyn.solvers.recursive.control import track
from femdyn.results import time_histories
from femdyn.results.plots import output_folder
from femdyn.solvers.recursive.floating import floating_base_inverse_dynamics
from femdyn.solvers.recursive.integrators import simulate
from femdyn.robots.serial import space_arm, space_arm_desired

H, T_END = 0.01, 10.0
JOINTS = [f"joint {k}" for k in range(1, 8)]


def fixed_torques(t):
    s, c = np.sin(t), np.cos(t)
    return np.array([s, 0.3 * c, 0.3 * s, 0.2 * c, 0.2 * s, 0.03 * s, 0.02 * s])


def floating_torques(t):
    s, c = np.sin(t), np.cos(t)
    return np.array([c, 0.5 * s, 0.5 * c, 0.1 * s, 0.1 * c, 0.05 * c, 0.01 * c])


def columns(x, names):
    return {n: x[:, k] for k, n in enumerate(names)}


def fixed_base(out):
    model = space_arm()
    data = Data(model)
    run = simulate(lambda t, q, v: forward_dynamics(model, data, q, v, fixed_torques(t)),
                   np.zeros(7), np.zeros(7), T_END, H)
    time_histories(os.path.join(out, "space_arm_fixed_forward.png"), run.t,
                   [("q [rad]", columns(run.q, JOINTS)), ("q̇ [rad/s]", columns(run.v, JOINTS))],
                   "7-DOF arm, fixed base: forward dynamics (ABA + RK4, h = 0.01 s)")
    t = run.t
    tau = np.array([inverse_dynamics(model, data, 0.1 * np.cos(s) * np.ones(7), -0.1 * np.sin(s) * np.ones(7),
                                     -0.1 * np.cos(s) * np.ones(7)) for s in t])
    time_histories(os.path.join(out, "space_arm_fixed_inverse.png"), t, [("τ [N·m]", columns(tau, JOINTS))],
                   "7-DOF arm, fixed base: inverse dynamics for q = 0.1 cos t")
    print(f"fixed base: q(10 s) = {np.round(run.q[-1], 4)} rad; peak |τ| (inverse) = {np.abs(tau).max():.4f} N·m")


def floating_base(out):
    model = space_arm(floating=True)
    data, space = Data(model), TreeSpace(model)
    run = simulate(lambda t, q, v: forward_dynamics(model, data, q, v, np.r_[np.zeros(6), floating_torques(t)]),
                   model.neutral_configuration(), np.zeros(model.nv), T_END, H, space=space)
    h = np.array([momentum(model, data, q, v) for q, v in zip(run.q, run.v)])
    time_histories(os.path.join(out, "space_arm_floating_forward.png"), run.t,
                   [("joint q [rad]", columns(run.q[:, 7:], JOINTS)),
                    ("base position [m]", columns(run.q[:, :3], ["x", "y", "z"])),
                    ("momentum drift", columns(h - h[0], ["Lx", "Ly", "Lz", "px", "py", "pz"]))],
                   "7-DOF arm, free-floating base: forward dynamics (RK4, h = 0.01 s)")
    # inverse problem: joints follow q = 0.1 sin t, the base floats (zero initial momentum)
    def joint_acc(t):
        return -0.1 * np.sin(t) * np.ones(7)

    def acceleration(t, q, v):
        return np.r_[floating_base_inverse_dynamics(model, data, q, v, joint_acc(t))[1], joint_acc(t)]

    q0, v0 = model.neutral_configuration(), np.r_[np.zeros(6), 0.1 * np.ones(7)]
    H_bb, H_bj = _base_blocks(model, data, q0)
    v0[:6] = -np.linalg.solve(H_bb, H_bj @ v0[6:])
    inv = simulate(acceleration, q0, v0, T_END, H, space=space)
    results = [floating_base_inverse_dynamics(model, data, q, v, joint_acc(s)) for s, q, v in zip(inv.t, inv.q, inv.v)]
    tau = np.array([r[0] for r in results])
    wrench = np.array([r[2] for r in results])
    time_histories(os.path.join(out, "space_arm_floating_inverse.png"), inv.t,
                   [("τ [N·m]", columns(tau, JOINTS)),
                    ("disturbance torque [N·m]", columns(wrench[:, :3], ["nx", "ny", "nz"])),
                    ("disturbance force [N]", columns(wrench[:, 3:], ["fx", "fy", "fz"])),
                    ("base position [m]", columns(inv.q[:, :3], ["x", "y", "z"]))],
                   "free-floating base: inverse dynamics for q = 0.1 sin t (base moves freely)")
    print(f"floating base: max momentum drift over 10 s = {np.abs(h - h[0]).max():.2e}; "
          f"peak disturbance force {np.abs(wrench[:, 3:]).max():.4f} N, torque {np.abs(wrench[:, :3]).max():.4f} N·m")


def _base_blocks(model, data, q):
    """Mass-matrix blocks H_bb (6×6) and H_bj (6×7): the base rows are the system momentum in base axes."""
    M = mass_matrix(model, data, q)
    return M[:6, :6], M[:6, 6:]


def control(out):
    q0, v0, _ = space_arm_desired(0.0)
    run = track(space_arm(), space_arm_desired, q0 + 0.2, v0, T_END, H, kp=100.0, kd=20.0)
    error = run.q - np.array([space_arm_desired(s)[0] for s in run.t])
    time_histories(os.path.join(out, "space_arm_computed_torque.png"), run.t,
                   [("q − q_d [rad]", columns(error, JOINTS))],
                   "computed-torque control, Kp = 100, Kd = 20, initial error 0.2 rad")
    print(f"computed torque: |error| at 10 s = {np.abs(error[-1]).max():.2e} rad")


if __name__ == "__main__":
    folder = output_folder(__doc__.splitlines()[0])
    fixed_base(folder)
    floating_base(folder)
    control(folder)
    print(f"figures in {folder}")
