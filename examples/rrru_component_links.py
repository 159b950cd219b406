"""The 3-RRRU robot of Liu et al. (2018) with its flexible links modelled twice, in one run:
as ANCF beam elements and as floating-frame bodies of the Craig–Bampton component of the
same ANCF link (``rrru(link_model="component")``).

Both robots are held at the motors and sag under gravity: their static equilibria are
compared at g and at g/10, with the strain gauges of Liu et al.'s positions on every link 3
(stored in the components for the component links; the difference is the links' geometric
nonlinearity, which linear modes lack, so it falls faster than the load), then both are released from the
undeformed shape and the platform centre's motion is compared over ``t_end``.

    python examples/rrru_component_links.py [out_folder] [--t-end 0.04]
"""
import argparse
import os
import time

import numpy as np

from femdyn.results import time_histories
from femdyn.robots.rrru import rrru
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.static import static_equilibrium

MODELS = ("ancf", "component")


def held_robot(link_model, g=9.81):
    """The robot (4 elements per link 3) with its motors held at their initial angles."""
    robot = rrru(flexible=True, link_model=link_model, n_elements=4, gravity=(0, 0, -g))
    for k, motor in enumerate(robot.motors):
        robot.model.drive_angle(f"hold {k}", motor, float(robot.pose.angles[k]))
    robot.model.sensor_point("centre", robot.platform, robot.centre)
    return robot


def static_sag(link_model, g):
    """Static displacement (m) of the platform centre under gravity g (m/s²) and the gauges' strains."""
    robot = held_robot(link_model, g)
    system = robot.model.assemble()
    q, lam = static_equilibrium(system)
    centre = system.bodies[robot.platform].material_point(robot.centre)
    gauges = np.array([v for sensor in system.sensors if sensor.name in robot.gauges
                       for v in sensor.measure(q, 0 * q, None, lam, 0.0)])
    return centre(q) - robot.centre, gauges


def released(link_model, t_end):
    """Platform-centre displacement (m) after release from the undeformed shape; wall time (s)."""
    robot = held_robot(link_model)
    clock = time.perf_counter()
    r = integrate(robot.model.assemble(), t_end, 1e-3, Options(rho_inf=0.8))
    wall = time.perf_counter() - clock
    return r.t, np.column_stack([r["centre.x"], r["centre.y"], r["centre.z"]]) - robot.centre, wall


def main(out, t_end=0.04):
    for g in (9.81, 0.981):
        static = {name: static_sag(name, g) for name in MODELS}
        sag = {name: static[name][0] for name in MODELS}
        gap = np.linalg.norm(sag["component"] - sag["ancf"]) / np.linalg.norm(sag["ancf"])
        strain = np.abs(static["component"][1] / static["ancf"][1] - 1).max()
        print(f"static sag at g = {g} m/s²: ANCF {np.round(sag['ancf'] * 1e3, 4)} mm, "
              f"component {np.round(sag['component'] * 1e3, 4)} mm, difference {gap:.2%}")
        print(f"  gauges at g = {g} m/s²: ANCF {np.round(static['ancf'][1] * 1e6, 2)} µε, component links "
              f"within {strain:.2%}")
    runs = {name: released(name, t_end) for name in MODELS}
    t = runs["ancf"][0]
    size = np.abs(runs["ancf"][1]).max()
    gap = np.abs(runs["component"][1] - runs["ancf"][1]).max()
    print(f"released for {t_end} s: platform moves {size * 1e3:.3f} mm; component links follow the ANCF "
          f"links to {gap / size:.1%} of that; wall time ANCF {runs['ancf'][2]:.1f} s, "
          f"component {runs['component'][2]:.1f} s")
    path = os.path.join(out, "rrru_component_links.png")
    time_histories(path, t, [(f"centre {axis} [mm]", {name: runs[name][1][:, k] * 1e3 for name in MODELS})
                             for k, axis in enumerate("xyz")],
                   "3-RRRU held at the motors, released: ANCF links vs component links")
    print(f"figure: {path}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="femdyn-out", help="folder for the figure (default ./femdyn-out)")
    parser.add_argument("--t-end", type=float, default=0.04, help="released run's duration in s (default 0.04)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    main(args.out, args.t_end)
