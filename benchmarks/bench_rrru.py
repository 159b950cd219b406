"""Flexible 3-RRRU robot: cost of forward dynamics, and the transient rigid-body correction
ablation (Liu et al. 2018).

Forward: the flexible robot (8 ANCF beam elements per link 3, E = 6.9e8 Pa) driven by the
rigid robot's inverse-dynamics torques from its static equilibrium, h = 1 ms, ρ∞ = 0
(the study's setting); wall time per simulated second and per step, and where a step's time
goes by stage (exclusive times of the wrapped stages, see ``STAGES``; the rest of the
Newton loop and of ``integrate`` is "Python rest"), then cProfile's top entries. Ablation: the forward and the inverse (servo) problems with and
without ``RigidBodyCorrection``: Newton iterations and factorizations per step, failed
run, largest constraint residual, corrections, for each step size tried.

    python benchmarks/bench_rrru.py [--t-end 0.3] [--steps 1e-3 2e-3 4e-3] [--forward-only] [--clock cpu]

``--clock cpu`` times with the process's CPU time instead of the wall clock: on a loaded
machine it leaves out the time the process waits for a core (set OPENBLAS_NUM_THREADS=1 so
that no idle BLAS thread is counted).
"""
import argparse
import contextlib
import cProfile
import io
import pstats
import time
from functools import wraps

import numpy as np

from femdyn.errors import SolverError
from femdyn.model.constraints import ConstraintSet
from femdyn.model.system import System
from femdyn.motion import Tabulated
from femdyn.robots.rrru import rrru
from femdyn.solvers.correction import RigidBodyCorrection
from femdyn.results.store import ResultsWriter
from femdyn.solvers.generalized_alpha import NewtonStep, Options, integrate
from femdyn.solvers.kkt import KKTMatrix
from femdyn.solvers.static import static_equilibrium
from femdyn.studies.rrru import circle_motion, servo_robot
from femdyn.studies.rrru_study import StudyConfig


# (stage, class, method): a stage's time excludes the stages called inside it
STAGES = [("residual: forces", System, "forces"), ("residual: constraints", ConstraintSet, "evaluate"),
          ("residual: assembly", System, "residual"), ("residual: assembly", NewtonStep, "residuals"),
          ("factorization: tangent values", NewtonStep, "matrix_values"),
          ("factorization: assembly, LDLᵀ", NewtonStep, "factorize"), ("solves", KKTMatrix, "solve"),
          ("recording: sensors", None, "measure"), ("recording: energies", System, "kinetic_energy"),
          ("recording: energies", System, "potential_energy"), ("recording: rest", ResultsWriter, "record")]


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCKS["wall"]


class StageClock:
    """Exclusive time of the ``STAGES`` over one run (methods wrapped while in a ``with`` block)."""

    def __init__(self, system):
        self.system, self.seconds, self.stack, self.saved = system, {}, [], []

    def wrap(self, stage, function):
        @wraps(function)
        def timed(*args, **kwargs):
            self.stack.append(0.0)
            start = clock()
            try:
                return function(*args, **kwargs)
            finally:
                spent = clock() - start
                inner = self.stack.pop()
                self.seconds[stage] = self.seconds.get(stage, 0.0) + spent - inner
                if self.stack:
                    self.stack[-1] += spent
        return timed

    def __enter__(self):
        for stage, cls, name in STAGES:
            owners = self.system.sensors if cls is None else [cls]
            for owner in owners:
                self.saved.append((owner, name, owner.__dict__.get(name)))
                setattr(owner, name, self.wrap(stage, getattr(owner, name)))
        return self

    def __exit__(self, *exc):
        for owner, name, original in reversed(self.saved):
            if original is None:
                delattr(owner, name)
            else:
                setattr(owner, name, original)

    def table(self, wall, steps):
        """Markdown rows: µs per step of each stage and of the rest."""
        rows = [(stage, self.seconds.get(stage, 0.0)) for stage in dict.fromkeys(s for s, _, _ in STAGES)]
        rows.append(("Python rest (Newton loop, predictor, update, integrate loop)", wall - sum(t for _, t in rows)))
        lines = ["| stage | µs per step | share |", "|---|---:|---:|"]
        lines += [f"| {stage} | {t / steps * 1e6:.0f} | {t / wall:.0%} |" for stage, t in rows]
        return "\n".join(lines + [f"| **total** | **{wall / steps * 1e6:.0f}** | |"])


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


def run(system, t_end, h, corrector, tol, stages=None):
    q0, _ = static_equilibrium(system)
    start = clock()
    try:
        with stages or contextlib.nullcontext():
            r = integrate(system, t_end, h, Options(rho_inf=0.0, tol_dynamic=tol, tol_constraint=1e-12,
                                                    corrector=corrector), q0=q0)
        status = "completed"
    except SolverError as err:
        r, status = err.results, f"failed at t = {err.results.t[-1]:.3f} s"
    wall = clock() - start
    steps = max(len(r.t) - 1, 1)
    return {"status": status, "wall": wall, "per_step": wall / steps, "iterations": r["iterations"][1:].mean(),
            "factorizations": r["factorizations"][1:].mean(), "constraint": r["constraint_residual"].max(),
            "corrections": int(r["corrections"].sum())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--t-end", type=float, default=0.3)
    ap.add_argument("--steps", type=float, nargs="+", default=[1e-3, 2e-3, 4e-3])
    ap.add_argument("--forward-only", action="store_true", help="the forward cost and its breakdown, no ablation")
    ap.add_argument("--repeat", type=int, default=3, help="timed forward runs (best taken)")
    ap.add_argument("--clock", choices=list(CLOCKS), default="wall", help="time by the wall clock or CPU time")
    a = ap.parse_args()
    global clock
    clock = CLOCKS[a.clock]
    config = StudyConfig()
    motion = circle_motion(config)
    t, torques = rigid_torques(config, motion, a.t_end + 0.01)
    fwd = forward_system(config, motion, t, torques)
    print(f"flexible robot: {fwd.n} coordinates, {fwd.m} constraints")
    cost = min((run(fwd, a.t_end, 1e-3, None, 1e-8) for _ in range(a.repeat)), key=lambda c: c["wall"])
    print(f"forward dynamics, h = 1 ms: {cost['wall'] / a.t_end:.2f} s per simulated second, "
          f"{cost['per_step'] * 1e3:.2f} ms per step, {cost['iterations']:.2f} iterations/step, "
          f"{cost['factorizations']:.2f} factorizations/step (best of {a.repeat})")
    stages = [StageClock(fwd) for _ in range(a.repeat)]
    timed, best = min(((run(fwd, a.t_end, 1e-3, None, 1e-8, s), s) for s in stages), key=lambda c: c[0]["wall"])
    print(f"\nper-step breakdown ({a.clock} time of the stages, best of {a.repeat}; "
          "timing adds ≈ 1 µs per wrapped call):")
    print(best.table(timed["wall"], timed["wall"] / timed["per_step"]))
    profile = cProfile.Profile()
    profile.enable()
    cost = run(fwd, a.t_end, 1e-3, None, 1e-8)
    profile.disable()
    print(f"forward dynamics, h = 1 ms: {cost['wall'] / a.t_end:.1f} s per simulated second, "
          f"{cost['per_step'] * 1e3:.2f} ms per step, {cost['iterations']:.2f} iterations/step")
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(8)
    print("\n".join(line for line in text.getvalue().splitlines() if "/" in line)[:2000])
    if a.forward_only:
        return
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
