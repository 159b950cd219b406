"""Floating-frame bodies: cost per generalized-α step of the flexible pendulum on a hub
(steel bar 1 m × 20 × 20 mm) as a floating-frame body with k modes against the full ANCF
beam it was reduced from; and the cost of one body's mass, force and tangent evaluation.

    python benchmarks/bench_floating_frame.py [--sizes 4 8 16 48] [--steps 200]
"""
import time

import numpy as np

from common import femdyn_step_time, size_arguments
from femdyn.elements import sections
from femdyn.studies.flexible_beam import hub_with_beam

BEAM = (1.0, 8, 2.1e11, 7800.0, sections.rectangular(0.02, 0.02))


def evaluation_time(system, repeat=200):
    """µs per call of the floating-frame body's mass_values, mass_derivative, force and
    tangent_values at a perturbed state (best of 5 batches)."""
    body = system.bodies["beam"]
    rng = np.random.default_rng(0)
    q, v = system.q0 + 1e-3 * rng.standard_normal(system.n), rng.standard_normal(system.n)
    calls = {"M(q)": lambda: body.mass_values(q), "∂(Ma)/∂q": lambda: body.mass_derivative(q, v),
             "Q": lambda: body.force(q, v, 0.0), "K, C": lambda: body.tangent_values(q, v, 0.0),
             "attachments Φ, Φ_q": lambda: system.constraints.evaluate(q, 0.0)}
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


def main():
    args = size_arguments([4, 8, 16, 48], __doc__)
    ancf = hub_with_beam("ancf", *BEAM).assemble()
    seconds, iterations = femdyn_step_time(ancf, args.steps, 1e-3, 0.8)
    print(f"| ANCF beam, {BEAM[1]} elements | {ancf.n} | {iterations:.2f} | {1e3 * seconds:.3f} |")
    for k in args.sizes:
        s = hub_with_beam("ffr", *BEAM, modes=k).assemble()
        seconds, iterations = femdyn_step_time(s, args.steps, 1e-3, 0.8)
        costs = ", ".join(f"{name} {us:.0f}" for name, us in evaluation_time(s).items())
        print(f"| floating frame, {k} modes | {s.n} | {iterations:.2f} | {1e3 * seconds:.3f} | {costs} |")


if __name__ == "__main__":
    main()
