"""Every module's doctests in femdyn, femdyn.elements, femdyn.mesh and femdyn.solvers pass
(one test per module; a module without examples passes trivially)."""
import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("femdyn", "femdyn.elements", "femdyn.mesh", "femdyn.solvers")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def modules():
    names = set()
    for package in PACKAGES:
        names.add(package)
        path = importlib.import_module(package).__path__
        names.update(info.name for info in pkgutil.walk_packages(path, package + "."))
    return sorted(names)


MODULES = modules()


def test_every_package_is_searched():
    """The walk reaches the sub-packages (a broken walk would pass every test below)."""
    for name in ("femdyn.model.builder", "femdyn.elements.ancf_cable", "femdyn.mesh.vtk",
                 "femdyn.solvers.recursive.dynamics", "femdyn.cli.main"):
        assert name in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)           # examples that write files write them here
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in finder.find(module, name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples in {name} failed (output above)"
