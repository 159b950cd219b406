"""The studies the command line knows, by name (``femdyn study``, ``femdyn sweep``, ``femdyn fit``).

A new study is one module with a :class:`~femdyn.studies.record.Study` record ``STUDY``, listed in
:data:`BUILTIN` below or passed to ``register(STUDY)`` before :func:`femdyn.cli.main` runs.
"""
from ..errors import ModelError
from .flexible_beam import STUDY as SPIN_UP
from .rrru_command import STUDY as RRRU
from .parallel_study import STUDY as PARALLEL
from .rrru_tracking_command import STUDY as RRRU_TRACKING
from .workspace import STUDY as WORKSPACE

BUILTIN = (RRRU, SPIN_UP, RRRU_TRACKING, PARALLEL, WORKSPACE)
_STUDIES = {study.name: study for study in BUILTIN}


def register(study):
    """Add a study and return it; ModelError if its name or one of its sweep names is taken.

    Parameters
    ----------
    study : Study
        The record.
    """
    if study.name in _STUDIES and _STUDIES[study.name] is not study:
        raise ModelError(f"a study named {study.name!r} is registered already")
    taken = set(study.sweeps) & {name for other in _STUDIES.values() if other is not study for name in other.sweeps}
    if taken:
        raise ModelError(f"study {study.name!r}: sweep names {sorted(taken)} are registered already")
    _STUDIES[study.name] = study
    return study


def unregister(name):
    """Remove a study from the registry (a name not registered is ignored).

    Parameters
    ----------
    name : str
        The study's name.
    """
    _STUDIES.pop(name, None)


def studies():
    """The registered studies: name → :class:`~femdyn.studies.record.Study`, in order of registration."""
    return dict(_STUDIES)


def get(name):
    """The registered study ``name``; ModelError listing the known ones otherwise.

    Parameters
    ----------
    name : str
        The study's name.
    """
    if name not in _STUDIES:
        raise ModelError(f"unknown study {name!r}; known studies: {sorted(_STUDIES)}")
    return _STUDIES[name]


def sweep_cases():
    """Sweep name → ``(configuration dataclass, case, figure_label)`` of every registered study (first: the default)."""
    return {name: (*case, study.figure_label) for study in _STUDIES.values() for name, case in study.sweeps.items()}
