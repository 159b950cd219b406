"""Floating-frame bodies: cost per generalized-α step of the flexible pendulum on a hub
(steel bar 1 m × 20 × 20 mm) as a floating-frame body with k modes against the full ANCF
beam it was reduced from; the cost of one body's mass, force and tangent evaluation and of
the constraint set; and the cost per step of the DAE flexible PUMA 560 (six floating-frame
bodies, h = 5 ms, ρ∞ = 0.9).

    python benchmarks/bench_floating_frame.py [--sizes 4 8 16 48] [--steps 200] [--repeat 5] [--no-puma]
        [--profile]
"""
import argparse
import cProfile
import pstats
import time

import numpy as np

from femdyn.elements import sections
from femdyn.robots.flexible_puma import flexible_puma560_dae
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.studies.flexible_beam import hub_with_beam

BEAM = (1.0, 8, 2.1e11, 7800.0, sections.rectangular(0.02, 0.02))


def step_time(system, steps, h, rho_inf, repeat, warmup=5):
    """(s per step, Newton iterations per step): best over ``repeat`` of a run of warmup + steps steps
    less the best run of warmup steps, divided by ``steps`` (set-up and first steps cancel)."""
    o = Options(rho_inf=rho_inf)

    def run(k):
        t0 = time.perf_counter()
        r = integrate(system, k * h, h, o, record_every=k)
        return time.perf_counter() - t0, len(r.iterations)

    run(warmup)
    short = min(run(warmup)[0] for _ in range(repeat))
    long, iterations = min(run(warmup + steps) for _ in range(repeat))
    return (long - short) / steps, iterations / (warmup + steps)


def evaluation_time(system, repeat=200):
    """µs per call of the floating-frame body's mass_values, mass_derivative, force and
    tangent_values at a perturbed state, and of the whole constraint set (best of 5 batches)."""
    body = system.bodies["beam"]
    rng = np.random.default_rng(0)
    q, v = system.q0 + 1e-3 * rng.standard_normal(system.n), rng.standard_normal(system.n)
    calls = {"M(q)": lambda: body.mass_values(q), "∂(Ma)/∂q": lambda: body.mass_derivative(q, v),
             "Q": lambda: body.force(q, v, 0.0), "K, C": lambda: body.tangent_values(q, v, 0.0),
             "Φ and Φ_q": lambda: system.constraints.evaluate(q, 0.0)}
    out = {}
    for name, call in calls.items():
        best = np.inf
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(repeat):
                call()
            best = min(best, (time.perf_counter() - t0) / repeat)
        out[name] = 1e6 * best
    return out


def profile(system, steps, h, rho_inf, top=12):
    """The functions taking most of ``steps`` steps (own time), as printed by pstats."""
    p = cProfile.Profile()
    p.runcall(integrate, system, steps * h, h, Options(rho_inf=rho_inf), record_every=steps)
    pstats.Stats(p).sort_stats("tottime").print_stats(top)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[4, 8, 16, 48])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-puma", action="store_true", help="skip the DAE flexible PUMA 560")
    ap.add_argument("--profile", action="store_true", help="profile the 8-mode pendulum and the PUMA")
    a = ap.parse_args()
    print("| model | coordinates | Newton iterations/step | ms/step | µs per call |")
    print("|---|---:|---:|---:|---|")
    ancf = hub_with_beam("ancf", *BEAM).assemble()
    seconds, iterations = step_time(ancf, a.steps, 1e-3, 0.8, a.repeat)
    print(f"| ANCF beam, {BEAM[1]} elements | {ancf.n} | {iterations:.2f} | {1e3 * seconds:.3f} | |", flush=True)
    for k in a.sizes:
        s = hub_with_beam("ffr", *BEAM, modes=k).assemble()
        seconds, iterations = step_time(s, a.steps, 1e-3, 0.8, a.repeat)
        costs = ", ".join(f"{name} {us:.0f}" for name, us in evaluation_time(s).items())
        print(f"| floating frame, {k} modes | {s.n} | {iterations:.2f} | {1e3 * seconds:.3f} | {costs} |", flush=True)
        if a.profile and k == 8:
            profile(s, a.steps, 1e-3, 0.8)
    if not a.no_puma:
        s = flexible_puma560_dae().assemble()
        seconds, iterations = step_time(s, a.steps, 5e-3, 0.9, a.repeat)
        print(f"| DAE flexible PUMA 560, 6 floating-frame bodies | {s.n} | {iterations:.2f} | {1e3 * seconds:.3f} | |")
        if a.profile:
            profile(s, a.steps, 5e-3, 0.9)


if __name__ == "__main__":
    main()
