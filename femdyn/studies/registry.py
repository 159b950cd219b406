"""The studies the command line knows, by name (``femdyn study``, ``femdyn sweep``, ``femdyn fit``).

A new study is one module — its configuration dataclass, its run function and a
:class:`~femdyn.studies.record.Study` record ``STUDY`` — and one registration: the record
in :data:`BUILTIN` below, or ``register(STUDY)`` from a user's code before
:func:`femdyn.cli.main` runs.
"""
from ..errors import ModelError
from .flexible_beam import STUDY as SPIN_UP
from .rrru_command import STUDY as RRRU

BUILTIN = (RRRU, SPIN_UP)
_STUDIES = {study.name: study for study in BUILTIN}


def register(study):
    """Add a study to the registry (its name must be new).

    Parameters
    ----------
    study : Study
        The record (:class:`femdyn.studies.record.Study`).

    Returns
    -------
    Study
        ``study``.

    Raises
    ------
    ModelError
        Another study of that name, or a sweep name another study offers.
    """
    if study.name in _STUDIES and _STUDIES[study.name] is not study:
        raise ModelError(f"a study named {study.name!r} is registered already")
    taken = set(study.sweeps) & {name for other in _STUDIES.values() if other is not study for name in other.sweeps}
    if taken:
        raise ModelError(f"study {study.name!r}: sweep names {sorted(taken)} are registered already")
    _STUDIES[study.name] = study
    return study


def unregister(name):
    """Remove a study from the registry.

    Parameters
    ----------
    name : str
        The study's name (a name not registered is ignored).
    """
    _STUDIES.pop(name, None)


def studies():
    """The registered studies.

    Returns
    -------
    dict
        Name → :class:`~femdyn.studies.record.Study`, in the order of registration.
    """
    return dict(_STUDIES)


def get(name):
    """The registered study ``name``.

    Parameters
    ----------
    name : str

    Returns
    -------
    Study

    Raises
    ------
    ModelError
        No study of that name (the message lists the known ones).

    Example
    -------
    >>> get("rrru").name
    'rrru'
    """
    if name not in _STUDIES:
        raise ModelError(f"unknown study {name!r}; known studies: {sorted(_STUDIES)}")
    return _STUDIES[name]


def sweep_cases():
    """Every sweep case the registered studies offer.

    Returns
    -------
    dict
        Sweep name → ``(configuration dataclass, case, figure_label)``; the first is the
        default of a sweep file without ``study``.
    """
    return {name: (*case, study.figure_label) for study in _STUDIES.values() for name, case in study.sweeps.items()}
