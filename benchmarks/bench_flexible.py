"""Per-step cost of the Berzeri–Shabana flexible pendulum meshed with N ANCF elements.

200 generalized-α steps at h = 1 ms, ρ∞ = 0.9 (index 3), for the 3-D cable and the fully
parameterized beam; where Exudyn is installed its ANCFCable runs the same problem (same
h, ρ∞, sparse solver) in the same script and the ratio is printed. Memory: bytes held by
the assembled system's arrays per element.

    python benchmarks/bench_flexible.py [--sizes 8 32 128 512] [--steps 200]
"""
import tracemalloc

import femdyn
from femdyn.elements.sections import CrossSection
from common import exudyn_step_time, femdyn_step_time, size_arguments

LENGTH, AREA, INERTIA, RHO, E, H, RHO_INF = 1.2, 0.0018, 1.215e-8, 5540.0, 0.7e6, 1e-3, 0.9


def pendulum(n, element):
    m = femdyn.Model(f"flexible pendulum {n}", gravity=(0, 0, -9.81))
    section = CrossSection(AREA, INERTIA, INERTIA, 2 * INERTIA, 0.024, 0.024)
    m.straight_beam("beam", (0, 0, 0), (LENGTH, 0, 0), n, E=E, rho=RHO, section=section, element=element)
    m.spherical("pin", "ground", "beam.0", (0, 0, 0))
    return m


def time_femdyn(n, element, steps):
    pendulum(2, element).assemble()          # imports and compiled kernels loaded before measuring memory
    tracemalloc.start()
    s = pendulum(n, element).assemble()
    memory = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    dt, iterations = femdyn_step_time(s, steps, H, RHO_INF)
    return dt, iterations, memory


def time_exudyn(n, steps):
    try:
        import exudyn as exu
        from exudyn.beams import GenerateStraightLineANCFCable
        from exudyn.itemInterface import ObjectANCFCable
    except ImportError:
        return None
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    template = ObjectANCFCable(physicsMassPerLength=RHO * AREA, physicsBendingStiffness=E * INERTIA,
                               physicsAxialStiffness=E * AREA)
    GenerateStraightLineANCFCable(mbs, [0, 0, 0], [LENGTH, 0, 0], n, template,
                                  massProportionalLoad=[0, 0, -9.81], fixedConstraintsNode0=[1, 1, 1, 0, 0, 0])
    mbs.Assemble()
    return exudyn_step_time(mbs, exu, steps, H, RHO_INF)


def main():
    a = size_arguments([8, 32, 128, 512], __doc__)
    print(f"{'N':>5} {'element':>7} {'iters':>6} {'ms/step':>9} {'µs/step/el':>11} {'kB/el':>7} "
          f"{'exudyn ms/step':>15} {'ratio':>6}")
    for n in a.sizes:
        ex = time_exudyn(n, a.steps)
        for element in ("cable", "beam"):
            dt, iters, memory = time_femdyn(n, element, a.steps)
            ex_txt = f"{ex * 1e3:15.3f} {dt / ex:6.2f}" if ex and element == "cable" else f"{'':>15} {'':>6}"
            print(f"{n:5d} {element:>7} {iters:6.2f} {dt * 1e3:9.3f} {dt / n * 1e6:11.1f} {memory / n / 1e3:7.1f} {ex_txt}")


if __name__ == "__main__":
    main()
