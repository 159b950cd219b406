"""Validation metrics for a computed history c(t) against a measured one m(t), both
sampled on one uniform time base (integrals become sums; the step cancels in every
ratio). Definitions, formulas and sources are in docs/strain-reports.md:

* peaks: max and min of each, and the relative errors (c_peak − m_peak)/‖m_peak‖;
* RMS error √(mean (c − m)²) and its normalized form RMSE / √(mean m²);
* Pearson's correlation coefficient;
* Sprague & Geers 2004 (IJNME 60:2467, eqs. 44–46): M = √(ψ_cc/ψ_mm) − 1,
  P = arccos(ψ_mc/√(ψ_mm ψ_cc))/π, C = √(M² + P²), ψ_ab = ∫ a b dt;
* Russell 1997 (Proc. 68th Shock and Vibration Symposium, 175–184):
  m_R = (ψ_cc − ψ_mm)/√(ψ_cc ψ_mm), RM = sign(m_R) log₁₀(1 + ‖m_R‖), RP = P,
  RC = √(π/4 (RM² + RP²)).
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
    """Peak values and their relative errors.

    Parameters
    ----------
    computed_peaks, measured_peaks : (float, float)
        (positive, negative) peaks of the simulation and the measurement (strain).

    Returns
    -------
    dict
        ``peak_pos_sim``, ``peak_pos_meas``, ``peak_pos_error`` and the same for ``neg``;
        an error is NaN where the measured peak is 0.

    Example
    -------
    >>> round(peak_metrics((1.1e-5, -0.9e-5), (1e-5, -1e-5))["peak_pos_error"], 12)
    0.1
    """
    out = {}
    for key, c, m in (("pos", computed_peaks[0], measured_peaks[0]), ("neg", computed_peaks[1], measured_peaks[1])):
        out[f"peak_{key}_sim"], out[f"peak_{key}_meas"] = float(c), float(m)
        out[f"peak_{key}_error"] = float((c - m) / abs(m)) if m != 0 else float("nan")
    return out


def history_metrics(computed, measured):
    """Every metric of :data:`METRICS` for two histories on one uniform time base.

    Parameters
    ----------
    computed, measured : array_like
        Strains (dimensionless), same length ≥ 2.

    Returns
    -------
    dict
        Metric name → value (peaks as in :func:`peak_metrics`).

    Raises
    ------
    FemdynError
        Different lengths, too few samples, or a history that is identically zero
        (the energy-based metrics divide by ∫m² and ∫c²).

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


def verdicts(values, tolerances):
    """Pass/fail of each metric that has a tolerance.

    Example
    -------
    >>> verdicts({"correlation": 0.95, "nrmse": 0.4}, {"correlation": 0.9, "nrmse": 0.3})
    {'correlation': True, 'nrmse': False}
    """
    out = {}
    for name, tol in tolerances.items():
        if name in values:
            v = values[name]
            ok = v >= tol if METRICS[name][1] == "min" else abs(v) <= tol
            out[name] = bool(ok and np.isfinite(v))
    return out
