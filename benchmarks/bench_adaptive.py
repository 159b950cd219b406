"""Fixed step against error-controlled step: cost at equal accuracy.

Three runs with a known answer:

- ``pendulum``: the swinging rod of tests/support/models.py, 2 s, tip against the exact
  solution (θ̈ = 3g/(2L) cos θ to 1e-13), index-3 form;
- ``slider-crank``: examples/clearance_slider_crank.py, half a crank turn with about 35
  impacts, slider and journal against a fixed h = 0.5 µs run;
- ``heavy top``: benchmarks/validation/heavy_top.py, stabilized, 0.5 s, centre of mass against
  Euler's equations.

For each, a ladder of fixed steps and of tolerances (h of the tolerance runs: the output
spacing, also the largest step); per run the error (m, max norm over the recorded times for the
slider-crank, at the end otherwise), the wall time, the Newton iterations and the steps. The
machine is shared: wall times scatter, Newton iterations do not.

    python benchmarks/bench_adaptive.py [--cases pendulum slider-crank heavy-top]
"""
import argparse
import pathlib
import sys
import time
import warnings

import numpy as np
from scipy.integrate import solve_ivp

from femdyn.solvers.generalized_alpha import Options, integrate

ROOT = pathlib.Path(__file__).resolve().parents[1]
for folder in ("tests", "examples", "benchmarks/validation"):
    sys.path.insert(0, str(ROOT / folder))
from support.models import pendulum  # noqa: E402

G = 9.81


def timed(system, t_end, h, options, **kwargs):
    """(results, wall time s) of one run."""
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = integrate(system, t_end, h, options, **kwargs)
    return r, time.perf_counter() - start


def row(label, r, seconds, error):
    """One printed line of a run."""
    steps = r.steps_taken
    print(f"| {label} | {error:.2e} | {seconds:.2f} | {len(r.iterations)} | {steps['accepted']} | "
          f"{steps['rejected'] + steps['newton_failures']} |", flush=True)


def pendulum_case():
    """The swinging pendulum: fixed h = 10, 5, 2, 1 ms against τ = 1e-5 … 1e-8 (h = 50 ms)."""
    sol = solve_ivp(lambda t, y: [y[1], 1.5 * G * np.cos(y[0])], (0, 2.0), [0.0, 0.0], rtol=1e-13, atol=1e-14)
    exact = np.array([np.cos(sol.y[0, -1]), 0.0, -np.sin(sol.y[0, -1])])
    runs = [(f"fixed h = {h:g} s", h, Options(formulation="stabilized")) for h in (1e-2, 5e-3, 2e-3, 1e-3)]
    runs += [(f"τ = {tol:g}", 0.05, Options(tolerance=tol, formulation="stabilized")) for tol in (1e-5, 1e-6, 1e-7, 1e-8)]
    for label, h, options in runs:
        r, seconds = timed(pendulum(0.0).assemble(), 2.0, h, options, record_every=10**9)
        row(label, r, seconds, np.abs(r.q[-1][3:6] - exact).max())


def slider_crank_case():
    """Half a turn of the clearance slider-crank: fixed h = 2, 1 µs against τ = 1e-5 … 1e-8 (h = 0.1 ms)."""
    import clearance_slider_crank as ex
    t_end = 0.5 * 2 * np.pi / ex.OMEGA
    v0 = integrate(ex.build(None).assemble(), 1e-6, 1e-6).v[0]
    ref, _ = timed(ex.build(ex.CLEARANCE).assemble(), t_end, 5e-7, Options(), v0=v0)

    def error(r):
        at = np.round(r.t / 5e-7).astype(int)
        return max(np.abs(r["slider.x"] - ref["slider.x"][at]).max(),
                   np.abs(r["pin.eccentricity"] - ref["pin.eccentricity"][at]).max())
    runs = [(f"fixed h = {h:g} s", h, Options(), 1e-4 / h) for h in (2e-6, 1e-6)]
    runs += [(f"τ = {tol:g}", 1e-4, Options(tolerance=tol), 1) for tol in (1e-5, 1e-6, 1e-7, 1e-8)]
    for label, h, options, every in runs:
        r, seconds = timed(ex.build(ex.CLEARANCE).assemble(), t_end, h, options, v0=v0, record_every=int(round(every)))
        row(label, r, seconds, error(r))


def heavy_top_case():
    """The heavy top to 0.5 s, stabilized: fixed h = 1, 0.5, 0.25 ms against τ = 1e-5, 1e-6, 1e-7 (h = 10 ms)."""
    import heavy_top as case
    ref = case.reference(0.5)
    runs = [(f"fixed h = {h:g} s", h, Options(formulation="stabilized")) for h in (1e-3, 5e-4, 2.5e-4)]
    runs += [(f"τ = {tol:g}", 1e-2, Options(tolerance=tol, formulation="stabilized")) for tol in (1e-5, 1e-6, 1e-7)]
    for label, h, options in runs:
        r, seconds = timed(case.heavy_top().assemble(), 0.5, h, options, record_every=10**9)
        com = np.array([r["com.x"][-1], r["com.y"][-1], r["com.z"][-1]])
        row(label, r, seconds, np.linalg.norm(com - ref))


CASES = {"pendulum": pendulum_case, "slider-crank": slider_crank_case, "heavy-top": heavy_top_case}


def main(argv=None):
    """Run the chosen cases and print their tables (Markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    args = parser.parse_args(argv)
    for name in args.cases:
        print(f"\n{name}\n\n| run | error (m) | wall (s) | Newton iterations | steps | rejected |\n|---|---|---|---|---|---|")
        CASES[name]()


if __name__ == "__main__":
    main()
