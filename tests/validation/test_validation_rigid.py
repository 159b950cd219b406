"""Validation of rigid-body dynamics on natural coordinates: the heavy top of Brüls, Cardona
& Arnold 2012 (benchmarks/validation/heavy_top.py) against Euler's equations solved to
1e-13 (benchmarks/validation/references.py)."""

import numpy as np
import pytest

from femdyn.solvers.generalized_alpha import Options, integrate

import heavy_top as case             


def test_heavy_top_at_the_papers_step_with_second_order():
    """Stabilized index-2 generalized-α, ρ∞ = 0.9, h = 1 ms (the paper's step) and 2 ms,
    to t = 0.5 s (past the index-3 failure at 0.125 s): both complete, centre of mass
    1.21e-2 and 3.10e-3 m from the reference (measured), observed order 1.97 (bound
    ≥ 1.8: a second-order scheme); the 2-s run is the slow test below."""
    ref = case.reference(0.5)
    e2, e1 = (np.linalg.norm(case.com_at(h, 0.5) - ref) for h in (2e-3, 1e-3))
    assert e1 <= 4e-3
    assert np.log2(e2 / e1) >= 1.8


def _multiplier_alternation(rho_inf, steps=60):
    """|λ_k − λ_(k−1)| of the unit-vector multiplier of u at the first and last steps of an
    index-3 run with h = 1 ms."""
    system = case.heavy_top().assemble()
    r = integrate(system, steps * 1e-3, 1e-3, Options(rho_inf=rho_inf, tol_dynamic=1e-10, tol_constraint=1e-12,
                                                    step_check=False))      # the index-3 form itself
    lam = r.lam[:, system.constraints.labels.index("top.u: unit length")]
    jumps = np.abs(np.diff(lam))
    return jumps[:10].max(), jumps[-10:].max()


def test_index3_form_is_unstable_for_the_spinning_top_at_rho_09():
    """The cause of the index-3 failure at h = 1 ms (it stops at t = 0.125 s): not the
    Newton iteration (converged here to 1e-10) but the scheme. Its spurious multiplier mode
    (the defective eigenvalue −ρ∞ of the constrained coordinates, Arnold & Brüls 2007)
    alternates λ from step to step; at ρ∞ = 0.9 the spin's centripetal multipliers
    (λ ∝ ω², ωh = 0.15) push it out of the unit circle and the alternation of the
    unit-vector multiplier grows (measured ×150 over 60 steps), at ρ∞ = 0.8 it stays
    bounded (23 → 21 N over 200 steps, the physical variation of λ included). Bounds:
    growth > 30 and no growth."""
    start, end = _multiplier_alternation(0.9)
    assert end > 30 * start
    start, end = _multiplier_alternation(0.8, steps=200)
    assert end <= start


@pytest.mark.slow
def test_heavy_top_completes_two_seconds_at_1ms():
    """h = 1 ms to t = 2 s (3–5 Newton iterations a step): centre of mass 1.04e-2 m from the
    reference (measured; bound 1.5e-2)."""
    assert np.linalg.norm(case.com_at(1e-3) - case.reference()) <= 1.5e-2


@pytest.mark.slow
def test_heavy_top_converges_at_second_order_to_euler():
    """h = 0.25 and 0.1 ms to t = 2 s: errors 6.9e-4 and 1.1e-4 m (measured; 3.7e-2,
    1.04e-2, 2.7e-3 m at h = 2, 1, 0.5 ms), observed order ≥ 1.9. The issue's goal of 1e-6 m at h = 0.1 ms is beyond a second-order scheme on
    natural coordinates: the unit vectors turn at 150 rad/s, and the error constant
    (≈ 1e4 m/s²·h²) is that of the spin's polynomial interpolation (docs/validation.md)."""
    ref = case.reference()
    e1, e2 = (np.linalg.norm(case.com_at(h) - ref) for h in (2.5e-4, 1e-4))
    assert e2 <= 1.5e-4
    assert np.log(e1 / e2) / np.log(2.5) >= 1.9


@pytest.mark.slow
def test_heavy_top_error_falls_with_the_tolerance():
    """Error-controlled (stabilized, ρ∞ = 0.9, h = 10 ms the largest step) to t = 2 s: the centre
    of mass 2.7e-3, 6.0e-4, 1.27e-4 m from Euler's at τ = 1e-4, 1e-5, 1e-6 (measured; 4036, 8682,
    18702 steps), falling about as τ^(2/3) (a second-order scheme whose local error is held to τ).
    Bounds: each decade of τ gains at least ×3, and τ = 1e-6 is within 2e-4 m."""
    ref = case.reference()
    errors = []
    for tol in (1e-4, 1e-5, 1e-6):
        r = integrate(case.heavy_top().assemble(), 2.0, 1e-2, Options(tolerance=tol, formulation="stabilized"),
                      record_every=10**9)
        errors.append(np.linalg.norm([r["com.x"][-1] - ref[0], r["com.y"][-1] - ref[1], r["com.z"][-1] - ref[2]]))
    assert errors[0] >= 3 * errors[1] >= 9 * errors[2]
    assert errors[2] <= 2e-4
