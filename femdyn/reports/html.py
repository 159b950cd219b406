"""The report as one self-contained HTML page: figures embedded as base64 PNG, no
external style, script or font, so it opens offline. A short inline script reports
an image that fails to decode on the browser console (what the browser test checks)."""
import base64
import html
import io

from .figures import gauge_figure, link_figure, peaks_figure
from .tables import METRIC_HEADER, SUMMARY_HEADER, metric_rows, summary_rows

STYLE = """body{font-family:sans-serif;max-width:60em;margin:1em auto;color:#222}
table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #bbb;padding:2px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}.pass{color:#070}.fail{color:#b00;font-weight:bold}
img{max-width:100%}pre{background:#f4f4f4;padding:0.5em;overflow-x:auto}.warn{color:#a60}"""
CHECK = """window.addEventListener("load",function(){for(const im of document.images){
if(!im.complete||im.naturalWidth===0){console.error("report image failed to load: "+im.alt);}}});"""


def png(fig, dpi=100):
    """A matplotlib figure as a ``data:`` URI of a PNG image, for embedding in HTML.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    dpi : int, optional
        Resolution [dots per inch].

    Returns
    -------
    str
        ``"data:image/png;base64,…"``.
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def write_html(comparison, path):
    """Write the report page.

    Parameters
    ----------
    comparison : femdyn.reports.strain_report.Comparison
    path : str
        The ``.html`` file.

    Example
    -------
    >>> write_html(comparison, "report/report.html")  # doctest: +SKIP
    """
    e = html.escape
    verdict = "all metrics within tolerance" if comparison.passed else "some metrics outside tolerance"
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{e(comparison.title)}</title>",
             f"<style>{STYLE}</style><script>{CHECK}</script></head><body>",
             f"<h1>{e(comparison.title)}</h1>",
             f"<p class='{'pass' if comparison.passed else 'fail'}'>Result: {verdict}.</p>",
             _table(SUMMARY_HEADER, summary_rows(comparison))]
    if comparison.warnings:
        parts.append("<h2>Warnings</h2><ul>" + "".join(f"<li class='warn'>{e(w)}</li>" for w in comparison.warnings)
                     + "</ul>")
    parts.append("<h2>Gauges on the link</h2>" + _img(link_figure(comparison.link), "link with gauges"))
    parts.append("<h2>Peaks</h2>" + _img(peaks_figure(comparison.gauges), "peak bar chart"))
    for g in comparison.gauges:
        parts.append(f"<h2>Gauge {e(g.name)} — channel {e(g.channel)} ({e(g.unit)})</h2>"
                     + _img(gauge_figure(g), f"gauge {g.name}") + _table(METRIC_HEADER, metric_rows(g)))
    parts += ["<h2>Comparison settings</h2>" + _pairs(comparison.settings.items()),
              f"<h2>Model</h2><pre>{e(comparison.meta.get('summary', ''))}</pre>",
              "<h2>Solver settings</h2>" + _pairs(comparison.meta.get("solver", {}).items()),
              "<p>Metric definitions: docs/strain-reports.md of femdyn.</p></body></html>"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    return path


def _table(header, rows):
    e = html.escape
    return ("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr>"
            + "".join("<tr>" + "".join(f"<td{_cls(c)}>{e(c)}</td>" for c in row) + "</tr>" for row in rows)
            + "</table>")


def _pairs(items):
    return _table(("setting", "value"), [(str(k), str(v)) for k, v in items])


def _cls(cell):
    return " class='pass'" if cell == "pass" else " class='fail'" if cell == "FAIL" else ""


def _img(fig, alt):
    return f"<p><img alt='{html.escape(alt)}' src='{png(fig)}'></p>"
