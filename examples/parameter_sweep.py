"""A parameter sweep in plain Python: the pendulum's period against its amplitude.

The compound pendulum of ``joint_revolute.py`` is released from a range of amplitudes;
each case is an independent run, so the cases go to a pool of worker processes
(``concurrent.futures.ProcessPoolExecutor``; any executor with ``map`` will do, and a
plain ``for`` loop is the serial version). The results are collected in a table — one
row per case: amplitude, measured period, exact period T = 4 √(I/(m g d)) K(sin(θ₀/2))
and their relative difference — printed and written as CSV. The small-angle period
2π √(2L/3g) is the first row's limit; at 150° the period is 1.8 times longer.

For studies with settings files, many cases and a cluster, see ``femdyn sweep``
(docs/sweeps.md).

    python examples/parameter_sweep.py [out_folder]
"""
import csv
import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from femdyn.results.plots import output_folder
from femdyn.solvers.generalized_alpha import integrate
from joint_revolute import build, exact_period, period_from_crossings

AMPLITUDES = (5.0, 30.0, 60.0, 90.0, 120.0, 150.0)         # degrees


def case(amplitude_deg, h=1e-3):
    """One case: run a little more than one period; return a row of the table."""
    amplitude = np.radians(amplitude_deg)
    exact = exact_period(amplitude)
    results = integrate(build(amplitude).assemble(), t_end=1.3 * exact, h=h)
    period = period_from_crossings(results.t, results["pivot.angle"])
    return {"amplitude_deg": amplitude_deg, "period_s": period, "exact_s": exact, "relative_error": period / exact - 1}


def main(out, amplitudes=AMPLITUDES, workers=2):
    with ProcessPoolExecutor(max_workers=workers) as pool:
        rows = list(pool.map(case, amplitudes))              # same order as the amplitudes
    path = os.path.join(out, "periods.csv")
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"{'amplitude':>10} {'period':>10} {'exact':>10} {'rel. error':>11}")
    for row in rows:
        print(f"{row['amplitude_deg']:>9g}° {row['period_s']:>9.5f}s {row['exact_s']:>9.5f}s {row['relative_error']:>11.2e}")
    print(f"table written to {path}")
    return rows


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
