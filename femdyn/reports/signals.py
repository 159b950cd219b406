"""Signal conditioning for comparing simulated and measured strain histories: checks for
gaps and NaN, zero-balancing, zero-phase low-pass filtering, resampling onto a common
time base and time alignment by cross-correlation. Times in s, frequencies in Hz.
"""
import numpy as np
from scipy import signal as sps

from ..errors import FemdynError


def check_samples(t, x, what):
    """Drop NaN samples and report gaps in a measured channel."""
    t, x = np.asarray(t, float), np.asarray(x, float)
    if not np.all(np.isfinite(t)):
        k = int(np.flatnonzero(~np.isfinite(t))[0])
        raise FemdynError(f"channel '{what}': time of sample {k + 1} is missing or NaN; every row needs a time")
    dt = np.diff(t)
    if np.any(dt <= 0):
        k = int(np.flatnonzero(dt <= 0)[0])
        raise FemdynError(f"channel '{what}': times do not increase at t = {t[k]:.6g} s (sample {k + 1}); "
                          "sort the file by time and remove repeated rows")
    warnings = []
    typical = np.median(dt) if dt.size else 0.0
    gaps = np.flatnonzero(dt > 1.5 * typical)
    if gaps.size:
        k = gaps[np.argmax(dt[gaps])]
        warnings.append(f"channel '{what}': {gaps.size} gaps in the sampling (longest {dt[k]:.4g} s from "
                        f"t = {t[k]:.6g} s, sampling interval {typical:.4g} s), bridged by linear interpolation")
    bad = ~np.isfinite(x)
    if bad.any():
        warnings.append(f"channel '{what}': {bad.sum()} NaN or empty samples (first at t = {t[bad][0]:.6g} s) "
                        "dropped; the comparison interpolates across them")
    t, x = t[~bad], x[~bad]
    if len(t) < 4:
        raise FemdynError(f"channel '{what}' has {len(t)} finite samples; a comparison needs at least 4")
    return t, x, warnings


def zero_balance(t, x, t_balance):
    """Subtract the value at an instant, as a bridge balanced then reads zero there.
    """
    return np.asarray(x, float) - np.interp(t_balance, t, x)


def lowpass(t, x, cutoff, order=4, what="the samples"):
    """Zero-phase Butterworth low-pass: the filter run forwards and backwards
    (``scipy.signal.sosfiltfilt``; Gustafsson 1996, IEEE Trans. Signal Process. 44(4)),
    so the phase lag cancels and the effective order doubles."""
    fs = 1.0 / np.median(np.diff(t))
    if not 0 < cutoff < 0.5 * fs:
        raise FemdynError(f"low-pass cutoff {cutoff!r} Hz must lie between 0 and the Nyquist frequency "
                          f"{0.5 * fs:.6g} Hz of {what}; lower cutoff in [comparison]")
    sos = sps.butter(order, cutoff, fs=fs, output="sos")
    if len(x) <= 3 * (2 * len(sos) + 1):
        raise FemdynError(f"{what}: {len(x)} samples are too few to filter; give a longer record")
    return sps.sosfiltfilt(sos, np.asarray(x, float))


def common_grid(ranges, dt):
    """Uniform time base over the overlap of time ranges.
    """
    start, end = max(r[0] for r in ranges), min(r[1] for r in ranges)
    if not end > start:
        shown = ", ".join(f"{a:.6g}…{b:.6g} s" for a, b in ranges)
        raise FemdynError(f"time ranges do not overlap ({shown}); check the time column and its unit, or the "
                          "comparison window and the time offset of the measurement")
    n = int(np.floor((end - start) / dt + 1e-9)) + 1
    return start + dt * np.arange(n)


def estimate_lag(reference, delayed, dt, max_lag):
    """Time by which ``delayed`` lags ``reference`` (s), both on one uniform grid of step
    ``dt``: the lag within ±``max_lag`` (s) that maximizes the correlation coefficient of
    the overlapping parts (each part's mean removed, so the ends of the record do not bias
    it), refined by a parabola through the best lag and its neighbours. Several channels
    with one clock: pass 2-D arrays (channels, samples); their coefficients are summed."""
    a, b = np.atleast_2d(np.asarray(reference, float)), np.atleast_2d(np.asarray(delayed, float))
    n = a.shape[1]
    k_max = int(min(np.floor(max_lag / dt), n - 4))
    lags = np.arange(-k_max, k_max + 1)
    corr = np.array([_coefficient(a[:, max(0, -k):n - max(0, k)], b[:, max(0, k):n - max(0, -k)]) for k in lags])
    i = int(np.argmax(corr))
    shift = 0.0
    if 0 < i < len(lags) - 1:
        c0, c1, c2 = corr[i - 1], corr[i], corr[i + 1]
        denom = c0 - 2 * c1 + c2
        shift = 0.5 * (c0 - c2) / denom if denom < 0 else 0.0
    return float((lags[i] + shift) * dt)


def _coefficient(x, y):
    """Sum over channels of the correlation coefficients of the rows of x and y."""
    x = x - x.mean(axis=1, keepdims=True)
    y = y - y.mean(axis=1, keepdims=True)
    norm = np.sqrt(np.sum(x * x, axis=1) * np.sum(y * y, axis=1))
    return float(np.sum(np.sum(x * y, axis=1) / np.where(norm > 0, norm, np.inf)))
