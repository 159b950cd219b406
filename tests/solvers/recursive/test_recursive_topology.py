"""Topology from configuration parameters and closed loops (Wang et al.)."""
import numpy as np
import pytest

from femdyn.errors import ModelError
from femdyn.geometry import rotation_about
from femdyn.solvers.recursive import Data, forward_dynamics
from femdyn.robots.serial import dual_arm_links
from femdyn.solvers.recursive.topology import Interface, Link, build_topology, inertia_sets

CONFIGURATIONS = [1, 2, 3, "loop"]


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
    """S·P = E exactly (integer arithmetic): every configuration of Wang et al.."""
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


def test_inner_and_outer_bodies_match_the_incidence_matrix():
    """Column k of S has +1 at joint k's outer body and −1 at its inner body (none for inertial space),
    Wittenburg 2008, ch. 5; exact integers."""
    for configuration in (1, 2, 3):
        topo = build_topology(dual_arm_links(configuration))
        row = {link: i for i, link in enumerate(topo.ids)}
        for k in topo.ids:
            column = topo.incidence[:, row[k]]
            inner = topo.inner[k][0]
            assert topo.outer[k] == k and column[row[topo.outer[k]]] == 1
            assert np.count_nonzero(column) == (1 if inner == 0 else 2)
            assert inner == 0 or column[row[inner]] == -1


def same_order(links):
    return links


def reversed_order(links):
    """Every link's interfaces (with their pointers and inertia sets) and the list of links, reversed."""
    return [Link(l.id, l.pointers[::-1], l.interfaces[::-1], l.inertias[::-1]) for l in links[::-1]]


def shuffled_order(links, rng=None):
    """Every link's interfaces (with their pointers and inertia sets) and the list of links, shuffled
    (seed 0 by default: it moves a branch of every configuration in the traversal)."""
    rng = np.random.default_rng(0) if rng is None else rng
    out = []
    for l in links:
        k = rng.permutation(l.degree)
        out.append(Link(l.id, tuple(l.pointers[i] for i in k), tuple(l.interfaces[i] for i in k),
                        tuple(l.inertias[i] for i in k)))
    return [out[i] for i in rng.permutation(len(out))]


@pytest.mark.parametrize("base_joint", ["fixed", "free"])
@pytest.mark.parametrize("configuration", [1, 2, 3])
def test_renumbering_and_reordering_leave_dynamics_unchanged(configuration, base_joint):
    """Same joint angles and torques per link ⇒ same accelerations per link after renumbering the links
    and reordering their interfaces and the link list.

    The reorderings change the breadth-first traversal, so the tree's bodies come in another
    order (asserted). Tolerance 1e-12 relative: only the summation order changes (observed ≤ 4e-16).
    """
    rng = np.random.default_rng(7)
    angle = {k: rng.uniform(-1, 1) for k in range(1, 8)}
    torque = {k: rng.uniform(-1, 1) for k in range(1, 8)}
    results, orders = [], []
    for perm, reorder in ((np.arange(1, 8), same_order), (rng.permutation(np.arange(1, 8)), reversed_order),
                          (rng.permutation(np.arange(1, 8)), shuffled_order)):
        new = {old: int(p) for old, p in zip(range(1, 8), perm)}
        old_id = {n: o for o, n in new.items()}
        topo = build_topology(reorder(dual_arm_links(configuration, renumber=new)), base_joint,
                              gravity=(0.0, -1.0, 0.0))
        model = topo.tree
        orders.append([old_id[int(name[4:])] for name in model.names])
        q, v, tau = model.neutral_configuration(), np.zeros(model.nv), np.zeros(model.nv)
        for old in range(2, 8):                             # link 1 is the base (welded or floating, at rest)
            q[model.q_index[topo.body(new[old])]] = angle[old]
            v[topo.v_index[new[old]]] = 0.3 * angle[old]
            tau[topo.v_index[new[old]]] = torque[old]
        qdd = forward_dynamics(model, Data(model), q, v, tau)
        results.append(np.array([qdd[topo.v_index[new[old]]] for old in range(2, 8)]))
    assert orders[1] != orders[0] and orders[2] != orders[0], orders
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


def test_loop_is_detected_and_cut_where_asked():
    topo = build_topology(dual_arm_links("loop"), cut_pairs=[(3, 8)])
    assert [(c.a, c.b) for c in topo.cuts] == [(3, 8)] and topo.tree.nv == 5
    closures = topo.closures()
    assert len(closures) == 1 and closures[0].kind == "revolute"
    assert (closures[0].a, closures[0].b) == (topo.body(3), topo.body(8))
    automatic = build_topology(dual_arm_links("loop"))
    assert len(automatic.cuts) == 1 and automatic.tree.nv == 5


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
    (lambda: [l if l.id != 4 else Link(4, (3, 4, 0), l.interfaces, l.inertias) for l in dual_arm_links(1)],
     "link 4, interface 1: the pointer names link 4 itself"),
])
def test_bad_configuration_parameters(links, message):
    with pytest.raises(ModelError, match=message):
        build_topology(links())


def test_cutting_a_tree_joint_is_refused():
    with pytest.raises(ModelError, match="cut only joints that lie on a loop"):
        build_topology(dual_arm_links(1), cut_pairs=[(3, 4)])


@pytest.mark.parametrize("cut_pairs", [[(1,)], [3], [(3, 8, 2)]])
def test_malformed_cut_pairs(cut_pairs):
    with pytest.raises(ModelError, match="cut_pairs: .* is not a pair"):
        build_topology(dual_arm_links("loop"), cut_pairs=cut_pairs)


def test_inertia_sets_take_the_body_formats():
    """(Ixx, Iyy, Izz, Ixy, Ixz, Iyz) is read as for Body: the sets equal those of the matrix written out (exact)."""
    itfs = (Interface(), Interface((1.0, 0.0, 0.0), R=rotation_about([0, 0, 1], 0.3)))
    xx, yy, zz, xy, xz, yz = 0.2, 0.3, 0.4, 0.01, -0.02, 0.03
    written_out = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    for a, b in zip(inertia_sets(1.0, (0.1, 0, 0), (xx, yy, zz, xy, xz, yz), itfs),
                    inertia_sets(1.0, (0.1, 0, 0), written_out, itfs)):
        assert np.array_equal(a.inertia, b.inertia) and a.com == b.com
    with pytest.raises(ModelError, match="inertia_sets: inertia must be 3×3"):
        inertia_sets(1.0, (0, 0, 0), np.eye(2), itfs)
    with pytest.raises(ModelError, match=r"inertia_sets: com \(m\): expected shape \(3,\)"):
        inertia_sets(1.0, (0, 0), (1, 1, 1), itfs)
