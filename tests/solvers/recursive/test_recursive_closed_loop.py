"""Closed loops: cut-joint closures of every kind, row selection, multipliers-first dynamics.

Independent truths: finite differences of the residual Φ(q) for J and J̇q̇, and a dense
KKT solve [H −Jᵀ; J 0] with Pinocchio's mass matrix and bias forces and finite-difference
J and J̇q̇ — none of them uses the package's own jacobian or bias.
"""
from dataclasses import replace

import numpy as np
import pytest

from femdyn.errors import ConstraintError, ModelError
from femdyn.solvers.recursive import Data, LoopClosure, TreeSpace, close_loops, forward_dynamics
from femdyn.solvers.recursive.closed_loop import (bias, constrained_forward_dynamics, independent_rows, jacobian,
                                                  project, residual)
from femdyn.solvers.recursive.integrators import simulate
from femdyn.robots.serial import dual_arm_links
from femdyn.solvers.recursive.topology import Interface, Link, build_topology, inertia_sets
from support.trees import coordinate_map, depth_first, random_rotation, random_state, to_pinocchio

KINDS = ("spherical", "revolute", "prismatic", "fixed")


def spatial_ring(cut_kind, rng, base_joint="fixed"):
    """Seven links in a non-planar ring 1 – 2 – … – 7 – 1, cut at 7–1 (a ``cut_kind`` joint; the others revolute).

    Every link frame is the world frame at q = 0 and joint k sits at its own random world
    frame (z: the joint axis), which both its interfaces share; so the ring is closed at
    q = 0 for any cut kind, and the joint axes are skew (a spatial loop).
    """
    sites = [(np.array([np.cos(a), np.sin(a), rng.uniform(-0.3, 0.3)]), random_rotation(rng))
             for a in 2 * np.pi * np.arange(7) / 7]

    def site(k, kind="revolute"):
        return Interface(tuple(sites[k][0]), tuple(map(tuple, sites[k][1])), kind)

    base = (Interface(), site(0), site(6, cut_kind))
    links = [Link(1, (8, 2, 7), base, inertia_sets(5.0, (0, 0, 0), (0.5, 0.6, 0.7), base))]
    for k in range(2, 8):
        itfs = (site(k - 2), site(k - 1, cut_kind if k == 7 else "revolute"))
        com = 0.5 * (sites[k - 2][0] + sites[k - 1][0])
        links.append(Link(k, (k - 1, k + 1 if k < 7 else 1), itfs, inertia_sets(1.0, com, (0.02, 0.03, 0.04), itfs)))
    return build_topology(links, base_joint, gravity=(0.0, 0.0, -9.81), cut_pairs=[(7, 1)])


def planar_quadrilateral(cut_kind):
    """Base 1 (welded) and three 1 m bars 2 – 3 – 4 in the xy plane; bar 4's far end meets the base at (1, 1, 0)
    through a ``cut_kind`` cut joint. With a fixed cut, bar 4 must stay parallel to x, so bars 2 and 3 span
    (0, 0) → (0, 1): the loop is rigid (30°, 120°, −150°)."""
    def bar(link_id, pointers, kind="revolute"):
        itfs = (Interface(), Interface((1.0, 0.0, 0.0), joint=kind))
        return Link(link_id, pointers, itfs, inertia_sets(1.0, (0.5, 0, 0), (0.001, 0.08, 0.08), itfs))

    itfs = (Interface(), Interface(), Interface((1.0, 1.0, 0.0), joint=cut_kind))
    base = Link(1, (5, 2, 4), itfs, inertia_sets(5.0, (0.5, 0.5, 0), (0.5, 0.5, 1.0), itfs))
    return build_topology([base, bar(2, (1, 3)), bar(3, (2, 4)), bar(4, (3, 1), cut_kind)],
                          gravity=(0.0, -9.81, 0.0), cut_pairs=[(1, 4)])


def dual_arm_loop():
    topo = build_topology(dual_arm_links("loop"), cut_pairs=[(3, 8)])
    return topo, topo.tree, Data(topo.tree), topo.closures()


def fd_jacobian(model, data, q, closures, eps=1e-6):
    """Central differences of Φ along q ⊕ ε e_k for every velocity direction e_k."""
    space = TreeSpace(model)
    return np.column_stack([(residual(model, data, space.integrate(q, eps * e), closures)
                             - residual(model, data, space.integrate(q, -eps * e), closures)) / (2 * eps)
                            for e in np.eye(model.nv)])


