"""``femdyn study rrru [config.toml]``: the 3-RRRU study of Liu et al. (2018), end to end."""
import os
from dataclasses import replace

from ..errors import ModelError, SolverError

HINT = ("from the command line try --halvings 8 (more step halvings), --rho-inf 0 (more damping), --step (a "
        "smaller step), --formulation stabilized (forward run) or --elements (a finer mesh: docs/rrru.md, 'Elements "
        "per link')")


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
    add_solver_options(p)
    p.set_defaults(func=run)


def add_solver_options(parser, elements=True):
    """Register the solver options of the 3-RRRU study (each overrides the configuration).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The parser of ``femdyn study`` or ``femdyn demo``.
    elements : bool, optional
        Also register ``--elements`` (the demo has its own, with a default).

    Example
    -------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_solver_options(p)
    >>> p.parse_args(["--rho-inf", "0.2"]).rho_inf
    0.2
    """
    if elements:
        parser.add_argument("--elements", type=int, help="ANCF beam elements per flexible link (≥ 1; 2 is the "
                                                         "coarsest that runs the whole circle)")
    parser.add_argument("--rho-inf", type=float,
                        help="generalized-α ρ∞ of the flexible runs, 0 … 0.95 (default 0)")
    parser.add_argument("--formulation", choices=["index3", "stabilized"],
                        help="formulation of the flexible forward run (default index3; the inverse runs are index 3)")
    parser.add_argument("--halvings", type=int, help="step halvings a run may use to get past a failed step, 0 … 20 "
                                                     "(default 4; 0 stops at the first failure)")


def solver_options(config, args):
    """The study's configuration with the command line's solver options applied.

    Parameters
    ----------
    config : StudyConfig
        The configuration (defaults or a TOML file).
    args : argparse.Namespace
        Parsed arguments with ``elements``, ``rho_inf``, ``formulation``, ``halvings``
        (None: keep the configuration's).

    Returns
    -------
    StudyConfig

    Raises
    ------
    ModelError
        A bad value, naming its option: ``--elements`` < 1, ``--rho-inf`` outside [0, 0.95],
        ``--halvings`` outside 0 … 20.

    Example
    -------
    >>> import argparse
    >>> from femdyn.studies.rrru_study import StudyConfig
    >>> args = argparse.Namespace(elements=2, rho_inf=None, formulation=None, halvings=0)
    >>> solver_options(StudyConfig(), args).max_halvings
    0
    """
    checks = (("--elements", args.elements, lambda v: v >= 1, "≥ 1", "n_elements"),
              ("--rho-inf", args.rho_inf, lambda v: 0.0 <= v <= 0.95, "in [0, 0.95] (the inverse runs are "
               "index 3, unstable above 0.95)", "flexible_rho_inf"),
              ("--formulation", args.formulation, lambda v: True, "", "formulation"),
              ("--halvings", args.halvings, lambda v: 0 <= v <= 20, "in 0 … 20", "max_halvings"))
    changes = {}
    for option, value, ok, rule, key in checks:
        if value is None:
            continue
        if not ok(value):
            raise ModelError(f"{option} must be {rule}, got {value}")
        changes[key] = value
    return replace(config, **changes)


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
        When a part stopped, the summary table of what was computed is printed first, every
        output so far is in ``out`` and the exception's ``study`` holds the partial study.
    """
    from femdyn.studies.rrru_study import StudyStopped, run_study, summary_table
    try:
        return run_study(config, output=out, progress=not quiet)
    except SolverError as err:
        failure = SolverError(f"{err}\n({hint})", getattr(err, "results", None))
        if isinstance(err, StudyStopped):
            print(summary_table(err.study["summary"]))
            failure.study = err.study
        raise failure from None


def run(args):
    """Run the 3-RRRU study, write ``args.out`` and print the summary table with its verdicts.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments: ``name`` ('rrru'), ``config`` (optional TOML changing
        :class:`~femdyn.studies.rrru_study.StudyConfig`), ``out``, ``quiet`` and the solver
        options of :func:`solver_options`.

    Returns
    -------
    int
        Exit code 0.

    Raises
    ------
    ModelError
        A bad configuration file or option value (named).
    SolverError
        A failed run; its ``results`` keep the steps computed.
    """
    from femdyn.schema import read_config
    from femdyn.studies.rrru_outputs import summary_table
    from femdyn.studies.rrru_study import StudyConfig
    config = solver_options(read_config(args.config, StudyConfig) if args.config else StudyConfig(), args)
    out = os.path.abspath(args.out)
    study = run_rrru(config, out, args.quiet, HINT)
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
