"""The error-controlled step: the local error estimate against the true local error, the controller,
interpolated records, events, fast spin watched during a run, and the fixed step left unchanged."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import femdyn
from femdyn.errors import SolverError
from femdyn.solvers.error_control import StepController, coordinate_scales, local_error
from femdyn.solvers import Event
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.initial import consistent_state
from femdyn.solvers.newton_step import STEPPERS, State
from femdyn.solvers.scheme import Parameters

from support.models import pendulum

G = 9.81
K, MASS = 50.0, 2.0             # the oscillator's spring (N/m) and bob (kg): ω = 5 rad/s


def oscillator(x0=0.01):
    """A bob on a spring along x, held on the x axis by two constraint rows (an index-3 DAE, linear in x)."""
    m = femdyn.Model("oscillator", gravity=(0, 0, 0))
    m.point_mass("bob", (1.0 + x0, 0, 0), MASS)
    m.spring("spring", "ground", (0, 0, 0), "bob", (1.0 + x0, 0, 0), stiffness=K, rest_length=1.0)
    m.fix("bob", components=(1, 2))
    return m


def oscillator_flow(q, v, h):
    """The exact coordinates h after (q, v) of the oscillator."""
    w, out = np.sqrt(K / MASS), q.copy()
    out[0] = 1.0 + (q[0] - 1.0) * np.cos(w * h) + v[0] / w * np.sin(w * h)
    return out


def pendulum_flow(q, v, h):
    """The exact coordinates h after (q, v) of the rod pendulum (θ̈ = 3g/(2L) cos θ, L = 1 m), to 1e-13."""
    A, vA = q[3:6], v[3:6]
    theta, rate = np.arctan2(-A[2], A[0]), (-A[0] * vA[2] + A[2] * vA[0]) / (A @ A)
    sol = solve_ivp(lambda t, y: [y[1], 1.5 * G * np.cos(y[0])], (0, h), [theta, rate], rtol=1e-13, atol=1e-14)
    out = q.copy()
    out[3:6] = [np.cos(sol.y[0, -1]), 0.0, -np.sin(sol.y[0, -1])]
    return out


def true_and_estimated(system, h, formulation, flow, t=0.5, rho_inf=0.9):
    """‖true local error‖ and ‖estimate‖ of the step from t: the scheme run to t with h (its ã settled),
    then one step, against the exact flow from the same (q, v)."""
    o = Options(rho_inf=rho_inf, formulation=formulation, tol_dynamic=1e-12, tol_constraint=1e-14)
    p = Parameters.from_rho(rho_inf)
    q, v, a, lam = consistent_state(system, None, None, 0.0, 1e-3)
    s = State(0.0, q, v, a, a.copy(), lam, initial=True)
    stepper = STEPPERS[formulation](system, h, p, o)
    for _ in range(int(round(t / h))):
        s = stepper.solve(s, s.t + h).state
    new = stepper.solve(s, s.t + h).state
    return np.linalg.norm(new.q - flow(s.q, s.v, h)), np.linalg.norm(local_error(p, h, s.at, new.at))


@pytest.mark.parametrize("formulation", ["index3", "stabilized"])
@pytest.mark.parametrize("case", ["oscillator", "pendulum"])
def test_the_estimate_is_the_local_error_of_third_order(case, formulation):
    """One step from the scheme's own state against the exact flow, h = 10, 5, 2.5 ms: the true
    local error falls at order 3 (measured 2.95–3.00) and the estimate c h²(ã₊ − ã) is within
    2 % of it at 5 ms and below (measured 1.006–1.041: oscillator 4.3e-7 m at 20 ms, pendulum
    1.5e-4 m). Bounds: order ≥ 2.9, ratio in [0.95, 1.06]; a wrong constant (Newmark's β − 1/6,
    0.11 at ρ∞ = 0.9, instead of 0.084) would be 30 % off."""
    build, flow = (oscillator, oscillator_flow) if case == "oscillator" else (lambda: pendulum(0.0), pendulum_flow)
    rows = [true_and_estimated(build().assemble(), h, formulation, flow) for h in (0.01, 0.005, 0.0025)]
    for (true, est), (true_half, est_half) in zip(rows, rows[1:]):
        assert np.log2(true / true_half) >= 2.9 and np.log2(est / est_half) >= 2.9
    for true, est in rows:
        assert 0.95 <= est / true <= 1.06


def test_the_fixed_step_is_unchanged():
    """Options() without a tolerance takes the fixed steps of before, bit for bit: the swinging
    pendulum at h = 5 ms to 0.5 s (values of the tree before the error control, as float.hex)."""
    r = integrate(pendulum(0.0).assemble(), 0.5, 0.005)
    assert [float(x).hex() for x in r.q[-1][3:]] == ['-0x1.705b967e13221p-4', '0x0.0p+0', '-0x1.fdece518694f2p-1']
    assert [float(x).hex() for x in r.lam[-1][:2]] == ['0x1.d4e6ae66b55bfp+2', '0x1.fa0685435a715p+0']
    assert len(r.t) == 101 and r.t[-1] == 0.5
    assert not {"tolerance", "length_scale", "events"} & set(r.meta["solver"])     # the run's settings as before
    assert r.steps_taken == {"control": "fixed", "accepted": 100, "rejected": 0, "newton_failures": 0,
                             "smallest": 0.005, "largest": 0.005}


def test_a_tolerance_chooses_the_steps_and_records_at_the_output_times():
    """The swinging pendulum with τ = 1e-6 and h = 50 ms: steps shorter than h (the estimate asks
    for them), records at the 41 times of h (interpolated), the summary counts the steps; the tip
    at 2 s within 2e-5 m of the exact one (measured 7.9e-6 m in 1067 steps) and the error falls
    with τ (τ = 1e-7: 7.6e-8 m). Bounds: the measured values with margin."""
    exact = pendulum_flow(pendulum(0.0).assemble().q0, np.zeros(6), 2.0)[3:6]
    errors = {}
    for tol in (1e-6, 1e-7):
        r = integrate(pendulum(0.0).assemble(), 2.0, 0.05, Options(tolerance=tol))
        errors[tol] = np.abs(r.q[-1][3:6] - exact).max()
        steps = r.steps_taken
        assert steps["control"] == "tolerance" and steps["largest"] <= 0.05 and steps["accepted"] > 40
        assert np.allclose(r.t, np.linspace(0, 2.0, 41), atol=1e-12)
        assert f"{steps['accepted']} steps accepted" in r.run_summary
    assert errors[1e-6] <= 2e-5 and errors[1e-7] <= 1e-6


def test_a_falling_point_reaching_a_plane_is_located_to_the_tolerance():
    """A point dropped from 2 m: a terminal event on z = 0 ends the run at √(2·2/g) within τ·h
    (τ = 1e-6, h = 0.1 s: measured 1.8e-8 s; generalized-α and the Hermite interpolant are exact
    for the parabola, so only the location's bracket is left), the last record at the event."""
    m = femdyn.Model("drop", gravity=(0, 0, -G))
    m.point_mass("ball", (0, 0, 2.0), 1.0)
    floor = Event("floor", lambda t, q, v: q[2], terminal=True, direction=-1)
    r = integrate(m.assemble(), 2.0, 0.1, Options(tolerance=1e-6, events=[floor]))
    assert abs(r.t[-1] - np.sqrt(4.0 / G)) <= 1e-6 * 0.1
    assert abs(r.q[-1][2]) <= 1e-6
    assert [e["name"] for e in r.events if e["event"] == "event"] == ["floor"]


def test_a_recorded_event_does_not_end_the_run_and_fires_once_per_crossing():
    """The swinging pendulum's tip crossing x = 0 (rising and falling): recorded at the closed-form
    times of the exact solution's zero of cos θ within 1e-5 s, the run going on to its end."""
    cross = Event("x = 0", lambda t, q, v: q[3])
    r = integrate(pendulum(0.0).assemble(), 2.0, 0.05, Options(tolerance=1e-7, events=[cross]))
    times = [e["t"] for e in r.events if e["event"] == "event"]
    sol = solve_ivp(lambda t, y: [y[1], 1.5 * G * np.cos(y[0])], (0, 2.0), [0.0, 0.0], rtol=1e-12, atol=1e-12,
                    events=lambda t, y: np.cos(y[0]))
    assert r.t[-1] == 2.0
    assert np.allclose(times, sol.t_events[0], atol=1e-5)


def test_bad_settings_are_refused():
    """A tolerance out of (0, 1), events without a tolerance, or an event that is no Event."""
    s = pendulum(0.0).assemble()
    with pytest.raises(SolverError, match="tolerance"):
        integrate(s, 0.1, 0.01, Options(tolerance=2.0))
    with pytest.raises(SolverError, match="tolerance"):
        integrate(s, 0.1, 0.01, Options(events=[Event("e", lambda t, q, v: q[3])]))
    with pytest.raises(SolverError, match="Event"):
        integrate(s, 0.1, 0.01, Options(tolerance=1e-4, events=[lambda t, q, v: q[3]]))
    with pytest.raises(SolverError, match="direction"):
        integrate(s, 0.1, 0.01, Options(tolerance=1e-4, events=[Event("e", lambda t, q, v: q[3], direction=2)]))


def test_the_controller_grows_after_small_errors_and_shrinks_after_rejections():
    """PI controller: error 1e-3 of the allowed lets the step grow (at most ×2), a rejection with
    error 8 cuts it by 0.9·8^(−1/3) = 0.45 and holds the next step from growing."""
    c = StepController(1.0)
    assert c.accept(0.1, 1e-3) == pytest.approx(0.2)
    assert c.reject(0.1, 8.0) == pytest.approx(0.045)
    assert c.accept(0.045, 1e-3) == pytest.approx(0.045)
    assert c.accept(0.8, 1e-3) == 1.0                    # bounded by the largest step


def test_error_scales_follow_the_kind_of_coordinate():
    """Positions by the model's size (the box diagonal: 2 m here), unit vectors by 1."""
    m = femdyn.Model("body")
    m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (2.0, 0, 0)), mass=1.0, axis=m.vector("z", (0, 0, 1)))
    s = m.assemble()
    scales = coordinate_scales(s, s.q0)
    unit = [i for i, label in enumerate(s.labels) if label.startswith("z.")]
    assert np.all(scales[unit] == 1.0)
    assert np.all(np.delete(scales, unit) == 2.0)
    assert np.all(coordinate_scales(s, s.q0, length=0.5)[unit] == 1.0)


