"""The report's tables as rows of text cells, shared by the HTML page and the PDF."""
from .metrics import METRICS, meaningful

SUMMARY_HEADER = ("gauge", "channel", "+peak sim / meas (µε)", "−peak sim / meas (µε)", "NRMSE", "r",
                  "S&G C", "verdict")
METRIC_HEADER = ("metric", "value", "tolerance", "verdict")


def summary_rows(comparison):
    """One row per gauge (cells as in :data:`SUMMARY_HEADER`)."""
    rows = []
    for g in comparison.gauges:
        m = g.metrics
        rows.append((g.name, g.channel, _pair(m, "pos"), _pair(m, "neg"),
                     *(f"{m[k]:{form}}" if k in m else "–"
                       for k, form in (("nrmse", ".4g"), ("correlation", ".4f"), ("sg_combined", ".4g"))),
                     ("pass" if g.passed else "FAIL") if comparison.judged else "no verdict"))
    return rows


def metric_rows(gauge):
    """Rows (metric, value, tolerance, verdict) of one gauge: its peaks, then the metrics
    of :data:`~femdyn.reports.metrics.METRICS` that it has.
    """
    rows = [(f"{side} peak sim / meas (µε)", _pair(gauge.metrics, key), "", "")
            for key, side in (("pos", "positive"), ("neg", "negative"))]
    for name, (label, rule) in METRICS.items():
        if name in gauge.metrics:
            tol = gauge.tolerances.get(name)
            bound = "" if tol is None else (f"≥ {tol:g}" if rule == "min" else f"≤ {tol:g}")
            verdict = "" if name not in gauge.verdicts else ("pass" if gauge.verdicts[name] else "FAIL")
            verdict = verdict if tol is None or meaningful(name, tol) else "no verdict (cannot fail)"
            rows.append((label, f"{gauge.metrics[name]:.4g}", bound, verdict))
    return rows


def _pair(metrics, key):
    """"simulated / measured" peak of a metric, in µε."""
    return f"{metrics[f'peak_{key}_sim'] * 1e6:.4g} / {metrics[f'peak_{key}_meas'] * 1e6:.4g}"
