"""``femdyn report strain RESULTS MEASURED --map gauges.toml -o report/``: compare a run's strain
gauges with measurements (CSV, TDMS, MDF 4, UFF 58, HDF5) and write report.html, report.pdf, metrics.json."""


def add_parser(sub):
    """Register ``report`` (with its kind ``strain``) and its arguments on the sub-command parsers.

    ``sub`` (argparse._SubParsersAction): the sub-command parsers of :func:`femdyn.cli.main.main`; the new
    parser's ``func`` is :func:`run`.
    """
    r = sub.add_parser("report", help="reports comparing a run with measurements")
    kinds = r.add_subparsers(dest="kind", required=True)
    s = kinds.add_parser("strain", help="strain gauges: simulated against measured (HTML, PDF, JSON)")
    s.add_argument("results", help="results folder of the run (written by integrate(..., output=...))")
    s.add_argument("measured", help="measurements: CSV (time histories, or peaks only: header "
                                    "channel,positive,negative), NI TDMS (.tdms), ASAM MDF 4 (.mf4), UFF 58 (.uff), "
                                    "HDF5 (.h5)")
    s.add_argument("--map", required=True, help="gauge map (TOML) tying simulated gauges to measured channels")
    s.add_argument("-o", "--out", default="report", help="report folder (default: ./report)")
    s.add_argument("--paper", choices=("A4", "Letter"), default="A4", help="page size of report.pdf (default: A4)")
    s.set_defaults(func=run)


def run(args):
    """Write the strain report comparing a run's gauges with measurements.

    ``args`` (argparse.Namespace): parsed arguments: ``results`` (run folder), ``measured`` (measurement file), ``map``
    (gauge map TOML), ``out``. Returns int: 0 when every metric is within tolerance, 1 when some is not (the
    report is written either way). Raises FemdynError: unreadable run, measurements or map, or non-overlapping
    time ranges.
    """
    from femdyn.reports.strain_report import strain_report

    comparison, paths = strain_report(args.results, args.measured, args.map, args.out, args.paper)
    for w in comparison.warnings:
        print(f"warning: {w}")
    for g in comparison.gauges:
        failed = [k for k, ok in g.verdicts.items() if not ok]
        verdict = ("pass" if g.passed else "FAIL " + ", ".join(failed)) if comparison.judged else "no verdict"
        print(f"{g.name:>12} ({g.channel}): {verdict}")
    if not comparison.judged:
        print(f"note: {comparison.headline}")
    print(f"report written: {paths['html']}, {paths['pdf']}, {paths['json']}")
    return 0 if comparison.passed else 1
