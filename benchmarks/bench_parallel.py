"""Parallel-robot kinematics and rigid efforts: poses per second of every ready robot, and how the cost
grows with the batch.

For each robot and batch size N: inverse kinematics of N poses drawn in its workspace
(``sample_poses``), forward kinematics of their actuator coordinates (checked to return the poses to
1e-9), the Jacobians, and the rigid efforts with velocities and accelerations; best of ``--repeat`` runs.
Usage: ``python benchmarks/bench_parallel.py [--sizes 100 1000 10000] [--robots delta stewart]``.
"""
import argparse
import time

import numpy as np

from femdyn.robots.parallel import parallel_robot
from femdyn.robots.parallel.catalogue import READY


def best(run, repeat):
    """Shortest wall time of ``repeat`` calls, s."""
    times = []
    for _ in range(repeat):
        clock = time.perf_counter()
        run()
        times.append(time.perf_counter() - clock)
    return min(times)


def measure(name, sizes, repeat):
    """Rows (robot, N, IK poses/s, FK poses/s, Jacobians/s, efforts/s) for one robot."""
    robot = parallel_robot(name)
    pool = robot.sample_poses(max(sizes), seed=0)
    rows = []
    for n in sizes:
        poses = pool[:n]
        actuators = robot.inverse_kinematics(poses)
        back = robot.forward_kinematics(actuators)
        error = np.abs(back - poses).max()
        assert error < 1e-9, f"{name}: forward kinematics misses the poses by {error:.3g}"
        rng = np.random.default_rng(1)
        velocity, acceleration = rng.normal(scale=0.1, size=poses.shape), rng.normal(scale=1.0, size=poses.shape)
        ik = best(lambda: robot.inverse_kinematics(poses), repeat)
        fk = best(lambda: robot.forward_kinematics(actuators), repeat)
        jac = best(lambda: robot.jacobian(poses), repeat)
        eff = best(lambda: robot.efforts(poses, velocity, acceleration), repeat)
        rows.append((name, n, n / ik, n / fk, n / jac, n / eff))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--robots", nargs="+", default=list(READY))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| robot | N | IK poses/s | FK poses/s | Jacobians/s | efforts/s |")
    print("|---|---|---|---|---|---|")
    for name in args.robots:
        rows = measure(name, args.sizes, args.repeat)
        for row in rows:
            print(f"| {row[0]} | {row[1]} | " + " | ".join(f"{v:,.0f}" for v in row[2:]) + " |")
        if len(rows) > 1:
            slope = np.polyfit(np.log([r[1] for r in rows]), np.log([r[1] / r[2] for r in rows]), 1)[0]
            print(f"| {name} | IK cost slope d log(time)/d log(N) | {slope:.2f} | | | |")


if __name__ == "__main__":
    main()
