"""Wall time of the 3-RRRU fit (seeded differential evolution over the lost link lengths and
masses, rigid figures) on a Dask LocalCluster of 1 and of 2 worker processes, the cases
per minute, and whether both give the same fit.

The default fit of femdyn.studies.rrru_fit (5 unknowns, h = 10 ms) with a smaller
population and fewer generations: popsize 4 (20 members), 3 generations after the
initial one, 80 cases.

    python benchmarks/bench_fit.py [--popsize 4] [--maxiter 3] [--workers 1 2]
"""
import argparse
import os
import platform
import time

from femdyn.studies.rrru_fit import fit, fit_config
from femdyn.studies.sweep import dask_executor


def _cpu():
    """The CPU model from /proc/cpuinfo (or the platform's processor string)."""
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or "unknown"


if __name__ == "__main__":          # worker processes re-import this script
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--popsize", type=int, default=4)
    ap.add_argument("--maxiter", type=int, default=3)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()
    config = fit_config({"popsize": args.popsize, "maxiter": args.maxiter, "tol": 0.0})
    print(f"machine: {os.cpu_count()} CPUs ({_cpu()}), shared; Python {platform.python_version()}")
    print("| LocalCluster workers | cases | wall of the fit [s] | wall with cluster start [s] | cases per minute |")
    print("|---|---|---|---|---|")
    results = []
    for n in args.workers:
        clock = time.perf_counter()
        with dask_executor(n_workers=n) as executor:
            result = fit(config, executor)
        total = time.perf_counter() - clock
        results.append(result)
        print(f"| {n} | {result.evaluations} | {result.wall:.1f} | {total:.1f} | "
              f"{60 * result.evaluations / result.wall:.0f} |")
    same = all(r.best == results[0].best and r.history == results[0].history for r in results)
    print(f"same fit on every cluster: {same}; best cost {results[0].cost:.4g}")
