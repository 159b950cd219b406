"""Cost of strain gauges and of the strain report, on examples/strain_report.py's link
(8 ANCF cable elements, 300 generalized-α steps of 2 ms).

* run time with 0 and 3 gauges of 1, 2 and 3 grid points (each grid point evaluates the
  beam kernel's strain recovery once per recorded step);
* the report: compare (conditioning, alignment, metrics; 3 channels of 1300 samples)
  and writing HTML + PDF + JSON.

    python benchmarks/bench_strain_report.py
"""
import importlib.util
import os
import tempfile
import time
from pathlib import Path

from femdyn.reports.measurements import read_gauge_map, read_measurements
from femdyn.reports.strain_report import compare, write_report

REPEAT = 3
spec = importlib.util.spec_from_file_location("example", Path(__file__).resolve().parents[1] / "examples" /
                                              "strain_report.py")
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)


def best(f):
    times = []
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main():
    with tempfile.TemporaryDirectory() as tmp:
        gauge_map = read_gauge_map(example.write_map(os.path.join(tmp, "gauges.toml")))
        print("gauges  grid points  run time (s, 300 steps)")
        for count, points in ((0, 0), (3, 1), (3, 2), (3, 3)):
            for g in gauge_map.gauges():
                g.grid_points = points
            entries, gauge_map.entries = gauge_map.entries, gauge_map.entries[:count]
            seconds, results = best(lambda: example.simulate(None, gauge_map))
            gauge_map.entries = entries
            print(f"{count:6d}  {points:11d}  {seconds:.2f}")
        example.simulate(os.path.join(tmp, "run"), gauge_map)
        from femdyn import load
        results = load(os.path.join(tmp, "run"))
        data = read_measurements(example.synthetic_measurement(results, os.path.join(tmp, "m.csv")))
        seconds, comparison = best(lambda: compare(results, data, gauge_map))
        print(f"compare: {seconds:.3f} s")
        seconds, _ = best(lambda: write_report(comparison, os.path.join(tmp, "report")))
        print(f"write HTML + PDF + JSON: {seconds:.2f} s")


if __name__ == "__main__":
    main()
