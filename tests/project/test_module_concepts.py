"""One concept per module, kept by tests: no library module over 600 lines (compiled kernels
excepted, by name), and the integrator's import graph stops short of the servo inverses.

The graph is the one of tests/project/test_layers.py, read from the source (every import,
relative ones resolved); a package's ``__init__`` counts only where a module imports the
package itself.
"""
import collections

from support import ROOT
from test_layers import imports, modules, package_dirs

LONGEST = 600          # lines of a library module
COMPILED_KERNELS = {   # numba kernels of one algorithm, kept together so they compile and inline as a unit
    "solvers/recursive/modal_kernels.py": "the flexible recursive sweeps (RNEA, hybrid, CRBA) over modal bodies",
}
INTEGRATOR = "femdyn.solvers.generalized_alpha"
INVERSES = ("femdyn.solvers.inversion", "femdyn.solvers.inverses")


def library():
    """Module name → file of the library (femdyn and its top-level source folders)."""
    return modules(package_dirs(ROOT))


def long_modules(files, longest=LONGEST, exceptions=COMPILED_KERNELS):
    """'name: lines' of the files ({name: path}) over ``longest`` lines that are not listed in ``exceptions``."""
    found = []
    for name, path in sorted(files.items()):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > longest and name not in exceptions:
            found.append(f"{name}: {lines} lines")
    return found


def library_files():
    """Path relative to the repository (posix) → file, of every library module."""
    return {path.resolve().relative_to(ROOT.resolve()).as_posix(): path for path in library().values()}


def reached(mods, start):
    """{module: the module that imports it on a shortest path} of every module ``start`` imports, directly or not."""
    graph = collections.defaultdict(set)
    for imp in imports(mods, "femdyn"):
        graph[imp.source].add(imp.target)
    parent, queue = {start: None}, collections.deque([start])
    while queue:
        here = queue.popleft()
        for target in sorted(graph[here]):
            if target not in parent:
                parent[target] = here
                queue.append(target)
    return parent


def chain(parent, module):
    """The import chain from the start module to ``module``, as 'a → b → c'."""
    path = [module]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])
    return " → ".join(reversed(path))


def test_no_library_module_is_longer_than_600_lines():
    assert long_modules(library_files()) == []


def test_the_compiled_kernel_exceptions_are_compiled_and_long():
    for name in COMPILED_KERNELS:
        text = (ROOT / name).read_text(encoding="utf-8")
        assert "@njit" in text, f"{name} is listed as compiled kernels but compiles nothing"
        assert len(text.splitlines()) > LONGEST, f"{name} is short now: take it off COMPILED_KERNELS"


def test_the_integrator_does_not_import_the_inverses():
    parent = reached(library(), INTEGRATOR)
    bad = [chain(parent, m) for m in parent if any(m == i or m.startswith(i + ".") for i in INVERSES)]
    assert bad == []
    assert "femdyn.solvers.invariant_zeros" in parent        # the servo zeros check: the graph is read


def test_the_rules_catch_what_they_must(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    sources = {"__init__.py": "", "long.py": "x = 1\n" * 601, "kernels.py": "x = 1\n" * 700, "short.py": "x = 1\n" * 600,
               "step.py": "from .checks import check\n", "checks.py": "from femdyn.pkg.inverse import solve\n",
               "inverse.py": "def solve():\n    pass\n"}
    for name, text in sources.items():
        (package / name).write_text(text)
    files = {f"pkg/{name}": package / name for name in sources}
    assert long_modules(files, exceptions={}) == ["pkg/kernels.py: 700 lines", "pkg/long.py: 601 lines"]
    assert long_modules(files, exceptions={"pkg/kernels.py": "compiled"}) == ["pkg/long.py: 601 lines"]
    parent = reached(modules({"femdyn.pkg": package}), "femdyn.pkg.step")
    assert chain(parent, "femdyn.pkg.inverse") == "femdyn.pkg.step → femdyn.pkg.checks → femdyn.pkg.inverse"
    assert "femdyn.pkg.long" not in parent
