"""PUMA 560 (Armstrong, Khatib & Burdick 1986 parameters) and Tian et al.'s (2010) hybrid run, rigid.

Tian et al. (2010) drive a flexible PUMA with joints 1, 3, 6 torque-given —
3 sin(πt/3), 0.3 cos(πt/6), 0.3 cos(πt/6) N·m — and joints 2, 4, 5 acceleration-given
(q̈ = 0), integrated with Zhai's method, h = 0.005 s. Here the same inputs drive the
rigid PUMA through the O(N) hybrid dynamics, from rest at q = 0, for 6 s, with gravity;
the run is repeated with RK4 at the same step as a cross-check.

    python examples/recursive_puma560.py [out_folder]
"""
import os

import numpy as np

from femdyn.solvers.recursive import Data, hybrid_dynamics, inverse_dynamics
from femdyn.results import time_histories
from femdyn.results.plots import output_folder
from femdyn.solvers.recursive.integrators import simulate
from femdyn.robots.serial import puma560

H, T_END = 0.005, 6.0
MOTION_GIVEN = np.array([False, True, False, True, True, False])      # joints 2, 4, 5


def torques(t):
    return np.array([3 * np.sin(np.pi * t / 3), 0, 0.3 * np.cos(np.pi * t / 6), 0, 0, 0.3 * np.cos(np.pi * t / 6)])


def main(out):
    model = puma560()
    data = Data(model)
    for name, q in (("qz", np.zeros(6)), ("(0, π/2, −π/2, 0, 0, 0)", np.array([0, np.pi / 2, -np.pi / 2, 0, 0, 0]))):
        gravity_load = inverse_dynamics(model, data, q, np.zeros(6), np.zeros(6))
        print(f"gravity torques at {name}: {np.round(gravity_load, 4)} N·m")

    def hybrid(t, q, v):
        return hybrid_dynamics(model, data, q, v, MOTION_GIVEN, torques(t), np.zeros(6))

    runs = {m: simulate(lambda t, q, v: hybrid(t, q, v)[0], np.zeros(6), np.zeros(6), T_END, H, method=m)
            for m in ("zhai", "rk4")}
    zhai = runs["zhai"]
    tau = np.array([hybrid(t, q, v)[1] for t, q, v in zip(zhai.t, zhai.q, zhai.v)])
    time_histories(os.path.join(out, "puma560_seed000_rigid.png"), zhai.t,
                   [("q̈ [rad/s²]", {f"joint {k + 1}": zhai.a[:, k] for k in (0, 2)}),
                    ("joint 6 q̈ [rad/s²]", {"joint 6": zhai.a[:, 5]}),
                    ("τ [N·m]", {f"joint {k + 1}": tau[:, k] for k in (1, 3, 4)}),
                    ("q [rad]", {f"joint {k + 1}": zhai.q[:, k] for k in (0, 2)})],
                   "rigid PUMA 560, Tian et al. 2010 inputs: hybrid dynamics + Zhai (h = 0.005 s)")
    gap = np.abs(runs["zhai"].q - runs["rk4"].q).max()
    print(f"q(6 s) Zhai = {np.round(zhai.q[-1], 4)} rad; Zhai vs RK4 at h = {H} s: max |Δq| = {gap:.2e} rad")


if __name__ == "__main__":
    folder = output_folder(__doc__.splitlines()[0])
    main(folder)
    print(f"figures in {folder}")
