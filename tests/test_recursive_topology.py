"""Topology from configuration parameters and closed loops (seed 003)."""
import numpy as np
import pytest

from femdyn.errors import ModelError
from femdyn.solvers.recursive import Data, forward_dynamics, inverse_dynamics, mass_matrix
from femdyn.solvers.recursive.closed_loop import bias, constrained_forward_dynamics, jacobian, project, residual
from femdyn.solvers.recursive.configuration import TreeSpace
from femdyn.solvers.recursive.integrators import simulate
from femdyn.solvers.recursive.robots import dual_arm_links
from femdyn.solvers.recursive.spatial import rotation_about
from femdyn.solvers.recursive.topology import Interface, Link, build_topology, inertia_sets

CONFIGURATIONS = [1, 2, 3, "loop"]
PLANAR = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0))


def random_links(rng, s, extra_edges=0):
    """A random spanning tree over shuffled IDs plus ``extra_edges`` loop-closing joints."""
    ids = rng.permutation(np.arange(1, s + 1))
    adj = {int(i): [] for i in ids}
    for k in range(1, s):
        a, b = int(ids[rng.integers(0, k)]), int(ids[k])
        adj[a].append(b)
        adj[b].append(a)
    added = 0
    while added < extra_edges:
        a, b = (int(x) for x in rng.choice(ids, 2, replace=False))
        if b not in adj[a]:
            adj[a].append(b)
            adj[b].append(a)
            added += 1
    adj[int(ids[0])].insert(0, s + 1)
    links = []
    for i, nbrs in adj.items():
        itfs = tuple(Interface((0.3 * k, 0.1 * (k % 2), 0.0), axis=(0.0, 0.0, 1.0)) for k in range(len(nbrs)))
        links.append(Link(i, tuple(nbrs), itfs, inertia_sets(1.0 + i, (0.1, 0.05, 0), (0.1, 0.2, 0.25), itfs)))
    return links


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_incidence_times_path_is_identity(configuration):
    """S·P = E exactly (integer arithmetic): every configuration of seed 003."""
    topo = build_topology(dual_arm_links(configuration), cut_pairs=[(3, 8)] if configuration == "loop" else ())
    assert np.array_equal(topo.incidence @ topo.path, np.eye(len(topo.ids)))


@pytest.mark.parametrize("seed", range(5))
def test_incidence_times_path_random(seed):
    rng = np.random.default_rng(seed)
    topo = build_topology(random_links(rng, 9, extra_edges=seed % 3))
    assert np.array_equal(topo.incidence @ topo.path, np.eye(9))
    assert len(topo.cuts) == seed % 3                       # every extra joint closes one loop


def test_reattaching_changes_only_parameters():
    """Configurations 1–3 differ in pointers only; the traversal finds the new inner bodies."""
    inner = {c: build_topology(dual_arm_links(c)).inner for c in (1, 2, 3)}
    assert inner[1][4][0] == 3 and inner[2][4][0] == 7 and inner[3][5][0] == 3
    assert inner[1][5][0] == 1 and inner[3][5][1] == 2      # configuration 3: link 5 on link 3's side port
    assert all(not build_topology(dual_arm_links(c)).cuts for c in (1, 2, 3))


@pytest.mark.parametrize("base_joint", ["fixed", "free"])
@pytest.mark.parametrize("configuration", [1, 2, 3])
def test_renumbering_leaves_dynamics_unchanged(configuration, base_joint):
    """Same joint angles and torques per link ⇒ same accelerations per link after any renumbering.

    Tolerance 1e-12 relative: the bodies may be visited in another order, so only the
    summation order (round-off) changes.
    """
    rng = np.random.default_rng(7)
    angle = {k: rng.uniform(-1, 1) for k in range(1, 8)}
    torque = {k: rng.uniform(-1, 1) for k in range(1, 8)}
    results = []
    for perm in (np.arange(1, 8), rng.permutation(np.arange(1, 8)), rng.permutation(np.arange(1, 8))):
        new = {old: int(p) for old, p in zip(range(1, 8), perm)}
        topo = build_topology(dual_arm_links(configuration, renumber=new), base_joint, gravity=(0.0, -1.0, 0.0))
        model = topo.tree
        q, v, tau = model.neutral_configuration(), np.zeros(model.nv), np.zeros(model.nv)
        for old in range(2, 8):                             # link 1 is the base (welded or floating, at rest)
            q[model.q_index[topo.body(new[old])]] = angle[old]
            v[topo.v_index[new[old]]] = 0.3 * angle[old]
            tau[topo.v_index[new[old]]] = torque[old]
        qdd = forward_dynamics(model, Data(model), q, v, tau)
        results.append(np.array([qdd[topo.v_index[new[old]]] for old in range(2, 8)]))
    for r in results[1:]:
        assert np.abs(r - results[0]).max() <= 1e-12 * np.abs(results[0]).max()


