"""Results of a run: :class:`ResultsWriter` appends each step to raw float64 files beside
``meta.json``, flushing every few steps and on failure; :func:`load` reads them back.
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
REJECTION_GAP = 10          # rejected steps at most this many steps apart share one time range of the summary


class Results:
    """Arrays of a run: ``t``, ``q``, ``v``, ``a``, ``lam``, ``sensors``, ``steps``, ``iterations``.

    ``results[name]`` gives a sensor channel (angles unwrapped), a step column (``STEP_COLUMNS``),
    ``"energy"`` (J) or a coordinate label such as ``"A.rx"``; symbols: docs/conventions.md.

    Parameters
    ----------
    meta, arrays : dict
        Run description (labels, joint rows, sensor columns, settings, status, events); one
        array per name of ``SERIES``, a row per recorded step.
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
    def rejected(self):
        """The user's steps rejected and covered by halved steps: {"steps", "halvings", "ranges"} (ranges: [t₀, t₁] in s)."""
        return self.meta.get("rejected") or rejections(self.events, self.meta.get("solver", {}).get("h"))

    @property
    def steps_taken(self):
        """How the steps were chosen: {"control": "fixed" or "tolerance", "accepted", "rejected", "newton_failures",
        "smallest", "largest" (s)}; empty for results written before the counts were kept."""
        return self.meta.get("steps") or {}

    @property
    def run_summary(self):
        """One line on how the run went: its status, how its steps were chosen and, if any, the rejected steps."""
        retried = self.steps_taken.get("control") == "tolerance"     # rejections are the controller's business
        return f"{self.meta.get('model', 'run')}: {self.status}" + steps_note(self.steps_taken) + \
            ("" if retried else rejection_note(self.rejected))

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
        """Lagrange multipliers λ of a joint's rows, (k, rows), as solved (reactions: ``Model.sensor_reaction``).

        Parameters
        ----------
        joint : str
            Joint name; FemdynError if the model has none of that name.
        """
        rows = self.meta["joint_rows"].get(joint)
        if rows is None:
            raise FemdynError(f"no joint '{joint}' in these results; joints: {list(self.meta['joint_rows'])}")
        return self.lam[:, rows]

    def to_csv(self, path, channels):
        """Write ``t`` and the chosen channels to a CSV file; returns ``path``.

        Parameters
        ----------
        path : str or os.PathLike
            The file (overwritten).
        channels : sequence of str
            Names accepted by ``results[name]``; FemdynError if one is unknown.
        """
        data = np.column_stack([self.t] + [self[c] for c in channels])
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["t"] + list(channels))
            w.writerows(data.tolist())
        return path


class ResultsWriter:
    """Collects a solver's steps and appends them to ``folder`` every ``flush_every`` steps (None: memory only)."""

    def __init__(self, system, folder=None, solver=None, flush_every=50):
        self.folder, self.flush_every = folder, flush_every
        self.sensors, self._readers = system.sensors, None
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
               "sensors": self._read_sensors(q, v, a, lam, t) if self.sensors else [],
               "steps": step_stats}
        for key, val in row.items():
            self._append(key, np.asarray(val, float).copy())
        if len(self.pending["t"]) >= self.flush_every:
            self.flush()

    def _read_sensors(self, q, v, a, lam, t):
        """The sensors' values in column order, the sensors of each class read by one reader (``Sensor.reader``)."""
        if self._readers is None:
            classes = {}
            for i, s in enumerate(self.sensors):
                classes.setdefault(type(s), []).append(i)
            self._readers = [getattr(kind, "reader", measuring)([self.sensors[i] for i in members])
                             for kind, members in classes.items()]
            ends = np.cumsum([0] + [len(s.columns) for s in self.sensors])
            position = np.concatenate([np.arange(ends[i], ends[i + 1]) for members in classes.values() for i in members])
            self._order = None if len(classes) == 1 else np.argsort(position)
        values = np.concatenate([read(q, v, a, lam, t) for read in self._readers])
        return values if self._order is None else values[self._order]

    def add_event(self, event):
        """Keep a solver event (a dict with at least "t" and "event") in ``meta.json``."""
        self.meta["events"].append({k: (float(v) if isinstance(v, (np.floating, np.integer)) else v)
                                    for k, v in event.items()})

    def add_iterations(self, rows):
        """Record one step's Newton history: (step, iteration, dynamic, constraint residual) rows."""
        if len(rows):
            self._append("iterations", np.asarray(rows, float).ravel())     # one block per step

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
        """Finish with ``status``: flush, rewrite ``meta.json``, return the :class:`Results`."""
        self.meta["status"] = status
        self.meta["rejected"] = rejections(self.meta["events"], self.meta["solver"].get("h"))
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
    """Read a results folder written by :class:`ResultsWriter` (up to its last flush) as :class:`Results`.

    Parameters
    ----------
    folder : str or os.PathLike
        The output folder of a run; FemdynError if it holds no ``meta.json``.
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


def rejections(events, h=None):
    """{"steps", "halvings", "ranges"}: user's steps rejected, bisections, and [t₀, t₁] (s) of runs of rejected steps
    no more than ``REJECTION_GAP`` steps of h apart (events of :func:`~femdyn.solvers.generalized_alpha.integrate`)."""
    rejected = [e for e in events if e.get("event") == "step rejected"]
    times = sorted({e["t"] for e in rejected if not e.get("depth")})
    gap = REJECTION_GAP * (h or 0.0)
    ranges = []
    for t in times:
        if ranges and t - ranges[-1][1] <= gap:
            ranges[-1][1] = t
        else:
            ranges.append([t, t])
    return {"steps": len(times), "halvings": len(rejected), "ranges": ranges}


def rejection_note(rejected, shown=4):
    """'; N steps rejected …' naming up to ``shown`` time ranges, or '' when no step was rejected."""
    if not rejected["steps"]:
        return ""
    spans = [f"{a:.4g} s" if a == b else f"{a:.4g}–{b:.4g} s" for a, b in rejected["ranges"][:shown]]
    more = len(rejected["ranges"]) - shown
    return (f"; {rejected['steps']} steps rejected and covered by halved steps ({rejected['halvings']} bisections) "
            f"at t = {', '.join(spans)}" + (f" and {more} more ranges" if more > 0 else "") + " (Results.events)")


def steps_note(steps):
    """' (fixed step: N steps accepted, R rejected, h from … to … s)', or '' without counts."""
    if not steps.get("accepted"):
        return ""
    span = (f"h = {steps['largest']:.4g} s" if steps["smallest"] == steps["largest"] else
            f"h from {steps['smallest']:.3g} to {steps['largest']:.3g} s")
    control = "fixed step" if steps["control"] == "fixed" else "error-controlled step"
    return f" ({control}: {steps['accepted']} steps accepted, {steps['rejected']} rejected, {span})"


def measuring(sensors):
    """A reader that calls each sensor's ``measure`` (sensors whose class has no ``reader`` of its own)."""
    return lambda q, v, a, lam, t: np.concatenate([np.atleast_1d(s.measure(q, v, a, lam, t)) for s in sensors])


@contextmanager
def _writing(folder):
    """Turn an operating-system error while writing results into a FemdynError naming the folder."""
    try:
        yield
    except OSError as err:
        raise FemdynError(f"cannot write results to '{folder}': {err.strerror or err}; choose a writable "
                          "output folder") from None


def _stack(rows, width):
    """Rows of ``width`` values as an (n, width) array (concatenate: np.asarray on a list is far slower)."""
    if width == 0 or not rows:
        return np.zeros((len(rows), width))
    return np.concatenate(rows).reshape(-1, width)
