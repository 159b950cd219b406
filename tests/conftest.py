"""Shared set-up of the test suite.

The tests mirror the packages (``tests/model`` for ``femdyn.model``, ``tests/solvers/recursive``
for ``femdyn.solvers.recursive``, …); ``tests/validation`` holds the cross-checks against
published solutions and ``tests/project`` the checks of the house itself (layers, docstrings,
docs, README, examples). Model builders shared by several folders are in ``support/``
(``from support.models import pendulum``): pytest puts this folder on ``sys.path`` because
this file is here.
"""
import importlib.util
import sys

import pytest

from support import ROOT

EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(ROOT / "benchmarks" / "validation"))   # the validation cases and their references


@pytest.fixture
def example(monkeypatch):
    """Load examples/<name>.py as a module (the examples folder on sys.path, as when run)."""
    monkeypatch.syspath_prepend(str(EXAMPLES))

    def load(name):
        spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)      # worker processes unpickle its functions
        spec.loader.exec_module(module)
        return module
    return load


@pytest.fixture
def no_femdyn_warnings():
    """Turn femdyn's warnings into errors: a sound SI model must not raise any."""
    import warnings

    from femdyn.errors import FemdynWarning
    with warnings.catch_warnings():
        warnings.simplefilter("error", FemdynWarning)
        yield
