"""No global state behind the caller's back, kept by a test reading the library's source.

1. The library never chooses a Matplotlib backend (``matplotlib.use``) nor draws through pyplot's
   global figure manager: it draws on :class:`matplotlib.figure.Figure` objects and saves them, so
   a notebook user's backend and open figures are left alone. Examples (programs of their own)
   may choose a backend; the library, ``femdyn.cli`` included, does not need to.
2. Errors carry only declared payloads: an attribute set on an exception object (one bound by
   ``except … as err`` or built as ``err = SomeError(…)``) is one that the classes of
   :mod:`femdyn.errors` set in their ``__init__`` (``results``, ``partial``, ``study``, …), so a
   caller finds every payload documented in one place.
"""
import ast

from support import ROOT
from test_layers import modules, package_dirs


def library():
    """(module name, path, parsed tree) of every module of the library."""
    for name, path in sorted(modules(package_dirs(ROOT)).items()):
        yield name, path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def matplotlib_state(tree):
    """(line, text) of each ``matplotlib.use`` call and each import of ``matplotlib.pyplot`` in a tree."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "use" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in ("matplotlib", "mpl"):
            found.append((node.lineno, "matplotlib.use(...)"))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names if a.name == "matplotlib.pyplot"]
        elif isinstance(node, ast.ImportFrom) and (node.module == "matplotlib.pyplot" or (
                node.module == "matplotlib" and any(a.name == "pyplot" for a in node.names))):
            found.append((node.lineno, f"from {node.module} import ..."))
    return found


def declared_payloads(tree):
    """The attributes the error classes set on ``self`` in their ``__init__``."""
    return {target.attr for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == "__init__"
            for stmt in ast.walk(node) if isinstance(stmt, ast.Assign) for target in stmt.targets
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"}


def attached_payloads(tree):
    """(line, name, attribute) of each attribute set on an exception object, function by function."""
    found = []
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        errors = {h.name for h in ast.walk(func) if isinstance(h, ast.ExceptHandler) and h.name}
        errors |= {t.id for node in ast.walk(func) if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                   and (getattr(node.value.func, "id", None) or getattr(node.value.func, "attr", "")).endswith("Error")
                   for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(func):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AugAssign, ast.AnnAssign)) else []
            found += [(t.lineno, t.value.id, t.attr) for t in targets if isinstance(t, ast.Attribute)
                      and isinstance(t.value, ast.Name) and t.value.id in errors]
    return sorted(set(found))


def test_the_library_leaves_the_matplotlib_backend_and_pyplot_alone():
    found = [f"  {path.relative_to(ROOT)}:{line}  {text}" for _, path, tree in library()
             for line, text in matplotlib_state(tree)]
    assert not found, ("the library chooses a backend or uses pyplot's global state (draw on "
                       "matplotlib.figure.Figure and save it instead):\n" + "\n".join(found))


def test_errors_carry_only_declared_payloads():
    trees = {name: (path, tree) for name, path, tree in library()}
    declared = declared_payloads(trees["femdyn.errors"][1])
    found = [f"  {path.relative_to(ROOT)}:{line}  {name}.{attr}" for path, tree in trees.values()
             for line, name, attr in attached_payloads(tree) if attr not in declared]
    assert not found, ("attributes attached to errors but not declared on the classes of femdyn/errors.py "
                       "(declare them, with a docstring, there):\n" + "\n".join(found))
    assert {"results", "partial", "study", "history"} <= declared      # the payloads raised today


def test_the_checks_catch_what_they_must():
    drawn = ast.parse("import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
                      "from matplotlib import pyplot\nfrom matplotlib.figure import Figure\n")
    assert sorted(line for line, _ in matplotlib_state(drawn)) == [2, 3, 4]
    raised = ast.parse("def f():\n    try:\n        g()\n    except E as err:\n        err.extra = 1\n"
                       "        err.results = 2\n    e = ConvergenceError('x')\n    e.more = 3\n    other.x = 4\n")
    assert attached_payloads(raised) == [(5, "err", "extra"), (6, "err", "results"), (8, "e", "more")]
    assert declared_payloads(ast.parse("class A:\n    def __init__(self):\n        self.a = self.b = 1\n")) == {"a", "b"}
