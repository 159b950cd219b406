"""Recursive dynamics against Pinocchio (Carpentier et al. 2019), an independent C++ code.

Random chains and trees (revolute and prismatic joints about random axes, random joint
placements, random inertias, welded bodies, a free-flyer base) with random q, v, q̈, τ.
Tolerance 1e-10 relative to the largest entry: both codes evaluate the same recursions
in double precision, so the differences are round-off (observed ~1e-15); 1e-10 leaves
room for the conditioning of the mass matrix in forward dynamics.
"""
import numpy as np
import pytest

from femdyn.solvers.recursive import Data, TreeModel, forward_dynamics, inverse_dynamics, kinematics, mass_matrix
from support.trees import (coordinate_map, depth_first, from_pinocchio_vector, pinocchio_mass_matrix,
                                   random_state, random_tree, to_pinocchio, to_pinocchio_vector)

pin = pytest.importorskip("pinocchio")
RTOL = 1e-10

CASES = [dict(n=7, chain=True), dict(n=12, chain=False),
         dict(n=9, chain=False, kinds=("revolute", "prismatic", "fixed")),
         dict(n=8, chain=False, floating=True), dict(n=6, chain=True, floating=True, kinds=("revolute", "fixed"))]


def close(ours, ref):
    return np.abs(ours - ref).max() <= RTOL * max(1.0, np.abs(ref).max())


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_against_pinocchio(case, seed):
    rng = np.random.default_rng(seed)
    case = dict(case)
    kinds = case.pop("kinds", ("revolute", "prismatic"))
    model = random_tree(rng, kinds=kinds, **case)
    data, pm = Data(model), to_pinocchio(model)
    pd = pm.createData()
    q, v, qdd = random_state(rng, model)
    tau = rng.standard_normal(model.nv)
    vp, ap, tp = (to_pinocchio_vector(model, x) for x in (v, qdd, tau))

    assert close(inverse_dynamics(model, data, q, v, qdd), from_pinocchio_vector(model, pin.rnea(pm, pd, q, vp, ap)))
    assert close(forward_dynamics(model, data, q, v, tau), from_pinocchio_vector(model, pin.aba(pm, pd, q, vp, tp)))
    assert close(pinocchio_mass_matrix(model, mass_matrix(model, data, q)), pin.crba(pm, pd, q))


def shuffled_parent_first(model, rng):
    """The same tree in a random order that keeps every parent before its children (rarely depth-first)."""
    placed, order = {-1}, []
    while len(order) < model.n:
        ready = [i for i in range(model.n) if i not in order and model.parent[i] in placed]
        i = int(rng.choice(ready))
        order.append(i)
        placed.add(i)
    return TreeModel([model.bodies[i] for i in order], model.gravity)


def is_depth_first(model):
    """Every subtree occupies consecutive indices (equivalently: each parent is its successor's parent or ancestor)."""
    return all(model.parent[i] == i - 1 or model.parent[i] in _ancestors(model, i - 1) for i in range(1, model.n))


def _ancestors(model, i):
    out = []
    while i >= 0:
        i = model.parent[i]
        out.append(i)
    return out


@pytest.mark.parametrize("seed", [0, 1])
def test_shuffled_body_order_against_pinocchio(seed):
    """A tree whose bodies come in a shuffled parent-first order that is not depth-first (asserted), with welded
    bodies and a free-flyer base. Pinocchio gets the same tree in depth-first order (its CRBA needs contiguous
    subtrees); vectors are mapped body by body. RNEA, ABA, CRBA agree to 1e-10 relative (as above)."""
    rng = np.random.default_rng(20 + seed)
    reference = random_tree(rng, 12, kinds=("revolute", "prismatic", "fixed"), floating=True)
    model = shuffled_parent_first(reference, rng)
    twin = depth_first(model)
    assert not is_depth_first(model) and is_depth_first(twin) and model.names != twin.names
    q_map, v_map = coordinate_map(model, twin)
    pm = to_pinocchio(twin)
    pd, data = pm.createData(), Data(model)
    q, v, qdd = random_state(rng, model)
    tau = rng.standard_normal(model.nv)

    def pinocchio(function, x):
        out = np.zeros(model.nv)
        out[v_map] = from_pinocchio_vector(twin, function(pm, pd, q[q_map], to_pinocchio_vector(twin, v[v_map]),
                                                          to_pinocchio_vector(twin, x[v_map])))
        return out

    assert close(inverse_dynamics(model, data, q, v, qdd), pinocchio(pin.rnea, qdd))
    assert close(forward_dynamics(model, data, q, v, tau), pinocchio(pin.aba, tau))
    M = mass_matrix(model, data, q)[np.ix_(v_map, v_map)]
    assert close(pinocchio_mass_matrix(twin, M), pin.crba(pm, pd, q[q_map]))


def test_free_flyer_velocity_convention():
    """A free body spinning and translating: our [ω; v] body twist is Pinocchio's local [v; ω].

    Checks the kinematic meaning directly: the world linear velocity R v_o must equal
    Pinocchio's world-frame velocity of the body origin (1e-12: one rotation, round-off only).
    """
    rng = np.random.default_rng(5)
    model = random_tree(rng, 1, floating=True)
    data, pm = Data(model), to_pinocchio(model)
    pd = pm.createData()
    q, v, _ = random_state(rng, model)
    pin.forwardKinematics(pm, pd, q, to_pinocchio_vector(model, v))
    world = pin.getVelocity(pm, pd, 1, pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)
    kinematics(model, data, q, v)
    np.testing.assert_allclose(data.R_world[0] @ v[3:], world.linear, atol=1e-12)
    np.testing.assert_allclose(data.R_world[0] @ v[:3], world.angular, atol=1e-12)


@pytest.mark.parametrize("floating", [False, True])
def test_external_forces_against_pinocchio(floating):
    """Spatial forces on the bodies (body coordinates, [n; f]) vs Pinocchio's fext (local frame, [f; n]).

    1e-10 relative, as above: the same recursions with one more term.
    """
    rng = np.random.default_rng(11)
    model = random_tree(rng, 7, floating=floating)
    data, pm = Data(model), to_pinocchio(model)
    pd = pm.createData()
    q, v, qdd = random_state(rng, model)
    tau = rng.standard_normal(model.nv)
    f_ext = rng.standard_normal((model.n, 6))
    fext = [pin.Force.Zero()] + [pin.Force(np.r_[f[3:], f[:3]]) for f in f_ext]
    vp, ap, tp = (to_pinocchio_vector(model, x) for x in (v, qdd, tau))
    assert close(inverse_dynamics(model, data, q, v, qdd, f_ext),
                 from_pinocchio_vector(model, pin.rnea(pm, pd, q, vp, ap, fext)))
    assert close(forward_dynamics(model, data, q, v, tau, f_ext),
                 from_pinocchio_vector(model, pin.aba(pm, pd, q, vp, tp, fext)))
