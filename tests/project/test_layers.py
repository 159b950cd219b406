"""The house's layers, kept by a test: the package import graph, read from the source.

Every ``import`` and ``from … import`` of the library counts — at module level, inside
functions and under ``if`` alike; relative imports are resolved, and the source folders
map to their package names as in ``pyproject.toml`` (``elements/`` → ``femdyn.elements``).
Each module belongs to the longest room of :data:`LAYERS` that prefixes its name. The
tests fail on any cycle between rooms, printing it with the file:line of each import on
it, and on any import of a room in the same or a higher layer, printed as file:line.
"""
import ast
import collections
import tomllib
from support import ROOT


# bottom → top; a room imports only rooms of lower layers (docs/contributing.md, "Where code goes")
LAYERS = [
    ["femdyn.errors", "femdyn.input_checks", "femdyn.geometry", "femdyn.sparse", "femdyn.linalg", "femdyn.schema"],
    ["femdyn.motion", "femdyn.elements", "femdyn.component"],
    ["femdyn.mesh"],
    ["femdyn.results"],
    ["femdyn.model"],
    ["femdyn.solvers", "femdyn.solvers.recursive"],
    ["femdyn.robots", "femdyn.reports"],
    ["femdyn.identification"],
    ["femdyn.studies"],
    ["femdyn.cli"],
    ["femdyn", "femdyn.__main__"],            # the package and `python -m femdyn`
]

FLOOR = {"femdyn.errors"}          # the error classes: every room may raise them, layer 0 included

Import = collections.namedtuple("Import", "source target path line")


def package_dirs(root):
    """Package name → source folder, from ``[tool.setuptools] package-dir`` of pyproject.toml."""
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return {name: root / folder for name, folder in data["tool"]["setuptools"]["package-dir"].items()}


def modules(dirs):
    """Module name → file of every module below the package folders (each file under its longest package)."""
    found = {}
    for package in sorted(dirs, key=len):
        folder = dirs[package].resolve()
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join([package] + parts)
            inner = [p for p in dirs if p != package and p.startswith(package + ".")]
            if any(name == p or name.startswith(p + ".") for p in inner):
                continue                                # a folder mapped on its own (or a symlink to it)
            found[name] = path
    return found


def imports(mods, top):
    """Every import of a module of package ``top`` by a module of ``mods``, resolved to the module it loads."""
    found = []
    for name, path in sorted(mods.items()):
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                wanted = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
                wanted = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in mods else base for alias in node.names]
            else:
                continue
            for target in dict.fromkeys(wanted):
                if target.split(".")[0] != top:
                    continue
                while target and target not in mods:    # a name inside a module: the module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.append(Import(name, target, path, node.lineno))
    return found


def room_of(module, rooms):
    """The longest room that is the module or a package above it (None when undeclared; the
    top package's room holds only its ``__init__``: a module beside it is declared itself)."""
    best = None
    for room in rooms:
        if (module == room or module.startswith(room + ".")) and (best is None or len(room) > len(best)):
            best = room
    return None if best is not None and "." not in best and module != best else best


def where(imp, root):
    """file:line of an import, relative to ``root``."""
    try:
        path = imp.path.relative_to(root)
    except ValueError:
        path = imp.path
    return f"{path}:{imp.line}"


def room_edges(edges, rooms):
    """(room, room) → the imports between two different rooms."""
    out = collections.defaultdict(list)
    for imp in edges:
        a, b = room_of(imp.source, rooms), room_of(imp.target, rooms)
        if a and b and a != b:
            out[a, b].append(imp)
    return out


