"""The error-controlled step on impacts: the clearance slider-crank of examples/clearance_slider_crank.py
(5000 rpm, 0.5 mm radial clearance, Hertz contact) against a fixed fine-step reference."""
import numpy as np
import pytest

from femdyn.solvers.generalized_alpha import Options, integrate


@pytest.mark.slow
def test_the_slider_crank_with_a_tolerance_follows_the_fine_fixed_step_at_a_tenth_of_its_cost(example):
    """Half a crank turn (6 ms, 30–40 impacts). Reference: h = 0.5 µs fixed (12000 steps; it differs
    from h = 1 µs by 4.4e-5 m in the slider's position, measured). τ = 1e-7 with h = 0.1 ms the
    largest step: 1056 steps accepted, 34 rejected, a step landing on each contact onset and
    separation; slider within 1.75e-5 m and journal eccentricity within 1.9e-5 m of the reference
    (measured), that is within the sum of its steps' allowed local errors N·τ·L (L = 0.17 m, the
    mechanism's size: 1.8e-5 m); Newton iterations 0.1 of the reference's (wall time 0.098).
    Bounds: 2 N·τ·L (the reference's own error is of that order) and a cost ratio ≤ 0.25."""
    ex = example("clearance_slider_crank")
    t_end = 0.5 * 2 * np.pi / ex.OMEGA
    v0 = integrate(ex.build(None).assemble(), 1e-6, 1e-6).v[0]
    ref = integrate(ex.build(ex.CLEARANCE).assemble(), t_end, 5e-7, Options(), v0=v0)
    tol = 1e-7
    r = integrate(ex.build(ex.CLEARANCE).assemble(), t_end, 1e-4, Options(tolerance=tol), v0=v0)
    at = np.round(r.t / 5e-7).astype(int)
    assert np.allclose(r.t, ref.t[at], atol=1e-12)
    allowed = 2 * r.steps_taken["accepted"] * tol * 0.17
    assert np.abs(r["slider.x"] - ref["slider.x"][at]).max() <= allowed
    assert np.abs(r["pin.eccentricity"] - ref["pin.eccentricity"][at]).max() <= allowed
    contacts = [e for e in r.events if e["event"] == "event" and e["name"] == "contact 'pin'"]
    assert len(contacts) >= 10
    assert len(r.iterations) <= 0.25 * len(ref.iterations)
