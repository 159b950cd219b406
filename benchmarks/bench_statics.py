"""Statics that reach their answer: wall time of ``static_equilibrium`` and ``equilibrium_path``
on cases that failed or could not be traced before the line search, the adaptive load steps and
the arc length.

Cases: the start of the 3-RRRU study's forward run (4 elements per link, motors held by the rigid
robot's torques) at 0.5 kg (failed before) and 1.0 kg; the von Mises truss and the deep arch of
Da Deppo & Schmidt (1975, 40 elements) traced by arc length through their limit points (the
models of examples/statics_snap_through.py). Each case prints whether it converged and the best
of ``--repeat`` times. No peer run: the answers are proven by tests/solvers/test_static_paths.py
(closed forms, the published limit load, the catenary of the slack wire, every payload 0–2 kg).

    python benchmarks/bench_statics.py [--repeat 3]
"""
import argparse
import importlib.util
import time
from pathlib import Path

import numpy as np

from femdyn.errors import FemdynError
from femdyn.solvers import equilibrium_path, static_equilibrium


def snap_through_models():
    """examples/statics_snap_through.py as a module (its truss and arch)."""
    spec = importlib.util.spec_from_file_location(
        "statics_snap_through", Path(__file__).parents[1] / "examples" / "statics_snap_through.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rrru_start(payload):
    """The flexible robot of the study's forward run at its first pose, motors held by the rigid torques."""
    from femdyn.robots.rrru import rrru
    from femdyn.studies.rrru import circle_motion, study_config
    pose = circle_motion(study_config(None)).position(0.0)
    rigid = rrru(pose=pose, payload=payload)
    locks = [rigid.model.drive_angle(f"lock {i}", motor, rigid.pose.angles[i]) for i, motor in enumerate(rigid.motors)]
    system = rigid.model.assemble()
    _, lam = static_equilibrium(system)
    robot = rrru(pose=pose, flexible=True, n_elements=4, payload=payload)
    for i, (motor, lock) in enumerate(zip(robot.motors, locks)):
        robot.model.torque(f"motor torque {i}", motor, float(-lam[system.joint_rows[lock.name][0]]))
    return robot.model.assemble()


def best_time(run, repeat):
    """(status, best wall time [s]) of ``repeat`` calls."""
    best, status = np.inf, "converged"
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            run()
        except FemdynError as err:
            status = f"fails ({type(err).__name__})"
        best = min(best, time.perf_counter() - start)
    return status, best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    example = snap_through_models()
    cases = []
    for payload in (0.5, 1.0):
        robot = rrru_start(payload)
        cases.append((f"3-RRRU start, 4 elements per link, {payload} kg", lambda s=robot: static_equilibrium(s)))
    truss, arch = example.truss(), example.arch(40)
    cases.append(("von Mises truss, arc-length path through both limit points",
                  lambda: equilibrium_path(truss, 0.002, max_points=500)))
    cases.append(("deep arch (40 elements), arc-length path past its limit load",
                  lambda: equilibrium_path(arch, 0.01, max_points=700, load_max=1.0)))
    print("| case | outcome | best time [s] |\n|---|---|---|")
    for name, run in cases:
        status, seconds = best_time(run, args.repeat)
        print(f"| {name} | {status} | {seconds:.3f} |", flush=True)


if __name__ == "__main__":
    main()
