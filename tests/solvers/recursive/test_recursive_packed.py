"""Packed models and workspaces, and the compiled flexible run, against the reference paths they replace.

The entry points call packed kernels that cut views of a model's buffers and run the same compiled
sweeps: their results must be bitwise those of the sweeps called with the model's separate arrays
(the reference implementation). The compiled flexible run does the arithmetic of the stepwise loop
(integrators.simulate around hybrid_dynamics, still used for trees with free joints): its trajectories
must be bitwise the stepwise ones, its errors the same.
"""
import numpy as np
import pytest

from femdyn.errors import ModelError, SolverError
from femdyn.robots.flexible_puma import PUMA_MOTION_GIVEN, flexible_puma560, puma_inputs
from femdyn.solvers.recursive import (Data, TreeModel, forward_dynamics, hybrid_dynamics, inverse_dynamics,
                                      kernels, mass_matrix)
from femdyn.solvers.recursive import flexible_simulation as fs
from femdyn.solvers.recursive import packing
from femdyn.solvers.recursive.arguments import joint_mask
from femdyn.solvers.recursive.flexible_dynamics import FlexibleData
from femdyn.solvers.recursive.model import TREE_FLOATS, TREE_INTS
from support.trees import random_state, random_tree

CASES = [dict(n=7, chain=True), dict(n=9, chain=False, kinds=("revolute", "prismatic", "fixed")),
         dict(n=8, chain=False, floating=True)]


def reference(model, q, v, qdd, tau, mask, f_ext, a0):
    """τ (RNEA), q̈ (ABA), hybrid (q̈, τ) and H (CRBA) from the unpacked kernels on fresh arrays."""
    w = Data(model)
    args = (model.parent, model.joint_type, model.axis, model.tree_E, model.tree_r, model.inertia, model.S,
            model.q_index, model.v_index, model.joint_nv)
    out = np.zeros(model.nv)
    kernels.rnea(*args, q, v, qdd, a0, f_ext, w.Xup, w.R_world, w.p_world, w.vel, w.acc, w.bias, w.force, out)
    results = [out.copy()]
    for prescribed in (np.zeros(model.n, np.bool_), mask):
        t, a = tau.copy(), (qdd.copy() if prescribed.any() else np.zeros(model.nv))
        kernels.hybrid(*args, q, v, prescribed, t, a, f_ext, a0, w.Xup, w.R_world, w.p_world, w.vel, w.bias, w.IA,
                       w.pA, w.U, w.Dinv, w.u, w.tmp6, w.Ia, w.acc, w.force)
        results += [a, t] if prescribed.any() else [a]
    kernels.forward_kinematics(model.parent, model.joint_type, model.axis, model.tree_E, model.tree_r, model.S,
                               model.q_index, model.v_index, model.joint_nv, q, np.zeros(model.nv), w.Xup,
                               w.R_world, w.p_world, w.vel, w.bias)
    kernels.crba(model.parent, model.inertia, model.S, model.v_index, model.joint_nv, w.Xup, w.Ic, w.tmp6, w.F, w.M)
    return results + [w.M]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_packed_entry_points_equal_the_unpacked_kernels(case):
    """Exact equality (same compiled sweeps on the same values), with and without external forces and a gravity
    override; a workspace reused across calls gives the results of a fresh one."""
    rng = np.random.default_rng(3)
    case = dict(case)
    model = random_tree(rng, kinds=case.pop("kinds", ("revolute", "prismatic")), **case)
    data = Data(model)
    for f_ext, gravity in ((None, None), (rng.standard_normal((model.n, 6)), (1.0, -2.0, 3.0)), (None, None)):
        q, v, qdd = random_state(rng, model)
        tau, mask = rng.standard_normal(model.nv), rng.random(model.n) < 0.5
        g = model.gravity if gravity is None else np.array(gravity)
        ref = reference(model, q, v, qdd, tau, mask, np.zeros((model.n, 6)) if f_ext is None else f_ext,
                        np.r_[0.0, 0.0, 0.0, -g])
        ours = [inverse_dynamics(model, data, q, v, qdd, f_ext, gravity),
                forward_dynamics(model, data, q, v, tau, f_ext, gravity),
                *hybrid_dynamics(model, data, q, v, mask, tau, qdd, f_ext, gravity), mass_matrix(model, data, q)]
        for a, b in zip(ours, ref):
            assert np.array_equal(a, b)


def test_model_arrays_are_views_of_the_packed_buffers():
    """Every packed array is a read-only view of its buffer, and the layout cuts it back out unchanged."""
    model = random_tree(np.random.default_rng(0), n=6, chain=False, floating=True)
    floats, ints, layout = model.packed
    views = (packing.view1, packing.view2, packing.view3)
    for k, name in enumerate(TREE_FLOATS + TREE_INTS):
        a = getattr(model, name)
        assert np.shares_memory(a, floats if k < len(TREE_FLOATS) else ints) and not a.flags.writeable
        assert np.array_equal(views[a.ndim - 1](floats if k < len(TREE_FLOATS) else ints, layout, k), a)


