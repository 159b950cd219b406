"""``femdyn identify config.toml``: inertial-parameter identification from a study file."""


def add_parser(sub):
    """Register ``identify`` and its arguments on the sub-command parsers.

    ``sub`` (argparse._SubParsersAction): the sub-command parsers of :func:`femdyn.cli.main.main`; the new
    parser's ``func`` is :func:`run`.
    """
    d = sub.add_parser("identify", help="identify inertial parameters from simulated momentum or joint-force data "
                                        "(TOML study; see examples/identify_*.toml)")
    d.add_argument("config", help="study file (.toml)")
    d.add_argument("-o", "--out", default=None, help="output folder (default: [output] folder of the study)")
    d.add_argument("--no-plots", action="store_true", help="write the tables only")
    d.set_defaults(func=run)


def run(args):
    """Run an identification study file, print the report and write it with the plots.

    ``args`` (argparse.Namespace): parsed arguments: ``config`` (study TOML), ``out``, ``no_plots``. Returns
    int: exit code 0. Raises FemdynError: a bad study file or a failed identification.
    """
    from femdyn.identification import config, study, torque_study

    cfg = config.load(args.config)
    if args.no_plots:
        cfg["output"]["plots"] = False
    runner = torque_study if cfg["experiment"]["kind"] == "joint_torque" else study
    result = runner.run(cfg, out=args.out)
    print(result.text)
    if result.files:
        print(f"\nwritten: {', '.join(result.files)}")
    return 0
