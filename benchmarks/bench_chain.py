"""Per-step cost of a chain of N rigid links under gravity, femdyn beside Exudyn (generalized-α, index 3).

The chain: N uniform slender links (L = 0.1 m, m = 0.1 kg, I = mL²/12 about the joint axes),
revolute joints about y, released horizontal under gravity (−9.81 m/s² along z); h = 1 ms,
ρ∞ = 0.9. femdyn: NCF rigid beams (two points + the shared joint-axis unit vector),
joints formed by shared nodes, Newton tolerances 1e-6 (dynamic, relative) / 1e-8 m.
Exudyn: the same links as rigid bodies with the same mass and inertia about the joint
axes, revolute joints, relative/absolute Newton tolerances 1e-8 / 1e-10, EigenSparse.
Compared: the joint points and the free end; the codes must agree on them to TOLERANCE
(see benchmarks/common.py for how both are timed and checked).

    python benchmarks/bench_chain.py [--sizes 4 16 64 256 1024] [--steps 200] [--repeat 5] [--quick]
"""
import numpy as np

import femdyn
from common import ExudynCase, FemdynCase, arguments, exudyn_or_none, run_sizes

LINK, MASS = 0.1, 0.1
# Both codes integrate the same ODE with the same second-order scheme at h = 1 ms, so their
# time-discretization errors (7.7e-6 … 2.8e-5 m after 205 steps, stated per size) are
# nearly equal and do not separate them; what does is their coordinates (natural vs
# rotation parameters) and Newton tolerances (< 1e-7 m): measured differences 1e-8 …
# 4.2e-7 m. 1e-5 m is 24× the largest and 0.005 % of the ~0.2 m the tip falls.
TOLERANCE = 1e-5


def femdyn_chain(n):
    m = femdyn.Model(f"chain {n}", gravity=(0, 0, -9.81))
    u = m.vector("axis", (0, 1, 0))
    nodes = [m.point(f"P{i}", (i * LINK, 0, 0)) for i in range(n + 1)]
    links = [m.rigid_beam(f"link{i}", nodes[i], nodes[i + 1], mass=MASS, axis=u) for i in range(n)]
    m.revolute("pivot", m.ground, links[0], (0, 0, 0), (0, 1, 0))
    for i in range(n - 1):
        m.revolute(f"joint{i}", links[i], links[i + 1], ((i + 1) * LINK, 0, 0), (0, 1, 0))
    return m.assemble()


def femdyn_case(n):
    s = femdyn_chain(n)
    return FemdynCase(s, [s.nodes[f"P{i}"].start for i in range(1, n + 1)]), s


def exudyn_case(exu, n):
    from exudyn.utilities import RigidBodyInertia
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.CreateGround()
    rod = MASS * LINK ** 2 / 12           # the slender rod of femdyn's rigid_beam about y and z
    inertia = RigidBodyInertia(mass=MASS, inertiaTensor=np.diag([1e-3 * rod, rod, rod]))
    previous, bodies = ground, []
    for i in range(n):
        body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[(i + 0.5) * LINK, 0, 0],
                                   gravity=[0, 0, -9.81])
        mbs.CreateRevoluteJoint(itemNumbers=[previous, body], position=[i * LINK, 0, 0], axis=[0, 1, 0],
                                useGlobalFrame=True)
        previous = body
        bodies.append(body)
    mbs.Assemble()
    ends = lambda: [mbs.GetObjectOutputBody(b, exu.OutputVariableType.Position, localPosition=[LINK / 2, 0, 0])
                    for b in bodies]          # the far end of each link: P1 … Pn
    return ExudynCase(exu, mbs, ends)


def main():
    a = arguments([4, 16, 64, 256, 1024], __doc__)
    exu = exudyn_or_none()
    systems = {}

    def cases(n):
        case, systems[n] = femdyn_case(n)
        return [case] + ([exudyn_case(exu, n)] if exu else [])

    run_sizes(a.sizes, cases, a.steps, a.repeat, lambda n: TOLERANCE, lambda n: f"{systems[n].n:6d} {systems[n].m:6d}",
              f"{'coords':>6} {'constr':>6}", a.h)


if __name__ == "__main__":
    main()
