"""``femdyn fit NAME [fit.toml]``: a registered study's settings fitted to reference figures on Dask
(for ``rrru``: the 3-RRRU robot's lost data fitted to the paper's figures)."""
import os

from ..errors import ModelError
from ..studies.registry import get, studies


def add_parser(sub):
    """Register ``fit`` and its arguments; the studies with a fit come from the registry."""
    fitted = [s for s in studies().values() if s.fit]
    p = sub.add_parser("fit", help="fit a study's settings to reference figures by seeded differential evolution on "
                                   "Dask (rrru: the lost link lengths and masses, docs/rrru.md)")
    p.add_argument("study", metavar="STUDY", help="the study: " + ", ".join(f"{s.name} ({s.description})"
                                                                            for s in fitted))
    p.add_argument("file", nargs="?", help="fit TOML (for rrru femdyn.studies.rrru_fit.fit_config: seed, popsize, "
                                           "maxiter, figures, angle_convention, [base], [bounds], [weights]); "
                                           "default: the documented fit")
    p.add_argument("-o", "--out", default="femdyn-fit", help="output folder (default ./femdyn-fit)")
    p.add_argument("--scheduler", help="address of a running Dask scheduler (default: a local cluster)")
    p.add_argument("--workers", type=int, help="worker processes of the local cluster (default: the CPU count)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args):
    """Run the fit of the study ``args.study``, write ``args.out`` and print its tables; an unknown
    study, one without a fit, a bad fit file or ``--workers`` < 1 is a ModelError."""
    from femdyn.schema import read_toml
    from femdyn.studies.sweep import dask_executor
    study = get(args.study)
    if study.fit is None:
        raise ModelError(f"the study {args.study!r} has no fit")
    config = study.fit.read(read_toml(args.file, "fit file") if args.file else None, args.file or "fit")
    if args.workers is not None and args.workers < 1:
        raise ModelError(f"--workers must be ≥ 1, got {args.workers}")
    out = os.path.abspath(args.out)
    print(f"{study.fit.describe(config)} on {args.scheduler or 'a local Dask cluster'}")
    with dask_executor(args.scheduler, args.workers) as executor:
        result = study.fit.run(config, executor, not args.quiet)
    print(study.fit.write(result, out))
    return 0