def test_workspace_of_a_same_size_model_takes_that_models_gravity():
    """A Data built for one model and used with another of the same sizes (allowed) is re-checked and takes the
    other model's gravity; back on its own model it takes its own again."""
    rng = np.random.default_rng(5)
    a = random_tree(rng, n=5, chain=True)
    b = TreeModel(a.bodies, gravity=(0.0, 3.0, -1.0))
    q, v, _ = random_state(rng, a)
    tau = rng.standard_normal(a.nv)
    shared = Data(a)
    for model in (b, a, b):
        assert np.array_equal(forward_dynamics(model, shared, q, v, tau), forward_dynamics(model, Data(model), q, v,
                                                                                           tau))


def test_copied_workspaces_and_models_stay_packed():
    """A deep copy or an unpickled Data/model (e.g. sent to a worker) has its arrays as views of its own
    buffers again, so the results a call returns are the ones its kernels wrote."""
    import copy
    import pickle
    rng = np.random.default_rng(7)
    model = random_tree(rng, n=6, chain=False)
    q, v, _ = random_state(rng, model)
    tau = rng.standard_normal(model.nv)
    expected = forward_dynamics(model, Data(model), q, v, tau)
    data = Data(model)
    for m, d in (copy.deepcopy((model, data)), pickle.loads(pickle.dumps((model, data))),
                 (model, copy.deepcopy(data))):
        assert np.array_equal(forward_dynamics(m, d, q, v, tau), expected)
        assert np.shares_memory(d.qdd, d.packed[0])


@pytest.fixture(scope="module")
def puma():
    return flexible_puma560()


def both_runs(model, method, t_end, h, tau, qdd=None, psi=0.5, phi=0.5, f_ext=None, t0=0.0, v0=None):
    """The stepwise and the compiled run of simulate_flexible, each with its own workspace."""
    q0, v0 = model.neutral_configuration(), np.zeros(model.nv) if v0 is None else v0
    return [run(model, FlexibleData(model), joint_mask(model, PUMA_MOTION_GIVEN), q0, v0, t_end, h, method, tau,
                qdd, psi, phi, f_ext, t0) for run in (fs._stepwise_run, fs._compiled_run)]


@pytest.mark.parametrize("method", ["zhai", "rk4"])
def test_compiled_flexible_run_is_the_stepwise_run(puma, method):
    """Bitwise equal trajectories (states, accelerations, joint forces), for the paper's inputs and for given
    accelerations, external wrenches, Zhai's ψ, φ and a start time t0 ≠ 0."""
    for kw in (dict(tau=puma_inputs),
               dict(tau=lambda t: 0.1 * t * np.ones(6), qdd=lambda t: 0.1 * np.sin(t) * np.ones(6), psi=0.3, phi=0.4,
                    f_ext=0.1 * np.ones((6, 6)), t0=0.05, v0=0.05 * np.ones(puma.nv))):
        stepwise, compiled = both_runs(puma, method, kw.get("t0", 0.0) + 0.1, 0.005, **kw)
        for name in ("t", "q", "v", "a", "eta", "eta_rate", "eta_acc", "tau", "state_q", "state_v"):
            assert np.array_equal(getattr(stepwise, name), getattr(compiled, name)), name


def test_compiled_flexible_run_errors_are_the_stepwise_ones(puma):
    """A state that stops being finite raises the same SolverError with the same samples; a torque function
    of the wrong size the same ModelError."""
    errors = []
    for run in (0, 1):
        with pytest.raises(SolverError) as caught:
            both_runs_one(puma, run, tau=lambda t: np.full(6, np.inf))
        errors.append(caught.value)
    assert str(errors[0]) == str(errors[1])
    assert np.array_equal(errors[0].results.q, errors[1].results.q, equal_nan=True)
    for run in (0, 1):
        with pytest.raises(ModelError, match=r"simulate_flexible: tau\(t\) must return 6 joint values"):
            both_runs_one(puma, run, tau=lambda t: np.zeros(5))


def both_runs_one(model, which, tau):
    """One of the two runs (0 stepwise, 1 compiled), Zhai, 0.02 s."""
    run = (fs._stepwise_run, fs._compiled_run)[which]
    return run(model, FlexibleData(model), joint_mask(model, PUMA_MOTION_GIVEN), model.neutral_configuration(),
               np.zeros(model.nv), 0.02, 0.005, "zhai", tau, None, 0.5, 0.5, None, 0.0)
