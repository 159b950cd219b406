"""``femdyn study NAME [config.toml]``: a registered study (:mod:`femdyn.studies.registry`), end to end."""
import argparse
import os
from dataclasses import fields, replace

from ..errors import ModelError, SolverError
from ..studies.registry import get, studies


def add_parser(sub):
    """Register ``study``: one positional name per registered study, each study's options in a group."""
    known = studies()
    p = sub.add_parser("study", help="run a study: " + "; ".join(f"'{s.name}' is {s.description}"
                                                                for s in known.values()),
                       description="Run a registered study and write its outputs. Studies:\n" +
                       "\n".join(f"  {s.name:14s} {s.description}" for s in known.values()),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("name", metavar="STUDY", help=f"the study: {', '.join(known)}")
    p.add_argument("config", nargs="?", help="TOML file changing any setting of the study's configuration "
                                             "(for rrru: over its preset femdyn/studies/presets/rrru.toml)")
    p.add_argument("-o", "--out", default="femdyn-study", help="output folder (default ./femdyn-study)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument("--robot", help="the robot of a parallel-robot study (parallel, workspace): a ready robot's name "
                                   "(femdyn robot list) or a description file (TOML)")
    options = {}
    for study in known.values():
        if study.add_options:
            group = _Recorder(p.add_argument_group(f"options of the study '{study.name}'"))
            study.add_options(group)
            options[study.name] = group.options
    p.set_defaults(func=run, study_options=options)


class _Recorder:
    """An argument group that records the options added to it (destination → flag, default)."""

    def __init__(self, group):
        self.group, self.options = group, {}

    def add_argument(self, *args, **kwargs):
        action = self.group.add_argument(*args, **kwargs)
        self.options[action.dest] = (action.option_strings[0], action.default)
        return action


def run_study(study, config, out, quiet):
    """Run a registered study into the folder ``out``; a SolverError is re-raised with the study's
    hint, and when it carries the partial study its summary is printed first."""
    try:
        return study.run(config, out, not quiet)
    except SolverError as err:
        failure = SolverError(f"{err}\n({study.hint})" if study.hint else str(err), getattr(err, "results", None))
        partial = getattr(err, "study", None)
        if partial is not None:
            print(study.report(partial["summary"]))
            failure.study = partial
        raise failure from None


def run(args):
    """Run the study ``args.name`` with its configuration (``args.config``, the options), write
    ``args.out`` and print its report; an unknown name or a bad setting is a ModelError."""
    from femdyn.schema import read_config
    study = get(args.name)
    own = args.study_options.get(study.name, {})
    for other, options in args.study_options.items():
        for dest, (flag, default) in options.items():
            if dest not in own and getattr(args, dest) != default:
                raise ModelError(f"{flag} is an option of the study '{other}', not of '{study.name}'")
    if args.robot is not None and "robot" not in {f.name for f in fields(study.config)}:
        raise ModelError(f"--robot is an option of the parallel-robot studies, not of '{study.name}'")
    config = read_config(args.config, study.config) if args.config else study.config()
    if args.robot is not None:
        config = replace(config, robot=args.robot)
    if study.apply_options:
        config = study.apply_options(config, args)
    out = os.path.abspath(args.out)
    result = run_study(study, config, out, args.quiet)
    print(study.report(result["summary"]))
    print(written(out))
    return 0


def written(out):
    """The line naming the output folder and the files in it, the report first.

    Example
    -------
    >>> written("/no/such/folder")
    'output written to /no/such/folder: (nothing)'
    """
    names = sorted(os.listdir(out)) if os.path.isdir(out) else []
    names = [f"{n}/" if os.path.isdir(os.path.join(out, n)) else n for n in names]
    first = ["report.html (open it in a browser: the table, figures and run details)"] if "report.html" in names else []
    return f"output written to {out}: " + (", ".join(first + [n for n in names if n != "report.html"]) or "(nothing)")