def fd_bias(model, data, q, v, closures, eps=1e-3):
    """J̇v as the second difference of Φ along q ⊕ s v (constant generalized velocity v: q̈ = 0).

    ε = 1e-3 balances truncation (ε²/12 Φ⁽⁴⁾ ~ 1e-8) against round-off (1e-16 |x| / ε² ~ 1e-10).
    """
    space = TreeSpace(model)
    return (residual(model, data, space.integrate(q, eps * v), closures) - 2 * residual(model, data, q, closures)
            + residual(model, data, space.integrate(q, -eps * v), closures)) / eps**2


def pinocchio_dynamics(model, q, v):
    """H(q) and C(q, v) (gravity included) from Pinocchio, built on the depth-first twin of the tree and mapped back."""
    pin = pytest.importorskip("pinocchio")
    twin = depth_first(model)
    q_map, v_map = coordinate_map(model, twin)
    pm = to_pinocchio(twin)
    pd = pm.createData()
    pin.crba(pm, pd, q[q_map])
    H, C = np.zeros((model.nv, model.nv)), np.zeros(model.nv)
    H[np.ix_(v_map, v_map)] = np.triu(pd.M) + np.triu(pd.M, 1).T
    C[v_map] = pin.rnea(pm, pd, q[q_map], v[v_map], np.zeros(model.nv))
    return H, C


def dense_kkt(model, q, v, tau, closures):
    """(q̈, λ) from [H −Jᵀ; J 0][q̈; λ] = [τ − C; −J̇v]: Pinocchio's H (CRBA) and C (RNEA), J and J̇v by finite
    differences (revolute joints only: Pinocchio's and our velocity coordinates then coincide)."""
    assert np.all(model.joint_type <= 1)
    H, C = pinocchio_dynamics(model, q, v)
    data = Data(model)
    J = fd_jacobian(model, data, q, closures)
    m = len(J)
    K = np.block([[H, -J.T], [J, np.zeros((m, m))]])
    solution = np.linalg.solve(K, np.r_[tau - C, -fd_bias(model, data, q, v, closures)])
    return solution[:model.nv], solution[model.nv:]


def assert_close_to_kkt(model, data, q, v, tau, closures, rtol):
    qdd, lam = constrained_forward_dynamics(model, data, q, v, tau, closures)
    qdd_ref, lam_ref = dense_kkt(model, q, v, tau, closures)
    scale = max(np.abs(qdd_ref).max(), np.abs(lam_ref).max())
    assert np.abs(qdd - qdd_ref).max() <= rtol * scale
    assert np.abs(lam - lam_ref).max() <= rtol * scale
    return np.abs(qdd - qdd_ref).max() / scale


@pytest.mark.parametrize("kind", KINDS)
def test_jacobian_and_bias_against_finite_differences(kind):
    """Every cut kind, on the spatial ring with a free-floating base (a free joint in the closure's
    chains), at a random, unassembled state (|Φ| > 1, so no term vanishes): J against central differences
    of Φ along q ⊕ ε e_k (ε = 1e-6: truncation ~1e-12, round-off ~1e-10; observed ≤ 4.4e-10), and J̇q̇
    against the central difference of J q̇ along q ⊕ ε q̇, q̇ held constant (same ε; observed ≤ 5.5e-10).
    Tolerance 1e-7 times the largest entry (≥ 1).
    """
    rng = np.random.default_rng(KINDS.index(kind))
    topo = spatial_ring(kind, rng, base_joint="free")
    model, closures = topo.tree, topo.closures()
    data, space = Data(model), TreeSpace(model)
    q, v, _ = random_state(rng, model)
    assert closures[0].kind == kind and closures[0].size == {"spherical": 3, "revolute": 5, "prismatic": 5,
                                                             "fixed": 6}[kind]
    assert np.abs(residual(model, data, q, closures)).max() > 1.0          # far from assembled: all terms count
    J = jacobian(model, data, q, closures)
    assert np.abs(J - fd_jacobian(model, data, q, closures)).max() <= 1e-7 * max(1.0, np.abs(J).max())
    eps = 1e-6
    rate = (jacobian(model, data, space.integrate(q, eps * v), closures) @ v
            - jacobian(model, data, space.integrate(q, -eps * v), closures) @ v) / (2 * eps)
    ours = bias(model, data, q, v, closures)
    assert np.abs(ours - rate).max() <= 1e-7 * max(1.0, np.abs(rate).max())


