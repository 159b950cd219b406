"""Flexible 3-RRRU robot: cost of forward dynamics, and the transient rigid-body correction
ablation (Liu et al. 2018).

Forward: the flexible robot (8 ANCF beam elements per link 3, E = 6.9e8 Pa) driven by the
rigid robot's inverse-dynamics torques from its static equilibrium, h = 1 ms, ρ∞ = 0
(the study's setting); wall time per simulated second and per step, and where it goes
(cProfile, top entries). Ablation: the forward and the inverse (servo) problems with and
without ``RigidBodyCorrection``: Newton iterations and factorizations per step, failed
run, largest constraint residual, corrections, for each step size tried.

    python benchmarks/bench_rrru.py [--t-end 0.3] [--steps 1e-3 2e-3 4e-3]
"""
import argparse
import cProfile
import io
import pstats
import time

import numpy as np

from femdyn.errors import SolverError
from femdyn.motion import Tabulated
from femdyn.robots.rrru import rrru
from femdyn.solvers.correction import RigidBodyCorrection
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.static import static_equilibrium
from femdyn.studies.rrru import circle_motion, servo_robot
from femdyn.studies.rrru_study import StudyConfig


def rigid_torques(config, motion, t_end):
    s = servo_robot(config, motion).model.assemble()
    r = integrate(s, t_end, 1e-3, Options(rho_inf=0.5, tol_dynamic=1e-10, tol_constraint=1e-12))
    return r.t, np.column_stack([r[f"actuator {i}.torque"] for i in range(3)])


def forward_system(config, motion, t, torques):
    robot = rrru(pose=motion.position(motion.start), flexible=True, n_elements=config.n_elements)
    for i, motor in enumerate(robot.motors):
        robot.model.torque(f"motor torque {i}", motor, Tabulated(t, torques[:, i]))
    return robot.model.assemble()


def inverse_system(config, motion):
    return servo_robot(config, motion, flexible=True, n_elements=config.n_elements).model.assemble()


def run(system, t_end, h, corrector, tol):
    q0, _ = static_equilibrium(system)
    clock = time.perf_counter()
    try:
        r = integrate(system, t_end, h, Options(rho_inf=0.0, tol_dynamic=tol, tol_constraint=1e-12,
                                                corrector=corrector), q0=q0)
        status = "completed"
    except SolverError as err:
        r, status = err.results, f"failed at t = {err.results.t[-1]:.3f} s"
    wall = time.perf_counter() - clock
    steps = max(len(r.t) - 1, 1)
    return {"status": status, "wall": wall, "per_step": wall / steps, "iterations": r["iterations"][1:].mean(),
            "factorizations": r["factorizations"][1:].mean(), "constraint": r["constraint_residual"].max(),
            "corrections": int(r["corrections"].sum())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--t-end", type=float, default=0.3)
    ap.add_argument("--steps", type=float, nargs="+", default=[1e-3, 2e-3, 4e-3])
    a = ap.parse_args()
    config = StudyConfig()
    motion = circle_motion(config)
    t, torques = rigid_torques(config, motion, a.t_end + 0.01)
    fwd = forward_system(config, motion, t, torques)
    print(f"flexible robot: {fwd.n} coordinates, {fwd.m} constraints")
    profile = cProfile.Profile()
    profile.enable()
    cost = run(fwd, a.t_end, 1e-3, None, 1e-8)
    profile.disable()
    print(f"forward dynamics, h = 1 ms: {cost['wall'] / a.t_end:.1f} s per simulated second, "
          f"{cost['per_step'] * 1e3:.2f} ms per step, {cost['iterations']:.2f} iterations/step")
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(8)
    print("\n".join(line for line in text.getvalue().splitlines() if "/" in line)[:2000])
    print("\n| problem | correction | h (ms) | status | iterations/step | factorizations/step | max |Φ| (m) | "
          "corrections |\n|---|---|---:|---|---:|---:|---:|---:|")
    for name, system in (("forward", fwd), ("inverse", inverse_system(config, motion))):
        for h in a.steps:
            for corrector in (None, RigidBodyCorrection()):
                c = run(system, a.t_end, h, corrector, 1e-8)
                print(f"| {name} | {'on' if corrector else 'off'} | {h * 1e3:g} | {c['status']} | "
                      f"{c['iterations']:.2f} | {c['factorizations']:.2f} | {c['constraint']:.1e} | "
                      f"{c['corrections']} |", flush=True)


if __name__ == "__main__":
    main()
