"""Speed of the recursive flexible-body solvers: Tian et al.'s (2010) flexible PUMA 560 and
chains of 6 … 200 flexible links.

1. Flexible PUMA 560 (six links × three modes, joints 1, 3, 6 torque-given, 2, 4, 5
   acceleration-given), Zhai's method, h = 0.005 s, 10 s: wall time per simulated second
   (best of --repeat runs, kernels compiled beforehand). The paper's own code took
   6 min 28 s for this run (Tian et al. 2010).
2. Chains of N flexible links (the PUMA link, three modes each, revolute joints with axes
   alternating across and along the strip's width, joints 1, 3, 6, … torque-given, the rest
   acceleration-given, no gravity): wall time per Zhai step (one hybrid-dynamics
   evaluation + the update), and the slope of log(time) against log(N) fitted over all N.

    python benchmarks/bench_recursive_flexible.py [--repeat 5] [--steps 200] [--sizes 6 12 25 50 100 200]
"""
import argparse
import platform
import time

import numpy as np

from femdyn.robots.flexible_puma import PUMA_MOTION_GIVEN, flexible_puma560, puma_inputs, puma_link_component
from femdyn.solvers.recursive.flexible import flexible_chain
from femdyn.solvers.recursive.flexible_simulation import simulate_flexible
from femdyn.solvers.recursive.model import Joint

PAPER_SECONDS = 6 * 60 + 28


def best_time(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def puma(repeat):
    model = flexible_puma560()
    q0, v0 = model.neutral_configuration(), np.zeros(model.nv)

    def run(t_end):
        return simulate_flexible(model, q0, v0, t_end, 0.005, method="zhai", tau=puma_inputs,
                                 prescribed=PUMA_MOTION_GIVEN)

    run(0.01)
    wall = best_time(lambda: run(10.0), repeat)
    print(f"flexible PUMA 560, Zhai h = 0.005 s, 10 s: {wall:.3f} s wall = {wall / 10 * 1e3:.1f} ms per simulated "
          f"second, {10 / wall:.1f}× faster than real time; the paper's code: {PAPER_SECONDS} s "
          f"({PAPER_SECONDS / wall:.0f}× ours)")
    return wall


def chain(n, link):
    axes = [(0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
    return flexible_chain([link] * n, [Joint("revolute", axes[k % 2]) for k in range(n)], inner="inner",
                          outer="outer", modes=3, gravity=(0.0, 0.0, 0.0))


def chain_step_time(n, link, steps, repeat):
    model = chain(n, link)
    prescribed = np.arange(n) % 3 == 1
    q0, v0 = model.neutral_configuration(), np.zeros(model.nv)
    torques = 0.3 * np.ones(n)

    def run(k):
        return simulate_flexible(model, q0, v0, k * 0.001, 0.001, method="zhai", tau=lambda t: torques,
                                 prescribed=prescribed)

    run(2)
    short = best_time(lambda: run(5), repeat)
    long = best_time(lambda: run(5 + steps), repeat)
    return (long - short) / steps


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--sizes", type=int, nargs="+", default=[6, 12, 25, 50, 100, 200])
    a = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"numpy {np.__version__}")
    puma(a.repeat)
    link = puma_link_component()
    times = []
    print("| N links | coordinates | µs per Zhai step | µs per link |")
    print("|---:|---:|---:|---:|")
    for n in a.sizes:
        t = chain_step_time(n, link, a.steps, a.repeat)
        times.append(t)
        print(f"| {n} | {4 * n} | {t * 1e6:.1f} | {t * 1e6 / n:.2f} |")
    slope = np.polyfit(np.log(a.sizes), np.log(times), 1)[0]
    tail = np.polyfit(np.log(a.sizes[-3:]), np.log(times[-3:]), 1)[0]
    print(f"slope of log(time) vs log(N): {slope:.3f} over all N, {tail:.3f} over the three largest")


if __name__ == "__main__":
    main()
