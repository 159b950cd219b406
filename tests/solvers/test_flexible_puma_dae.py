"""Tian et al.'s (2010) flexible PUMA 560 in both model families: the recursive O(N) model
(`robots.flexible_puma.flexible_puma560`, modal bodies, hybrid dynamics) and the DAE model
built from the very same referenced, truncated link components
(`flexible_puma560_dae`: floating-frame bodies placed at the recursive q = 0, revolute
joints between interface frames, joints 1, 3, 6 torque-given, 2, 4, 5 held by angle
drives, index-3 generalized-α).

Both describe the same mechanics (see tests/solvers/recursive/test_flexible_dae_vs_recursive.py for the
double pendulum), so the DAE's joint angles must converge to the recursive run at the
integrator's second order.
"""
import functools

import numpy as np
import pytest

from femdyn.robots.flexible_puma import PUMA_MOTION_GIVEN, flexible_puma560, flexible_puma560_dae, puma_inputs
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.recursive.flexible_simulation import simulate_flexible

T_END = 0.1
TORQUE_GIVEN = (1, 3, 6)


@functools.lru_cache(maxsize=None)
def recursive_model():
    return flexible_puma560()


@functools.lru_cache(maxsize=None)
def recursive(h=1e-4):
    """RK4 run of the recursive model: joint angles (all six) on its grid."""
    model = recursive_model()
    run = simulate_flexible(model, model.neutral_configuration(), np.zeros(model.nv), T_END, h, method="rk4",
                            tau=puma_inputs, prescribed=PUMA_MOTION_GIVEN)
    return run.t, run.q


def dae(h):
    """Times and joint angles 1 … 6 (rad) of the DAE run at step h."""
    system = flexible_puma560_dae(recursive_model()).assemble()
    r = integrate(system, T_END, h, Options(rho_inf=0.9, tol_dynamic=1e-10, tol_constraint=1e-13))
    return r.t, np.column_stack([r[f"joint{k}.angle"] for k in range(1, 7)])


def test_recursive_reference_is_converged():
    """RK4 at 0.1 ms against 0.05 ms (the assembled arm's highest frequency, ≈ 300 rad/s,
    gives ωh = 0.03): the difference is 2.4e-10 rad (bound 1e-9), four thousand times
    below the DAE differences measured below (≥ 6e-6 rad)."""
    t, q = recursive()
    _, q2 = recursive(5e-5)
    assert np.abs(q2[::2] - q).max() < 1e-9


def test_dae_puma_converges_to_the_recursive_puma():
    """0.1 s from rest under the paper's torques: joints 1, 3, 6 turn by 4e-3, 1e-2 and
    4e-2 rad while the links bend. Halving the DAE step from 1 ms to 0.5 ms divides the
    largest difference from the recursive run by 4 (measured 3.97, 3.93, 3.88 for joints 1,
    3, 6; bound 3.5–4.5): the two families differ by generalized-α's O(h²) error only. At
    0.5 ms that is 0.15 %, 0.29 %, 0.18 % of each joint's range; bound 1 %. The held joints
    2, 4, 5 stay at zero to the constraint tolerance (1e-13; bound 1e-10 rad)."""
    tc, ac = dae(1e-3)
    _, af = dae(5e-4)
    tr, qr = recursive()
    ref = np.column_stack([np.interp(tc, tr, qr[:, k]) for k in range(6)])
    cols = [k - 1 for k in TORQUE_GIVEN]
    coarse = np.abs(ac[:, cols] - ref[:, cols]).max(axis=0)
    fine = np.abs(af[::2, cols] - ref[:, cols]).max(axis=0)
    ratio = coarse / fine
    assert np.all((3.5 < ratio) & (ratio < 4.5)), (coarse, fine)
    assert np.all(fine < 1e-2 * np.abs(ref[:, cols]).max(axis=0)), fine
    held = [k for k in range(6) if PUMA_MOTION_GIVEN[k]]
    assert np.abs(af[:, held]).max() < 1e-10


def test_dae_puma_is_placed_at_the_recursive_zero_configuration():
    """Each DAE link's reference frame starts at the recursive body frame at q = 0 (the
    recursive forward kinematics), the chain's tip 'link6.outer' included: the last link's
    outer interface at the recursive pose of link 6 plus 1 m along its bar (round-off). The
    joint-angle sensors read 0 there (joint 3's material vectors start antiparallel, on the
    ±π branch of the angle: the sensor wraps to (−π, π], so it reads 0, not 2π)."""
    from femdyn.solvers.recursive.flexible_dynamics import FlexibleData, kinematics
    model = recursive_model()
    data = FlexibleData(model)
    kinematics(model, data, model.neutral_configuration())
    system = flexible_puma560_dae(model).assemble()
    for i in range(6):
        body = system.bodies[f"link{i + 1}"]
        assert system.q0[body.dofs[:3]] == pytest.approx(data.p_world[i], abs=1e-12)
    angles = [sensor.measure(system.q0, system.v0, None, None, 0.0)[0] for sensor in system.sensors]
    assert angles == pytest.approx(np.zeros(6), abs=1e-12)
    tip = system.bodies["link6.outer"]
    assert tip.origin0 == pytest.approx(data.p_world[5] + data.R_world[5][:, 0], abs=1e-12)
