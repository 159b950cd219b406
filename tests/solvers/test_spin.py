"""Fast spin caught before it fails: the index-3 multiplier mode's growth estimated from the
initial state (solvers/spin.py) and, where it grows, the stabilized form run instead or the
run refused before its first step."""
import warnings

import numpy as np
import pytest

import femdyn
from femdyn.errors import SolverError, StepSizeWarning
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.spin import multiplier_growth, turning_rates

import heavy_top as case


def spinning_top(scale):
    """The heavy top with its initial angular velocity scaled by ``scale``."""
    m = femdyn.Model("heavy top", gravity=(0, 0, -9.81))
    O, C = m.point("top.O", (0, 0, 0)), m.point("top.C", case.COM)
    u, w = m.vector("top.u", (1, 0, 0)), m.vector("top.w", (0, 0, 1))
    top = m.rigid_body("top", [O, C], [u, w], mass=case.MASS, com=case.COM, inertia=case.INERTIA)
    m.spherical("pivot", "ground", top, (0, 0, 0))
    m.set_rigid_velocity(top, np.array(case.OMEGA0) * scale)
    return m.assemble()


def test_the_multiplier_mode_grows_with_spin_and_rho():
    """Growth per step of the test problem (a point turning at ωh): ρ∞ itself without spin; at
    ωh = 0.15 (the heavy top at 1 ms) above 1 from ρ∞ = 0.85 (1.06; the top stops at 0.85, 0.9,
    0.95 and runs at 0.8, whose estimate 1.003 is the boundary) and below 1 at 0.7. Bounds: the
    side of 1 (the criterion), and ρ∞ ± 1e-9 without spin."""
    assert multiplier_growth(0.0, 0.9) == pytest.approx(0.9, abs=1e-9)
    assert multiplier_growth(0.15, 0.85) > 1 > multiplier_growth(0.15, 0.7)
    assert multiplier_growth(0.15, 0.9) > multiplier_growth(0.15, 0.85) > multiplier_growth(0.075, 0.85)


def test_turning_rates_of_the_top():
    """|u̇| of the unit vectors u, w and the body's fastest basis vector: 150 rad/s (Ω ⊥ u, w)."""
    rates = turning_rates(spinning_top(1.0), spinning_top(1.0).q0, spinning_top(1.0).v0)
    assert rates["top.w"] == pytest.approx(150.0, rel=1e-6) and rates["top"] == pytest.approx(150.07, rel=1e-4)


def test_the_heavy_top_at_1ms_with_default_options_runs_stabilized():
    """h = 1 ms, default options (index 3, ρ∞ = 0.9): the check switches to the stabilized form
    with a warning naming the body and its rate, and the run passes t = 0.125 s where index 3
    stops (test_validation_rigid), to 0.2 s."""
    with pytest.warns(StepSizeWarning, match="'top.u' turns at 150.1 rad/s.*stabilized") as warned:
        r = integrate(case.heavy_top().assemble(), 0.2, 1e-3)
    assert r.status == "completed" and r.meta["solver"]["formulation"] == "stabilized"
    assert [w.filename for w in warned] == [__file__]                    # points at the caller of integrate


def test_refused_before_the_first_step_with_the_reason():
    """spin_check="refuse": a SolverError before any step, naming the rate and the safe ρ∞, h."""
    with pytest.raises(SolverError, match="turns at 150.1 rad/s.*use ρ∞ ≤ 0.75, h ≤ 0.00025 s") as err:
        integrate(case.heavy_top().assemble(), 0.2, 1e-3, Options(spin_check="refuse"))
    assert getattr(err.value, "results", None) is None


def test_slow_spin_keeps_index_3():
    """A quarter of the spin (37.5 rad/s, ωh = 0.0375 at 1 ms): no warning, index 3, and it runs."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", StepSizeWarning)
        r = integrate(spinning_top(0.25), 0.2, 1e-3)
    assert r.meta["solver"]["formulation"] == "index3" and r.status == "completed"


def test_a_bad_choice_is_named():
    with pytest.raises(SolverError, match="spin_check must be one of"):
        integrate(case.heavy_top().assemble(), 0.01, 1e-3, Options(spin_check="maybe"))


def test_the_stabilized_form_reaches_tight_tolerances_at_small_steps():
    """The stabilized step recovers ã from q − q̂ over βh²: formed by subtracting q̂ from q it lost
    the digits of q (≈ 1e-16 m / βh² ≈ 4e-6 m/s² at h = 10 µs) and stalled above a relative
    dynamic tolerance of 1e-10 (the heavy top; the floating-frame double pendulum at 0.125 ms
    likewise); kept from its increments it converges in ≤ 8 iterations."""
    r = integrate(case.heavy_top().assemble(), 2e-4, 1e-5, Options(formulation="stabilized", tol_dynamic=1e-10,
                                                                   on_failure="stop"))
    assert r.status == "completed" and r["iterations"].max() <= 8
