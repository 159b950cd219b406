"""Wall time of a 21 × 21 workspace map (stiffness and first frequencies) of a Delta robot with flexible
forearms (4 ANCF cable elements per bar) on a local Dask cluster, and the per-pose cost.

The Delta is the one of tests/support/parallel_robots.py (base 0.2 m, arms 0.35 m, bars 0.8 m of 6 mm
aluminium rod, platform 0.05 m), written to a description file; actuators locked, gravity off.

    python benchmarks/bench_workspace.py [--n 21] [--workers 2] [--out bench-workspace]
"""
import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


if __name__ == "__main__":          # worker processes re-import this script
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from support.parallel_robots import delta, description_toml

    from femdyn.robots.parallel import BeamSpec
    from femdyn.studies.workspace import WorkspaceConfig, run_workspace
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=21)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="bench-workspace")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    robot = os.path.join(args.out, "delta.toml")
    with open(robot, "w") as f:
        f.write(description_toml(delta(flex=BeamSpec(elements=4, radius=0.006))))
    config = WorkspaceConfig(robot=robot, n=args.n, workers=args.workers)
    clock = time.perf_counter()
    result = run_workspace(config, args.out, progress=True)
    wall = time.perf_counter() - clock
    s, times = result["summary"], result["map"]["times"]
    print(f"{args.n} × {args.n} poses ({s['reachable']} reachable), {args.workers} workers: {wall:.1f} s wall "
          f"(kinematics and efforts {times['kinematics']:.2f} s, linearized poses with the cluster's start "
          f"{times['linear']:.1f} s, files {wall - sum(times.values()):.1f} s)")
    print(f"translational stiffness {s['translational_stiffness_min_N_per_m']:.4g}–"
          f"{s['translational_stiffness_max_N_per_m']:.4g} N/m, first frequency {s['first_frequency_min_Hz']:.4g}–"
          f"{s['first_frequency_max_Hz']:.4g} Hz, failed poses {s['failed_poses']}")
