"""Cost of the input checks against the work they guard.

* The step-size check (solvers/step_size.py): ω_max of the linearized model at the start
  of a run, against a short run of the same model (50 steps) without the check. It runs
  only when ρ∞ ≥ 0.95, so the model is integrated with the stabilized form at ρ∞ = 1.
* The assembly checks (femdyn/model/checks.py: non-finite values of every part at t = 0,
  units), against ``Model.assemble`` without them.

Model: an ANCF cable (steel, 1 m, r = 5 mm) pinned at one end, released horizontal under
gravity, N elements; each timing is the best of 3.

    python benchmarks/bench_input_checks.py [--sizes 8 32 128 512] [--steps 50]
"""
import argparse
import copy
import time

import femdyn
from femdyn.elements import sections
from femdyn.model.checks import check_finite_parts, check_units
from femdyn.model.system import System
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.initial import consistent_state
from femdyn.solvers.step_size import highest_frequency


def cable_model(n):
    m = femdyn.Model(f"cable {n}")
    m.straight_beam("beam", (0, 0, 0), (1, 0, 0), n, E=2.1e11, rho=7850.0, section=sections.circular(0.005))
    m.spherical("pin", m.ground, "beam.0", (0, 0, 0))
    return m


def best(f, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 32, 128, 512])
    parser.add_argument("--steps", type=int, default=50)
    args = parser.parse_args()
    h = 1e-3
    print("| N | coordinates | ω_max (rad/s) | T_min (s) | step check (ms) | run without it (ms) | check/run "
          "| assembly checks (ms) | assemble (ms) |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for n in args.sizes:
        model = cable_model(n)
        system = model.assemble()
        q, _, _, lam = consistent_state(system)
        omega = highest_frequency(system, q, lam)
        check = best(lambda: highest_frequency(system, q, lam))
        options = Options(formulation="stabilized", rho_inf=1.0, step_check=False)
        run = best(lambda: integrate(system, args.steps * h, h, options))
        bare = best(lambda: System(copy.deepcopy(model)))
        checks = best(lambda: (check_finite_parts(system), check_units(system)))
        print(f"| {n} | {system.n} | {omega:.4g} | {2 * 3.141592653589793 / omega:.3g} | {1e3 * check:.1f} | "
              f"{1e3 * run:.0f} | {100 * check / run:.1f} % | {1e3 * checks:.1f} | {1e3 * bare:.1f} |")


if __name__ == "__main__":
    main()
