"""A failed step is rejected by default: covered by halved steps, then the user's step again;
the rejections are events, and the run's summary counts them and says where they were."""
import logging

import numpy as np
import pytest

import femdyn
from femdyn.solvers.generalized_alpha import Options, integrate

from support.models import pendulum

import flexible_pendulum as berzeri


def test_a_rejected_step_is_recorded_and_counted_in_the_summary(tmp_path, caplog):
    """The swinging pendulum at h = 0.05 s with 4 Newton iterations fails some steps (it stops at
    t = 0.45 s with on_failure="stop"): every failure is a "step rejected" event, the user's
    steps rejected (depth 0) are the summary's count, each inside one of its time ranges, the
    steps after a rejection are of h again, and the summary line is logged and kept in the folder."""
    with caplog.at_level(logging.WARNING, logger="femdyn"):
        r = integrate(pendulum(0.0).assemble(), 1.0, 0.05, Options(max_iterations=4), output=str(tmp_path / "run"))
    assert r.status == "completed"
    rejected = [e for e in r.events if e["event"] == "step rejected"]
    user = sorted(e["t"] for e in rejected if e["depth"] == 0)
    assert r.rejected["steps"] == len(user) > 0 and r.rejected["halvings"] == len(rejected)
    assert all(any(a <= t <= b for a, b in r.rejected["ranges"]) for t in user)
    assert np.allclose(np.diff(r.t), 0.05)                      # recorded at the user's steps only
    assert f"{len(user)} steps rejected" in r.run_summary and f"{len(user)} steps rejected" in caplog.text
    assert femdyn.load(str(tmp_path / "run")).rejected == r.rejected


def test_no_rejection_no_note(caplog):
    """A run without failures: an empty summary of rejections, nothing logged."""
    with caplog.at_level(logging.WARNING, logger="femdyn"):
        r = integrate(pendulum(0.0).assemble(), 0.2, 0.01)
    assert r.rejected == {"steps": 0, "halvings": 0, "ranges": []}
    assert r.run_summary == "pendulum: completed (fixed step: 20 steps accepted, 0 rejected, h = 0.01 s)"
    assert "rejected" not in caplog.text


def test_stop_remains():
    """on_failure="stop" ends the run at its first failure, with its diagnosis."""
    with pytest.raises(femdyn.ConvergenceError, match="Options\\(max_halvings=8\\)"):
        integrate(pendulum(0.0).assemble(), 1.0, 0.05, Options(max_iterations=4, on_failure="stop"))


@pytest.mark.slow
def test_the_soft_berzeri_shabana_pendulum_completes_ten_seconds_with_default_options():
    """32 planar cables, E = 0.7 MPa, h = 1 ms, 10 s (it stopped at t = 5.26 s when a failed
    step ended the run): it completes with one step rejected (measured), at 5.263 s, and gains
    no energy: ρ∞ = 0.9 dissipates (−27.6 J at 10 s measured; −9.2 J at h = 0.5 ms throughout).
    Returning to h right after each rejection (no recovery steps) failed 412 steps and the
    cable gained 5.8e5 J, a run "completed" and wrong: bound, the energy never exceeds its start
    by more than 1 % of the largest potential energy (64 J)."""
    r = integrate(berzeri.pendulum(32, 0.7e6).assemble(), 10.0, 1e-3, record_every=100)
    assert r.status == "completed" and r.t[-1] == pytest.approx(10.0)
    assert 0 < r.rejected["steps"] <= 5 and r.rejected["ranges"][0][0] > 5.0
    energy = r["energy"]
    assert energy.max() - energy[0] <= 1e-2 * np.abs(r["potential_energy"]).max()
