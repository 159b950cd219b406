"""The report as a PDF with the content of the HTML page, written by matplotlib's
``PdfPages`` from the same figures (no further dependency): a summary page, the link,
the peaks, one page per gauge (history, error, metrics table), then the comparison
settings, the model summary and the solver settings."""
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from .figures import gauge_figure, link_figure, peaks_figure
from .tables import METRIC_HEADER, SUMMARY_HEADER, metric_rows, summary_rows

A4 = (8.27, 11.69)   # inches


def write_pdf(comparison, path):
    """Write the report PDF."""
    verdict = "all metrics within tolerance" if comparison.passed else "some metrics outside tolerance"
    with PdfPages(path) as pdf:
        page = _page(comparison.title)
        _text(page, 0.93, [f"Result: {verdict}."])
        _table(page, (0.04, 0.5, 0.92, 0.4), SUMMARY_HEADER, summary_rows(comparison))
        if comparison.warnings:
            _text(page, 0.45, ["Warnings:"] + [f"- {w}" for w in comparison.warnings])
        pdf.savefig(page)
        pdf.savefig(link_figure(comparison.link))
        pdf.savefig(peaks_figure(comparison.gauges))
        for g in comparison.gauges:
            page = _page(f"Gauge {g.name} — channel {g.channel} ({g.unit})")
            top, bottom = page.subfigures(2, 1, height_ratios=(1.1, 1))
            gauge_figure(g, top)
            _table(bottom, (0.04, 0.2, 0.92, 0.7), METRIC_HEADER, metric_rows(g))
            pdf.savefig(page)
        page = _page("Comparison settings, model and solver")
        lines = ["Comparison settings:"] + [f"  {k}: {v}" for k, v in comparison.settings.items()]
        lines += ["", "Model:"] + comparison.meta.get("summary", "").splitlines()
        lines += ["", "Solver settings:"] + [f"  {k}: {v}" for k, v in comparison.meta.get("solver", {}).items()]
        _text(page, 0.91, lines)
        pdf.savefig(page)
    return path


def _page(title):
    """An A4 figure with a title."""
    fig = Figure(figsize=A4)
    fig.suptitle(title, x=0.04, y=0.97, ha="left", fontsize=14, weight="bold")
    return fig


def _table(fig, box, header, rows):
    """A table of rows under a header in the box of the figure."""
    ax = fig.add_axes(box)
    ax.axis("off")
    table = ax.table(cellText=[list(r) for r in rows], colLabels=list(header), loc="upper center", cellLoc="right")
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    table.auto_set_column_width(list(range(len(header))))
    for (r, c), cell in table.get_celld().items():
        text = cell.get_text().get_text()
        if r > 0 and text in ("pass", "FAIL"):
            cell.get_text().set_color("#070" if text == "pass" else "#b00")
    return table


def _text(fig, top, lines, width=110):
    """Monospaced lines, wrapped at ``width`` characters, from height ``top`` down."""
    wrapped = [line[k:k + width] or "" for line in lines for k in range(0, max(len(line), 1), width)]
    fig.text(0.04, top, "\n".join(wrapped[:80]), family="monospace", fontsize=7.5, va="top")
