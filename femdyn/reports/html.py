"""The strain report as one self-contained HTML page (template ``strain.html`` on the
shared base of :mod:`femdyn.reports.pages`): figures embedded as base64 PNG, no external
style, script or font, so it opens offline. The inline script :data:`CHECK` reports an
image that fails to decode on the browser console (what the browser test checks)."""
from .figures import gauge_figure, link_figure, peaks_figure
from .pages import CHECK, cells, png, render_page
from .tables import METRIC_HEADER, SUMMARY_HEADER, metric_rows, summary_rows

__all__ = ["CHECK", "png", "write_html"]
VERDICT_CLASSES = {"pass": "pass", "FAIL": "fail", "no verdict": "muted", "no verdict (cannot fail)": "muted"}


def write_html(comparison, path, paper="A4"):
    """Write the strain report as one self-contained HTML page.

    Parameters
    ----------
    comparison : femdyn.reports.strain_report.Comparison
        The measured and computed strains, their metrics and verdicts (from
        :func:`~femdyn.reports.strain_report.compare`; strains in the gauges'
        units, times in s).
    path : str or os.PathLike
        The file to write (UTF-8 HTML).
    paper : {"A4", "Letter"}, optional
        The ``@page`` size the page prints on.

    Returns
    -------
    path : str or os.PathLike
        ``path``, as given.
    """
    gauges = [{"name": g.name, "channel": g.channel, "unit": g.unit, "figure": png(gauge_figure(g)),
               "rows": [cells(row, VERDICT_CLASSES) for row in metric_rows(g)]} for g in comparison.gauges]
    render_page("strain.html", path, title=comparison.title, passed=comparison.passed,
                judged=comparison.judged, verdict=comparison.headline, paper=paper,
                summary_header=SUMMARY_HEADER,
                summary_rows=[cells(row, VERDICT_CLASSES) for row in summary_rows(comparison)],
                warnings=comparison.warnings, link_figure=png(link_figure(comparison.link)),
                peaks_figure=png(peaks_figure(comparison.gauges)), gauges=gauges, metric_header=METRIC_HEADER,
                settings=[(str(k), rounded(v)) for k, v in comparison.settings.items()],
                model=comparison.meta.get("summary", ""),
                solver=[(str(k), rounded(v)) for k, v in comparison.meta.get("solver", {}).items()])
    return path


def rounded(value):
    """A setting as text, floats to 6 significant digits (0.0005000000000000004 → 0.0005)."""
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(rounded(v) for v in value) + "]"
    return str(value)
