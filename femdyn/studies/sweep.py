"""Parameter sweeps of a study on any ``concurrent.futures`` executor, Dask by default.

A study function ``case(config: dict, output) -> dict`` runs once per case: the base configuration with
dotted overrides from a grid or a random sample (case k depends only on the seed and k). Workers rebuild
the model from plain dicts and run with one BLAS thread, so a case gives the same numbers on any executor;
a case that raises is recorded with its error. Files and usage: docs/sweeps.md.
"""
import concurrent.futures as cf
import contextlib
import csv
import io
import itertools
import json
import math
import os
import socket
import time

import numpy as np

from ..errors import ModelError
from ..schema import with_overrides

DISTRIBUTIONS = ("uniform", "log_uniform", "integers", "choice")


def grid_cases(grid):
    """Every combination of the values of ``grid`` (the last key varies fastest), one override dict per case.

    Parameters
    ----------
    grid : dict
        Dotted key → non-empty list of values, e.g. ``{"geometry.E": [6.9e8, 6.9e9], "payload": [0.0, 1.6]}``.

    Example
    -------
    >>> grid_cases({"a": [1, 2], "b": [0]})
    [{'a': 1, 'b': 0}, {'a': 2, 'b': 0}]
    """
    for key, values in grid.items():
        if not isinstance(values, (list, tuple)) or not values:
            raise ModelError(f"sweep grid: {key} needs a non-empty list of values, got {values!r}")
    keys = list(grid)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(grid[k] for k in keys))]


