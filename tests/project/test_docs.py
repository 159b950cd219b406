"""The user guide (docs/, Sphinx with MyST Markdown pages) builds without a warning, its
code runs, and its API reference covers every public module.

Every code block a reader could copy from a guide page is either an example file pulled
in with ``literalinclude`` (run by tests/project/test_examples_guide.py) or a ``pycon`` block of
``>>>`` lines run here as a doctest."""
import doctest
import importlib
import pkgutil
import re

import pytest
from support import ROOT

DOCS = ROOT / "docs"
GUIDE = sorted([DOCS / "index.md", DOCS / "getting-started.md", DOCS / "concepts.md", DOCS / "conventions.md",
                DOCS / "examples.md", *(DOCS / "howto").glob("*.md")])
API_PACKAGES = ("femdyn.model", "femdyn.elements", "femdyn.solvers", "femdyn.solvers.recursive", "femdyn.mesh",
                "femdyn.results", "femdyn.component", "femdyn.motion", "femdyn.robots", "femdyn.studies",
                "femdyn.reports", "femdyn.identification")
PYCON = re.compile(r"```pycon\n(.*?)```", re.S)
FENCE = re.compile(r"^```(\S*)", re.M)


@pytest.mark.filterwarnings("ignore:The mapping interface for autodoc options")   # inside Sphinx's napoleon
@pytest.mark.filterwarnings("ignore:.*is deprecated. Check CHANGES for Sphinx API")  # inside myst-parser
def test_docs_build_without_warnings(tmp_path):
    """``sphinx-build -W --keep-going -b html docs`` — any warning fails (bad reST in a
    docstring, a broken cross-reference, a page outside the toctree, a missing include)."""
    build = pytest.importorskip("sphinx.cmd.build", reason="install sphinx and myst-parser: pip install -e '.[test]'")
    pytest.importorskip("myst_parser", reason="install myst-parser: pip install -e '.[test]'")
    status = build.build_main(["-W", "--keep-going", "-E", "-q", "-b", "html", "-d", str(tmp_path / "doctrees"),
                               str(DOCS), str(tmp_path / "html")])
    assert status == 0, "the docs build reported warnings (printed above)"
    html = tmp_path / "html"
    for page in GUIDE:
        assert (html / page.relative_to(DOCS).with_suffix(".html")).exists(), page
    # the API reference documents every module of the public packages (found at build time)
    reference = "\n".join(p.read_text(encoding="utf-8") for p in (html / "api").glob("*.html"))
    missing = [name for name in public_modules() if f'id="module-{name}"' not in reference]
    assert not missing, f"modules missing from the API reference: {missing}"


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
