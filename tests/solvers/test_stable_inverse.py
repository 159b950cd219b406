"""The stable causal inverse (solvers/stable_inverse.py) against independent solutions.

* Rigid servo pendulum (no internal dynamics): the stable inverse is the exact inverse up to
  its rate limit, so its torque converges to the closed form
  τ = J θ̈ − m g (L/2) cos θ (θ about +y, which lowers the tip: z = −L sin θ).
* The flexible 3-RRRU robot (internal dynamics undamped from 3.6 Hz on): the plain causal
  inverse rings; the stable one starts at the static holding torques, tracks exactly, is
  smooth, and its successive approximation converges geometrically.
"""
import numpy as np
import pytest

import femdyn
from femdyn.errors import ModelError
from femdyn.motion import SmoothStep
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.stable_inverse import StableInverseOptions, rate_limited_derivatives, stable_causal_inverse

L, MASS, G = 0.8, 1.2, 9.81


def _pendulum(servo=True):
    """A rod hinged at O, its tip lowered by 0.3 m along a quintic rest-to-rest step in 0.5 s."""
    m = femdyn.Model("servo pendulum", gravity=(0, 0, -G))
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (L, 0, 0)), mass=MASS)
    m.revolute("pivot", m.ground, rod, (0, 0, 0), (0, 1, 0))
    m.sensor_angle("pivot", "pivot")
    if servo:
        m.actuator("motor", "pivot")
        m.servo("tip", rod, (L, 0, 0), [SmoothStep(0.0, 0.5, 0.0, -0.3)], [(0, 0, 1)])
    return m.assemble()


def _closed_form(t):
    """τ(t) from the prescribed tip height: θ = asin(−z/L), J θ̈ = τ + m g (L/2) cos θ, J = m L²/3."""
    f = SmoothStep(0.0, 0.5, 0.0, -0.3)
    z, zd, zdd = (np.array([g(x) for x in t]) for g in (f, f.d1, f.d2))
    c = np.sqrt(1 - (z / L) ** 2)
    theta_d = -zd / (L * c)                      # z = −L sin θ (θ about +y lowers the tip)
    theta_dd = -(zdd + L * (z / L) * theta_d**2) / (L * c)
    return MASS * L**2 / 3 * theta_dd - MASS * G * L / 2 * c


def test_rigid_pendulum_equals_the_exact_inverse():
    h = 1e-3
    errors = {}
    for window in (0.005, 0.01):
        stable = stable_causal_inverse(_pendulum(), 0.6, h, StableInverseOptions(iterations=2, window=window,
                                                                                 rest_after=True))
        error = np.abs(stable["motor.torque"] - _closed_form(stable.t))
        smooth = np.abs(stable.t - 0.25) < 0.25 - window          # away from the quintic's jerk steps at 0, 0.5 s
        errors[window] = error[smooth].max(), error.max()
    tau = stable["motor.torque"]
    scale = np.abs(tau).max()
    # the accelerations are the second derivative of a cubic fit over the window: second order
    # in the window where the motion is smooth, first order across a jump of the jerk
    assert errors[0.005][0] < 5e-5 * scale
    assert errors[0.01][0] / errors[0.005][0] > 3.5
    assert 1.8 < errors[0.01][1] / errors[0.005][1] < 2.8
    assert abs(tau[0] + MASS * G * L / 2) < 1e-9                   # statics at the start
    assert stable.meta["stable_inverse"]["input_change"] < 1e-9    # rigid: the first approximation is exact


def test_rate_limited_derivatives_rest_ends_and_errors():
    t = np.linspace(0.0, 1.0, 201)
    q = np.column_stack([np.sin(t), t**2])
    v, a = rate_limited_derivatives(t, q, 0.05, rest_before=True, rest_after=True)
    assert np.all(v[[0, -1]] == 0) and np.all(a[[0, -1]] == 0)
    assert np.abs(a[20:-20, 1] - 2.0).max() < 1e-9
    with pytest.raises(ModelError, match="equally spaced"):
        rate_limited_derivatives(t[[0, 1, 3]], q[[0, 1, 3]], 0.05)


def test_model_without_servo_is_refused():
    with pytest.raises(ModelError, match="no servo constraints"):
        stable_causal_inverse(_pendulum(servo=False), 0.1, 1e-3)


@pytest.fixture(scope="module")
def robot_runs():
    """The flexible 3-RRRU robot (4 elements per link) over the first 0.3 s: both inverses."""
    from femdyn.solvers.static import static_equilibrium
    from femdyn.studies.rrru import circle_motion, servo_robot
    from femdyn.studies.rrru_study import StudyConfig
    config = StudyConfig(n_elements=4)
    motion = circle_motion(config)
    system = servo_robot(config, motion, flexible=True, n_elements=4).model.assemble()
    q0, lam0 = static_equilibrium(system)
    stable = stable_causal_inverse(system, 0.3, 5e-3, StableInverseOptions(iterations=4), q0=q0)
    causal = integrate(system, 0.3, 1e-3, Options(rho_inf=0.0, tol_dynamic=1e-8, tol_constraint=1e-12), q0=q0)
    return system, motion, lam0, stable, causal


def _torques(results):
    return np.column_stack([results[f"actuator {i}.torque"] for i in range(3)])


def test_robot_stable_inverse_starts_at_statics_and_tracks(robot_runs):
    system, motion, lam0, stable, _ = robot_runs
    assert np.abs(_torques(stable)[0] - lam0[system.input_rows]).max() < 1e-9
    P = np.column_stack([stable[f"P.{c}"] for c in "xyz"])
    assert np.abs(P - np.array([motion.position(t) for t in stable.t])).max() < 1e-10


