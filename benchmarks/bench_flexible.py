"""Per-step cost of the Berzeri–Shabana flexible pendulum meshed with N ANCF cable elements, femdyn beside Exudyn.

The pendulum: L = 1.2 m, A = 0.0018 m², I = 1.215e-8 m⁴, ρ = 5540 kg/m³, E = 0.7 MPa,
pinned at the root (spherical joint), released horizontal under gravity; h = 1 ms,
ρ∞ = 0.9 (index 3). femdyn: its 3-D ANCF cable (Newton tolerances 1e-6 relative /
1e-8 m); Exudyn: ``ObjectANCFCable`` through ``GenerateStraightLineANCFCable`` with the
same EA, EI and ρA (relative/absolute Newton tolerances 1e-8 / 1e-10, EigenSparse).
The tip is the free end; the codes must agree on it to TOLERANCE (benchmarks/common.py
says how both are timed and checked). ``--beam`` also times femdyn's fully
parameterized beam element on the same mesh (femdyn only: Exudyn has no such element).
Memory: bytes allocated by assembling femdyn's system (tracemalloc), per element.

At N = 4096 neither code converges at h = 1 ms from rest without step adaptation (femdyn
stalls in the first step's Newton iteration, Exudyn fails with its adaptation off;
femdyn also at 0.5 ms): the finest meshes are compared at h = 0.25 ms (``--h 2.5e-4``).

    python benchmarks/bench_flexible.py [--sizes 8 32 128 512 1024 2048] [--steps 200] [--repeat 5] [--quick] [--beam]
    python benchmarks/bench_flexible.py --sizes 1024 2048 4096 --h 2.5e-4 --steps 100 --repeat 3
"""
import sys
import tracemalloc

import femdyn
from femdyn.elements.sections import CrossSection
from common import ExudynCase, FemdynCase, arguments, exudyn_or_none, run_sizes

LENGTH, AREA, INERTIA, RHO, E = 1.2, 0.0018, 1.215e-8, 5540.0, 0.7e6
# The two cable elements discretize the same Euler–Bernoulli rod with cubic Hermite
# shape functions; their strain measures agree to second order in the strains, and the
# step errors each code states are ≤ 1e-5 m (the tips differ by 2e-6 m at N = 8 and by
# round-off from N = 128 on). 1e-4 m is 0.05 % of the ~0.2 m the tip falls in 0.2 s.
TOLERANCE = 1e-4


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
    return FemdynCase(s, s.nodes[f"beam.{n}"].start), s, memory


def exudyn_case(exu, n):
    from exudyn.beams import GenerateStraightLineANCFCable
    from exudyn.itemInterface import ObjectANCFCable
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    template = ObjectANCFCable(physicsMassPerLength=RHO * AREA, physicsBendingStiffness=E * INERTIA,
                               physicsAxialStiffness=E * AREA)
    nodes = GenerateStraightLineANCFCable(mbs, [0, 0, 0], [LENGTH, 0, 0], n, template,
                                          massProportionalLoad=[0, 0, -9.81],
                                          fixedConstraintsNode0=[1, 1, 1, 0, 0, 0])[0]
    mbs.Assemble()
    return ExudynCase(exu, mbs, lambda: mbs.GetNodeOutput(nodes[-1], exu.OutputVariableType.Position))


def main():
    beam = "--beam" in sys.argv
    if beam:
        sys.argv.remove("--beam")
    a = arguments([8, 32, 128, 512, 1024, 2048], __doc__)
    exu = exudyn_or_none()
    memory = {}

    def cases(n):
        case, _, memory[n] = femdyn_case(n)
        return [case] + ([exudyn_case(exu, n)] if exu else [])

    run_sizes(a.sizes, cases, a.steps, a.repeat, TOLERANCE, lambda n: f"{memory[n] / n / 1e3:5.1f}", f"{'kB/el':>5}", a.h)
    if beam:
        print("femdyn's fully parameterized beam element on the same meshes:")
        run_sizes(a.sizes, lambda n: [femdyn_case(n, "beam")[0]], a.steps, a.repeat, TOLERANCE,
                  lambda n: f"{'':5}", f"{'':5}", a.h)


if __name__ == "__main__":
    main()
