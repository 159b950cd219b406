"""``femdyn study rrru [config.toml]``: the 3-RRRU study of Liu et al. (2018), end to end."""
import os

from ..errors import SolverError


def add_parser(sub):
    """Register ``study`` and its arguments on the sub-command parsers.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The sub-command parsers of :func:`femdyn.cli.main.main`; the new parser's ``func`` is
        :func:`run`.
    """
    p = sub.add_parser("study", help="run a study: 'rrru' is the 3-RRRU robot of Liu et al. 2018 (rigid and "
                                     "flexible, inverse and forward dynamics, gauges)")
    p.add_argument("name", choices=["rrru"], help="the study")
    p.add_argument("config", nargs="?", help="TOML file changing any setting of femdyn.studies.rrru_study.StudyConfig")
    p.add_argument("-o", "--out", default="femdyn-study", help="output folder (default ./femdyn-study)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=run)


def run_rrru(config, out, quiet, hint):
    """Run the 3-RRRU study into a folder; a solver failure is re-raised with a hint.

    Parameters
    ----------
    config : StudyConfig
        The study's settings.
    out : str
        Output folder.
    quiet : bool
        No progress bars.
    hint : str
        What to try, appended to the message of a SolverError.

    Returns
    -------
    dict
        The study (see :func:`femdyn.studies.rrru_study.run_study`).

    Raises
    ------
    SolverError
        The run failed; the message ends with ``hint`` and ``results`` keep the steps computed.
    """
    from femdyn.studies.rrru_study import run_study
    try:
        return run_study(config, output=out, progress=not quiet)
    except SolverError as err:
        raise SolverError(f"{err}\n({hint})", getattr(err, "results", None)) from None


def run(args):
    """Run the 3-RRRU study, write ``args.out`` and print the summary table with its verdicts.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments: ``name`` ('rrru'), ``config`` (optional TOML changing :class:`~femdyn.studies.rrru_study.StudyConfig`), ``out``, ``quiet``.

    Returns
    -------
    int
        Exit code 0.

    Raises
    ------
    ModelError
        A bad configuration file.
    SolverError
        A failed run; its ``results`` keep the steps computed.
    """
    from femdyn.formats.config import read_config
    from femdyn.studies.rrru_outputs import summary_table
    from femdyn.studies.rrru_study import StudyConfig
    config = read_config(args.config, StudyConfig) if args.config else StudyConfig()
    out = os.path.abspath(args.out)
    study = run_rrru(config, out, args.quiet, "the steps computed before the failure are kept in the exception's "
                                              "results")
    print(summary_table(study["summary"]))
    print(written(out))
    return 0


def written(out):
    """The line naming the output folder and the files in it.

    Parameters
    ----------
    out : str
        The study's output folder.

    Returns
    -------
    str
        "output written to <out>: report.html (…), summary.md, …", the report first.

    Example
    -------
    >>> written("/no/such/folder")
    'output written to /no/such/folder: (nothing)'
    """
    names = sorted(os.listdir(out)) if os.path.isdir(out) else []
    names = [f"{n}/" if os.path.isdir(os.path.join(out, n)) else n for n in names]
    first = ["report.html (open it in a browser: the table, figures and run details)"] if "report.html" in names else []
    return f"output written to {out}: " + (", ".join(first + [n for n in names if n != "report.html"]) or "(nothing)")
