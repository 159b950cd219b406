"""What a study tells the command line: the :class:`Study` record, its optional :class:`Fit`, and
:class:`StudyStopped` when a part of it fails."""
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional

from ..errors import SolverError


class StudyStopped(SolverError):
    """A part of a study stopped: the parts before it and its steps up to the failure are kept.

    Parameters
    ----------
    what : str
        The study, as the message names it ("3-RRRU study").
    stopped : dict
        ``part`` (what stopped), ``reason`` (the solver's message) and, when known, ``t`` (s).
    study : dict
        Everything computed so far (``study`` of the error).
    output : str, optional
        The folder the partial outputs were written to.
    results : Results, optional
        The stopped part's steps up to the failure.
    """

    def __init__(self, what, stopped, study, output=None, results=None):
        at = f" at t = {stopped['t']:.6g} s" if stopped.get("t") is not None else ""
        written = f"; everything computed so far is written to {output}" if output else ""
        super().__init__(f"{what}: {stopped['part']} stopped{at}{written}. {stopped['reason']}", results, study=study)


def _summary_lines(summary):
    """``key = value`` per line: the default report of a study's summary."""
    return "\n".join(f"{key} = {value}" for key, value in summary.items())


@dataclass(frozen=True)
class Fit:
    """How ``femdyn fit NAME [fit.toml]`` fits a study's settings to reference figures.

    Parameters
    ----------
    read : callable
        ``read(data, where) -> config`` from a TOML file's tables (``data`` None: the defaults).
    describe : callable
        ``describe(config) -> str``: one line on what is fitted to what.
    run : callable
        ``run(config, executor, progress) -> result`` on a ``concurrent.futures`` executor.
    write : callable
        ``write(result, folder) -> str``: writes the files, returns what to print.
    """

    read: Callable
    describe: Callable
    run: Callable
    write: Callable


@dataclass(frozen=True)
class Study:
    """A study the command line runs: ``femdyn study NAME``, its sweep cases and its fit.

    Parameters
    ----------
    name : str
        The name on the command line.
    description : str
        One line, shown by ``femdyn study --help``.
    config : type
        The configuration dataclass; its defaults are the study, a TOML file sets any field.
    run : callable
        ``run(config, output, progress) -> dict`` with at least ``{"summary": dict}``; a SolverError
        it raises may carry the partial study as ``study``.
    report : callable, optional
        ``report(summary) -> str`` printed after the run (default: ``key = value`` lines).
    add_options, apply_options : callable, optional
        ``add_options(parser)`` registers command-line options, ``apply_options(config, args) -> config``.
    hint : str, optional
        What to try when a run fails, appended to the SolverError's message.
    sweeps : mapping, optional
        Name → ``(configuration dataclass, case)`` for ``femdyn sweep``; ``case(config, output) -> dict``.
    figure_label : callable, optional
        ``figure_label(name) -> str``: a summary number's label with its unit.
    fit : Fit, optional
        ``femdyn fit NAME``.

    Example
    -------
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Square:
    ...     x: float = 2.0
    >>> study = Study("square", "x squared", Square, lambda c, output, progress: {"summary": {"x2": c.x ** 2}})
    >>> study.report(study.run(Square(), None, False)["summary"])
    'x2 = 4.0'
    """

    name: str
    description: str
    config: type
    run: Callable
    report: Callable = field(default_factory=lambda: _summary_lines)
    add_options: Optional[Callable] = None
    apply_options: Optional[Callable] = None
    hint: str = ""
    sweeps: Mapping[str, tuple] = field(default_factory=dict)
    figure_label: Callable = str
    fit: Optional[Fit] = None
