"""Per-step cost of a chain of N rigid links under gravity (generalized-α, index 3).

femdyn: NCF rigid beams (two points + the shared joint-axis unit vector), revolute joints
formed by shared nodes. Exudyn (if installed): the same chain as rigid bodies with
revolute joints, same h, ρ∞ and iteration tolerances, index-3 generalized-α.

    python benchmarks/bench_chain.py [--sizes 4 16 64 256] [--steps 200]
"""
import femdyn
from common import exudyn_step_time, femdyn_step_time, size_arguments

LINK, MASS, H, RHO_INF = 0.1, 0.1, 1e-3, 0.9


def femdyn_chain(n):
    m = femdyn.Model(f"chain {n}", gravity=(0, 0, -9.81))
    u = m.vector("axis", (0, 1, 0))
    nodes = [m.point(f"P{i}", (i * LINK, 0, 0)) for i in range(n + 1)]
    links = [m.rigid_beam(f"link{i}", nodes[i], nodes[i + 1], mass=MASS, axis=u) for i in range(n)]
    m.revolute("pivot", m.ground, links[0], (0, 0, 0), (0, 1, 0))
    for i in range(n - 1):
        m.revolute(f"joint{i}", links[i], links[i + 1], ((i + 1) * LINK, 0, 0), (0, 1, 0))
    return m.assemble()


def time_femdyn(n, steps):
    s = femdyn_chain(n)
    dt, iterations = femdyn_step_time(s, steps, H, RHO_INF)
    return dt, iterations, s.n, s.m


def time_exudyn(n, steps):
    try:
        import exudyn as exu
        from exudyn.utilities import InertiaCuboid
    except ImportError:
        return None
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.CreateGround()
    inertia = InertiaCuboid(density=MASS / (LINK * 0.01 * 0.01), sideLengths=[LINK, 0.01, 0.01])
    previous = ground
    for i in range(n):
        body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[(i + 0.5) * LINK, 0, 0],
                                   gravity=[0, 0, -9.81])
        mbs.CreateRevoluteJoint(bodyNumbers=[previous, body], position=[i * LINK, 0, 0], axis=[0, 1, 0],
                                useGlobalFrame=True)
        previous = body
    mbs.Assemble()
    return exudyn_step_time(mbs, exu, steps, H, RHO_INF)


def main():
    a = size_arguments([4, 16, 64, 256], __doc__)
    print(f"{'N':>5} {'coords':>7} {'constr':>7} {'iters':>6} {'femdyn ms/step':>15} {'µs/step/link':>13} "
          f"{'exudyn ms/step':>15} {'ratio':>6}")
    for n in a.sizes:
        dt, iters, nq, nc = time_femdyn(n, a.steps)
        ex = time_exudyn(n, a.steps)
        ex_txt = f"{ex * 1e3:15.3f} {dt / ex:6.1f}" if ex else f"{'n/a':>15} {'':>6}"
        print(f"{n:5d} {nq:7d} {nc:7d} {iters:6.2f} {dt * 1e3:15.3f} {dt / n * 1e6:13.1f} {ex_txt}")


if __name__ == "__main__":
    main()
