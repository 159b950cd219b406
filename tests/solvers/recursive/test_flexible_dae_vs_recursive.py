"""Two independent methods in femdyn on the same flexible mechanism: a double pendulum of
two soft bars, each a Craig–Bampton component referenced to its root interface.

* DAE: floating-frame bodies (`Model.flexible_body`: natural-coordinate frame + modal
  coordinates, M(q) from the invariants, interface frames tied by exact attachment rows),
  revolute joints between interface frames, index-3 generalized-α;
* recursive: the same components as modal bodies of the O(N) hybrid sweeps
  (`solvers.recursive.flexible`), RK4 at a step so small that its error is negligible.

Both implement the exact floating-frame model with a linear modal field and interface
rotations exp([Ψη]×), so they describe the same mechanics: the difference is the DAE
integrator's O(h²) error and must fall fourfold when h is halved. (Both also start from
the same accelerations: at t = 0 the DAE's consistent q̈ and the recursive forward dynamics
give the same η̈ and joint accelerations to round-off, with 2 to 6 modes.)
"""
import functools

import numpy as np
import pytest

import femdyn
from femdyn.component import keep_modes, reference_to_interface
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.initial import consistent_state
from femdyn.solvers.recursive import flexible_dynamics
from femdyn.solvers.recursive import Joint
from femdyn.solvers.recursive.flexible import flexible_chain
from femdyn.solvers.recursive.flexible_simulation import simulate_flexible

from support.ffr_models import L, bar

T_END = 0.1
ELBOW = (0.0, 0.6, 0.8)      # the lower bar swings out of the upper one's plane: 3-D motion, both bending planes


@functools.lru_cache(maxsize=None)
def component():
    """The 0.4 m bar at E = 2.1e9 Pa, clamped at its root frame "x0", its two lowest modes
    kept: the first bending pair (17.2 Hz, in both planes: the square section makes the pair
    degenerate, so a cut inside a pair would depend on the eigensolver's basis). Pinned at
    its root the bar's highest frequency is then 101 Hz, which the DAE steps below resolve
    (ωh ≤ 0.64); with the second pair as well it is 381 Hz, and the DAE's difference from
    the recursive run stalls at these steps until h resolves it."""
    _, _, comp = bar(E=2.1e9)
    return keep_modes(reference_to_interface(comp, "x0"), 2)


def dae(h):
    """Joint angles (rad) and modal coordinates of both bars at the DAE's samples."""
    comp = component()
    m = femdyn.Model("flexible double pendulum", gravity=(0, 0, -9.81))
    upper = m.flexible_body("upper", comp, (0.0, 0.0, 0.0))
    lower = m.flexible_body("lower", comp, (L, 0.0, 0.0))
    m.revolute("shoulder", m.ground, upper.interface("x0"), (0, 0, 0), (0, 1, 0))
    m.revolute("elbow", upper.interface("x1"), lower.interface("x0"), (L, 0, 0), ELBOW)
    for joint in ("shoulder", "elbow"):
        m.sensor_angle(joint, joint)
    s = m.assemble()
    r = integrate(s, T_END, h, Options(rho_inf=0.9, tol_dynamic=1e-10, tol_constraint=1e-13))
    angles = np.column_stack([r["shoulder.angle"], r["elbow.angle"]])
    eta = np.hstack([r.q[:, s.bodies[b].dofs[12:]] for b in ("upper", "lower")])
    return r.t, angles, eta


@functools.lru_cache(maxsize=None)
def recursive(h=2.5e-5):
    comp = component()
    model = flexible_chain([comp, comp], [Joint("revolute", (0, 1, 0)), Joint("revolute", ELBOW)], inner="x0", outer="x1",
                           gravity=(0, 0, -9.81))
    run = simulate_flexible(model, model.neutral_configuration(), np.zeros(model.nv), T_END, h, method="rk4")
    return run.t, run.q, run.eta


def recursive_at(t):
    """The recursive run's joint angles and modal coordinates at the times t (its grid holds them)."""
    tr, qr, etar = recursive()
    at = lambda values: np.column_stack([np.interp(t, tr, values[:, k]) for k in range(values.shape[1])])
    return at(qr), at(etar)


def test_recursive_reference_is_converged():
    """RK4 at 25 µs against 12.5 µs: far below the DAE differences measured below."""
    t, q, eta = recursive()
    t2, q2, eta2 = recursive(1.25e-5)
    assert np.abs(q2[::2] - q).max() < 1e-10 and np.abs(eta2[::2] - eta).max() < 1e-10


def test_floating_frame_dae_converges_to_the_recursive_flexible_chain():
    """Released from rest horizontal, 0.1 s: the bars swing down and out of plane (joint
    angles up to 0.1 rad) and bend in both planes (η up to 9e-4). Halving the DAE's step
    from 0.5 ms to 0.25 ms divides its largest difference from the recursive run by 4
    (measured 3.99 for the angles, 3.99 for η; bound 3.5–4.5): the two methods differ by
    the integrator's O(h²) error only. At 0.25 ms that is 2e-5 rad (0.02 % of the angles'
    range) and 5e-6 in η (0.5 %); bound 1 %."""
    (tc, ac, ec), (_, af, ef) = dae(5e-4), dae(2.5e-4)
    a_ref, e_ref = recursive_at(tc)
    da_c, de_c = np.abs(ac - a_ref).max(), np.abs(ec - e_ref).max()
    da_f, de_f = np.abs(af[::2] - a_ref).max(), np.abs(ef[::2] - e_ref).max()
    assert 3.5 < da_c / da_f < 4.5 and 3.5 < de_c / de_f < 4.5, (da_c, da_f, de_c, de_f)
    assert da_f < 1e-2 * np.abs(a_ref).max() and de_f < 1e-2 * np.abs(e_ref).max(), (da_f, de_f)


@pytest.mark.parametrize("modes", [2, 4, 6])
def test_initial_accelerations_agree(modes):
    """One bar pinned at its root, released horizontal: the DAE's consistent accelerations
    (KKT solve on the natural coordinates) and the recursive forward dynamics (articulated
    body sweeps on the joint angle and η) give the same joint and modal accelerations to
    1e-9 relative — with more modes the root's angular acceleration grows (the root section
    has no inertia of its own), which both show alike."""
    _, _, comp = bar(E=2.1e9)
    c = keep_modes(reference_to_interface(comp, "x0"), modes)
    m = femdyn.Model("pinned bar", gravity=(0, 0, -9.81))
    body = m.flexible_body("bar", c, (0.0, 0.0, 0.0))
    m.revolute("pin", m.ground, body.interface("x0"), (0, 0, 0), (0, 1, 0))
    s = m.assemble()
    q, v, a, lam = consistent_state(s)
    model = flexible_chain([c], [Joint("revolute", (0, 1, 0))], inner="x0", outer="x1", gravity=(0, 0, -9.81))
    qdd = flexible_dynamics.forward_dynamics(model, flexible_dynamics.FlexibleData(model),
                                             model.neutral_configuration(), np.zeros(model.nv), np.zeros(model.nv))
    eta_dd = a[s.bodies["bar"].dofs[12:12 + modes]]
    assert eta_dd == pytest.approx(qdd[1:], rel=1e-9, abs=1e-9 * np.abs(qdd).max())
    # the pin's angular acceleration: the frame's axis u = (cos θ, 0, −sin θ) at θ = 0 has u̇̇_z = −θ̈
    u = s.bodies["bar"].dofs[3:6]
    assert -a[u][2] == pytest.approx(qdd[0], rel=1e-9)
