"""What a study tells the command line: the :class:`Study` record and its optional :class:`Fit`."""
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional


def _summary_lines(summary):
    """``key = value`` per line: the default report of a study's summary."""
    return "\n".join(f"{key} = {value}" for key, value in summary.items())


@dataclass(frozen=True)
class Fit:
    """How ``femdyn fit NAME [fit.toml]`` fits a study's settings to reference figures.

    Parameters
    ----------
    read : callable
        ``read(data, where) -> config``: the fit's configuration from a TOML file's tables
        (``data`` None: the documented defaults); raises ModelError naming a bad key.
    describe : callable
        ``describe(config) -> str``: one line on what is fitted to what, printed first.
    run : callable
        ``run(config, executor, progress) -> result`` on a ``concurrent.futures`` executor.
    write : callable
        ``write(result, folder) -> str``: writes the result's files, returns what to print.
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
        The name on the command line (``femdyn study NAME``).
    description : str
        One line, shown by ``femdyn study --help``.
    config : type
        The configuration dataclass; its defaults are the study and a TOML file sets any
        field (``femdyn study NAME config.toml``, :func:`femdyn.schema.read_config`).
    run : callable
        ``run(config, output, progress) -> dict``: runs the study, writes its outputs into
        the folder ``output`` and returns at least ``{"summary": dict}``. A SolverError it
        raises may carry the partial study as ``study`` (its summary is then printed).
    report : callable, optional
        ``report(summary) -> str``: the text printed after the run (default: ``key = value``
        lines).
    add_options, apply_options : callable, optional
        Command-line options of the study: ``add_options(parser)`` registers them,
        ``apply_options(config, args) -> config`` applies the parsed values.
    hint : str, optional
        What to try when a run fails, appended to the SolverError's message.
    sweeps : mapping, optional
        Name → ``(configuration dataclass, case)`` for ``femdyn sweep`` (``study = NAME`` in
        the file): ``case(config: dict, output: str) -> dict`` of summary numbers
        (:func:`femdyn.studies.sweep.run_sweep`).
    figure_label : callable, optional
        ``figure_label(name) -> str``: a summary number's label with its unit, for the
        sensitivity tables (default: the name).
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
