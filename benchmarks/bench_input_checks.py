"""Cost of the input checks against the work they guard.

* The step-size check (solvers/step_size.py): ω_max of the linearized model at the start
  of a run (reusing the factorized initial-acceleration matrix, as ``integrate`` does),
  against a short run of the same model (50 steps) without the check. It runs only when
  ρ∞ ≥ 0.95, so the model is integrated with the stabilized form at ρ∞ = 1.
* The assembly checks (femdyn/model/checks.py: non-finite values of every part at t = 0,
  units), against ``Model.assemble`` without them.

Model: the flexible pendulum of Berzeri & Shabana (2000) (the energy test of
tests/model/test_flexible_system.py), N ANCF cable elements, pinned, released horizontal under
gravity, h = 1 ms; each timing is the best of 3.

    python benchmarks/bench_input_checks.py [--sizes 8 16 32 64 128] [--steps 50]
"""
import argparse
import copy

import femdyn
from femdyn.elements import sections
from femdyn.model.checks import check_finite_parts, check_units
from femdyn.model.system import System
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.initial import consistent_state
from femdyn.solvers.kkt import KKTMatrix
from femdyn.solvers.step_size import highest_frequency

from common import best_of


def cable_model(n):
    m = femdyn.Model(f"flexible pendulum {n}")
    section = sections.CrossSection(0.0018, 1.215e-8, 1.215e-8, 2.43e-8, 0.024, 0.024)
    m.straight_beam("beam", (0, 0, 0), (1.2, 0, 0), n, E=0.7e6, rho=5540.0, section=section)
    m.spherical("pin", m.ground, "beam.0", (0, 0, 0))
    return m


best = best_of


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 16, 32, 64, 128])
    parser.add_argument("--steps", type=int, default=50)
    args = parser.parse_args()
    h = 1e-3
    print("| N | coordinates | ω_max (rad/s) | T_min (s) | step check (ms) | run without it (ms) | check/run "
          "| assembly checks (ms) | assemble (ms) |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for n in args.sizes:
        model = cable_model(n)
        system = model.assemble()
        kkt = KKTMatrix(system)               # as in integrate: the check reuses the initial state's factors
        q, _, _, lam = consistent_state(system, kkt=kkt)
        omega = highest_frequency(system, q, lam, kkt=kkt)
        check = best(lambda: highest_frequency(system, q, lam, kkt=kkt))
        options = Options(formulation="stabilized", rho_inf=1.0, step_check=False)
        run = best(lambda: integrate(system, args.steps * h, h, options))
        bare = best(lambda: System(copy.deepcopy(model)))
        checks = best(lambda: (check_finite_parts(system), check_units(system)))
        print(f"| {n} | {system.n} | {omega:.4g} | {2 * 3.141592653589793 / omega:.3g} | {1e3 * check:.1f} | "
              f"{1e3 * run:.0f} | {100 * check / run:.1f} % | {1e3 * checks:.1f} | {1e3 * bare:.1f} |")


if __name__ == "__main__":
    main()