def test_fixed_cut_makes_the_quadrilateral_rigid():
    """A planar loop closed by a fixed cut joint has no motion left: of the 6 rows, 3 are independent
    (x, y and the rotation about z), as many as the tree's joints, and a torque gives q̈ = 0 to round-off
    (bound 1e-12 × the unconstrained q̈; observed 1e-15). The same loop with a revolute cut keeps one
    degree of freedom and moves (q̈ of order 10 rad/s²)."""
    results = {}
    for kind in ("fixed", "revolute"):
        topo = planar_quadrilateral(kind)
        model = topo.tree
        data = Data(model)
        q, v, closures = close_loops(model, data, np.radians([35.0, 115.0, -145.0]), np.zeros(3), topo.closures(),
                                  TreeSpace(model))
        tau = np.array([1.0, 0.0, 0.0])
        results[kind] = (closures[0].rows, constrained_forward_dynamics(model, data, q, v, tau, closures)[0],
                         forward_dynamics(model, data, q, v, tau), q)
    rows, qdd, free_qdd, q = results["fixed"]
    assert len(rows) == 3 and np.allclose(np.degrees(q), [30.0, 120.0, -150.0], atol=1e-9)
    assert np.abs(qdd).max() <= 1e-12 * np.abs(free_qdd).max()
    rows, qdd, _, _ = results["revolute"]
    assert len(rows) == 2 and np.abs(qdd).max() > 1.0


def test_spatial_loop_with_revolute_cut_against_dense_kkt():
    """Non-planar ring of 7 revolute joints, one cut: 5 independent rows (3 point, 2 axis alignment), 1 DOF.
    Assembled from a perturbed start, random velocity projected onto J v = 0, random torques, gravity.
    Multipliers-first O(N) solution vs the dense KKT system with Pinocchio's H, C and finite-difference J,
    J̇v: tolerance 1e-6 relative to the largest q̈ or λ (finite-difference error of J̇v ~1e-8, see fd_bias;
    observed 2e-10)."""
    rng = np.random.default_rng(2)
    topo = spatial_ring("revolute", rng)
    model = topo.tree
    data = Data(model)
    q, v, closures = close_loops(model, data, 0.3 * rng.standard_normal(model.nq), rng.standard_normal(model.nv),
                              topo.closures(), TreeSpace(model))
    assert closures[0].rows == (0, 1, 2, 3, 4) and model.nv == 6
    assert np.abs(residual(model, data, q, closures)).max() <= 1e-12 and np.abs(q).max() > 0.1
    assert_close_to_kkt(model, data, q, v, rng.standard_normal(model.nv), closures, rtol=1e-6)


def test_planar_loop_against_dense_kkt():
    """Wang et al.'s loop (planar, revolute cut): the rows kept are world x and y; the O(N) solution equals the
    dense KKT solve with Pinocchio's H, C and finite-difference J, J̇v (1e-6 relative, as above; observed 2e-9:
    the loop is slower, J̇v ~ 0.04, so the same absolute finite-difference error weighs more)."""
    _, model, data, cut_joint = dual_arm_loop()
    q, v, closures = close_loops(model, data, np.full(model.nq, -np.pi / 4), np.linspace(0.1, 0.5, model.nv),
                              cut_joint, TreeSpace(model))
    assert closures[0].rows == (0, 1)
    assert_close_to_kkt(model, data, q, v, np.full(model.nv, 0.1), closures, rtol=1e-6)


def test_dependent_rows_are_refused_and_selected():
    """All 5 rows of a planar revolute cut make J H⁻¹ Jᵀ singular: ConstraintError pointing to independent_rows;
    explicit rows=(0, 1) and the automatic selection give the same accelerations (bitwise: same rows)."""
    _, model, data, cut_joint = dual_arm_loop()
    q, v = project(model, data, np.full(model.nq, -np.pi / 4), np.zeros(model.nv), cut_joint, TreeSpace(model))
    tau = np.full(model.nv, 0.1)
    with pytest.raises(ConstraintError, match="independent_rows"):
        constrained_forward_dynamics(model, data, q, v, tau, cut_joint)
    chosen = independent_rows(model, data, q, cut_joint)
    explicit = (replace(cut_joint[0], rows=(0, 1)),)
    assert np.array_equal(constrained_forward_dynamics(model, data, q, v, tau, chosen)[0],
                          constrained_forward_dynamics(model, data, q, v, tau, explicit)[0])


