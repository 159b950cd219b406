"""Speed of the recursive flexible-body solvers: Tian et al.'s (2010) flexible PUMA 560 and
chains of 6 … 200 flexible links.

1. Flexible PUMA 560 (six links × three modes, joints 1, 3, 6 torque-given, 2, 4, 5
   acceleration-given), Zhai's method, h = 0.005 s, 10 s: wall time per simulated second
   (best of --repeat runs, kernels compiled beforehand, with the median and the worst run for
   the spread). The paper's own code took 6 min 28 s for this run (Tian et al. 2010).
2. The same arm in the DAE model (:func:`~femdyn.robots.flexible_puma.flexible_puma560_dae`:
   floating-frame bodies from the same link components, index-3 generalized-α, ρ∞ = 0.9),
   same inputs, same step, same 10 s: wall time per simulated second (one run, --dae-repeat
   to change), the ratio to the recursive run, and the joint angles 1, 3, 6 at the end from
   both families against a recursive RK4 reference (0.25 ms, checked against 0.5 ms).
3. Chains of N flexible links (the PUMA link, three modes each, revolute joints with axes
   alternating across and along the strip's width, joints 1, 3, 6, … torque-given, the rest
   acceleration-given, no gravity): wall time per Zhai step (one hybrid-dynamics
   evaluation + the update), and the slope of log(time) against log(N) fitted over all N.

    python benchmarks/bench_recursive_flexible.py [--repeat 5] [--dae-repeat 1] [--steps 200]
        [--sizes 6 12 25 50 100 200] [--no-dae] [--cpu-time]

--cpu-time times with the process's CPU clock instead of the wall clock (a shared machine).
"""
import argparse
import platform
import time

import numpy as np

from femdyn.robots.flexible_puma import (PUMA_MOTION_GIVEN, PUMA_TORQUE_JOINTS, flexible_puma560,
                                         flexible_puma560_dae, puma_inputs, puma_link_component)
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.recursive.flexible import flexible_chain
from femdyn.solvers.recursive.flexible_simulation import simulate_flexible
from femdyn.solvers.recursive.model import Joint

PAPER_SECONDS = 6 * 60 + 28
T_END, H = 10.0, 0.005


CLOCK = [time.perf_counter]


def times(fn, repeat):
    out = []
    for _ in range(repeat):
        t0 = CLOCK[0]()
        fn()
        out.append(CLOCK[0]() - t0)
    return np.array(out)


def best_time(fn, repeat):
    return times(fn, repeat).min()


def puma(repeat):
    """Recursive run (Zhai, h = 0.005 s, 10 s): wall time and the trajectory."""
    model = flexible_puma560()
    q0, v0 = model.neutral_configuration(), np.zeros(model.nv)

    def run(t_end, h=H, method="zhai"):
        return simulate_flexible(model, q0, v0, t_end, h, method=method, tau=puma_inputs,
                                 prescribed=PUMA_MOTION_GIVEN)

    run(0.01)
    walls = times(lambda: run(T_END), repeat)
    wall = walls.min()
    print(f"flexible PUMA 560, Zhai h = {H} s, {T_END:g} s: {wall:.4f} s wall = {wall / T_END * 1e3:.2f} ms per "
          f"simulated second, {T_END / wall:.0f}× faster than real time (median run {T_END / np.median(walls):.0f}×, "
          f"slowest {T_END / walls.max():.0f}×, over {repeat} runs); the paper's code: {PAPER_SECONDS} s "
          f"({PAPER_SECONDS / wall:.0f}× ours); joints 1, 3, 6 at {T_END:g} s: "
          f"{np.array2string(run(T_END).q[-1, [k - 1 for k in PUMA_TORQUE_JOINTS]], precision=6)} rad")
    return wall, model, run


def puma_dae(model, run, wall_recursive, repeat):
    """DAE run of the same arm: wall time, ratio to the recursive run, end-angle differences."""
    system = flexible_puma560_dae(model).assemble()
    integrate(system, 0.02, H, Options(rho_inf=0.9))                    # compile and warm the caches
    result = {}

    def dae():
        result["r"] = integrate(system, T_END, H, Options(rho_inf=0.9))

    wall = best_time(dae, repeat)
    r = result["r"]
    steps, iterations = len(r.t) - 1, int(np.sum(r["iterations"]))
    print(f"flexible PUMA 560, DAE (floating frame, generalized-α) h = {H} s, {T_END:g} s: {wall:.1f} s wall = "
          f"{wall / T_END * 1e3:.0f} ms per simulated second, {wall / wall_recursive:.0f}× the recursive run; "
          f"{system.n} coordinates, {steps} steps, {iterations} Newton iterations")
    cols = [k - 1 for k in PUMA_TORQUE_JOINTS]
    fine, coarse = run(T_END, 2.5e-4, "rk4"), run(T_END, 5e-4, "rk4")
    reference = fine.q[-1, cols]
    zhai = run(T_END).q[-1, cols]
    angles = np.array([r[f"joint{k}.angle"][-1] for k in PUMA_TORQUE_JOINTS])
    print(f"joint angles 1, 3, 6 at {T_END:g} s (rad): RK4 0.25 ms {np.array2string(reference, precision=6)} "
          f"(RK4 0.5 ms differs by {np.abs(coarse.q[-1, cols] - reference).max():.1e})")
    print(f"  recursive Zhai h = {H} s: {np.array2string(zhai, precision=6)}, "
          f"difference {_small(zhai - reference)}")
    print(f"  DAE generalized-α h = {H} s: {np.array2string(angles, precision=6)}, "
          f"difference {_small(angles - reference)}")
    print(f"  DAE − recursive Zhai: {_small(angles - zhai)}")
    return wall


def _small(x):
    return "[" + ", ".join(f"{v:.1e}" for v in np.abs(x)) + "]"


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
    ap.add_argument("--dae-repeat", type=int, default=1)
    ap.add_argument("--no-dae", action="store_true", help="skip the DAE run of the flexible PUMA")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--sizes", type=int, nargs="+", default=[6, 12, 25, 50, 100, 200])
    ap.add_argument("--cpu-time", action="store_true", help="time with the process CPU clock")
    a = ap.parse_args()
    CLOCK[0] = time.process_time if a.cpu_time else time.perf_counter
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"numpy {np.__version__}")
    wall, model, run = puma(a.repeat)
    if not a.no_dae:
        puma_dae(model, run, wall, a.dae_repeat)
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
