"""Sphinx configuration of the femdyn user guide (Markdown pages via MyST, API reference
from the NumPy-style docstrings via autodoc and napoleon).

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (warnings are errors;
``tests/project/test_docs.py`` runs the same build)."""
project = "femdyn"
author = "femdyn developers"
copyright = "femdyn developers"
release = version = "0.1.0"

extensions = [
    "myst_parser",            # Markdown pages (the guide and the existing docs/*.md)
    "sphinx.ext.autodoc",     # API reference from docstrings
    "sphinx.ext.napoleon",    # NumPy-style Parameters/Returns/Example sections
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build"]
root_doc = "index"

myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_member_order = "bysource"
autodoc_typehints = "none"
nitpicky = False

html_theme = "alabaster"
html_title = "femdyn"
# page width below a 1280-px window (with its scrollbar), so that the sidebar stays beside the page; code sized
# in _static/femdyn.css to show 120 columns unclipped (tests/project/test_docs_layout.py checks both in Chromium)
html_theme_options = {"page_width": "1240px", "sidebar_width": "220px", "body_max_width": "none"}
html_static_path = ["_static"]
html_css_files = ["femdyn.css"]

suppress_warnings = [
    "ref.python",   # a short :mod:`config` or :class:`Joint` in a docstring may match two modules' objects
]


# --- docstrings written for readers of the source -----------------------------------------
# femdyn's docstrings use |x| for norms and absolute values; reStructuredText reads |...| as a
# substitution reference. Escape every bar outside inline literals, literal blocks and doctest
# lines, after napoleon has turned the NumPy sections into reST.
import re  # noqa: E402

_INLINE_LITERAL = re.compile(r"(``.+?``)")


def _escape_bars(line):
    parts = _INLINE_LITERAL.split(line)
    return "".join(p if k % 2 else p.replace("|", r"\|") for k, p in enumerate(parts))


def escape_norm_bars(app, what, name, obj, options, lines):
    literal_indent = None           # indentation of the paragraph that opened a literal block
    for k, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if literal_indent is not None:
            if not stripped or indent > literal_indent:
                continue
            literal_indent = None
        if stripped.startswith((">>>", "...")):
            continue
        if stripped.endswith("::"):
            literal_indent = indent
        lines[k] = _escape_bars(line)


# --- the API pages list packages; their modules are found when the guide is built -------
import importlib  # noqa: E402
import pkgutil  # noqa: E402

from docutils import nodes  # noqa: E402
from docutils.parsers.rst import directives  # noqa: E402
from docutils.statemachine import StringList  # noqa: E402
from sphinx.util.docutils import SphinxDirective  # noqa: E402
from sphinx.util.nodes import nested_parse_with_titles  # noqa: E402


class PackageModules(SphinxDirective):
    """``.. package-modules:: femdyn.model``: a section with ``automodule`` (members) for
    every module of the package, sub-packages left out, so that a new module appears in
    the reference without an edit here. ``:undoc-members:`` names modules whose members
    without docstrings are listed too."""

    required_arguments = 1
    option_spec = {"undoc-members": directives.unchanged}

    def run(self):
        package = self.arguments[0]
        undocumented = set((self.options.get("undoc-members") or "").split())
        lines = []
        for info in pkgutil.iter_modules(importlib.import_module(package).__path__, package + "."):
            if info.ispkg:
                continue
            title = f"``{info.name}``"
            lines += [title, "-" * len(title), "", f".. automodule:: {info.name}", "   :members:"]
            lines += ["   :undoc-members:"] * (info.name in undocumented) + [""]
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source=f"modules of {package}"), container)
        return container.children


def setup(app):
    app.connect("autodoc-process-docstring", escape_norm_bars, priority=600)   # after napoleon (500)
    app.add_directive("package-modules", PackageModules)