def test_inertia_selected_by_inner_interface():
    """A bar hung from its far interface behaves like the same bar hung from its near one turned by π.

    Checks that the inertia set of the inner interface is the one used (1e-12: same
    physics, different bookkeeping).
    """
    L = 0.8
    plain = (Interface((0.0, 0.0, 0.0)), Interface((L, 0.0, 0.0)))
    sets = inertia_sets(2.0, (L / 2, 0.0, 0.0), (0.01, 0.1, 0.11), plain)
    base = Link(1, (3, 2), plain, inertia_sets(5.0, (0.3, 0, 0), (0.1, 0.2, 0.3), plain))
    reversed_bar = build_topology([base, Link(2, (0, 1), plain, sets)], gravity=(0, -9.81, 0))
    assert np.allclose(reversed_bar.tree.bodies[1].com, (-L / 2, 0, 0))
    turned = (Interface((0.0, 0.0, 0.0), R=rotation_about([0, 0, 1], np.pi)), Interface((L, 0.0, 0.0)))
    forward_bar = build_topology([base, Link(2, (1, 0), turned, inertia_sets(2.0, (L / 2, 0, 0), (0.01, 0.1, 0.11),
                                                                           turned))], gravity=(0, -9.81, 0))
    q, v, tau = np.array([0.3]), np.array([0.7]), np.array([0.2])
    a1 = forward_dynamics(reversed_bar.tree, Data(reversed_bar.tree), q, v, tau)
    a2 = forward_dynamics(forward_bar.tree, Data(forward_bar.tree), q, v, tau)
    assert abs(a1[0] - a2[0]) <= 1e-12 * abs(a1[0])


def loop_system():
    topo = build_topology(dual_arm_links("loop"), cut_pairs=[(3, 8)])
    model = topo.tree
    return topo, model, Data(model), topo.closures(PLANAR)


def test_loop_is_detected_and_cut_where_asked():
    topo, model, _, closures = loop_system()
    assert [(c.a, c.b) for c in topo.cuts] == [(3, 8)] and model.nv == 5 and len(closures) == 1
    automatic = build_topology(dual_arm_links("loop"))
    assert len(automatic.cuts) == 1 and automatic.tree.nv == 5


def test_constrained_dynamics_against_dense_kkt():
    """Multipliers-first O(N) solution equals the dense KKT system [H Jᵀ; J 0] (1e-10 relative: round-off)."""
    topo, model, data, closures = loop_system()
    space = TreeSpace(model)
    q, v = project(model, data, np.full(model.nq, -np.pi / 4), np.linspace(0.1, 0.5, model.nv), closures, space)
    tau = np.full(model.nv, 0.1)
    qdd, lam = constrained_forward_dynamics(model, data, q, v, tau, closures)
    H = mass_matrix(model, data, q)
    C = inverse_dynamics(model, data, q, v, np.zeros(model.nv))
    J = jacobian(model, data, q, closures)
    K = np.block([[H, -J.T], [J, np.zeros((len(J), len(J)))]])
    ref = np.linalg.solve(K, np.r_[tau - C, -bias(model, data, q, v, closures)])
    assert np.abs(qdd - ref[:model.nv]).max() <= 1e-10 * np.abs(ref).max()
    assert np.abs(lam - ref[model.nv:]).max() <= 1e-10 * np.abs(ref).max()


def test_jacobian_matches_finite_differences():
    """J from joint motion subspaces vs central differences of Φ (1e-7: O(ε²) truncation with ε = 1e-5)."""
    _, model, data, closures = loop_system()
    q = np.linspace(-0.9, 0.4, model.nq)
    J = jacobian(model, data, q, closures)
    eps = 1e-5
    fd = np.column_stack([(residual(model, data, q + eps * e, closures) - residual(model, data, q - eps * e, closures))
                          / (2 * eps) for e in np.eye(model.nq)])
    assert np.abs(J - fd).max() < 1e-7


def test_closed_loop_run_holds_the_constraint():
    """Seed 003's loop: 5 joints at 0.1 N·m from −45° (assembled), RK4 h = 0.01 s for 3 s with projection.

    The closure residual must stay ≤ 1e-8 m at every step (observed ~1e-12).
    """
    _, model, data, closures = loop_system()
    space = TreeSpace(model)
    q0, v0 = project(model, data, np.full(model.nq, -np.pi / 4), np.zeros(model.nv), closures, space)
    tau = np.full(model.nv, 0.1)
    run = simulate(lambda t, q, v: constrained_forward_dynamics(model, data, q, v, tau, closures)[0],
                   q0, v0, 3.0, 0.01, project=lambda q, v: project(model, data, q, v, closures, space))
    worst = max(np.abs(residual(model, data, q, closures)).max() for q in run.q)
    assert worst <= 1e-8
    assert np.abs(run.q[-1] - q0).max() > 0.1                # the mechanism did move


@pytest.mark.parametrize("links, message", [
    (lambda: [Link(1, (3,), (Interface(),), inertia_sets(1, (0, 0, 0), (1, 1, 1), (Interface(),))),
              Link(1, (0,), (Interface(),), inertia_sets(1, (0, 0, 0), (1, 1, 1), (Interface(),)))], "distinct"),
    (lambda: [l if l.id != 3 else Link(3, (2, 0, 0), l.interfaces, l.inertias) for l in dual_arm_links(1)],
     "must point back"),
    (lambda: [l if l.id != 4 else Link(4, (3, 8, 0), l.interfaces, l.inertias) for l in dual_arm_links(1)],
     "exactly one interface must point to inertial space"),
    (lambda: [l if l.id != 4 else Link(4, (3, 12, 0), l.interfaces, l.inertias) for l in dual_arm_links(1)],
     "pointer 12 is no link ID"),
    (lambda: [l if l.id != 4 else Link(4, (3, 0), l.interfaces, l.inertias) for l in dual_arm_links(1)],
     "2 pointers but 3 interfaces"),
])
def test_bad_configuration_parameters(links, message):
    with pytest.raises(ModelError, match=message):
        build_topology(links())


def test_cutting_a_tree_joint_is_refused():
    with pytest.raises(ModelError, match="cut only joints that lie on a loop"):
        build_topology(dual_arm_links(1), cut_pairs=[(3, 4)])
