"""Every public name of femdyn is documented, NumPy style.

Public = defined in a module of the packages ``femdyn``, ``femdyn.elements``,
``femdyn.mesh`` and ``femdyn.solvers``, name not starting with '_': module-level
functions and classes, and the functions defined in a public class's own ``__dict__``
(methods, static and class methods). Rule: ``inspect.getdoc(obj)`` is non-empty (a method
without its own docstring inherits its base class's, e.g. the ``Part`` protocol's), and
if the signature takes parameters other than self/cls, the docstring has a NumPy
"Parameters" section. One test per package so that a failure says where.
"""
import importlib
import inspect
import pkgutil
import sys
import types

import pytest

PACKAGES = ("femdyn", "femdyn.elements", "femdyn.mesh", "femdyn.solvers")

# one test per prefix: the subpackages and the top-level modules of femdyn
PREFIXES = ("femdyn.cli", "femdyn.elements", "femdyn.errors", "femdyn.formats", "femdyn.geometry",
            "femdyn.identification", "femdyn.mesh", "femdyn.model", "femdyn.motion", "femdyn.reports",
            "femdyn.results", "femdyn.robots", "femdyn.solvers", "femdyn.sparse", "femdyn.studies",
            "femdyn.validation")


def all_modules():
    """Every module of the four packages, by name."""
    seen = {}
    for name in PACKAGES:
        package = importlib.import_module(name)
        seen[name] = package
        for info in pkgutil.walk_packages(package.__path__, name + "."):
            if info.name not in seen:
                seen[info.name] = importlib.import_module(info.name)
    return seen


def public_members(module):
    """(qualified name, object) of the public functions, classes and class functions defined in ``module``."""
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(obj):
            yield f"{module.__name__}.{name}", obj
        elif inspect.isclass(obj):
            yield f"{module.__name__}.{name}", obj
            for attr, raw in vars(obj).items():
                func = raw.__func__ if isinstance(raw, (staticmethod, classmethod)) else raw
                if not attr.startswith("_") and inspect.isfunction(func):
                    yield f"{module.__name__}.{name}.{attr}", getattr(obj, attr)


def takes_parameters(obj):
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return False
    return any(p not in ("self", "cls") for p in signature.parameters)


def problems(modules):
    """'name: what is missing' for every public member of ``modules`` that breaks the rule."""
    found = []
    for module in modules:
        for name, obj in public_members(module):
            doc = inspect.getdoc(obj) or ""
            if not doc.strip():
                found.append(f"{name}: no docstring")
            elif takes_parameters(obj) and "Parameters\n----------" not in doc:
                found.append(f"{name}: no Parameters section")
    return found


@pytest.fixture(scope="module")
def modules():
    return all_modules()


def test_every_module_falls_under_a_tested_prefix(modules):
    """A new subpackage or top-level module must be added to PREFIXES, else it would go unchecked."""
    uncovered = [name for name in modules if name != "femdyn" and not name.startswith(PREFIXES)]
    assert not uncovered, f"add these to PREFIXES in {__file__}: {uncovered}"


@pytest.mark.parametrize("prefix", PREFIXES)
def test_public_names_have_numpy_docstrings(modules, prefix):
    chosen = [m for name, m in sorted(modules.items()) if name == prefix or name.startswith(prefix + ".")]
    assert chosen, f"no module under {prefix}"
    missing = problems(chosen)
    assert not missing, f"{len(missing)} public names of {prefix} lack a docstring or its Parameters section:\n" + \
        "\n".join(missing)


def test_the_rule_catches_what_it_must(monkeypatch):
    """The checker itself: an undocumented function, a docstring without Parameters, and a
    method that inherits a documented base method (accepted)."""
    module = types.ModuleType("fake")
    monkeypatch.setitem(sys.modules, "fake", module)     # inspect.getdoc finds base classes through it
    exec('''
def bare(x):
    pass

def prose(x):
    """Twice x."""

def no_arguments():
    """Nothing to list."""

class Base:
    """A base.

    Parameters
    ----------
    a : int
        A value.
    """

    def __init__(self, a):
        pass

    def run(self, t):
        """Run.

        Parameters
        ----------
        t : float
            Time, s.
        """

class Child(Base):
    """A child.

    Parameters
    ----------
    a : int
        A value.
    """

    def run(self, t):
        pass
''', module.__dict__)
    assert problems([module]) == ["fake.bare: no docstring", "fake.prose: no Parameters section"]