def test_a_spin_up_during_a_fixed_step_run_switches_to_the_stabilized_form(caplog):
    """The pendulum at h = 50 ms spins up to 5.4 rad/s (ωh = 0.27, past 0.073, where the index-3
    form's multiplier mode grows tenfold in 100 steps at ρ∞ = 0.9; at its start it is at rest, so
    the start check passes): the run logs why and goes on in the stabilized form; with
    spin_check="refuse" it stops with the reason. At h = 10 ms (ωh ≤ 0.054) it stays index 3."""
    import logging
    with caplog.at_level(logging.WARNING, logger="femdyn"):
        r = integrate(pendulum(0.0).assemble(), 1.0, 0.05)
    switch = [e for e in r.events if e["event"] == "spin: stabilized form"]
    assert len(switch) == 1 and switch[0]["body"] == "rod" and "stabilized form" in caplog.text
    with pytest.raises(SolverError, match="turns at"):
        integrate(pendulum(0.0).assemble(), 1.0, 0.05, Options(spin_check="refuse"))
    assert not [e for e in integrate(pendulum(0.0).assemble(), 1.0, 0.01).events if e["event"].startswith("spin")]


def test_with_a_tolerance_the_step_follows_the_spin():
    """Index 3 with τ = 1e-3 (loose: the estimate alone would take h = 50 ms): the step is held
    below 0.9 · 0.047/ω at the pendulum's fastest turn, and the limit is an event."""
    r = integrate(pendulum(0.0).assemble(), 1.0, 0.05, Options(tolerance=1e-3))
    limited = [e for e in r.events if e["event"] == "step limited by spin"]
    assert len(limited) == 1
    assert r.steps_taken["smallest"] <= 0.9 * 0.0472 / 5.0
