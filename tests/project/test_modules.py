"""Inside the rooms, kept by a test: no private name crosses a module, no cycle joins a package's modules.

The layers test (:mod:`test_layers`) orders the packages; this one looks inside them, on the same
graph read from the source (every ``import`` and ``from … import`` of the library, relative imports
resolved, ``elements/`` → ``femdyn.elements`` as in ``pyproject.toml``).

1. A ``_private`` name (one leading underscore, dunders aside) belongs to its module: no other
   module of the library imports it (``from .static import _correct``) or reads it off an imported
   module (``solid._EDGES``). What two modules share is public, in the module where it belongs.
2. No cycle between the modules of one package (the modules whose parent package is the same,
   its ``__init__`` included). Imports inside functions count, as in the layers test: an import
   moved into a function to dodge the import-time cycle leaves the two modules as entangled as
   before (neither can be read, tested or moved without the other), and is exactly how such a
   cycle hides (``studies/rrru_tracking`` ↔ ``rrru_tracking_outputs`` was two such imports).
"""
import ast
import collections

from support import ROOT
from test_layers import imports, modules, package_dirs, where


def private(name):
    """Whether a name is private to its module (one leading underscore, not a dunder)."""
    return name.startswith("_") and not name.startswith("__")


def resolved(node, here):
    """The absolute module name of a ``from … import`` (relative levels resolved against ``here``)."""
    base = node.module or ""
    if node.level:
        base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
    return base


def dotted(node):
    """``a.b.c`` of a chain of attributes on a name, or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id] + parts[::-1]) if isinstance(node, ast.Name) else None


def private_uses(mods, top):
    """(module, path, line, text) of every private name of one library module used by another."""
    found = []
    for name, path in sorted(mods.items()):
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        bound = {}                                  # local name → library module it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == top:
                        local = alias.asname or alias.name.split(".")[0]
                        bound[local] = alias.name if alias.asname else top
            elif isinstance(node, ast.ImportFrom):
                base = resolved(node, here)
                if base.split(".")[0] != top:
                    continue
                for alias in node.names:
                    if f"{base}.{alias.name}" in mods:
                        bound[alias.asname or alias.name] = f"{base}.{alias.name}"
                    if private(alias.name) and base != name:
                        found.append((name, path, node.lineno, f"from {base} import {alias.name}"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and private(node.attr):
                chain = dotted(node.value)
                if chain is None or chain.split(".")[0] not in bound:
                    continue
                head, _, rest = chain.partition(".")
                target = bound[head] + ("." + rest if rest else "")
                if target in mods and target != name:
                    found.append((name, path, node.lineno, f"{target}.{node.attr}"))
    return found


def package_of(module, mods):
    """The package a module belongs to (a package's ``__init__`` belongs to the package itself)."""
    return module if mods[module].name == "__init__.py" else module.rpartition(".")[0]


def module_cycles(edges, mods):
    """Each strongly connected set (> 1 module) of the import graph between modules of one package,
    as a sorted list of the imports inside it."""
    graph = collections.defaultdict(set)
    inner = [e for e in edges if package_of(e.source, mods) == package_of(e.target, mods)]
    for e in inner:
        graph[e.source].add(e.target)

    def reach(start):
        seen, stack = set(), [start]
        while stack:
            for w in graph[stack.pop()] - seen:
                seen.add(w)
                stack.append(w)
        return seen

    ahead = {v: reach(v) for v in list(graph)}
    parts = {frozenset({v} | {w for w in ahead[v] if v in ahead.get(w, ())}) for v in ahead if v in ahead[v]}
    return [sorted((e for e in inner if e.source in part and e.target in part), key=lambda e: (e.source, e.line))
            for part in sorted(parts, key=sorted)]


def describe(found, root):
    """The cycles as text, each import on them with its file:line."""
    lines = []
    for cycle in found:
        lines.append("cycle between " + ", ".join(sorted({e.source for e in cycle})))
        lines += [f"  {where(e, root)}  {e.source} imports {e.target}" for e in cycle]
    return "\n".join(lines)


def test_no_private_name_crosses_a_module():
    mods = modules(package_dirs(ROOT))
    found = private_uses(mods, "femdyn")
    assert not found, (f"{len(found)} private names used outside their module (make what is shared public, in "
                       "the module where it belongs):\n" + "\n".join(
                           f"  {path.relative_to(ROOT)}:{line}  {name}: {text}" for name, path, line, text in found))


def test_no_cycle_between_the_modules_of_a_package():
    dirs = package_dirs(ROOT)
    mods = modules(dirs)
    found = module_cycles(imports(mods, "femdyn"), mods)
    assert not found, f"{len(found)} import cycle(s) inside packages:\n" + describe(found, ROOT)


# ---------------------------------------------------------------- the checker checks itself

def tree(tmp_path, files):
    """(modules, imports) of a package tree ``top`` at tmp_path from {path: source}."""
    files = dict({"top/__init__.py": "", "top/a/__init__.py": "", "top/b/__init__.py": ""}, **files)
    for name, source in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    (tmp_path / "pyproject.toml").write_text('[tool.setuptools]\npackage-dir = { "top" = "top" }\n')
    mods = modules(package_dirs(tmp_path))
    return mods, imports(mods, "top")


def test_every_way_of_reaching_a_private_name_is_caught(tmp_path):
    mods, _ = tree(tmp_path, {
        "top/a/one.py": "_SECRET = 1\nPUBLIC = 2\n\ndef _own():\n    return _SECRET\n",
        "top/a/two.py": "from .one import PUBLIC, _SECRET\n",
        "top/a/three.py": "from . import one\nx = one._SECRET + one.PUBLIC\n",
        "top/b/four.py": "import top.a.one\nimport top.a.one as o\ny = top.a.one._own() + o._SECRET\n",
        "top/b/five.py": "def late():\n    from top.a.one import _own\n    return _own, (1)._x, self._y, __name__\n",
        "top/b/six.py": "import numpy as np\nz = np._private\nfrom top.a.one import __doc__\n"})
    found = sorted((name, line, text) for name, _, line, text in private_uses(mods, "top"))
    assert found == [("top.a.three", 2, "top.a.one._SECRET"), ("top.a.two", 1, "from top.a.one import _SECRET"),
                     ("top.b.five", 2, "from top.a.one import _own"), ("top.b.four", 3, "top.a.one._SECRET"),
                     ("top.b.four", 3, "top.a.one._own")]


def test_a_cycle_inside_a_package_is_caught_even_in_a_function(tmp_path):
    clean = {"top/a/one.py": "from . import two\n", "top/a/two.py": "import numpy\n",
             "top/b/three.py": "from top.a import one\n", "top/a/__init__.py": "from .one import two\n"}
    mods, edges = tree(tmp_path, clean)
    assert module_cycles(edges, mods) == []
    mods, edges = tree(tmp_path, dict(clean, **{"top/a/two.py": "def late():\n    from .one import x\n"}))
    found = module_cycles(edges, mods)
    assert [[(e.source, e.target, e.line) for e in cycle] for cycle in found] == [
        [("top.a.one", "top.a.two", 1), ("top.a.two", "top.a.one", 2)]]
    assert "top/a/two.py:2  top.a.two imports top.a.one" in describe(found, tmp_path)


def test_a_cycle_through_the_package_face_is_caught(tmp_path):
    mods, edges = tree(tmp_path, {"top/a/__init__.py": "from .one import f\n", "top/a/one.py": "from top.a import g\n"})
    assert [{e.source for e in cycle} for cycle in module_cycles(edges, mods)] == [{"top.a", "top.a.one"}]
