"""Flexible 3-RRRU inverse dynamics: what each inverse costs (issue: the 3-RRRU study, credible).

For 4 and 8 ANCF beam elements per link 3 (E = 6.9e8 Pa), over the first ``--t-end`` s of
the study's circle: the stable causal inverse (samples every 5 ms, 4 approximations), the
plain causal inverse (generalized-α on the servo DAE, h = 1 ms, ρ∞ = 0), the internal
dynamics at the static start (dense QZ), and — 4 elements only — the non-causal and the
optimal-control inverses of the linearized problem (``femdyn.studies.rrru_inverses``).
Wall time per simulated second (best of ``--repeat``) and the figures each gives.

    python benchmarks/bench_inverses.py [--t-end 0.6] [--repeat 2]
"""
import argparse
import time

import numpy as np

from femdyn.errors import SolverError
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.inversion import linearize, noncausal_inverse, optimal_control_inverse, zero_dynamics
from femdyn.solvers.stable_inverse import StableInverseOptions, path_residual, stable_causal_inverse
from femdyn.studies.rrru import circle_motion, servo_robot
from femdyn.studies.rrru_study import StudyConfig


def best(repeat, run):
    """(smallest wall time of ``repeat`` calls [s], the last call's result)."""
    times, out = [], None
    for _ in range(repeat):
        clock = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - clock)
    return min(times), out


def main(t_end, repeat):
    print(f"{'case':44s} {'wall (s)':>9s} {'s per simulated s':>18s}  figure")
    for n in (4, 8):
        config = StudyConfig(n_elements=n)
        system = servo_robot(config, circle_motion(config), flexible=True, n_elements=n).model.assemble()
        wall, stable = best(repeat, lambda: stable_causal_inverse(system, t_end, 5e-3, StableInverseOptions()))
        u = stable.lam[:, system.input_rows]
        print(f"{f'stable causal, {n} el.':44s} {wall:9.2f} {wall / t_end:18.1f}  torques {u.min():.2f} … "
              f"{u.max():.2f} N·m, change in the last approximation "
              f"{stable.meta['stable_inverse']['input_change']:.2g} N·m")
        options = Options(rho_inf=0.0, tol_dynamic=1e-8, tol_constraint=1e-12)

        def causal():
            try:
                return integrate(system, t_end, 1e-3, options, q0=stable.q[0])
            except SolverError as err:
                return err.results
        wall, run = best(repeat, causal)
        u = run.lam[:, system.input_rows]
        print(f"{f'causal DAE, {n} el.':44s} {wall:9.2f} {wall / t_end:18.1f}  torques {u.min():.2f} … "
              f"{u.max():.2f} N·m to t = {run.t[-1]:.3f} s")
        wall, zd = best(repeat, lambda: zero_dynamics(system, stable.q[0], stable.lam[0]))
        print(f"{f'zero dynamics at the start, {n} el.':44s} {wall:9.2f} {'':>18s}  lowest {zd.lowest_frequency:.2f} Hz, "
              f"non-minimum phase from {np.abs(zd.eigenvalues[zd.kinds == 'unstable']).min() / 2 / np.pi:.0f} Hz")
        if n != 4:
            continue
        t = stable.t
        residual, _ = path_residual(system, stable, config.stable_window)
        linear = linearize(system, stable.q[0], stable.lam[0])
        for name, solve in (("non-causal (linearized)", lambda: noncausal_inverse(linear, t, forcing=-residual)),
                            ("optimal control (linearized)", lambda: optimal_control_inverse(
                                linear, t, forcing=-residual, input_weight=1e-6, rate_weight=1e-8))):
            try:
                wall, inverse = best(repeat, solve)
            except SolverError as err:
                print(f"{f'{name}, {n} el.':44s} failed: {err}")
                continue
            print(f"{f'{name}, {n} el.':44s} {wall:9.2f} {wall / t_end:18.1f}  largest correction "
                  f"{np.abs(inverse.u).max():.2f} N·m, output {np.abs(inverse.y).max():.2g} m")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--t-end", type=float, default=0.6)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    main(args.t_end, args.repeat)
