"""Self-contained HTML report pages from Jinja2 templates (package data in
``femdyn/reports/templates``): one base template and stylesheet (with a print stylesheet)
for every report, figures embedded as base64 PNG, no external style, script or font, so a
page opens offline. A short inline script (:data:`CHECK`) reports an image that fails to
decode on the browser console. Values are HTML-escaped by the template engine."""
import base64
import functools
import io
from importlib import resources

CHECK = resources.files(__package__).joinpath("templates", "check.js").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _environment():
    """The template engine, templates read from the package, autoescaping on."""
    import jinja2
    return jinja2.Environment(loader=jinja2.PackageLoader(__package__, "templates"),
                              autoescape=jinja2.select_autoescape(("html",)), trim_blocks=True, lstrip_blocks=True,
                              undefined=jinja2.StrictUndefined)


def png(fig, dpi=100):
    """A matplotlib figure as a ``data:`` URI of a PNG image, for embedding in HTML.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure (drawn with the Agg renderer; pyplot is not needed).
    dpi : float, optional
        Resolution, dots per inch.

    Returns
    -------
    str
        ``data:image/png;base64,…``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> png(Figure(figsize=(1, 1))).startswith("data:image/png;base64,")
    True
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def plain(value):
    """A JSON value for what ``json.dump`` cannot write: NumPy scalars and arrays as numbers and lists,
    anything else as its text (``json.dump(..., default=plain)``).

    Parameters
    ----------
    value : object

    Returns
    -------
    float, int, bool, list or str

    Example
    -------
    >>> import json, numpy as np
    >>> json.dumps({"a": np.float64(1.5), "b": np.arange(2)}, default=plain)
    '{"a": 1.5, "b": [0, 1]}'
    """
    import numpy as np
    return value.tolist() if isinstance(value, (np.ndarray, np.generic)) else str(value)


def cells(row, classes=None):
    """A table row for the templates' ``table`` macro: (text, CSS class) per cell."""
    classes = classes or {}
    return [(text, classes.get(text, "")) for text in row]


def render_page(template, path=None, **context):
    """Render a report template (it extends ``base.html``), write it as UTF-8 and return the text.

    Parameters
    ----------
    template : str
        Template name in ``femdyn/reports/templates``, e.g. ``"strain.html"``.
    path : str, optional
        The ``.html`` file to write; None only returns the text.
    **context
        The template's variables (``title`` at least); strings are escaped.

    Example
    -------
    >>> "<h1>a &lt; b</h1>" in render_page("base.html", title="a < b")
    True
    """
    text = _environment().get_template(template).render(**context)
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return text
