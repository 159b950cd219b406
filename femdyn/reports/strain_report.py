"""The whole strain-gauge comparison: results, measurements and gauge map to per-gauge
histories, metrics and verdicts (:func:`compare`), then the report folder (:func:`write_report`:
``report.html``, ``report.pdf``, ``metrics.json``). The order of the signal operations (unit,
resampling, low-pass, lag, zero-balance, window) is explained in docs/strain-reports.md.
"""
import json
import os
import re
from dataclasses import dataclass, field

import numpy as np

from ..errors import FemdynError
from ..results.store import load
from .bridge import to_strain
from .gauges import principal_strains
from .measurements import Histories, channel_unit, read_gauge_map, read_measurements
from .metrics import history_metrics, meaningful, peak_metrics, verdicts
from .signals import check_samples, common_grid, estimate_lag, lowpass, zero_balance


@dataclass
class GaugeResult:
    """One compared gauge of a strain report."""

    name: str
    channel: str
    unit: str
    t: np.ndarray
    simulated: np.ndarray
    measured: np.ndarray = None
    metrics: dict = field(default_factory=dict)
    verdicts: dict = field(default_factory=dict)
    tolerances: dict = field(default_factory=dict)

    @property
    def passed(self):
        return all(self.verdicts.values())

    @property
    def judged(self):
        """Whether one of the gauge's tolerances can fail (:func:`~.metrics.meaningful`)."""
        return any(meaningful(k, t) for k, t in self.tolerances.items())


@dataclass
class Comparison:
    """Everything a strain report shows.

    Parameters
    ----------
    title : str
        Report title.
    gauges : list of GaugeResult
        Compared gauges, rosette principal strains appended as ``<rosette>.eps1``/``.eps2``.
    lag : float
        Time by which the measurement lags the simulation, s.
    settings, meta : dict
        The comparison settings used and the run's metadata.
    warnings : list of str
        What the reader should know (gaps bridged, samples dropped, …).
    link : dict
        Link length (m) or None, and the gauges' marks (:func:`link_geometry`).
    peaks_only : bool, optional
        Whether the measurement gives peaks only.
    """

    title: str
    gauges: list
    lag: float
    settings: dict
    warnings: list
    meta: dict
    link: dict
    peaks_only: bool = False

    @property
    def passed(self):
        return all(g.passed for g in self.gauges)

    @property
    def judged(self):
        """Whether some tolerance is meaningful (:func:`~.metrics.meaningful`); if none, no verdict is given."""
        return any(g.judged for g in self.gauges)

    @property
    def headline(self):
        """The verdict line of the report."""
        if not self.judged:
            return "no meaningful tolerance (each is 100 % or wider), so the numbers are shown without a verdict"
        return "all metrics within tolerance" if self.passed else "some metrics outside tolerance"

    def to_json(self):
        """The metrics and verdicts as a JSON-ready dict."""
        return {"title": self.title, "passed": self.passed, "lag_s": self.lag, "peaks_only": self.peaks_only,
                "settings": self.settings, "warnings": self.warnings,
                "gauges": {g.name: {"channel": g.channel, "unit": g.unit, "metrics": _finite(g.metrics),
                                    "tolerances": g.tolerances, "verdicts": g.verdicts, "passed": g.passed}
                           for g in self.gauges},
                "model": self.meta.get("model"), "solver": self.meta.get("solver", {})}


def strain_report(results_folder, measured_path, map_path, out, paper="A4"):
    """Compare a run with measurements and write the report folder; returns (Comparison, paths by kind).

    Parameters
    ----------
    results_folder : str
        A results folder written by ``integrate(..., output=...)``.
    measured_path : str
        Measurement CSV (time histories or peaks only).
    map_path : str
        Gauge map (TOML).
    out : str
        Report folder (created).
    paper : {"A4", "Letter"}
        Page size of the PDF.
    """
    comparison = compare(load(results_folder), read_measurements(measured_path), read_gauge_map(map_path))
    return comparison, write_report(comparison, out, paper)


