"""Results of a run: time series, sensors, residual history, written incrementally.

A :class:`ResultsWriter` appends every recorded step to raw float64 files in an output
folder (``t.f64``, ``q.f64``, ``v.f64``, ``a.f64``, ``lam.f64``, ``sensors.f64``,
``steps.f64``, ``iterations.f64``) next to ``meta.json``; it flushes every few steps and
on failure, so a run that stops keeps everything computed before. :func:`load` reads the
folder back into :class:`Results`. Without a folder, results are kept in memory only.
"""
import csv
import json
import os
from contextlib import contextmanager

import numpy as np

from ..errors import FemdynError

STEP_COLUMNS = ("iterations", "factorizations", "dynamic_residual", "constraint_residual",
                "kinetic_energy", "potential_energy", "corrections")
ITERATION_COLUMNS = ("step", "iteration", "dynamic_residual", "constraint_residual")
SERIES = ("t", "q", "v", "a", "lam", "sensors", "steps", "iterations")


class Results:
    """Arrays of a run: ``t`` (s), ``q``, ``v``, ``a`` (SI), ``lam`` (multipliers), ``sensors``
    (by column name via ``results['name']``), ``steps`` and ``iterations`` tables.

    Made by the solvers (through :class:`ResultsWriter`) or read back with :func:`load`.
    ``results[name]`` gives a sensor channel (joint angles unwrapped), a step column
    (``STEP_COLUMNS``), ``"energy"`` (kinetic plus potential, J) or a coordinate label
    such as ``"A.rx"``.

    Parameters
    ----------
    meta : dict
        Run description: model summary, coordinate and constraint labels, joint rows,
        sensor columns, solver settings, status, events.
    arrays : dict of ndarray
        ``t`` (k,), ``q``, ``v``, ``a`` (k, n), ``lam`` (k, m), ``sensors`` (k, channels),
        ``steps`` (k, 7) and ``iterations`` (iterations, 4).

    Examples
    --------
    >>> import femdyn
    >>> from femdyn.solvers.generalized_alpha import integrate
    >>> m = femdyn.Model("pendulum")
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
    >>> _ = m.sensor_point("tip", rod, (1.0, 0, 0))
    >>> results = integrate(m.assemble(), t_end=0.05, h=0.01)
    >>> results.status, results.q.shape, results["tip.z"].shape
    ('completed', (6, 6), (6,))
    """

    def __init__(self, meta, arrays):
        self.meta = meta
        for key in SERIES:
            setattr(self, key, arrays[key])

    @property
    def status(self):
        """How the run ended: "completed", a failure diagnosis, "interrupted", or "running"."""
        return self.meta.get("status", "unknown")

    @property
    def events(self):
        """Solver events of the run (rejected steps, corrections), each a dict with "t" (s)."""
        return self.meta.get("events", [])

    @property
    def sensor_columns(self):
        """Names of the sensor channels, in column order of ``sensors``."""
        return self.meta["sensor_columns"]

    def __getitem__(self, name):
        """A sensor channel, a step column, 'energy' (total), or a coordinate label."""
        m = self.meta
        if name in m["sensor_columns"]:
            col = self.sensors[:, m["sensor_columns"].index(name)]
            return np.unwrap(col) if name.endswith(".angle") else col
        if name in STEP_COLUMNS:
            return self.steps[:, STEP_COLUMNS.index(name)]
        if name == "energy":
            return self["kinetic_energy"] + self["potential_energy"]
        if name in m["coordinates"]:
            return self.q[:, m["coordinates"].index(name)]
        raise FemdynError(f"no channel '{name}' in these results; sensor channels: {m['sensor_columns']}, "
                          f"step columns: {list(STEP_COLUMNS)}, or a coordinate label such as "
                          f"'{m['coordinates'][0] if m['coordinates'] else 'node.rx'}'")

    def multipliers(self, joint):
        """Lagrange multipliers λ of a joint's rows over time, as solved (n_steps, rows). They
        are not named reactions: coincidence rows give the force on body B (N), orientation
        rows are multipliers of dot-product conditions, an angle drive's is minus its torque.
        Physical reactions with names and signs come from a ``Model.sensor_reaction``.

        Parameters
        ----------
        joint : str
            Joint name.

        Returns
        -------
        ndarray (k, rows)

        Raises
        ------
        FemdynError
            If the model had no joint of that name.
        """
        rows = self.meta["joint_rows"].get(joint)
        if rows is None:
            raise FemdynError(f"no joint '{joint}' in these results; joints: {list(self.meta['joint_rows'])}")
        return self.lam[:, rows]

    def to_csv(self, path, channels):
        """Write time and the chosen channels to a CSV file.

        Parameters
        ----------
        path : str or os.PathLike
            The file (overwritten).
        channels : sequence of str
            Names accepted by ``results[name]``; the header is ``t`` and these names.

        Returns
        -------
        str or os.PathLike
            ``path``.

        Raises
        ------
        FemdynError
            If a channel is unknown.
        """
        data = np.column_stack([self.t] + [self[c] for c in channels])
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["t"] + list(channels))
            w.writerows(data.tolist())
        return path