def cycles(edges, rooms):
    """One cycle per strongly connected set of rooms, each a list of (room, room, imports)."""
    between = room_edges(edges, rooms)
    graph = collections.defaultdict(set)
    for a, b in between:
        graph[a].add(b)
    index, low, stack, on, order, parts = {}, {}, [], set(), [0], []

    def connect(v):                                    # Tarjan
        index[v] = low[v] = order[0]
        order[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                on.discard(w)
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                parts.append(part)

    for v in sorted(graph):
        if v not in index:
            connect(v)
    found = []
    for part in parts:                                 # the shortest cycle through the part's first room
        start, end = min(part), None
        previous, queue = {start: None}, [start]
        while end is None:
            step = []
            for v in queue:
                for w in sorted(graph[v] & part):
                    if w == start and end is None:
                        end = v
                    elif w not in previous:
                        previous[w] = v
                        step.append(w)
            queue = step
        path = [end]
        while previous[path[-1]] is not None:
            path.append(previous[path[-1]])
        path = path[::-1] + [start]
        found.append([(a, b, between[a, b]) for a, b in zip(path, path[1:])])
    return found


def upward(edges, layers, floor=()):
    """Imports of a room in the same or a higher layer (rooms of ``floor`` excepted), and modules of undeclared rooms."""
    level = {room: k for k, rooms in enumerate(layers) for room in rooms}
    problems = []
    for imp in edges:
        a, b = room_of(imp.source, level), room_of(imp.target, level)
        if a is None or b is None:
            problems.append((imp, f"{imp.source if a is None else imp.target} is in no declared layer"))
        elif a != b and b not in floor and level[b] >= level[a]:
            problems.append((imp, f"{a} (layer {level[a]}) imports {b} (layer {level[b]})"))
    return problems


def describe_cycles(found, root):
    """The cycles as text, each import on them with its file:line."""
    lines = []
    for cycle in found:
        lines.append("cycle: " + " → ".join([a for a, _, _ in cycle] + [cycle[0][0]]))
        for a, b, via in cycle:
            lines.append(f"  {a} → {b}:")
            lines += [f"    {where(imp, root)}  {imp.source} imports {imp.target}" for imp in via]
    return "\n".join(lines)


def graph(root):
    """(imports, rooms) of the package tree at ``root``."""
    dirs = package_dirs(root)
    return imports(modules(dirs), "femdyn"), [room for rooms in LAYERS for room in rooms]


def test_no_cycle_between_packages():
    edges, rooms = graph(ROOT)
    found = cycles(edges, rooms)
    assert not found, f"{len(found)} import cycle(s) between packages:\n" + describe_cycles(found, ROOT)


def test_every_import_goes_down_the_layers():
    edges, _ = graph(ROOT)
    problems = upward(edges, LAYERS, FLOOR)
    assert not problems, f"{len(problems)} imports against the layers (tests/project/test_layers.py LAYERS):\n" + "\n".join(
        f"  {where(imp, ROOT)}  {imp.source} imports {imp.target}: {why}" for imp, why in problems)


def test_the_library_is_all_in_the_graph():
    """Every folder of pyproject's package-dir is read, and the graph is not empty."""
    mods = modules(package_dirs(ROOT))
    assert {"femdyn", "femdyn.elements", "femdyn.mesh", "femdyn.solvers", "femdyn.model.builder"} <= set(mods)
    assert not any(".elements." in name or name.endswith(".elements") for name in mods
                   if name.startswith("femdyn.") and not name.startswith("femdyn.elements"))
    assert len(graph(ROOT)[0]) > 100


# ---------------------------------------------------------------- the checker checks itself

def synthetic(tmp_path, files):
    """A package tree ``top`` at tmp_path (with a second folder mapped as ``top.low``) from {path: source}."""
    for name, source in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    (tmp_path / "pyproject.toml").write_text('[tool.setuptools]\npackage-dir = { "top" = "top", "top.low" = "low" }\n')
    return imports(modules(package_dirs(tmp_path)), "top")


TREE = {"top/__init__.py": "", "top/a/__init__.py": "", "top/b/__init__.py": "", "low/__init__.py": "",
        "top/a/one.py": "from top.low import thing\n", "top/b/two.py": "from ..a import one\n",
        "low/thing.py": "import numpy\n"}
LAYERED = [["top.low"], ["top.a"], ["top.b"], ["top"]]


def test_a_clean_tree_passes(tmp_path):
    edges = synthetic(tmp_path, TREE)
    assert {(e.source, e.target) for e in edges} == {("top.a.one", "top.low.thing"), ("top.b.two", "top.a.one")}
    assert cycles(edges, ["top", "top.a", "top.b", "top.low"]) == [] and upward(edges, LAYERED) == []


def test_a_cycle_is_caught_and_printed_with_its_lines(tmp_path):
    edges = synthetic(tmp_path, dict(TREE, **{"low/thing.py": "import numpy\n\nfrom top.b.two import x\n"}))
    found = cycles(edges, ["top", "top.a", "top.b", "top.low"])
    assert len(found) == 1 and {a for a, _, _ in found[0]} == {"top.a", "top.b", "top.low"}
    text = describe_cycles(found, tmp_path)
    assert "cycle: top.a → top.low → top.b → top.a" in text
    assert "low/thing.py:3  top.low.thing imports top.b.two" in text and "top/b/two.py:1" in text


def test_an_upward_import_is_caught(tmp_path):
    edges = synthetic(tmp_path, dict(TREE, **{"top/a/three.py": "from top.b import two\n"}))
    problems = upward(edges, LAYERED)
    assert [(where(imp, tmp_path), why) for imp, why in problems] == [
        ("top/a/three.py:1", "top.a (layer 1) imports top.b (layer 2)")]


def test_an_import_hidden_in_a_function_counts(tmp_path):
    hidden = "def late():\n    if True:\n        from ... import b\n        return b\n"
    edges = synthetic(tmp_path, dict(TREE, **{"low/deep/__init__.py": "", "low/deep/late.py": hidden}))
    assert [(imp.source, imp.target, imp.line) for imp in edges if imp.source == "top.low.deep.late"] == [
        ("top.low.deep.late", "top.b", 3)]
    assert [why for _, why in upward(edges, LAYERED)] == ["top.low (layer 0) imports top.b (layer 2)"]
    assert cycles(edges, ["top", "top.a", "top.b", "top.low"])


def test_the_bare_package_and_undeclared_rooms_are_caught(tmp_path):
    edges = synthetic(tmp_path, dict(TREE, **{"top/a/four.py": "import top\n", "top/c.py": "x = 1\n",
                                              "top/b/five.py": "from top import c\n"}))
    whys = sorted(why for _, why in upward(edges, LAYERED))
    assert whys == ["top.a (layer 1) imports top (layer 3)", "top.c is in no declared layer"]
