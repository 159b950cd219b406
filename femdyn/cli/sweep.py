"""``femdyn sweep sweep.toml``: a grid or random sample of study settings, run on Dask."""
import contextlib
import os

from ..errors import ModelError
from ..input_checks import plural
from ..studies.registry import sweep_cases


def add_parser(sub):
    """Register ``sweep`` and its arguments; the sweep names come from the registered studies."""
    names = list(sweep_cases())
    p = sub.add_parser("sweep", help="run a study for a grid or a random sample of its settings on Dask "
                                     "(a local cluster, or --scheduler)")
    p.add_argument("file", help=f"sweep TOML: study = {' or '.join(repr(n) for n in names)} (default "
                                f"{names[0]!r}), [base] settings, [sweep] grid = {{…}}, random = {{count, seed, …}} "
                                "or sensitivity = {step, keys, figures} (docs/sweeps.md)")
    p.add_argument("-o", "--out", default="femdyn-sweep", help="output folder (default ./femdyn-sweep)")
    p.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. tcp://host:8786 "
                                       "(default: a local cluster on this machine)")
    p.add_argument("--workers", type=int, help="worker processes of the local cluster (default: the CPU count)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args):
    """Read a sweep file, run its cases on Dask, write ``args.out`` and print the table; exit code 0 when
    every case completed, 1 when a case failed. An unreadable or invalid file, an unknown study,
    ``--workers`` < 1 or a ``--scheduler`` that is no address is a ModelError, an unreachable scheduler
    a PeerError."""
    from femdyn.schema import read_toml
    from femdyn.studies.sweep_file import sweep_from_dict
    from femdyn.studies.sweep import dask_executor, markdown_table, run_sweep
    data = read_toml(args.file, "sweep file")
    known = sweep_cases()
    name = data.get("study", next(iter(known)))
    if name not in known:
        raise ModelError(f"{args.file}: unknown study {name!r}; known studies: {sorted(known)}")
    if args.workers is not None and args.workers < 1:
        raise ModelError(f"--workers must be ≥ 1, got {args.workers}")
    _check_scheduler(args.scheduler)
    config_class, case, label = known[name]
    sweep = sweep_from_dict(data, config_class, where=args.file)
    out = os.path.abspath(args.out)
    print(f"{plural(len(sweep.cases), 'case')} ({sweep.kind}) of the study '{name}' on "
          f"{args.scheduler or 'a local Dask cluster'}")
    with _connected(args.scheduler), dask_executor(args.scheduler, args.workers, timeout=SCHEDULER_TIMEOUT) \
            as executor:
        if sweep.kind == "sensitivity":
            from femdyn.studies.sensitivity import run_sensitivities
            result = run_sensitivities(case, sweep.base, sweep.parameters, sweep.figures, out, executor=executor,
                                       step=sweep.step, title=f"Sensitivities of the study '{name}' ({args.file})",
                                       labels={f: label(f) for f in sweep.figures}, progress=not args.quiet)
            records = result["records"]
        else:
            records = run_sweep(case, sweep.base, sweep.cases, out, executor=executor, progress=not args.quiet)
    print(markdown_table(records))
    if sweep.kind == "sensitivity":
        print(result["table"] + "(also sensitivities.csv, sensitivities.png)")
    failed = sum(r["status"] != "completed" for r in records)
    print(f"{plural(len(records) - failed, 'case')} completed, {failed} failed; output written to {out}: "
          "cases.csv, cases.md, sweep.json, case-0000/ …")
    return 1 if failed else 0


SCHEDULER_TIMEOUT = 10     # s to reach a --scheduler before giving up


def _check_scheduler(address):
    """A ModelError unless ``address`` looks like a scheduler address ``[protocol://]host:port``."""
    if address is None:
        return
    host, colon, port = address.rpartition("://")[2].rpartition(":")
    if not (colon and host and port.isdigit()):
        raise ModelError(f"--scheduler {address!r} is not a scheduler address; give protocol://host:port, "
                         "e.g. tcp://10.0.0.5:8786, or leave it out for a local cluster")


@contextlib.contextmanager
def _connected(address):
    """Turn a failure to reach the scheduler ``address`` (an OSError naming it) into a PeerError."""
    from .main import PeerError
    try:
        yield
    except (OSError, TimeoutError) as err:
        if address is None or getattr(err, "filename", None) is not None or address not in str(err):
            raise
        raise PeerError(f"cannot reach the Dask scheduler at {address} ({err}); check that it runs and "
                        "that this machine can reach it, or leave out --scheduler for a local cluster") from None
