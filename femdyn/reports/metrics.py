"""Validation metrics for a computed history c(t) against a measured one m(t) on one uniform
time base: peaks and their relative errors, RMS error, Pearson's correlation, Sprague & Geers
2004 (IJNME 60:2467, eqs. 44–46) and Russell 1997 magnitude, phase and combined errors.
Definitions, formulas and sources: docs/strain-reports.md.
"""
import numpy as np

from ..errors import FemdynError

# name: (label, rule) — rule "abs": pass when |value| ≤ tolerance; "min": when value ≥ tolerance
METRICS = {
    "peak_pos_error": ("positive peak error (relative)", "abs"),
    "peak_neg_error": ("negative peak error (relative)", "abs"),
    "rmse": ("RMS error (strain)", "abs"),
    "nrmse": ("normalized RMS error", "abs"),
    "correlation": ("correlation coefficient", "min"),
    "sg_magnitude": ("Sprague–Geers magnitude M", "abs"),
    "sg_phase": ("Sprague–Geers phase P", "abs"),
    "sg_combined": ("Sprague–Geers combined C", "abs"),
    "russell_magnitude": ("Russell magnitude RM", "abs"),
    "russell_phase": ("Russell phase RP", "abs"),
    "russell_combined": ("Russell combined RC", "abs"),
}


def peak_metrics(computed_peaks, measured_peaks):
    """Peak values and their relative errors: ``peak_pos_sim``, ``peak_pos_meas``, ``peak_pos_error``, same for ``neg``.

    An error is NaN where the measured peak is 0.

    Parameters
    ----------
    computed_peaks, measured_peaks : (float, float)
        (positive, negative) peaks of the simulation and the measurement.
    """
    out = {}
    for key, c, m in (("pos", computed_peaks[0], measured_peaks[0]), ("neg", computed_peaks[1], measured_peaks[1])):
        out[f"peak_{key}_sim"], out[f"peak_{key}_meas"] = float(c), float(m)
        out[f"peak_{key}_error"] = float((c - m) / abs(m)) if m != 0 else float("nan")
    return out


def history_metrics(computed, measured):
    """Every metric of :data:`METRICS` (name → value) for two histories on one uniform time base.

    A history that is identically zero is refused (the energy metrics divide by ∫m² and ∫c²).

    Parameters
    ----------
    computed, measured : array_like
        Strains, same length ≥ 2.

    Example
    -------
    >>> t = np.linspace(0, 1, 1001)[:-1]; m = np.sin(2 * np.pi * t)
    >>> round(history_metrics(1.2 * m, m)["sg_magnitude"], 6)
    0.2
    """
    c, m = np.asarray(computed, float), np.asarray(measured, float)
    if c.shape != m.shape or c.ndim != 1 or len(c) < 2:
        raise FemdynError(f"metrics need two histories of one length ≥ 2, got {c.shape} and {m.shape}")
    mm, cc, mc = float(m @ m), float(c @ c), float(m @ c)
    if mm == 0 or cc == 0:
        which = "measured" if mm == 0 else "simulated"
        raise FemdynError(f"the {which} strain is zero throughout the comparison window; choose a window where "
                          "the gauge is loaded")
    out = peak_metrics((c.max(), c.min()), (m.max(), m.min()))
    rmse = float(np.sqrt(np.mean((c - m) ** 2)))
    phase = float(np.arccos(np.clip(mc / np.sqrt(mm * cc), -1.0, 1.0)) / np.pi)
    mag_sg = float(np.sqrt(cc / mm) - 1.0)
    m_r = (cc - mm) / np.sqrt(cc * mm)
    rm = float(np.sign(m_r) * np.log10(1.0 + abs(m_r)))
    out.update(rmse=rmse, nrmse=rmse / float(np.sqrt(np.mean(m ** 2))),
               correlation=float(np.corrcoef(c, m)[0, 1]) if np.ptp(c) > 0 and np.ptp(m) > 0 else float("nan"),
               sg_magnitude=mag_sg, sg_phase=phase, sg_combined=float(np.hypot(mag_sg, phase)),
               russell_magnitude=rm, russell_phase=phase,
               russell_combined=float(np.sqrt(np.pi / 4 * (rm ** 2 + phase ** 2))))
    return out


def meaningful(name, tol):
    """Whether a tolerance can fail: relative errors below 100 %, a correlation above -1 (RMS error: any)."""
    if name == "rmse":
        return True
    return tol > -1.0 if METRICS.get(name, ("", "abs"))[1] == "min" else abs(tol) < 1.0


def verdicts(values, tolerances):
    """Pass/fail of each metric that has a tolerance."""
    out = {}
    for name, tol in tolerances.items():
        if name in values:
            v = values[name]
            ok = v >= tol if METRICS[name][1] == "min" else abs(v) <= tol
            out[name] = bool(ok and np.isfinite(v))
    return out