def test_closed_loop_run_with_projection():
    """Wang et al.'s loop: 5 joints at 0.1 N·m from −45° (assembled), RK4 h = 0.01 s for 3 s, projected after every step.

    All five rows of the cut joint (the three dropped ones included) stay ≤ 1e-8 (observed 9e-13).
    """
    _, model, data, cut_joint = dual_arm_loop()
    space = TreeSpace(model)
    q0, v0, closures = close_loops(model, data, np.full(model.nq, -np.pi / 4), np.zeros(model.nv), cut_joint, space)
    tau = np.full(model.nv, 0.1)
    run = simulate(lambda t, q, v: constrained_forward_dynamics(model, data, q, v, tau, closures)[0],
                   q0, v0, 3.0, 0.01, project=lambda q, v: project(model, data, q, v, closures, space))
    assert max(np.abs(residual(model, data, q, cut_joint)).max() for q in run.q) <= 1e-8
    assert np.abs(run.q[-1] - q0).max() > 0.1                # the mechanism did move


@pytest.mark.parametrize("alpha, bound", [(0.0, 1e-12), (10.0, 1e-9)])
def test_closed_loop_drift_without_projection(alpha, bound):
    """The same run for 1 s with no projection: the residual drifts only by RK4's error of the constraint
    acceleration J q̈ = −J̇q̇ (− 2αΦ̇ − α²Φ with Baumgarte, β = α). Observed over 1 s at h = 0.01 s: 4e-14 m
    without stabilisation, 2e-11 m with α = β = 10 s⁻¹ (the feedback feeds RK4's state error back into
    the constraint acceleration); bounds 1e-12 and 1e-9 m."""
    _, model, data, cut_joint = dual_arm_loop()
    q0, v0, closures = close_loops(model, data, np.full(model.nq, -np.pi / 4), np.zeros(model.nv), cut_joint,
                                TreeSpace(model))
    tau = np.full(model.nv, 0.1)
    run = simulate(lambda t, q, v: constrained_forward_dynamics(model, data, q, v, tau, closures, alpha, alpha)[0],
                   q0, v0, 1.0, 0.01)
    drift = max(np.abs(residual(model, data, q, cut_joint)).max() for q in run.q)
    assert drift <= bound
    assert np.abs(run.q[-1] - q0).max() > 0.01


def test_closures_follow_the_interface_kind():
    """Topology.closures makes the cut joint the interfaces name; disagreeing interfaces are refused."""
    for kind in KINDS:
        assert planar_quadrilateral(kind).closures()[0].kind == kind
    with pytest.raises(ModelError, match="name the joints 'fixed' and 'revolute'; give both the same kind"):
        topo = planar_quadrilateral("fixed")
        links = [l if l.id != 4 else Link(4, l.pointers, (l.interfaces[0], Interface((1.0, 0.0, 0.0))), l.inertias)
                 for l in topo.links.values()]
        build_topology(links, cut_pairs=[(1, 4)])


@pytest.mark.parametrize("change, message", [
    (dict(kind="ball"), "unknown kind"),
    (dict(b=0), "two different tree body indices"),
    (dict(axis=(0.0, 0.0, 0.0)), "nonzero 3-vector"),
    (dict(frame_a=(np.eye(2), (0, 0, 0))), "frame_a: R is not a proper rotation"),
    (dict(frame_a=(np.eye(3), (0, 0))), r"frame_a: p \(m\): expected shape \(3,\)"),
    (dict(frame_b=(np.diag([1.0, 1.0, -1.0]), (0, 0, 0))), "not a proper rotation"),
    (dict(rows=(7,)), "indices below 5"),
    (dict(rows=("x",)), "indices below 5"),
])
def test_bad_closure_input(change, message):
    fields = dict(kind="revolute", a=0, frame_a=(np.eye(3), (1, 0, 0)), b=2, frame_b=(np.eye(3), (0, 0, 0)))
    with pytest.raises(ModelError, match=message):
        LoopClosure(**{**fields, **change})


def test_closure_of_another_model_is_refused():
    _, model, data, cut_joint = dual_arm_loop()
    far = (LoopClosure("spherical", 0, (np.eye(3), (0, 0, 0)), model.n, (np.eye(3), (0, 0, 0))),)
    with pytest.raises(ModelError, match="not a LoopClosure of this model's bodies"):
        residual(model, data, np.zeros(model.nq), far)
