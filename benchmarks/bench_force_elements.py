"""Per-step cost of a string of N beads on spring-dampers, femdyn beside Exudyn (generalized-α).

The string: N point masses (m = 0.1 kg) spaced L = 0.1 m along x, joined to each other and
the first to a ground point at the origin by spring-dampers (k = 2000 N/m, c = 0.5 N·s/m,
rest length L), released from rest under gravity (−9.81 m/s² along z); h = 1 ms,
ρ∞ = 0.9. No constraints: the beads swing down as a stretchy, geometrically nonlinear
pendulum. femdyn: ``point_mass`` and ``spring`` (the System evaluates all the springs as one
part, numpy over the springs; exact K and C); Newton tolerances 1e-6 (dynamic, relative) / 1e-8 m. Exudyn:
``CreateMassPoint`` and ``CreateSpringDamper`` (ObjectConnectorSpringDamper, the same law
k (ℓ − L) + c ℓ̇), relative/absolute Newton tolerances 1e-8 / 1e-10, EigenSparse.
Compared: every bead; the codes must agree to TOLERANCE (benchmarks/common.py).

    python benchmarks/bench_force_elements.py [--sizes 10 100 1000] [--steps 200] [--repeat 5] [--quick]
"""
import femdyn
from common import ExudynCase, FemdynCase, arguments, exudyn_or_none, run_sizes

GAP, MASS, K, C, G = 0.1, 0.1, 2000.0, 0.5, 9.81
# Same ODE, same second-order scheme and step: their time-discretization errors are nearly
# equal; what separates them is Newton's tolerance: measured differences 4.8e-9 … 2.2e-8 m
# (N = 4 … 256), 45× below this tolerance.
TOLERANCE = 1e-6


def femdyn_case(n):
    m = femdyn.Model(f"beads {n}", gravity=(0, 0, -G))
    previous, where = "ground", (0.0, 0.0, 0.0)
    for i in range(1, n + 1):
        x = (i * GAP, 0.0, 0.0)
        m.point_mass(f"b{i}", x, MASS)
        m.spring(f"s{i}", previous, where, f"b{i}", x, stiffness=K, damping=C)
        previous, where = f"b{i}", x
    s = m.assemble()
    return FemdynCase(s, [s.nodes[f"b{i}"].start for i in range(1, n + 1)])


def exudyn_case(exu, n):
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    previous = mbs.CreateGround()
    beads = []
    for i in range(1, n + 1):
        bead = mbs.CreateMassPoint(referencePosition=[i * GAP, 0, 0], physicsMass=MASS, gravity=[0, 0, -G])
        mbs.CreateSpringDamper(itemNumbers=[previous, bead], stiffness=K, damping=C, referenceLength=GAP)
        previous = bead
        beads.append(bead)
    mbs.Assemble()
    where = lambda: [mbs.GetObjectOutputBody(b, exu.OutputVariableType.Position, localPosition=[0, 0, 0])
                     for b in beads]
    return ExudynCase(exu, mbs, where)


def main():
    a = arguments([10, 100, 1000], __doc__)
    exu = exudyn_or_none()
    cases = lambda n: [femdyn_case(n)] + ([exudyn_case(exu, n)] if exu else [])    # 3 coordinates a bead
    run_sizes(a.sizes, cases, a.steps, a.repeat, lambda n: TOLERANCE, lambda n: f"{3 * n:6d}", f"{'coords':>6}", a.h)


if __name__ == "__main__":
    main()
