"""Signal conditioning: alignment, zero-phase filtering, zero-balancing, sample checks."""
import numpy as np
import pytest

from femdyn.errors import FemdynError
from femdyn.reports.signals import check_samples, common_grid, estimate_lag, lowpass, zero_balance

DT = 1e-3


def transient(t):
    """A decaying two-mode response starting at t = 0.1 s (not periodic, so the
    correlation has one clear maximum)."""
    s = np.clip(t - 0.1, 0, None)
    return np.exp(-3 * s) * (np.sin(2 * np.pi * 7 * s) + 0.4 * np.sin(2 * np.pi * 23 * s)) * (t > 0.1)


@pytest.mark.parametrize("lag", [0.0, 0.0123, -0.0071, 0.0299, 0.00035])
def test_alignment_recovers_a_known_lag_within_one_sample(lag):
    """The delayed copy (plus 2 % noise) gives back the lag to within one sample DT (the
    requirement), searched within ±0.03 s."""
    t = np.arange(0, 1.5, DT)
    rng = np.random.default_rng(7)
    delayed = transient(t - lag) + 0.02 * rng.standard_normal(t.size)
    found = estimate_lag(transient(t), delayed, DT, 0.03)
    assert abs(found - lag) < DT


def test_alignment_is_bounded_by_max_lag():
    """A true lag beyond the bound is not found: the estimate stays within ±max_lag."""
    t = np.arange(0, 1.5, DT)
    found = estimate_lag(transient(t), transient(t - 0.05), DT, 0.02)
    assert abs(found) <= 0.02 + 1e-12


def test_zero_phase_filter_keeps_the_peaks_in_place():
    """A clean 5 Hz sine through the 4th-order 50 Hz Butterworth run forwards and backwards:
    its crests stay at the same samples (no phase: a one-way filter would move them by
    its group delay, 8.3 ms = 8 samples here) and its amplitude within 1e-4 (the
    two passes attenuate 5 Hz by |H|² = 1/(1 + (5/50)^8)² = 1 − 2e-8). Away from the ends (one
    period), where the filter's start-up transient lives."""
    t = np.arange(0, 2, DT)
    x = np.sin(2 * np.pi * 5 * t)
    y = lowpass(t, x, 50.0)
    inner = (t > 0.2) & (t < 1.8)
    crest = lambda s: np.flatnonzero((s[1:-1] > s[:-2]) & (s[1:-1] >= s[2:]) & inner[1:-1]) + 1
    assert np.array_equal(crest(y), crest(x))
    assert np.max(np.abs(y - x)[inner]) < 1e-4
    from scipy.signal import butter, sosfilt
    one_way = sosfilt(butter(4, 50.0, fs=1 / DT, output="sos"), x)
    assert np.all(crest(one_way) - crest(x) >= 7)            # the check sees a one-way filter's lag


def test_filter_removes_noise_above_its_cutoff():
    """A 200 Hz component is damped by the two passes to |H|² = 1/(1 + 4^8) ≈ 1.5e-5."""
    t = np.arange(0, 2, DT)
    y = lowpass(t, np.sin(2 * np.pi * 200 * t), 50.0)
    assert np.max(np.abs(y[200:-200])) < 1e-4


def test_zero_balancing_removes_a_known_offset():
    t = np.arange(0, 1, DT)
    x = 1e-5 * np.sin(2 * np.pi * 4 * t) + 3.7e-6
    np.testing.assert_allclose(zero_balance(t, x, 0.0), 1e-5 * np.sin(2 * np.pi * 4 * t), atol=1e-20)
    assert zero_balance(t, x, 0.5)[500] == 0.0


def test_cutoff_above_nyquist_is_an_error():
    with pytest.raises(FemdynError, match="Nyquist frequency 500 Hz of channel 'SG3'"):
        lowpass(np.arange(0, 1, DT), np.zeros(1000), 600.0, what="channel 'SG3'")


def test_nan_and_gaps_are_reported_and_dropped():
    t = np.arange(0, 1, DT)
    x = np.sin(t)
    x[[100, 101]] = np.nan
    keep = np.ones(t.size, bool)
    keep[500:520] = False
    tt, xx, warnings = check_samples(t[keep], x[keep], "SG7")
    assert len(tt) == keep.sum() - 2 and np.all(np.isfinite(xx))
    assert any("SG7" in w and "2 NaN" in w for w in warnings)
    assert any("SG7" in w and "gaps" in w and "0.021 s" in w for w in warnings)


def test_unsorted_times_and_non_overlapping_ranges_are_errors():
    with pytest.raises(FemdynError, match="'SG1': times do not increase"):
        check_samples([0, 1, 1, 2, 3], [0, 1, 2, 3, 4], "SG1")
    with pytest.raises(FemdynError, match="do not overlap"):
        common_grid([(0.0, 1.0), (2.0, 3.0)], DT)
