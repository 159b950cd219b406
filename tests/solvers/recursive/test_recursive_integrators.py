"""Zhai's explicit two-step method and RK4 on the undamped oscillator ẍ = −ω² x.

Observed (documented in benchmarks/RESULTS.md, "Recursive dynamics"): with ψ = φ = ½ Zhai's method is second
order in x and ẋ, with any other ψ = φ first order; its amplification matrix has spectral
radius exactly 1 (no numerical damping) for hω < 2 and > 1 beyond, so the stability
limit is hω = 2, like the central difference method.
"""
import numpy as np
import pytest

from femdyn.errors import ModelError, SolverError
from femdyn.solvers.recursive.integrators import rk4_step, simulate, zhai_step

OMEGA = 2.0


def oscillator(t, q, v):
    return -OMEGA**2 * q


def max_error(h, method, psi=0.5, phi=0.5, t_end=2.0):
    run = simulate(oscillator, np.array([1.0]), np.array([0.0]), t_end, h, method=method, psi=psi, phi=phi)
    return (np.abs(run.q[:, 0] - np.cos(OMEGA * run.t)).max(),
            np.abs(run.v[:, 0] + OMEGA * np.sin(OMEGA * run.t)).max())


def observed_orders(method, steps, **kw):
    err = np.array([max_error(h, method, **kw) for h in steps])
    return np.log2(err[:-1] / err[1:])


def test_zhai_is_second_order_for_half():
    """ψ = φ = ½: orders of x and ẋ in [1.9, 2.1] (observed 2.00 and 1.99 for h = 0.02 … 0.0025 s)."""
    orders = observed_orders("zhai", [0.02, 0.01, 0.005, 0.0025])
    assert np.all((orders > 1.9) & (orders < 2.1)), orders


@pytest.mark.parametrize("psi", [0.0, 0.25])
def test_zhai_is_first_order_otherwise(psi):
    """ψ = φ ≠ ½: the h² terms no longer match the Taylor series; orders in [0.9, 1.1] (observed 1.00–1.01)."""
    orders = observed_orders("zhai", [0.02, 0.01, 0.005], psi=psi, phi=psi)
    assert np.all((orders > 0.9) & (orders < 1.1)), orders


def test_rk4_is_fourth_order():
    """Classical RK4: orders in [3.8, 4.2] for h = 0.1 … 0.025 s (observed 3.98–4.00)."""
    orders = observed_orders("rk4", [0.1, 0.05, 0.025])
    assert np.all((orders > 3.8) & (orders < 4.2)), orders


def bounded(h_omega, steps=4000):
    """True when the free oscillation stays within 10× its amplitude over ``steps`` steps."""
    q, v, a_prev = np.array([1.0]), np.array([0.0]), None
    h = h_omega / OMEGA
    for _ in range(steps):
        a = oscillator(0.0, q, v)
        q, v = zhai_step(q, v, a, a_prev, h)
        a_prev = a
        if abs(q[0]) > 10.0:
            return False
    return True


def test_zhai_stability_limit():
    """Bisection on hω for bounded free oscillation finds the limit 2 within 0.01.

    Below the limit the spectral radius is 1 (no damping): at hω = 1.9 the amplitude after
    4000 steps stays within 1.5 of the initial one (peak of the oscillation in x incl. phase).
    """
    lo, hi = 1.0, 3.0
    for _ in range(20):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if bounded(mid) else (lo, mid)
    assert abs(lo - 2.0) < 0.01, lo
    q, v, a_prev, h, peak = np.array([1.0]), np.array([0.0]), None, 1.9 / OMEGA, 0.0
    for _ in range(4000):
        a = oscillator(0.0, q, v)
        q, v = zhai_step(q, v, a, a_prev, h)
        a_prev, peak = a, max(peak, abs(q[0]))
    assert 0.9 < peak < 1.5


def test_first_zhai_step_is_taylor():
    """ψ = φ = 0 on the first step: x₁ = x₀ + v₀h + ½a₀h², v₁ = v₀ + a₀h (exact arithmetic, 1e-15)."""
    q, v = zhai_step(np.array([1.0]), np.array([0.5]), np.array([-4.0]), None, 0.1)
    assert abs(q[0] - (1.0 + 0.05 - 0.02)) < 1e-15 and abs(v[0] - (0.5 - 0.4)) < 1e-15


def test_rk4_step_matches_simulate():
    q, v = rk4_step(oscillator, 0.0, np.array([1.0]), np.array([0.0]), 0.1)
    run = simulate(oscillator, np.array([1.0]), np.array([0.0]), 0.1, 0.1)
    assert q[0] == run.q[1, 0] and v[0] == run.v[1, 0]


@pytest.mark.parametrize("t0, t_end, h, steps", [(0.0, 1.0, 0.3, 4), (0.0, 0.01, 0.1, 1), (0.0, 0.9, 0.3, 3),
                                                  (0.0, 0.8, 5e-4, 1600), (0.5, 1.0, 0.25, 2), (-1.0, 1.0, 0.7, 3)])
@pytest.mark.parametrize("method", ["rk4", "zhai"])
def test_run_ends_at_the_first_step_at_or_after_t_end(t0, t_end, h, steps, method):
    """Step count ceil((t_end − t0)/h − 1e-9), at least one: samples t0 + k h, the last at or after t_end,
    the one before it short of t_end (both up to 1e-9 h, the round-off allowance: 0.9/0.3 and 0.8/5e-4
    are 3 and 1600 plus one ulp)."""
    run = simulate(oscillator, [1.0], [0.0], t_end, h, method=method, t0=t0)
    assert len(run.t) == len(run.q) == steps + 1 and run.t[0] == t0
    np.testing.assert_allclose(np.diff(run.t), h, rtol=1e-12)
    assert run.t[-1] >= t_end - 1e-9 * h and run.t[-2] < t_end - 1e-9 * h


def test_bad_integrator_input():
    with pytest.raises(ModelError, match="unknown method"):
        simulate(oscillator, [1.0], [0.0], 1.0, 0.1, method="euler")
    with pytest.raises(ModelError, match="must be positive"):
        simulate(oscillator, [1.0], [0.0], 1.0, 0.0)
    with pytest.raises(ModelError, match="t_end=1.0 s after t0=2.0 s"):
        simulate(oscillator, [1.0], [0.0], 1.0, 0.1, t0=2.0)


def test_divergence_raises_solver_error_with_samples():
    with pytest.raises(SolverError) as info, np.errstate(over="ignore", invalid="ignore"):
        simulate(lambda t, q, v: q * 1e200, [1.0], [0.0], 1.0, 0.1, method="zhai")
    assert info.value.results is not None and len(info.value.results.t) >= 1
