"""Hybrid dynamics (RBDA ch. 9; Tian et al.'s (2010) validation scheme).

For a random tree and a random torque/motion mask: the forces returned for the
motion-given joints, fed back with the torque-given ones into forward dynamics, must
reproduce the prescribed accelerations; the accelerations returned for the torque-given
joints fed with the rest into inverse dynamics must reproduce the given torques. All
motion-given is inverse dynamics, all torque-given is forward dynamics. Tolerance 1e-10
relative: the identities are exact, only round-off (and mass-matrix conditioning, a few
orders of magnitude) remains.
"""
import numpy as np
import pytest

from femdyn.solvers.recursive import Data, forward_dynamics, hybrid_dynamics, inverse_dynamics
from support.trees import random_state, random_tree

RTOL = 1e-10


def close(a, b):
    return np.abs(a - b).max() <= RTOL * max(1.0, np.abs(b).max())


def dof_mask(model, joint_mask):
    return np.repeat(joint_mask, model.joint_nv)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("floating", [False, True])
def test_hybrid_round_trip(seed, floating):
    rng = np.random.default_rng(seed)
    model = random_tree(rng, 10, kinds=("revolute", "prismatic", "fixed"), floating=floating)
    data = Data(model)
    q, v, qdd_given = random_state(rng, model)
    tau_given = rng.standard_normal(model.nv)
    joints = rng.random(model.n) < 0.5
    joints[rng.integers(model.n)] = not joints.any()       # at least one of each kind, usually
    qdd, tau = hybrid_dynamics(model, data, q, v, joints, tau_given, qdd_given)
    m = dof_mask(model, joints)
    assert np.array_equal(qdd[m], qdd_given[m]) and np.array_equal(tau[~m], tau_given[~m])
    assert close(forward_dynamics(model, data, q, v, tau), qdd)
    assert close(inverse_dynamics(model, data, q, v, qdd), tau)


@pytest.mark.parametrize("seed", range(3))
def test_hybrid_limits(seed):
    rng = np.random.default_rng(10 + seed)
    model = random_tree(rng, 8, floating=bool(seed % 2))
    data = Data(model)
    q, v, qdd_given = random_state(rng, model)
    tau_given = rng.standard_normal(model.nv)
    _, tau = hybrid_dynamics(model, data, q, v, np.ones(model.n, bool), tau_given, qdd_given)
    assert close(tau, inverse_dynamics(model, data, q, v, qdd_given))
    qdd, _ = hybrid_dynamics(model, data, q, v, np.zeros(model.n, bool), tau_given, qdd_given)
    inputs = tau_given.copy(), qdd_given.copy()
    assert close(qdd, forward_dynamics(model, data, q, v, tau_given))
    assert np.array_equal(inputs[0], tau_given) and np.array_equal(inputs[1], qdd_given)   # inputs untouched


def test_mask_by_body_names():
    rng = np.random.default_rng(3)
    model = random_tree(rng, 5, chain=True)
    data = Data(model)
    q, v, a = random_state(rng, model)
    by_name = hybrid_dynamics(model, data, q, v, ["b1", "b3"], a, a)
    by_flag = hybrid_dynamics(model, data, q, v, [False, True, False, True, False], a, a)
    assert np.array_equal(by_name[0], by_flag[0]) and np.array_equal(by_name[1], by_flag[1])