def compare(results, data, gauge_map):
    """Process both sides and compute every metric: a :class:`Comparison`.

    Parameters
    ----------
    results : femdyn.results.store.Results
    data : femdyn.reports.measurements.Histories or Peaks
    gauge_map : femdyn.reports.measurements.GaugeMap
    """
    c = gauge_map.comparison
    link = link_geometry(results, gauge_map)
    warnings = [] if results.status == "completed" else [
        f"the run did not complete (status: {results.status}); the comparison uses the steps it recorded"]
    sims = {e.name: _simulated(results, e, c, warnings) for e in gauge_map.entries}
    settings = {"cutoff_Hz": c.cutoff, "window_s": list(c.window) if c.window else None, "max_lag_s": c.max_lag,
                "balance_time_s": c.balance_time, "measurement": os.path.basename(data.path),
                "gauge_map": os.path.basename(gauge_map.path)}
    if not isinstance(data, Histories):
        gauges = [_peaks_only(e, data, sims[e.name], c) for e in gauge_map.entries]
        if gauge_map.rosettes:
            warnings.append("rosettes need measured time histories; peaks-only data give no principal strains")
        return Comparison(c.title, gauges, 0.0, settings, warnings, results.meta, link, peaks_only=True)
    meas = {e.name: _measured(data, e, c, warnings) for e in gauge_map.entries}
    step = c.dt or min(min(np.median(np.diff(t)) for t, _ in sims.values()),
                       min(np.median(np.diff(t)) for t, _ in meas.values()))
    lag = _lag(sims, meas, step, c.max_lag)
    meas = {k: (t - lag, x) for k, (t, x) in meas.items()}
    if c.balance_time is not None:
        sims = {k: (t, zero_balance(t, x, c.balance_time)) for k, (t, x) in sims.items()}
        meas = {k: (t, zero_balance(t, x, c.balance_time)) for k, (t, x) in meas.items()}
    ranges = [(t[0], t[-1]) for t, _ in list(sims.values()) + list(meas.values())]
    grid = common_grid(ranges + ([c.window] if c.window else []), step)
    gauges = []
    for e in gauge_map.entries:
        s, m = np.interp(grid, *sims[e.name]), np.interp(grid, *meas[e.name])
        unit = channel_unit(data, e.channel, e.unit)
        gauges.append(_result(e.name, e.channel, unit, grid, s, m, e.tolerances))
    gauges += _rosettes(gauge_map, gauges)
    settings.update(step_s=step, lag_s=lag)
    return Comparison(c.title, gauges, lag, settings, warnings, results.meta, link)


def _result(name, channel, unit, t, s, m, tolerances):
    """One gauge's GaugeResult: metrics and verdicts of simulated against measured."""
    values = history_metrics(s, m)
    return GaugeResult(name, channel, unit, t, s, m, values, verdicts(values, tolerances), dict(tolerances))


def _simulated(results, entry, c, warnings):
    """The simulated history (t, strain) of a gauge-map entry, conditioned as the settings say."""
    if entry.simulated not in results.sensor_columns:
        raise FemdynError(f"gauge '{entry.name}': the results have no channel '{entry.simulated}'; declare the "
                          "gauge on the model before the run (Model.sensor_gauge with a femdyn.model.Gauge) or set "
                          f"simulated = \"<channel>\" in its gauge-map entry; strain channels in the results: "
                          f"{[n for n in results.sensor_columns if n.endswith('strain')]}")
    t, x = results.t, results[entry.simulated]
    if c.cutoff and c.filter_simulation:
        nyquist = 0.5 / np.median(np.diff(t))
        if c.cutoff < nyquist:
            x = lowpass(t, x, c.cutoff, what=f"the simulated channel '{entry.simulated}'")
        else:
            warnings.append(f"gauge '{entry.name}': simulated output (Nyquist {nyquist:.4g} Hz) is not filtered "
                            f"at {c.cutoff:g} Hz; record the run more often to filter both sides alike")
    return t, x


def _measured(data, entry, c, warnings):
    """The measured history (t, strain) of a gauge-map entry, converted and conditioned."""
    unit = channel_unit(data, entry.channel, entry.unit)
    t, x, found = check_samples(data.t, data.channels[entry.channel], entry.channel)
    warnings += found
    x = to_strain(x, unit, entry.channel, entry.gauge_factor, entry.bridge)
    dt = np.median(np.diff(t))
    uniform = t[0] + dt * np.arange(int(np.floor((t[-1] - t[0]) / dt + 1e-9)) + 1)
    x = np.interp(uniform, t, x)
    return uniform, (lowpass(uniform, x, c.cutoff, what=f"channel '{entry.channel}'") if c.cutoff else x)


def _lag(sims, meas, step, max_lag):
    """The common time lag (s) of measured against simulated, 0 without ``max_lag``."""
    if not max_lag:
        return 0.0
    ranges = [(t[0], t[-1]) for t, _ in list(sims.values()) + list(meas.values())]
    grid = common_grid(ranges, step)
    s = np.array([np.interp(grid, *sims[k]) for k in sims])
    m = np.array([np.interp(grid, *meas[k]) for k in sims])
    return float(estimate_lag(s, m, step, max_lag))


