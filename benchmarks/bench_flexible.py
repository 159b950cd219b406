"""Per-step cost of the Berzeri–Shabana flexible pendulum meshed with N ANCF cable elements, femdyn beside Exudyn.

The pendulum: L = 1.2 m, A = 0.0018 m², I = 1.215e-8 m⁴, ρ = 5540 kg/m³, E = 0.7 MPa,
pinned at the root (spherical joint), released horizontal under gravity; h = 1 ms,
ρ∞ = 0.9 (index 3). femdyn: its 3-D ANCF cable (Newton tolerances 1e-6 relative /
1e-8 m); Exudyn: ``ObjectANCFCable`` through ``GenerateStraightLineANCFCable`` with the
same EA, EI and ρA (relative/absolute Newton tolerances 1e-8 / 1e-10, EigenSparse).
Compared: every node's position, the free end included; the codes must agree on them to
tolerance(N) (benchmarks/common.py says how both are timed and checked). ``--beam`` also
times femdyn's fully parameterized beam element on the same mesh (femdyn only: Exudyn
has no such element).
Memory: bytes allocated by assembling femdyn's system (tracemalloc), per element.

At N = 4096 neither code converges at h = 1 ms from rest without step adaptation (femdyn
stalls in the first step's Newton iteration, Exudyn fails with its adaptation off;
femdyn also at 0.5 ms): the finest meshes are compared at h = 0.25 ms (``--h 2.5e-4``).

    python benchmarks/bench_flexible.py [--sizes 8 32 128 512 1024 2048] [--steps 200] [--repeat 5] [--quick] [--beam]
    python benchmarks/bench_flexible.py --sizes 1024 2048 4096 --h 2.5e-4 --steps 100 --repeat 3
    python benchmarks/bench_flexible.py --per-call [--beam] [--sizes 8 32 128 512 1024 4096]

``--per-call`` times one residual (the element set's internal force) and one tangent (its K
values) of the pendulum's element set per element, the compiled one-call path beside the
staged reference path (gather, kernel stages, scatter) in the same run, after checking that
they agree to round-off; best of 7 repetitions of CPU time (``time.process_time``).
"""
import sys
import time
import timeit
import tracemalloc

import numpy as np

import femdyn
from femdyn.elements.sections import CrossSection
from common import Disagreement, ExudynCase, FemdynCase, arguments, exudyn_or_none, run_sizes, slope

LENGTH, AREA, INERTIA, RHO, E = 1.2, 0.0018, 1.215e-8, 5540.0, 0.7e6


def tolerance(n):
    """Agreement tolerance (m) of the node positions for N elements: 0.1 m⁻¹·ℓ_e², at least 1e-6 m.

    The two cable elements discretize the same Euler–Bernoulli rod with cubic Hermite
    shape functions but integrate the strain energy differently, so their solutions
    approach each other as the mesh is refined: measured largest node differences after
    205 steps 3.4e-4, 8e-6, 9e-7, 2e-8 m at N = 8, 16, 32, 64 (falling as ℓ_e⁴ or faster).
    0.1 ℓ_e² is 7× the difference at N = 8 and falls more slowly than the differences. From
    N = 128 on the codes agree to round-off (both run the same scheme on nearly the same
    discrete equations); the floor 1e-6 m is far above that and keeps the bound from
    reaching round-off at N ≥ 1200."""
    return max(0.1 * (LENGTH / n) ** 2, 1e-6)


def pendulum(n, element="cable"):
    m = femdyn.Model(f"flexible pendulum {n}", gravity=(0, 0, -9.81))
    section = CrossSection(AREA, INERTIA, INERTIA, 2 * INERTIA, 0.024, 0.024)
    m.straight_beam("beam", (0, 0, 0), (LENGTH, 0, 0), n, E=E, rho=RHO, section=section, element=element)
    m.spherical("pin", "ground", "beam.0", (0, 0, 0))
    return m


def femdyn_case(n, element="cable"):
    """(case, system, bytes allocated by the assembly)."""
    pendulum(2, element).assemble()          # imports and compiled kernels loaded before measuring memory
    tracemalloc.start()
    s = pendulum(n, element).assemble()
    memory = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return FemdynCase(s, [s.nodes[f"beam.{i}"].start for i in range(n + 1)]), s, memory


