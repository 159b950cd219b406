"""Accuracy of non-collocated servo inverse dynamics against the numerical damping ρ∞.

The mass-spring chains of tests/solvers/test_servo_start.py (N = 2: relative degree 4, h = 1 ms,
T = 1.5 s; N = 3: relative degree 6, h = 4 ms, T = 6 s), force on slider 1, slider N
prescribed along a rest-to-rest smoothstep; the largest error of the input against its
closed form (flatness), relative to the peak input, and the largest position error of the
sliders (m), for ρ∞ = 0, 0.1, …, 0.9. The table in docs/input-checks.md and the threshold
``RHO_NONCOLLOCATED`` of femdyn/solvers/servo.py come from this run.

    python benchmarks/bench_servo_damping.py [--chains 2 3] [--rho 0 0.1 0.2 ...]
"""
import argparse
import pathlib
import sys
import warnings

import numpy as np

import femdyn
from femdyn.solvers.generalized_alpha import Options, integrate

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
from support.servo_chains import CHAINS, TIGHT, chain, flat_chain, positions  # noqa: E402


def errors(N, rho):
    """(relative input error, position error in m) of the chain with N sliders at ρ∞."""
    model, y, T, h = chain(N)
    masses, stiffnesses, _, _ = CHAINS[N]
    xi, u = flat_chain(y, masses, stiffnesses)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", femdyn.ServoWarning)
        try:
            r = integrate(model.assemble(), T, h, Options(rho_inf=rho, **TIGHT))
        except femdyn.SolverError:
            return np.inf, np.inf
    exact = u(r.t)
    position = np.abs(positions(r, N) - np.column_stack([x(r.t) for x in xi])).max()
    return np.abs(r["push.force"] - exact).max() / np.abs(exact).max(), position


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chains", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--rho", type=float, nargs="+", default=[round(0.1 * k, 1) for k in range(10)])
    args = parser.parse_args()
    for N in args.chains:
        _, _, T, h = chain(N)
        print(f"N = {N} (relative degree {2 * N}), h = {h:g} s, T = {T:g} s")
        for rho in args.rho:
            e_u, e_x = errors(N, rho)
            print(f"  rho_inf = {rho:.1f}: input error {e_u:.2e} of the peak, positions {e_x:.2e} m")


if __name__ == "__main__":
    main()