def test_robot_stable_inverse_is_smooth_where_the_causal_one_rings(robot_runs):
    _, _, _, stable, causal = robot_runs
    # total variation per second of the torques: the causal inverse's undamped internal
    # oscillation makes it several times that of the stable one
    variation = [np.abs(np.diff(_torques(r), axis=0)).sum(axis=0).max() / r.t[-1] for r in (stable, causal)]
    assert variation[1] > 3 * variation[0]


def test_robot_successive_approximation_converges(robot_runs):
    _, _, _, stable, _ = robot_runs
    assert stable.meta["stable_inverse"]["input_change"] < 0.05      # N·m, after 4 approximations


@pytest.mark.slow
def test_four_inverses_on_the_robot(tmp_path):
    """examples/rrru_inverses.py over 0.2 s, 2 elements per link: the exact causal inverse overflows on
    the non-minimum-phase zeros and the nonlinear causal DAE stops; the non-causal inverse tracks
    exactly and rings at the undamped internal modes; the optimal-control and the stable causal
    inverses are smooth, the first with a small tracking error, the second exact."""
    import runpy
    comparison = runpy.run_path("examples/rrru_inverses.py")["main"](str(tmp_path), 0.2, 2)
    summary, status = comparison["summary"], comparison["status"]
    assert status["causal"].startswith("failed") and "overflow" in status["causal"]
    assert summary["non-causal"]["output_deviation"] < 1e-9                     # m: exact tracking
    assert 0 < summary["optimal control"]["output_deviation"] < 5e-3            # m: relaxed tracking
    smooth = summary["stable causal"]["variation_per_second"]
    assert summary["optimal control"]["variation_per_second"] < 2 * smooth
    assert summary["non-causal"]["variation_per_second"] > 2 * smooth
    assert summary["stable causal"]["torque_difference"] < 2.0                 # N·m from the rigid robot
    assert (tmp_path / "inverses.png").exists()


def test_chain_internal_mode_follows_the_particular_solution():
    """Three sliders in a row, the middle one pushed, the last one prescribed along a slow
    rest-to-rest step: the first slider hangs on spring 1 — the internal (zero) dynamics, an
    undamped oscillator ω₁ = √(k₁/m₁) — and the bounded solution without free vibration is
    the particular one (the quasi-static series, finite for a polynomial motion):

        x₃ = y,   x₂ = y + (m₃/k₂) ÿ,   x₁ = Σ_j (−m₁/k₁)^j x₂^(2j),
        u = m₂ ẍ₂ + k₂ (x₂ − x₃) − k₁ (x₁ − x₂).

    The stable inverse converges to it (the motion is ten times slower than ω₁); its torque
    fed to the same chain without the servo reproduces the prescribed motion."""
    from support.servo_chains import RestToRest, chain_model, output_polynomial
    from femdyn.motion import Tabulated
    masses, stiffnesses, T, height, order = (1.0, 2.0, 1.0), (400.0, 1000.0), 3.0, 0.05, 4
    y = output_polynomial(order, T, height)
    x2 = y + masses[2] / stiffnesses[1] * y.deriv(2)
    x1 = sum((-masses[0] / stiffnesses[0]) ** j * x2.deriv(2 * j) for j in range(order + 2))
    u = masses[1] * x2.deriv(2) + stiffnesses[1] * (x2 - y) - stiffnesses[0] * (x1 - x2)
    system = chain_model(masses, stiffnesses, RestToRest(height, order, T), driven=1).assemble()
    h = 2e-3
    result = stable_causal_inverse(system, T, h, StableInverseOptions(iterations=4, window=0.02, elastic_window=0.3,
                                                                      rest_after=True))
    push = result["push.force"]
    scale = np.abs(u(result.t)).max()
    # measured 7e-4: the rate limits, and the particular solution is 4e-4 away from rest at t = 0
    assert np.abs(push - u(result.t)).max() < 2e-3 * scale                   # N: the particular solution
    assert result.meta["stable_inverse"]["input_change"] < 1e-4 * scale      # converged to 1e-4
    replay = _replay_chain(masses, stiffnesses, Tabulated(result.t, push), T, h)
    assert np.abs(replay["x3.x"] - y(replay.t)).max() < 5e-4 * height      # m: reproduced (measured 8e-5)


def _replay_chain(masses, stiffnesses, force, T, h):
    """The chain of the test above without servo, slider 2 pushed by a tabulated force."""
    from support.servo_chains import chain_model
    model = chain_model(masses, stiffnesses, None, driven=1, force=force, name="replayed chain")
    return integrate(model.assemble(), T, h, Options(rho_inf=0.95, tol_dynamic=1e-10))


def test_robot_with_damped_links():
    """Kelvin–Voigt 2 ms on the links: the damping forces are loads of the previous
    approximation; the inverse converges and, leaving no vibration to damp, stays within
    0.05 N·m of the undamped one away from the run's open end (the damping sensitivity of
    docs/rrru.md: below 0.006)."""
    from femdyn.robots.rrru import RRRUGeometry
    from femdyn.studies.rrru import circle_motion, servo_robot
    from femdyn.studies.rrru_study import StudyConfig
    torques = []
    for damping in (0.0, 0.002):
        config = StudyConfig(n_elements=2, geometry=RRRUGeometry(damping=damping))
        system = servo_robot(config, circle_motion(config), flexible=True, n_elements=2).model.assemble()
        result = stable_causal_inverse(system, 0.3, 5e-3, StableInverseOptions(iterations=4))
        assert result.meta["stable_inverse"]["input_change"] < 0.1     # N·m; the run ends mid-motion
        torques.append(_torques(result)[result.t <= 0.15])   # half a rate-limit window from the open end
    assert np.abs(torques[1] - torques[0]).max() < 0.05