def random_cases(parameters, count, seed):
    """A random sample of ``count`` override dicts; case k is drawn from ``default_rng([seed, k])``.

    Parameters
    ----------
    parameters : dict
        Dotted key → ``{"uniform": [low, high]}``, ``{"log_uniform": [low, high]}`` (0 < low),
        ``{"integers": [low, high]}`` (both included) or ``{"choice": [value, ...]}``.
    count : int
        Number of cases (≥ 1).
    seed : int
        Seed of the sweep (≥ 0).
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ModelError(f"sweep random: count must be a whole number ≥ 1, got {count!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ModelError(f"sweep random: seed must be a whole number ≥ 0, got {seed!r}")
    draws = {key: _distribution(key, spec) for key, spec in sorted(parameters.items())}
    cases = []
    for k in range(count):
        rng = np.random.default_rng([seed, k])
        cases.append({key: draw(rng) for key, draw in draws.items()})
    return cases


def _distribution(key, spec):
    """A function rng → value for the distribution ``spec`` of ``key``."""
    if not isinstance(spec, dict) or len(spec) != 1 or next(iter(spec)) not in DISTRIBUTIONS:
        raise ModelError(f"sweep random: {key} must be a table with one of {list(DISTRIBUTIONS)}, got {spec!r}")
    kind, args = next(iter(spec.items()))
    if kind == "choice":
        if not isinstance(args, list) or not args:
            raise ModelError(f"sweep random: {key}.choice needs a non-empty list of values, got {args!r}")
        return lambda rng: args[int(rng.integers(len(args)))]
    numbers = isinstance(args, list) and len(args) == 2 and \
        all(isinstance(a, (int, float)) and not isinstance(a, bool) and math.isfinite(a) for a in args)
    if not numbers or not args[0] <= args[1]:
        raise ModelError(f"sweep random: {key}.{kind} needs [low, high] with low ≤ high, got {args!r}")
    low, high = args
    if kind == "integers":
        if not all(float(a).is_integer() for a in args):
            raise ModelError(f"sweep random: {key}.integers needs whole numbers, got {args!r}")
        return lambda rng: int(rng.integers(int(low), int(high) + 1))
    if kind == "log_uniform":
        if low <= 0:
            raise ModelError(f"sweep random: {key}.log_uniform needs 0 < low, got {args!r}")
        return lambda rng: float(math.exp(rng.uniform(math.log(low), math.log(high))))
    return lambda rng: float(rng.uniform(low, high))


def run_case(study, base, overrides, folder):
    """Run one case (on a worker): the configuration is rebuilt from ``base`` and the
    dotted ``overrides``, the study runs with one BLAS thread, its error (if any) is caught."""
    from threadpoolctl import threadpool_limits
    if folder is not None:
        os.makedirs(folder, exist_ok=True)
    clock = time.perf_counter()
    record = {"parameters": overrides, "status": "completed", "error": "", "summary": {}}
    try:
        config = with_overrides(base, overrides)
        record["config"] = config
        with threadpool_limits(1):
            record["summary"] = flat(study(config, folder))
    except Exception as err:        # a failed case is a result: report it, keep the others
        record.update(status="failed", error=f"{type(err).__name__}: {err}".replace("\n", " "))
    record.update(runtime=time.perf_counter() - clock, worker=f"{socket.gethostname()}:{os.getpid()}")
    if folder is not None:
        with open(os.path.join(folder, "case.json"), "w") as f:
            json.dump(record, f, indent=1, default=_plain)
    return record


class ExecutorMap:
    """A map-like callable on a ``concurrent.futures`` executor, for optimizers that
    evaluate many points at once (scipy's ``differential_evolution(workers=...)``)."""

    def __init__(self, executor, progress=False):
        from tqdm.auto import tqdm
        self.executor, self.evaluations = executor, 0
        self.bar = tqdm(desc="cases", unit="case", disable=not progress)

    def __call__(self, func, items):
        futures = [self.executor.submit(func, item) for item in items]
        self.evaluations += len(futures)
        results = [future.result() for future in futures]
        self.bar.update(len(futures))
        return results


def flat(summary, prefix=""):
    """A nested summary as one level of dotted keys."""
    out = {}
    items = summary.items() if isinstance(summary, dict) else enumerate(summary)
    for key, value in items:
        name = f"{prefix}{key}"
        if isinstance(value, (dict, list, tuple)):
            out.update(flat(value, name + "."))
        else:
            out[name] = _plain(value)
    return out


def _plain(value):
    """NumPy scalars as Python numbers (JSON, CSV)."""
    return value.item() if isinstance(value, np.generic) else value


@contextlib.contextmanager
def dask_executor(scheduler=None, n_workers=None, timeout=None):
    """A ``concurrent.futures`` executor on a new Dask ``LocalCluster`` (single-threaded workers) or at ``scheduler``.

    Parameters
    ----------
    scheduler : str, optional
        Address of a running scheduler, e.g. ``"tcp://10.0.0.5:8786"`` (femdyn on every worker, a shared output folder).
    n_workers : int, optional
        Worker processes of the local cluster (default: the CPU count).
    timeout : float, optional
        Seconds to reach ``scheduler`` (default: Dask's ``distributed.comm.timeouts.connect``).
    """
    from distributed import Client, LocalCluster
    with contextlib.ExitStack() as stack:
        if scheduler:
            client = stack.enter_context(Client(scheduler, timeout=timeout) if timeout else Client(scheduler))
        else:
            cluster = stack.enter_context(LocalCluster(n_workers=n_workers or os.cpu_count(), threads_per_worker=1,
                                                       processes=True, dashboard_address=None))
            client = stack.enter_context(Client(cluster))
        yield client.get_executor(pure=False)


def run_sweep(study, base, cases, output, executor=None, progress=False):
    """Run ``study`` for every case; writes ``case-0000/`` …, ``cases.csv``, ``cases.md``, ``sweep.json``.

    Returns the records in case order (``case``, ``folder`` and the record of :func:`run_case`).

    Parameters
    ----------
    study : callable
        ``study(config: dict, output: str) -> dict``, a module-level function (workers import it by name).
    base : dict
        Plain base configuration (nested dicts for tables).
    cases : list of dict
        Dotted overrides per case.
    output : str
        Folder.
    executor : concurrent.futures.Executor, optional
        Any executor; default a new local Dask cluster (:func:`dask_executor`).
    progress : bool
        A progress bar over the cases.
    """
    from threadpoolctl import threadpool_limits
    from tqdm.auto import tqdm
    output = os.path.abspath(output)
    os.makedirs(output, exist_ok=True)
    with contextlib.ExitStack() as stack:
        if executor is None:
            executor = stack.enter_context(dask_executor())
        stack.enter_context(threadpool_limits(1))    # threads of this process: one BLAS thread each, throughout
        folders = [os.path.join(output, f"case-{k:04d}") for k in range(len(cases))]
        futures = {executor.submit(run_case, study, base, case, folder): k
                   for k, (case, folder) in enumerate(zip(cases, folders))}
        records = [None] * len(cases)
        failed = 0
        with tqdm(total=len(cases), desc="sweep", unit="case", disable=not progress) as bar:
            for future in cf.as_completed(futures):
                k = futures[future]
                try:
                    records[k] = future.result()
                except Exception as err:     # the worker itself was lost
                    records[k] = {"parameters": cases[k], "status": "failed", "summary": {},
                                  "error": f"{type(err).__name__}: {err}".replace("\n", " ")}
                failed += records[k]["status"] != "completed"
                bar.set_postfix(failed=failed)
                bar.update()
    records = [{"case": k, "folder": folders[k], **r} for k, r in enumerate(records)]
    write_tables(records, output)
    with open(os.path.join(output, "sweep.json"), "w") as f:
        json.dump({"base": base, "cases": records}, f, indent=1, default=_plain)
    return records


def table(records):
    """Columns and rows of the sweep table."""
    parameters, values = {}, {}
    for r in records:
        parameters.update(dict.fromkeys(r["parameters"]))
        values.update(dict.fromkeys(r["summary"]))
    columns = ["case", *parameters, "status", *values, "error"]
    rows = [[r["case"], *(r["parameters"].get(p, "") for p in parameters), r["status"],
             *(r["summary"].get(v, "") for v in values), r["error"]] for r in records]
    return columns, rows


def write_tables(records, folder):
    """Write the table of :func:`table` as ``cases.csv`` (floats with ``repr``: every bit)
    and ``cases.md`` (:func:`markdown_table`) into ``folder``."""
    columns, rows = table(records)
    csv_path, md_path = os.path.join(folder, "cases.csv"), os.path.join(folder, "cases.md")
    with open(csv_path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(columns)
        writer.writerows([[_cell(v, None) for v in row] for row in rows])
    with open(md_path, "w") as f:
        f.write(markdown_table(records))
    return csv_path, md_path


def markdown_table(records):
    """The table of :func:`table` in Markdown, numbers to 4 significant digits."""
    columns, rows = table(records)
    out = io.StringIO()
    out.write("| " + " | ".join(columns) + " |\n")
    out.write("|" + "---|" * len(columns) + "\n")
    for row in rows:
        out.write("| " + " | ".join(_cell(v, 4).replace("|", "\\|") for v in row) + " |\n")
    return out.getvalue()


def _cell(value, digits):
    """A table cell: floats in full (``repr``) or to ``digits`` significant digits."""
    if isinstance(value, float):
        return repr(value) if digits is None else f"{value:.{digits}g}"
    if isinstance(value, (list, tuple)):
        return " ".join(_cell(v, digits) for v in value)
    return str(value)
