"""``femdyn fit rrru [fit.toml]``: the 3-RRRU robot's lost data fitted to the paper's figures on Dask."""
import os

from ..errors import ModelError


def add_parser(sub):
    """Register ``fit`` and its arguments on the sub-command parsers.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The sub-command parsers of :func:`femdyn.cli.main.main`; the new parser's ``func`` is
        :func:`run`.
    """
    p = sub.add_parser("fit", help="fit the lost link lengths and masses of a study to the paper's figures by "
                                   "seeded differential evolution on Dask (docs/rrru.md)")
    p.add_argument("study", choices=["rrru"], help="the study (the 3-RRRU robot of Liu et al. 2018)")
    p.add_argument("file", nargs="?", help="fit TOML (femdyn.studies.rrru_fit.fit_config: seed, popsize, maxiter, "
                                           "figures, angle_convention, [base], [bounds], [weights]); default: the "
                                           "documented fit")
    p.add_argument("-o", "--out", default="femdyn-fit", help="output folder (default ./femdyn-fit)")
    p.add_argument("--scheduler", help="address of a running Dask scheduler (default: a local cluster)")
    p.add_argument("--workers", type=int, help="worker processes of the local cluster (default: the CPU count)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args):
    """Run the fit, write ``args.out`` (tables, history, figure) and print the tables.

    Parameters
    ----------
    args : argparse.Namespace
        ``study``, ``file`` (or None), ``out``, ``scheduler``, ``workers``, ``quiet``.

    Returns
    -------
    int
        0.

    Raises
    ------
    ModelError
        An invalid fit file or ``--workers`` < 1.
    """
    from femdyn.schema import read_toml
    from femdyn.studies.rrru_fit import fit, fit_config, figure_names, parameter_table, residual_table, write_fit
    from femdyn.studies.sweep import dask_executor
    config = fit_config(read_toml(args.file, "fit file") if args.file else None, where=args.file or "fit")
    if args.workers is not None and args.workers < 1:
        raise ModelError(f"--workers must be ≥ 1, got {args.workers}")
    out = os.path.abspath(args.out)
    print(f"fitting {sorted(config.bounds)} to {figure_names(config)} (seed {config.seed}) on "
          f"{args.scheduler or 'a local Dask cluster'}")
    with dask_executor(args.scheduler, args.workers) as executor:
        result = fit(config, executor, progress=not args.quiet)
    write_fit(result, out)
    print(parameter_table(result))
    print(residual_table(result))
    print(f"{result.evaluations} cases in {result.wall:.1f} s, best cost {result.cost:.4g}"
          + (f"; best case failed: {result.error}" if result.error else "")
          + f"; written to {out}: parameters.md, residuals.md, history.csv, fit.json, fit.png")
    return 0
