"""Regressors linear in the inertial parameters, against the solver and against Pinocchio.

Tolerances: the regressors evaluate the same sweeps as the solver with π factored out,
so they agree to round-off: 1e-12 relative to the largest entry (observed ~1e-15);
against Pinocchio (an independent C++ code) 1e-10 as in test_recursive_pinocchio.py.
"""
import numpy as np
import pytest

from femdyn.identification.base_parameters import base_parameters, random_states, structural
from femdyn.identification.parameters import parameter_names
from femdyn.robots.serial import puma560
from femdyn.solvers.recursive import Data, center_of_mass, inverse_dynamics, momentum
from femdyn.solvers.recursive.regressor import (first_moment_regressor, inertia_from_parameters,
                                                inertial_parameters, momentum_regressor, torque_regressor)
from support.trees import from_pinocchio_vector, random_state, random_tree, to_pinocchio, to_pinocchio_vector

CASES = [dict(n=7, chain=True), dict(n=10, chain=False), dict(n=9, kinds=("revolute", "prismatic", "fixed")),
         dict(n=8, floating=True), dict(n=6, chain=True, floating=True, kinds=("revolute", "fixed"))]
IDS = ["chain", "tree", "tree-welded", "floating-tree", "floating-chain-welded"]


def close(ours, ref, rtol):
    return np.abs(ours - ref).max() <= rtol * max(1.0, np.abs(ref).max())


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_regressors_reproduce_the_solver(case, seed):
    """Y_τ π = RNEA, Y_h π = momentum (about the origin and a point), Y_c π / M = centre of mass."""
    rng = np.random.default_rng(seed)
    model = random_tree(rng, **case)
    data, pi = Data(model), inertial_parameters(model)
    for _ in range(3):
        q, v, a = random_state(rng, model)
        point = rng.uniform(-1, 1, 3)
        assert close(torque_regressor(model, data, q, v, a) @ pi, inverse_dynamics(model, data, q, v, a), 1e-12)
        assert close(momentum_regressor(model, data, q, v) @ pi, momentum(model, data, q, v), 1e-12)
        assert close(momentum_regressor(model, data, q, v, about=point) @ pi,
                     momentum(model, data, q, v, about=point), 1e-12)
        assert close(first_moment_regressor(model, data, q) @ pi / model.mass.sum(), center_of_mass(model, data, q),
                     1e-12)


def test_parameters_round_trip():
    """π → spatial inertia gives the model's spatial inertias back (1e-15: the model's rotated random inertias are
    symmetric only to round-off, π stores one of each off-diagonal pair)."""
    model = random_tree(np.random.default_rng(3), 5)
    pi = inertial_parameters(model)
    assert np.abs(inertia_from_parameters(pi.reshape(-1, 10)) - model.inertia).max() <= 1e-15 * np.abs(pi).max()


pin = pytest.importorskip("pinocchio")


@pytest.mark.parametrize("case", [c for c in CASES if "fixed" not in c.get("kinds", ())],
                         ids=[i for i, c in zip(IDS, CASES) if "fixed" not in c.get("kinds", ())])
def test_torque_regressor_equals_pinocchio(case):
    """Column by column equal to pinocchio.computeJointTorqueRegressor (same parameter order: Pinocchio's
    Inertia.toDynamicParameters; free-flyer rows mapped [linear; angular] → [angular; linear])."""
    rng = np.random.default_rng(5)
    model = random_tree(rng, **case)
    data, pm = Data(model), to_pinocchio(model)
    pd = pm.createData()
    for _ in range(3):
        q, v, a = random_state(rng, model)
        ref = pin.computeJointTorqueRegressor(pm, pd, q, to_pinocchio_vector(model, v), to_pinocchio_vector(model, a))
        assert close(torque_regressor(model, data, q, v, a), from_pinocchio_vector(model, ref), 1e-10)


def test_momentum_regressor_against_pinocchio_kinetic_energy_regressor():
    """Pinocchio has no momentum regressor, but its kinetic-energy regressor gives one: T = ½ vᵀ M v is quadratic
    in v, so (M v)_k = T(v + e_k) − T(v) − T(e_k) exactly (polarization), and the free-flyer rows of M v are the
    system momentum in base coordinates about the base origin. Carried to the world, they must equal Y_h column by
    column (1e-10 relative: round-off of two independent codes)."""
    rng = np.random.default_rng(7)
    model = random_tree(rng, 7, floating=True, gravity=(0, 0, 0))
    data, pm = Data(model), to_pinocchio(model)
    pd = pm.createData()
    q, v, _ = random_state(rng, model)
    vp = to_pinocchio_vector(model, v)

    def T(x):
        return pin.computeKineticEnergyRegressor(pm, pd, q, x).ravel()

    rows = np.array([T(vp + e) - T(vp) - T(e) for e in np.eye(model.nv)[:6]])        # [p; L] in base coordinates
    momentum_regressor(model, data, q, v)
    R, p = data.R_world[0], data.p_world[0]
    linear, angular = R @ rows[:3], R @ rows[3:]
    ref = np.vstack([angular + np.cross(p, linear.T).T, linear])
    assert close(momentum_regressor(model, data, q, v), ref, 1e-10)


@pytest.mark.parametrize("floating", [False, True])
def test_base_parameters_against_pinocchio(floating):
    """Base parameters from our regressor explain Pinocchio's: its stacked regressor W_p has the same rank (by SVD,
    1e-9 relative cut) and its dependent columns are W_p,1 K to 1e-9 relative (the K found on our regressor)."""
    rng = np.random.default_rng(11)
    model = random_tree(rng, 6, floating=floating)
    data, pm = Data(model), to_pinocchio(model)
    pd = pm.createData()
    states = random_states(model, rng, 12)
    W = np.vstack([torque_regressor(model, data, *s) for s in states])
    Wp = np.vstack([pin.computeJointTorqueRegressor(pm, pd, q, to_pinocchio_vector(model, v),
                                                    to_pinocchio_vector(model, a)) for q, v, a in states])
    base = base_parameters(W, parameter_names(model))
    s = np.linalg.svd(Wp / np.maximum(np.linalg.norm(Wp, axis=0), 1e-300), compute_uv=False)
    assert base.rank == np.sum(s > 1e-9 * s[0])
    scale = np.abs(Wp).max()
    assert np.abs(Wp[:, base.dependent] - Wp[:, base.independent] @ base.K).max() <= 1e-9 * scale
    assert np.abs(Wp @ inertial_parameters(model) - base.regressor(Wp) @ base.project(inertial_parameters(model))
                  ).max() <= 1e-9 * scale


def test_puma560_base_parameters_against_pinocchio():
    """PUMA 560 (link dynamics, no rotor inertias): 36 base parameters, the rank of Pinocchio's stacked regressor
    too; the first link's mass and first moments never act (zero columns: it turns about a fixed vertical axis)."""
    model = puma560()
    data = Data(model)
    base = structural(model, lambda q, v, a: torque_regressor(model, data, q, v, a), parameter_names(model))
    pm = to_pinocchio(model)
    pd = pm.createData()
    rng = np.random.default_rng(2)
    Wp = np.vstack([pin.computeJointTorqueRegressor(pm, pd, q, v, a) for q, v, a in random_states(model, rng, 20)])
    s = np.linalg.svd(Wp / np.maximum(np.linalg.norm(Wp, axis=0), 1e-300), compute_uv=False)
    assert base.rank == 36 == np.sum(s > 1e-9 * s[0])
    assert {"link1.m", "link1.hx", "link1.hy", "link1.hz"} <= set(base.unseen)