def _peaks_only(entry, data, sim, c):
    """The simulated peaks of an entry with no measured history."""
    t, x = sim
    if c.balance_time is not None:
        x = zero_balance(t, x, c.balance_time)
    if c.window:
        inside = (t >= c.window[0]) & (t <= c.window[1])
        if not inside.any():
            raise FemdynError(f"comparison window {c.window} s lies outside the run ({t[0]:.6g}…{t[-1]:.6g} s)")
        t, x = t[inside], x[inside]
    unit = channel_unit(data, entry.channel, entry.unit)
    measured = to_strain(np.array(data.peaks[entry.channel]), unit, entry.channel, entry.gauge_factor, entry.bridge)
    values = peak_metrics((x.max(), x.min()), measured)
    return GaugeResult(entry.name, entry.channel, unit, t, x, None, values, verdicts(values, entry.tolerances),
                       dict(entry.tolerances))


def _rosettes(gauge_map, gauges):
    """Principal strains of the gauge map's rosettes."""
    by_name = {g.name: g for g in gauges}
    entries = {e.name: e for e in gauge_map.entries}
    out = []
    for name, members in gauge_map.rosettes.items():
        missing = [g for g in members if entries[g].gauge is None]
        if missing:
            raise FemdynError(f"rosette '{name}': gauges {missing} have no direction_deg (give their geometry)")
        directions = [entries[g].gauge.direction_deg for g in members]
        sim = principal_strains([by_name[g].simulated for g in members], directions)
        meas = principal_strains([by_name[g].measured for g in members], directions)
        tol = entries[members[0]].tolerances
        t = by_name[members[0]].t
        for k, label in enumerate(("eps1", "eps2")):
            out.append(_result(f"{name}.{label}", "+".join(by_name[g].channel for g in members), "strain",
                               t, sim[k], meas[k], tol))
    return out


def link_geometry(results, gauge_map):
    """Length of the link and each gauge's mark, for the report's picture."""
    marks, length = [], gauge_map.comparison.link_length
    for e in gauge_map.entries:
        g = e.gauge
        if g is None:
            continue
        nodes = _beam_nodes(results.meta, results.q[0] if len(results.q) else None, g.beam)
        at_end = False
        if nodes is not None:
            length = float(np.sum(np.linalg.norm(np.diff(nodes[1], axis=0), axis=1)))
            at_end = g.node == f"{g.beam}.{nodes[0][-1]}"
        s = length - g.distance if at_end and length else g.distance
        if length and not (0 <= s - g.grid_length / 2 and s + g.grid_length / 2 <= length + 1e-12):
            raise FemdynError(f"gauge '{g.name}' is off the link: {g.distance:g} m from '{g.node}' with a "
                              f"{g.grid_length:g} m grid on a {length:.6g} m link; correct its distance")
        marks.append({"name": g.name, "position": float(s), "wall_angle_deg": g.wall_angle_deg,
                      "direction_deg": g.direction_deg, "grid_length": g.grid_length, "node": g.node})
    return {"length": length, "marks": marks}


def _beam_nodes(meta, q0, beam):
    """(indices, positions) of the nodes named ``<beam>.<i>`` in the run, or None."""
    if q0 is None:
        return None
    pattern = re.compile(rf"^{re.escape(beam)}\.(\d+)\.rx$")
    found = sorted((int(m.group(1)), k) for k, lab in enumerate(meta["coordinates"]) if (m := pattern.match(lab)))
    if len(found) < 2:
        return None
    return [i for i, _ in found], np.array([q0[k:k + 3] for _, k in found])


def write_report(comparison, out, paper="A4"):
    """Write ``report.html``, ``report.pdf`` and ``metrics.json`` into a folder; returns the paths by kind.

    Parameters
    ----------
    comparison : Comparison
    out : str or path-like
        Output folder (created).
    paper : {"A4", "Letter"}
        Page size of the PDF (printed from the HTML page by headless Chromium).
    """
    from .html import write_html
    from .pdf import browser, print_pdf

    browser()                                           # missing Chromium: an error before anything is written
    os.makedirs(out, exist_ok=True)
    paths = {"html": os.path.join(out, "report.html"), "pdf": os.path.join(out, "report.pdf"),
             "json": os.path.join(out, "metrics.json")}
    write_html(comparison, paths["html"], paper)
    print_pdf(paths["html"], paths["pdf"])
    with open(paths["json"], "w") as f:
        json.dump(comparison.to_json(), f, indent=1)
    return paths


def _finite(values):
    """The values with NaN and infinities as None (JSON)."""
    return {k: (v if np.isfinite(v) else None) for k, v in values.items()}