class ResultsWriter:
    """Collects a solver's steps and appends them to ``folder`` every ``flush_every`` steps (a
    folder of None keeps them in memory; ``solver`` settings go to ``meta.json``); FemdynError
    if the folder cannot be written.

    Examples
    --------
    >>> import os, tempfile, numpy as np, femdyn
    >>> m = femdyn.Model()
    >>> _ = m.point("P", (0, 0, 0))
    >>> system = m.assemble()
    >>> folder = tempfile.TemporaryDirectory()
    >>> writer = ResultsWriter(system, os.path.join(folder.name, "run"))
    >>> writer.record(0.0, system.q0, system.v0, system.v0, np.zeros(0), np.zeros(len(STEP_COLUMNS)))
    >>> _ = writer.close("completed")
    >>> load(os.path.join(folder.name, "run")).q.shape
    (1, 3)
    >>> folder.cleanup()
    """

    def __init__(self, system, folder=None, solver=None, flush_every=50):
        self.folder, self.flush_every = folder, flush_every
        self.sensors = system.sensors
        self.meta = {
            "model": system.name, "summary": system.summary(), "n": system.n, "m": system.m,
            "coordinates": system.labels, "constraints": system.constraints.labels,
            "joint_rows": {name: rows.tolist() for name, rows in system.joint_rows.items()},
            "events": [],
            "sensor_columns": [c for s in self.sensors for c in s.columns],
            "step_columns": list(STEP_COLUMNS), "iteration_columns": list(ITERATION_COLUMNS),
            "solver": solver or {}, "status": "running", "version": 1,
        }
        self.widths = {"t": 1, "q": system.n, "v": system.n, "a": system.n, "lam": system.m,
                       "sensors": len(self.meta["sensor_columns"]), "steps": len(STEP_COLUMNS),
                       "iterations": len(ITERATION_COLUMNS)}
        self.rows = {k: [] for k in SERIES}
        self.pending = {k: [] for k in SERIES}
        if folder:
            with _writing(folder):
                os.makedirs(folder, exist_ok=True)
                for key in SERIES:
                    open(os.path.join(folder, f"{key}.f64"), "wb").close()
                self._write_meta()

    def record(self, t, q, v, a, lam, step_stats):
        """Record one step: t (s), q, v, a, λ, the sensors' values and one value per ``STEP_COLUMNS``."""
        row = {"t": [t], "q": q, "v": v, "a": a, "lam": lam,
               "sensors": np.concatenate([s.measure(q, v, a, lam, t) for s in self.sensors]) if self.sensors else [],
               "steps": step_stats}
        for key, val in row.items():
            self._append(key, np.asarray(val, float).copy())
        if len(self.pending["t"]) >= self.flush_every:
            self.flush()

    def add_event(self, event):
        """A solver event (a rejected step, a correction): a dict with at least "t" (s) and
        "event"; kept in ``meta.json`` and read back as ``Results.events``.
        """
        self.meta["events"].append({k: (float(v) if isinstance(v, (np.floating, np.integer)) else v)
                                    for k, v in event.items()})

    def add_iterations(self, rows):
        """Record the Newton history of one step: (step, iteration, dynamic residual, constraint
        residual) per iteration."""
        for it in rows:
            self._append("iterations", np.asarray(it, float))

    def _append(self, key, arr):
        """Keep a row of series ``key`` and queue it for the next flush."""
        self.rows[key].append(arr)
        self.pending[key].append(arr)

    def flush(self):
        """Append the pending rows to the folder's series files (no-op without a folder)."""
        if self.folder:
            with _writing(self.folder):
                for key, chunk in self.pending.items():
                    if chunk:
                        with open(os.path.join(self.folder, f"{key}.f64"), "ab") as f:
                            np.concatenate(chunk).tofile(f)
        self.pending = {k: [] for k in SERIES}

    def _write_meta(self):
        """Write ``meta.json``."""
        with open(os.path.join(self.folder, "meta.json"), "w") as f:
            json.dump(self.meta, f, indent=1)

    def close(self, status):
        """Finish the run with ``status`` ("completed", a failure diagnosis, "interrupted"): flush,
        rewrite ``meta.json`` and return the :class:`Results`."""
        self.meta["status"] = status
        self.flush()
        if self.folder:
            with _writing(self.folder):
                self._write_meta()
        return self.results()

    def results(self):
        """The steps recorded so far, as :class:`Results`."""
        arrays = {k: _stack(self.rows[k], self.widths[k]) for k in SERIES}
        arrays["t"] = arrays["t"][:, 0]
        return Results(dict(self.meta), arrays)


def load(folder):
    """Read a results folder written by :class:`ResultsWriter` (complete or not).

    A run that stopped early reads back up to its last flushed step.

    Parameters
    ----------
    folder : str or os.PathLike
        The output folder of a run.

    Returns
    -------
    Results

    Raises
    ------
    FemdynError
        If the folder holds no ``meta.json``.
    """
    try:
        with open(os.path.join(folder, "meta.json")) as f:
            meta = json.load(f)
    except FileNotFoundError:
        raise FemdynError(f"'{folder}' holds no femdyn results (meta.json missing)") from None
    widths = {"t": 1, "q": meta["n"], "v": meta["n"], "a": meta["n"], "lam": meta["m"],
              "sensors": len(meta["sensor_columns"]), "steps": len(meta["step_columns"]),
              "iterations": len(meta["iteration_columns"])}
    arrays = {}
    for key in SERIES:
        raw = np.fromfile(os.path.join(folder, f"{key}.f64"), dtype=np.float64)
        arrays[key] = raw.reshape(-1, widths[key]) if widths[key] else np.zeros((len(arrays["t"]), 0))
    arrays["t"] = arrays["t"][:, 0] if arrays["t"].size else np.zeros(0)
    return Results(meta, arrays)


@contextmanager
def _writing(folder):
    """Turn an operating-system error while writing results into a FemdynError naming the folder."""
    try:
        yield
    except OSError as err:
        raise FemdynError(f"cannot write results to '{folder}': {err.strerror or err}; choose a writable "
                          "output folder") from None


def _stack(rows, width):
    """Rows (1-D arrays of ``width`` values) as an (n, width) array (np.asarray on a list of
    arrays converts element by element: many times slower than concatenating)."""
    if width == 0 or not rows:
        return np.zeros((len(rows), width))
    return np.concatenate(rows).reshape(-1, width)
