"""Two independent methods in femdyn on the same mechanism: the index-3 DAE on natural
coordinates (generalized-α) against the recursive articulated-body algorithm on joint
coordinates (RK4)."""
import numpy as np
import pytest

import femdyn
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.recursive import Body, Data, Joint, TreeModel, forward_dynamics, simulate

LINK, MASS, LINKS = 0.5, 1.0, 3


def dae_chain():
    m = femdyn.Model("chain", gravity=(0, 0, -9.81))
    axis = m.vector("axis", (0, 1, 0))
    nodes = [m.point(f"P{i}", (i * LINK, 0, 0)) for i in range(LINKS + 1)]
    links = [m.rigid_beam(f"link{i}", nodes[i], nodes[i + 1], mass=MASS, axis=axis) for i in range(LINKS)]
    joints = [m.revolute("j0", m.ground, links[0], (0, 0, 0), (0, 1, 0))]
    joints += [m.revolute(f"j{i}", links[i - 1], links[i], (i * LINK, 0, 0), (0, 1, 0)) for i in range(1, LINKS)]
    for j in joints:
        m.sensor_angle(j.name, j)
    return m.assemble()


def recursive_chain():
    # slender rod along x; the recursive model needs a positive axial moment: a tiny one that
    # planar motion about y never excites
    inertia = (1e-9, MASS * LINK**2 / 12, MASS * LINK**2 / 12, 0.0, 0.0, 0.0)
    bodies = [Body(f"link{i}", "world" if i == 0 else f"link{i - 1}", Joint("revolute", (0, 1, 0)), MASS,
                   com=(LINK / 2, 0, 0), inertia=inertia, placement_p=(0.0 if i == 0 else LINK, 0, 0))
              for i in range(LINKS)]
    return TreeModel(bodies, gravity=(0, 0, -9.81))


@pytest.mark.parametrize("h", [2e-3])
def test_triple_pendulum_dae_equals_recursive(h):
    """Released horizontal from rest; joint angles over 1 s. RK4 at 0.5 ms agrees with
    itself at 0.25 ms to 4e-10 rad, so the difference is the DAE's O(h²) error: measured
    1.2e-3 rad at h = 2 ms and 3.0e-4 at 1 ms (ρ∞ = 0.9), ratio 4.0; bounds 2e-3 rad and a
    ratio in [3.5, 4.5]."""
    model = recursive_chain()
    data = Data(model)
    ref = simulate(lambda t, q, v: forward_dynamics(model, data, q, v, np.zeros(model.nv)),
                   np.zeros(model.nq), np.zeros(model.nv), 1.0, 5e-4, "rk4")
    errors = []
    for step in (h, h / 2):
        r = integrate(dae_chain(), 1.0, step, Options(rho_inf=0.9, tol_dynamic=1e-10, tol_constraint=1e-12))
        dae = np.column_stack([r[f"j{i}.angle"] for i in range(LINKS)])
        k = np.rint(r.t / 5e-4).astype(int)
        errors.append(np.abs(dae - ref.q[k]).max())
    assert errors[0] < 2e-3
    assert 3.5 < errors[0] / errors[1] < 4.5


O, A, B, C = (np.array(p, float) for p in ((0, 0, 0), (0.05, 0, 0.1), (0.5, 0, 0.25), (0.45, 0, 0)))
MASSES = (0.3, 0.8, 0.5)


def dae_four_bar():
    m = femdyn.Model("four-bar", gravity=(0, 0, -9.81))
    nodes = {k: m.point(k, p) for k, p in zip("OABC", (O, A, B, C))}
    crank = m.rigid_beam("crank", nodes["O"], nodes["A"], mass=MASSES[0])
    m.rigid_beam("coupler", nodes["A"], nodes["B"], mass=MASSES[1])
    rocker = m.rigid_beam("rocker", nodes["C"], nodes["B"], mass=MASSES[2])
    m.sensor_angle("crank", m.revolute("crank pivot", m.ground, crank, O, (0, 1, 0)))
    m.revolute("rocker pivot", m.ground, rocker, C, (0, 1, 0))
    return m.assemble()


def recursive_four_bar():
    """Tree: crank and coupler from the ground, rocker from the ground; the loop is cut at
    the revolute joint B (axis y). Of its 5 rows, the planar loop leaves 2 independent:
    the point rows along world x and z, which independent_rows finds at the assembled q0."""
    from femdyn.solvers.recursive import LoopClosure
    from femdyn.solvers.recursive.closed_loop import independent_rows
    length = lambda p, q: float(np.linalg.norm(q - p))
    angle = lambda d: np.arctan2(-d[2], d[0])          # rotation about +y taking x to d
    L1, L2, L3 = length(O, A), length(A, B), length(C, B)
    rod = lambda m, L: (1e-9, m * L**2 / 12, m * L**2 / 12, 0.0, 0.0, 0.0)
    y = Joint("revolute", (0, 1, 0))
    bodies = [Body("crank", "world", y, MASSES[0], (L1 / 2, 0, 0), rod(MASSES[0], L1)),
              Body("coupler", "crank", y, MASSES[1], (L2 / 2, 0, 0), rod(MASSES[1], L2), placement_p=(L1, 0, 0)),
              Body("rocker", "world", y, MASSES[2], (L3 / 2, 0, 0), rod(MASSES[2], L3), placement_p=tuple(C))]
    model = TreeModel(bodies, gravity=(0, 0, -9.81))
    q0 = np.array([angle(A - O), angle(B - A) - angle(A - O), angle(B - C)])
    at_b = LoopClosure("revolute", model.index("coupler"), (np.eye(3), (L2, 0, 0)), model.index("rocker"),
                       (np.eye(3), (L3, 0, 0)), axis=(0, 1, 0))
    closures = independent_rows(model, Data(model), q0, [at_b])
    assert closures[0].rows == (0, 2)
    return model, q0, closures


def test_closed_loop_dae_equals_recursive():
    """Planar four-bar falling under gravity from rest, 0.8 s. Recursive: tree + closure
    multipliers, RK4 at 0.5 ms with projection (closure residual ≤ 1e-8, measured ~1e-15);
    DAE: generalized-α at 2 and 1 ms. The crank angles differ by the DAE's O(h²) error:
    measured 2.0e-3 rad at 2 ms; bound 3e-3 rad and a ratio in [3.5, 4.5] for the halved step."""
    from femdyn.solvers.recursive import VectorSpace, constrained_forward_dynamics, project
    from femdyn.solvers.recursive.closed_loop import residual
    model, q0, closures = recursive_four_bar()
    data = Data(model)
    tau = np.zeros(model.nv)
    ref = simulate(lambda t, q, v: constrained_forward_dynamics(model, data, q, v, tau, closures)[0],
                   q0, np.zeros(3), 0.8, 5e-4, "rk4",
                   project=lambda q, v: project(model, data, q, v, closures, VectorSpace()))
    assert max(np.abs(residual(model, data, q, closures)).max() for q in ref.q) <= 1e-8
    errors = []
    for h in (2e-3, 1e-3):
        r = integrate(dae_four_bar(), 0.8, h, Options(rho_inf=0.9, tol_dynamic=1e-10, tol_constraint=1e-12))
        assert r["constraint_residual"].max() <= 1e-8
        k = np.rint(r.t / 5e-4).astype(int)
        errors.append(np.abs(r["crank.angle"] - (ref.q[k, 0] - q0[0])).max())
    assert errors[0] < 3e-3
    assert 3.5 < errors[0] / errors[1] < 4.5, errors
