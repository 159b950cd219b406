"""The user guide (docs/, Sphinx with MyST Markdown pages) builds without a warning, its
code runs, and its API reference covers every public module.

Every code block a reader could copy from a guide page is either an example file pulled
in with ``literalinclude`` (run by tests/project/test_examples_guide.py) or a ``pycon`` block of
``>>>`` lines run here as a doctest."""
import doctest
import html as html_module
import importlib
import json
import os
import pkgutil
import re
import subprocess
import warnings

import pytest
from support import ROOT
from support.browser import CHROMIUM, needs_chromium

DOCS = ROOT / "docs"
GUIDE = sorted([DOCS / "index.md", DOCS / "getting-started.md", DOCS / "concepts.md", DOCS / "conventions.md",
                DOCS / "examples.md", *(DOCS / "howto").glob("*.md")])
API_PACKAGES = ("femdyn.model", "femdyn.elements", "femdyn.solvers", "femdyn.solvers.recursive", "femdyn.mesh",
                "femdyn.results", "femdyn.component", "femdyn.motion", "femdyn.robots", "femdyn.studies",
                "femdyn.reports", "femdyn.identification")
PYCON = re.compile(r"```pycon\n(.*?)```", re.S)
FENCE = re.compile(r"^```(\S*)", re.M)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """``sphinx-build -W --keep-going -E -b html docs``, once for this module: (exit status, html folder)."""
    build = pytest.importorskip("sphinx.cmd.build", reason="install sphinx and myst-parser: pip install -e '.[test]'")
    pytest.importorskip("myst_parser", reason="install myst-parser: pip install -e '.[test]'")
    out = tmp_path_factory.mktemp("guide")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "The mapping interface for autodoc options")   # inside Sphinx's napoleon
        warnings.filterwarnings("ignore", ".*is deprecated. Check CHANGES for Sphinx API")  # inside myst-parser
        status = build.build_main(["-W", "--keep-going", "-E", "-q", "-b", "html", "-d", str(out / "doctrees"),
                                   str(DOCS), str(out / "html")])
    return status, out / "html"


def test_docs_build_without_warnings(built):
    """``sphinx-build -W --keep-going -b html docs`` — any warning fails (bad reST in a
    docstring, a broken cross-reference, a page outside the toctree, a missing include)."""
    status, html = built
    assert status == 0, "the docs build reported warnings (printed above)"
    for page in GUIDE:
        assert (html / page.relative_to(DOCS).with_suffix(".html")).exists(), page
    # the API reference documents every module of the public packages (found at build time)
    reference = "\n".join(p.read_text(encoding="utf-8") for p in (html / "api").glob("*.html"))
    missing = [name for name in public_modules() if f'id="module-{name}"' not in reference]
    assert not missing, f"modules missing from the API reference: {missing}"


# measured in the page as laid out: code boxes (each line unwrapped) wider than their box, and the boxes of
# the sidebar and the body; written into an attribute of <body> that --dump-dom prints
PROBE = """<script>(function () {
  const pres = [...document.querySelectorAll('div.body pre')];
  pres.forEach(p => p.style.whiteSpace = 'pre');
  const box = e => { const r = document.querySelector(e).getBoundingClientRect(); return [r.left, r.top, r.right]; };
  document.body.setAttribute('data-probe', JSON.stringify({code: pres.length,
    clipped: pres.filter(p => p.scrollWidth > p.clientWidth).map(p => p.textContent.split('\\n')[0]),
    sidebar: box('div.sphinxsidebar'), body: box('div.body')}));
})();</script>"""


@needs_chromium
@pytest.mark.parametrize("page", ["getting-started", "components", "howto/four-bar"])
def test_guide_layout_at_1280_px_shows_code_unclipped_beside_the_navigation(built, page, tmp_path):
    """In a 1280-px window (headless Chromium) the page's code boxes show every line whole (lines of up
    to 120 columns, the house length), and the navigation stays beside the page, not below it; the
    screenshot of getting-started (``guide-1280.png``) is kept in the test's folder for a look."""
    status, html = built
    source = html / f"{page}.html"
    probe = source.with_name(f"_probe-{source.name}")                   # beside the page: its links resolve
    probe.write_text(source.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    flags = ["--headless", "--disable-gpu", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
             "--window-size=1280,900"] + ["--no-sandbox"] * (os.geteuid() == 0)
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", probe.as_uri()], capture_output=True, text=True,
                         timeout=120).stdout
    found = re.search(r'data-probe="([^"]*)"', dom)
    assert found, dom[-2000:]
    layout = json.loads(html_module.unescape(found[1]))
    assert layout["code"] >= 2 and layout["clipped"] == []
    sidebar, body = layout["sidebar"], layout["body"]
    assert sidebar[2] <= body[0] + 1 and abs(sidebar[1] - body[1]) < 50          # beside the body, at its top
    assert body[2] - body[0] >= 1000                                               # 960 px of text + padding
    if page == "getting-started":
        subprocess.run([CHROMIUM, *flags, f"--screenshot={tmp_path / 'guide-1280.png'}", source.as_uri()],
                       capture_output=True, timeout=120)
        assert (tmp_path / "guide-1280.png").exists()


def public_modules():
    """Every module of the packages the API pages list (sub-packages listed themselves)."""
    names = []
    for package in API_PACKAGES:
        path = importlib.import_module(package).__path__
        names += [info.name for info in pkgutil.iter_modules(path, package + ".") if not info.ispkg]
    return names


@pytest.mark.parametrize("page", GUIDE, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_guide_code_runs(page, tmp_path, monkeypatch):
    """The page's ``pycon`` blocks, in order and sharing their names, as one doctest."""
    monkeypatch.chdir(tmp_path)                  # files the examples write land here
    text = page.read_text(encoding="utf-8")
    source = "\n".join(PYCON.findall(text))
    test = doctest.DocTestParser().get_doctest(source, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples on {page.name} failed"


@pytest.mark.parametrize("page", GUIDE, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_guide_code_is_run_or_included(page):
    """No Python block that no test runs: Python appears as ``pycon`` (doctest) or as a
    ``literalinclude`` of an example that a test runs; other fences are shell or data."""
    text = page.read_text(encoding="utf-8")
    languages = set(FENCE.findall(text)) - {""}
    assert languages <= {"pycon", "bash", "toml", "text", "{literalinclude}", "{toctree}", "{eval-rst}"}, languages
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))
    for name in re.findall(r"```\{literalinclude\} \.\./\.\./examples/(\w+)\.py|```\{literalinclude\} "
                           r"\.\./examples/(\w+)\.py", text):
        example = next(n for n in name if n)
        assert (ROOT / "examples" / f"{example}.py").exists(), example
        assert f'"{example}"' in tests or f"{example}.py" in tests, f"no test runs examples/{example}.py"


def test_every_example_is_listed():
    """docs/examples.md names every script in examples/ (a newcomer's index of them)."""
    listed = (DOCS / "examples.md").read_text(encoding="utf-8")
    missing = [p.name for p in (ROOT / "examples").glob("*.py") if f"`{p.name}`" not in listed]
    assert not missing, f"add these examples to docs/examples.md: {missing}"
