"""Statics that reach their answer: wall time of ``static_equilibrium`` and ``equilibrium_path``
on the cases that failed before the line search, the adaptive load steps and the arc length.

Cases: a slack steel wire (r = 0.05 mm, 2 m hung over a 1 m span, 16 planar cable elements, its
reference a circular arc) with 1 and 20 load steps; the start of the 3-RRRU study's forward run
(4 elements per link, motors held by the rigid robot's torques) at 0.5 kg and 1.0 kg; the von
Mises truss traced by arc length through both limit points. Each case prints whether it
converged and the best of ``--repeat`` times. No peer run: the answers are proven by
tests/solvers/test_static_paths.py (closed forms, catenary, every payload 0–2 kg).

    python benchmarks/bench_statics.py [--repeat 3]
"""
import argparse
import time

import numpy as np
from scipy.optimize import brentq

import femdyn
from femdyn.elements import sections
from femdyn.errors import FemdynError
from femdyn.solvers import equilibrium_path, static_equilibrium


def slack_cable(length=2.0, span=1.0, n=16, radius=5e-5):
    """The wire of ``length`` pinned ``span`` apart, its stress-free reference a sagging arc."""
    half = brentq(lambda th: np.sin(th) / th - span / length, 1e-6, np.pi - 1e-9)
    R, angle = length / (2 * half), np.linspace(-half, half, n + 1)
    points = np.column_stack([span / 2 + R * np.sin(angle), -R * (np.cos(angle) - np.cos(half)), 0 * angle])
    m = femdyn.Model("slack cable", gravity=(0, -9.81, 0))
    m.beam_through_points("c", points, E=2e11, rho=7800, section=sections.circular(radius))
    m.spherical("a", "ground", "c.0", (0, 0, 0))
    m.spherical("b", "ground", f"c.{n}", (span, 0, 0))
    return m.assemble()


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


def von_mises_truss(half_span=1.0, rise=0.1, stiffness=1e4, load=10.0):
    """Two springs from (∓half_span, 0, 0) to an apex at ``rise`` that moves vertically, pushed down by ``load`` s."""
    m = femdyn.Model("von Mises truss", gravity=(0, 0, 0))
    apex = (0, 0, rise)
    m.point_mass("apex", apex, 1.0)
    m.spring("left", "ground", (-half_span, 0, 0), "apex", apex, stiffness=stiffness)
    m.spring("right", "ground", (half_span, 0, 0), "apex", apex, stiffness=stiffness)
    m.fix("apex", components=(0, 1))
    m.force("P", "apex", apex, (0, 0, -load))
    return m.assemble()


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
    wire = slack_cable()
    cases = [("slack wire, 1 load step", lambda: static_equilibrium(wire, load_steps=1)),
             ("slack wire, 20 load steps", lambda: static_equilibrium(wire, load_steps=20))]
    for payload in (0.5, 1.0):
        robot = rrru_start(payload)
        cases.append((f"3-RRRU start, 4 elements per link, {payload} kg", lambda s=robot: static_equilibrium(s)))
    truss = von_mises_truss()
    cases.append(("von Mises truss, arc-length path through both limit points",
                  lambda: equilibrium_path(truss, 0.002, max_points=500)))
    print("| case | outcome | best time [s] |\n|---|---|---|")
    for name, run in cases:
        status, seconds = best_time(run, args.repeat)
        print(f"| {name} | {status} | {seconds:.3f} |", flush=True)


if __name__ == "__main__":
    main()