def exudyn_case(exu, n):
    from exudyn.beams import GenerateStraightLineANCFCable
    from exudyn.itemInterface import ObjectANCFCable
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    template = ObjectANCFCable(massPerLength=RHO * AREA, bendingStiffness=E * INERTIA,
                               axialStiffness=E * AREA)
    nodes = GenerateStraightLineANCFCable(mbs, [0, 0, 0], [LENGTH, 0, 0], n, template,
                                          massProportionalLoad=[0, 0, -9.81],
                                          fixedConstraintsNode0=[1, 1, 1, 0, 0, 0])[0]
    mbs.Assemble()
    return ExudynCase(exu, mbs, lambda: [mbs.GetNodeOutput(k, exu.OutputVariableType.Position) for k in nodes])


def _best_cpu(call, calls):
    """Best CPU time (s) of one ``call`` over 7 repetitions of ``calls`` calls."""
    return min(timeit.repeat(call, timer=time.process_time, number=calls, repeat=7)) / calls


def per_call(sizes, element):
    """Print µs per call and ns per element of the compiled and staged residual and tangent; then the slopes."""
    print(f"{element}: one residual / one tangent of the element set, compiled one-call path vs staged path")
    print(f"{'N':>5} | {'residual µs':>11} | {'staged µs':>9} | {'ns/el':>6} | {'tangent µs':>10} | "
          f"{'staged µs':>9} | {'ns/el':>6}")
    costs = []
    for n in sizes:
        s = pendulum(n, element).assemble()
        part = next(p for p in s.parts if p.name == "beam")
        q, v = s.q0 + 1e-3 * np.random.default_rng(0).standard_normal(s.n), np.zeros(s.n)
        F, K = part.internal_force(q, v), part.tangent_values(q, v)[0]
        for a, b in ((F, part._staged_force(q, v)), (K, part._staged_tangent_values(q, v)[0])):
            if np.abs(a - b).max() > 1e-13 * np.abs(b).max():
                raise Disagreement(f"N = {n}: compiled and staged paths differ by {np.abs(a - b).max():.3g}")
        calls = max(3, 20000 // n)
        t = [_best_cpu(f, c) for f, c in ((lambda: part.force(q, v, 0.0), calls),
                                         (lambda: part._staged_force(q, v), calls),
                                         (lambda: part.tangent_values(q, v), max(2, calls // 5)),
                                         (lambda: part._staged_tangent_values(q, v), max(2, calls // 5)))]
        costs.append((n, t[0], t[2]))
        print(f"{n:5d} | {t[0] * 1e6:11.1f} | {t[1] * 1e6:9.1f} | {t[0] * 1e9 / n:6.0f} | {t[2] * 1e6:10.1f} | "
              f"{t[3] * 1e6:9.1f} | {t[2] * 1e9 / n:6.0f}")
    sizes_, residual, tangent = zip(*costs)
    print(f"slope of log(cost) against log(N): residual {slope(sizes_, residual):.2f}, "
          f"tangent {slope(sizes_, tangent):.2f}")


def main():
    beam = "--beam" in sys.argv
    if beam:
        sys.argv.remove("--beam")
    if "--per-call" in sys.argv:
        sys.argv.remove("--per-call")
        a = arguments([8, 32, 128, 512, 1024, 4096], __doc__)
        per_call(a.sizes, "cable")
        if beam:
            per_call(a.sizes, "beam")
        return
    a = arguments([8, 32, 128, 512, 1024, 2048], __doc__)
    exu = exudyn_or_none()
    memory = {}

    def cases(n):
        case, _, memory[n] = femdyn_case(n)
        return [case] + ([exudyn_case(exu, n)] if exu else [])

    run_sizes(a.sizes, cases, a.steps, a.repeat, tolerance, lambda n: f"{memory[n] / n / 1e3:5.1f}", f"{'kB/el':>5}", a.h)
    if beam:
        print("femdyn's fully parameterized beam element on the same meshes:")
        run_sizes(a.sizes, lambda n: [femdyn_case(n, "beam")[0]], a.steps, a.repeat, tolerance,
                  lambda n: f"{'':5}", f"{'':5}", a.h)


if __name__ == "__main__":
    main()
