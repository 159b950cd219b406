"""``femdyn sweep sweep.toml``: a grid or random sample of study settings, run on Dask."""
import os

from ..errors import ModelError


def studies():
    """The studies a sweep file may name.

    Returns
    -------
    dict
        Name → (configuration dataclass, case function ``f(config: dict, output: str) -> dict``).
    """
    from femdyn.studies.rrru import RigidStudyConfig
    from femdyn.studies.rrru_figures import flexible_case, rigid_case
    from femdyn.studies.rrru_study import StudyConfig, sweep_case
    return {"rrru": (StudyConfig, sweep_case), "rrru_rigid": (RigidStudyConfig, rigid_case),
            "rrru_flexible": (StudyConfig, flexible_case)}


def add_parser(sub):
    """Register ``sweep`` and its arguments on the sub-command parsers.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The sub-command parsers of :func:`femdyn.cli.main.main`; the new parser's ``func`` is
        :func:`run`.
    """
    p = sub.add_parser("sweep", help="run a study for a grid or a random sample of its settings on Dask "
                                     "(a local cluster, or --scheduler)")
    p.add_argument("file", help="sweep TOML: study = 'rrru' (default), 'rrru_rigid' or 'rrru_flexible', [base] settings, [sweep] "
                                "grid = {…}, random = {count, seed, …} or sensitivity = {step, keys, figures} "
                                "(docs/sweeps.md)")
    p.add_argument("-o", "--out", default="femdyn-sweep", help="output folder (default ./femdyn-sweep)")
    p.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. tcp://host:8786 "
                                       "(default: a local cluster on this machine)")
    p.add_argument("--workers", type=int, help="worker processes of the local cluster (default: the CPU count)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args):
    """Read a sweep file, run its cases on Dask, write ``args.out`` and print the table.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments: ``file`` (sweep TOML), ``out``, ``scheduler`` (Dask address), ``workers``, ``quiet``.

    Returns
    -------
    int
        Exit code 0, also when cases failed (they are in the table with their errors).

    Raises
    ------
    ModelError
        Unreadable or invalid sweep file, an unknown study, or ``--workers`` < 1.
    """
    from femdyn.schema import read_toml
    from femdyn.studies.sweep_file import sweep_from_dict
    from femdyn.studies.sweep import dask_executor, markdown_table, run_sweep
    data = read_toml(args.file, "sweep file")
    known = studies()
    name = data.get("study", "rrru")
    if name not in known:
        raise ModelError(f"{args.file}: unknown study {name!r}; known studies: {sorted(known)}")
    if args.workers is not None and args.workers < 1:
        raise ModelError(f"--workers must be ≥ 1, got {args.workers}")
    config_class, case = known[name]
    sweep = sweep_from_dict(data, config_class, where=args.file)
    out = os.path.abspath(args.out)
    print(f"{len(sweep.cases)} cases ({sweep.kind}) of the study '{name}' on "
          f"{args.scheduler or 'a local Dask cluster'}")
    with dask_executor(args.scheduler, args.workers) as executor:
        if sweep.kind == "sensitivity":
            from femdyn.studies.rrru_figures import figure_label
            from femdyn.studies.sensitivity import run_sensitivities
            result = run_sensitivities(case, sweep.base, sweep.parameters, sweep.figures, out, executor=executor,
                                       step=sweep.step, title=f"Sensitivities of the study '{name}' ({args.file})",
                                       labels={f: figure_label(f) for f in sweep.figures}, progress=not args.quiet)
            records = result["records"]
        else:
            records = run_sweep(case, sweep.base, sweep.cases, out, executor=executor, progress=not args.quiet)
    print(markdown_table(records))
    if sweep.kind == "sensitivity":
        print(result["table"] + "(also sensitivities.csv, sensitivities.png)")
    failed = sum(r["status"] != "completed" for r in records)
    print(f"{len(records) - failed} cases completed, {failed} failed; output written to {out}: "
          "cases.csv, cases.md, sweep.json, case-0000/ …")
    return 0
