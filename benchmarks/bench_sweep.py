"""Wall time of a small sweep of femdyn study rrru on 1 and 2 Dask worker processes and on 2 threads,
the per-case run times, and whether the three tables agree to the last bit.

Four cases (link stiffness E from 6.9e8 to 6.9e10 Pa), 0.1 s of the rigid and flexible
inverse dynamics with 4 elements per link each.

    python benchmarks/bench_sweep.py [--duration 0.1] [--out bench-sweep]
"""
import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor

from femdyn.studies.rrru_preset import preset_case
from femdyn.studies.sweep import dask_executor, grid_cases, run_sweep


def timed(label, base, cases, folder, executor_context):
    t0 = time.perf_counter()
    with executor_context as executor:
        records = run_sweep(preset_case, base, cases, folder, executor=executor)
    wall = time.perf_counter() - t0
    runtimes = [r["runtime"] for r in records]
    print(f"| {label} | {wall:.1f} | {sum(runtimes):.1f} | {' / '.join(f'{t:.1f}' for t in runtimes)} |")
    return open(os.path.join(folder, "cases.csv")).read()


if __name__ == "__main__":          # worker processes re-import this script
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duration", type=float, default=0.1)
    ap.add_argument("--out", default="bench-sweep")
    args = ap.parse_args()
    base = {"duration": args.duration, "parameters": {"elements": 4}, "paraview_every": 0, "forward": False}
    cases = grid_cases({"parameters.E": [6.9e8, 2.2e9, 6.9e9, 6.9e10]})
    print("| executor | wall [s] (with cluster start) | sum of case times [s] | case times [s] |")
    print("|---|---|---|---|")
    tables = [timed("Dask, 1 worker process", base, cases, os.path.join(args.out, "dask1"),
                    dask_executor(n_workers=1)),
              timed("Dask, 2 worker processes", base, cases, os.path.join(args.out, "dask2"),
                    dask_executor(n_workers=2)),
              timed("2 threads", base, cases, os.path.join(args.out, "threads"), ThreadPoolExecutor(2))]
    print("tables identical:", all(t == tables[0] for t in tables))
