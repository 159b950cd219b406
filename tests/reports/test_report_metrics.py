"""Comparison metrics against closed-form values on synthetic signals.

Signals are sampled over whole periods (uniform grid without the end point), so the
sums that stand for the integrals are exact for sinusoids (discrete orthogonality), and
the closed forms hold to rounding: tolerances 1e-12 unless stated.
"""
import numpy as np
import pytest

from femdyn.reports.metrics import history_metrics, peak_metrics, verdicts
from femdyn.errors import FemdynError

N = 2000
T = np.arange(N) / N                     # one second, 1 Hz fundamental, whole periods
W = 2 * np.pi * 3                         # three periods


@pytest.mark.parametrize("a", [0.25, -0.2, 0.05])
def test_amplitude_error_gives_sprague_geers_magnitude_and_no_phase(a):
    """c = (1 + a) m ⇒ M = √(∫c²/∫m²) − 1 = a, P = 0 (Sprague & Geers 2004); Russell:
    m_R = ((1+a)² − 1)/(1+a), RM = sign(m_R) log10(1 + |m_R|), RC = √(π/4) |RM|."""
    m = 1e-5 * np.sin(W * T)
    out = history_metrics((1 + a) * m, m)
    assert out["sg_magnitude"] == pytest.approx(a, abs=1e-12)
    assert out["sg_phase"] == pytest.approx(0.0, abs=1e-6)          # arccos near 1: √(rounding) ≈ 1e-8
    assert out["sg_combined"] == pytest.approx(abs(a), abs=1e-6)
    m_r = ((1 + a) ** 2 - 1) / (1 + a)
    rm = np.sign(m_r) * np.log10(1 + abs(m_r))
    assert out["russell_magnitude"] == pytest.approx(rm, abs=1e-12)
    assert out["russell_combined"] == pytest.approx(np.sqrt(np.pi / 4) * abs(rm), abs=1e-6)
    assert out["peak_pos_error"] == pytest.approx(a, abs=1e-9)       # c is m scaled, so are its peaks
    assert out["correlation"] == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("phi", [0.1, 0.5, np.pi / 2, 2.0])
def test_phase_shift_gives_sprague_geers_phase(phi):
    """c = sin(ωt − φ), m = sin(ωt) over whole periods: ∫cm/√(∫c²∫m²) = cos φ ⇒ P = φ/π,
    M = 0, correlation cos φ, RMS error 2 sin(φ/2)/√2 (|c − m| = 2|sin(φ/2)| times a
    unit sinusoid), NRMSE = 2 sin(φ/2)."""
    m, c = np.sin(W * T), np.sin(W * T - phi)
    out = history_metrics(c, m)
    assert out["sg_phase"] == pytest.approx(phi / np.pi, abs=1e-12)
    assert out["russell_phase"] == pytest.approx(phi / np.pi, abs=1e-12)
    assert out["sg_magnitude"] == pytest.approx(0.0, abs=1e-12)
    assert out["sg_combined"] == pytest.approx(phi / np.pi, abs=1e-12)
    assert out["correlation"] == pytest.approx(np.cos(phi), abs=1e-12)
    assert out["rmse"] == pytest.approx(2 * np.sin(phi / 2) / np.sqrt(2), abs=1e-12)
    assert out["nrmse"] == pytest.approx(2 * np.sin(phi / 2), abs=1e-12)


def test_rms_error_of_offset_and_correlation_of_two_harmonics():
    """c = m + d (constant): RMSE = |d| exactly. c = sin ωt + b sin 2ωt against m = sin ωt:
    r = (1/2)/√((1/2)(1/2 + b²/2)) = 1/√(1 + b²) (orthogonal harmonics, zero means)."""
    m = np.sin(W * T)
    assert history_metrics(m + 0.3, m)["rmse"] == pytest.approx(0.3, abs=1e-12)
    b = 0.75
    out = history_metrics(m + b * np.sin(2 * W * T), m)
    assert out["correlation"] == pytest.approx(1 / np.sqrt(1 + b * b), abs=1e-12)
    assert out["rmse"] == pytest.approx(b / np.sqrt(2), abs=1e-12)


def test_peaks_and_their_relative_errors():
    out = peak_metrics((12.0, -7.0), (10.0, -8.0))
    assert out["peak_pos_error"] == pytest.approx(0.2) and out["peak_neg_error"] == pytest.approx(0.125)
    assert np.isnan(peak_metrics((1.0, -1.0), (0.0, -1.0))["peak_pos_error"])


def test_verdicts_use_absolute_bounds_and_a_minimum_for_correlation():
    values = {"sg_magnitude": -0.3, "sg_phase": 0.05, "correlation": 0.85, "nrmse": float("nan")}
    got = verdicts(values, {"sg_magnitude": 0.2, "sg_phase": 0.1, "correlation": 0.9, "nrmse": 0.5})
    assert got == {"sg_magnitude": False, "sg_phase": True, "correlation": False, "nrmse": False}


def test_zero_history_is_an_error_naming_the_side():
    with pytest.raises(FemdynError, match="measured strain is zero"):
        history_metrics(np.ones(10), np.zeros(10))
