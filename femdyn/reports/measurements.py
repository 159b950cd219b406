"""Measured strain data and gauge maps: time-history CSV (first column time, s or ms; one column
per channel, units in the header or the map; empty cells NaN), peaks-only CSV
(``channel,positive,negative[,unit]``), the data loggers' files (:mod:`.loggers`: TDMS, MDF 4,
UFF 58, HDF5; one dispatch by suffix, the same checks as CSV) and the TOML gauge map (keys:
docs/strain-reports.md).
"""
import csv
import os
import re
from dataclasses import dataclass, field

import numpy as np

from ..errors import FemdynError
from ..model.sensors import Gauge
from ..schema import Key, SchemaError, check_table, read_toml
from .bridge import BRIDGES, UNITS
from .loggers import READERS
from .metrics import METRICS

TIME_UNITS = {"s": 1.0, "ms": 1e-3}
_HEADER = re.compile(r"^\s*(.*?)\s*(?:[\[(]\s*([^\])]*?)\s*[\])])?\s*$")


@dataclass
class Histories:
    """Measured time histories."""

    t: np.ndarray
    channels: dict
    units: dict
    path: str


@dataclass
class Peaks:
    """Measured peaks only."""

    peaks: dict
    units: dict
    path: str


CSV_SUFFIXES = (".csv", ".txt")


def read_measurements(path):
    """Read a measurement file: time histories (Histories) or, from CSV, peaks only (Peaks).

    The format follows the suffix: CSV (``.csv``, ``.txt``), NI TDMS (``.tdms``), ASAM MDF 4
    (``.mf4``, ``.mdf``), Universal File Format dataset 58 (``.uff``, ``.unv``) or HDF5 (``.h5``,
    ``.hdf5``); channel names and units come from the file's own metadata (docs/strain-reports.md,
    section 3) and every format goes through the same checks.

    Parameters
    ----------
    path : str
        The measurement file; times in s or ms, strain in a unit of ``femdyn.reports.bridge.UNITS``.

    Returns
    -------
    Histories or Peaks
        Times in s, one array per channel and the channels' units (None where the file gives none).

    Raises
    ------
    FemdynError
        Missing file, unknown suffix, a reader library not installed (naming the pip package), no time
        column, an unknown time or channel unit, a cell that is not a number, channels of unequal length.
    """
    suffix = os.path.splitext(str(path))[1].lower()
    if suffix not in CSV_SUFFIXES and suffix not in READERS:
        raise FemdynError(f"measurement file '{path}': '{suffix or 'no suffix'}' is not a known format; give a "
                          f"{', '.join((*CSV_SUFFIXES, *READERS))} file")
    if not os.path.isfile(path):
        raise FemdynError(f"measurement file '{path}' " + ("is a folder; give the file" if os.path.isdir(path)
                                                           else "not found"))
    if suffix in READERS:
        table = READERS[suffix](path)
        return _histories(path, table.t, table.time_unit, table.channels)
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].lstrip().startswith("#")]
    if len(rows) < 2:
        raise FemdynError(f"measurement file '{path}' has no data rows below its header")
    header = [_split_header(h) for h in rows[0]]
    for k, r in enumerate(rows[1:], start=2):
        if len(r) != len(header):
            raise FemdynError(f"measurement file '{path}', line {k}: {len(r)} cells, the header has {len(header)}")
    if header[0][0].lower() == "channel":
        return _peaks(path, header, rows[1:])
    name, unit = header[0]
    if name.lower() not in ("t", "time"):
        raise FemdynError(f"measurement file '{path}': the first column must be time ('t [s]' or 'time [ms]'), "
                          f"found '{rows[0][0]}'; for peaks only, start the header with 'channel'")
    data = np.array([[_number(c, path, k, j) for j, c in enumerate(r)] for k, r in enumerate(rows[1:], start=2)])
    return _histories(path, data[:, 0], unit or "s", [(n, u, data[:, j + 1]) for j, (n, u) in enumerate(header[1:])])


def _histories(path, t, time_unit, columns):
    """Histories from a time column and (name, unit, values) columns, with the checks shared by every format."""
    if time_unit not in TIME_UNITS:
        raise FemdynError(f"measurement file '{path}': time unit '{time_unit}' is not known; use s or ms")
    if not columns:
        raise FemdynError(f"measurement file '{path}' has no channels besides time")
    t = _floats(t, path, "time")
    channels = {}
    for name, unit, values in columns:
        _check_unit(unit, f"channel '{name}' in '{path}'")
        channels[name] = _floats(values, path, f"channel '{name}'")
        if channels[name].shape != t.shape:
            raise FemdynError(f"measurement file '{path}': channel '{name}' has {channels[name].size} samples, "
                              f"time has {t.size}; every channel needs one sample per time")
    return Histories(t * TIME_UNITS[time_unit], channels, {n: u for n, u, _ in columns}, path)


def _floats(values, path, what):
    """A column as a 1-D float array; the error names the file and the column."""
    try:
        return np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise FemdynError(f"measurement file '{path}': {what} is not numeric") from None


def _peaks(path, header, rows):
    """A Peaks from the rows of a peaks-only CSV."""
    columns = [h[0].lower() for h in header]
    if columns[:3] != ["channel", "positive", "negative"] or len(columns) > 4 or columns[3:] not in ([], ["unit"]):
        raise FemdynError(f"peaks file '{path}': the header must be 'channel,positive,negative' with an optional "
                          f"',unit', found {','.join(columns)}")
    peaks, units = {}, {}
    for k, r in enumerate(rows, start=2):
        name = r[0].strip()
        peaks[name] = (_number(r[1], path, k, 1), _number(r[2], path, k, 2))
        units[name] = _check_unit(r[3].strip() if len(r) > 3 else None, f"channel '{name}' in '{path}'")
    return Peaks(peaks, units, path)


def _split_header(text):
    """(name, unit or None) of a column header such as ``SG1 [mV/V]``."""
    name, unit = _HEADER.match(text).groups()
    return name, unit or None


def _check_unit(unit, what):
    """The unit, refused when bridges and gauges do not know it."""
    if unit is not None and unit not in UNITS:
        raise FemdynError(f"{what}: unit '{unit}' is not known; use one of {list(UNITS)}")
    return unit


def _number(cell, path, line, column):
    """The float in a CSV cell (empty or 'nan': NaN); the error names file, line and column."""
    cell = cell.strip()
    if cell == "" or cell.lower() == "nan":
        return float("nan")
    try:
        return float(cell)
    except ValueError:
        raise FemdynError(f"measurement file '{path}', line {line}, column {column + 1}: '{cell}' is not a "
                          "number") from None


def channel_unit(data, channel, map_unit):
    """The unit of a measured channel: the header's and the map's must agree; one must be given.
    """
    known = data.channels if isinstance(data, Histories) else data.peaks
    if channel not in known:
        raise FemdynError(f"channel '{channel}' is not in '{data.path}'; its channels are {list(known)}")
    header = data.units.get(channel)
    if header and map_unit and header != map_unit:
        raise FemdynError(f"channel '{channel}': units do not match: '{data.path}' says {header}, the gauge map "
                          f"says {map_unit}; correct one of them")
    unit = header or map_unit
    if unit is None:
        raise FemdynError(f"channel '{channel}' has no unit: write it in the header ('{channel} [µε]') or as "
                          "unit = \"...\" in its gauge-map entry")
    return unit


@dataclass
class ComparisonSettings:
    """``[comparison]`` settings of a gauge map (see docs/strain-reports.md)."""

    window: tuple = None
    cutoff: float = None
    max_lag: float = 0.0
    dt: float = None
    balance_time: float = None
    filter_simulation: bool = True
    link_length: float = None
    title: str = "Strain-gauge comparison"


@dataclass
class MapEntry:
    """One ``[gauges.NAME]`` table of a gauge map."""

    name: str
    channel: str
    gauge: Gauge = None
    unit: str = None
    gauge_factor: float = None
    bridge: str = None
    simulated: str = None
    tolerances: dict = field(default_factory=dict)


@dataclass
class GaugeMap:
    """A gauge map read from TOML (:func:`read_gauge_map`).

    Parameters
    ----------
    comparison : ComparisonSettings
        The ``[comparison]`` settings.
    entries : list of MapEntry
        One per ``[gauges.NAME]`` table.
    rosettes : dict
        Rosette name → list of three gauge names.
    path : str
        The file read.
    """

    comparison: ComparisonSettings
    entries: list
    rosettes: dict
    path: str

    def gauges(self):
        """The :class:`~femdyn.reports.gauges.Gauge` of every entry that defines one."""
        return [e.gauge for e in self.entries if e.gauge is not None]


_COMPARISON = {"window": None, "cutoff": float, "max_lag": float, "dt": float, "balance_time": float,
               "filter_simulation": bool, "link_length": float, "title": str}
_GEOMETRY = {"beam": str, "node": str, "distance": float, "wall_angle_deg": float, "direction_deg": float,
             "grid_length": float, "grid_points": int, "poisson": float}
_ENTRY = {**_GEOMETRY, "channel": Key(str, required=True, hint="the measured column it is compared with"),
          "unit": str, "gauge_factor": float, "bridge": str, "simulated": str, "tolerances": dict}


def read_gauge_map(path):
    """Read a gauge map (TOML); unknown tables or keys are refused, naming them and the known ones.

    Parameters
    ----------
    path : str
        The TOML file.
    """
    doc = read_toml(path, "gauge map")
    where = f"gauge map '{path}'"
    check_table(doc, {"comparison": dict, "tolerances": dict, "gauges": dict, "rosettes": dict}, where)
    comparison = check_table(doc.get("comparison", {}), _COMPARISON, where, "comparison.")
    if "window" in comparison:
        w = comparison["window"]
        if not (isinstance(w, list) and len(w) == 2 and w[1] > w[0]):
            raise SchemaError(f"{where}: comparison.window must be [t_start, t_end] in s with t_end > t_start")
        comparison["window"] = tuple(float(x) for x in w)
    defaults = _tolerances(doc.get("tolerances", {}), where, "tolerances.")
    gauges = doc.get("gauges", {})
    if not gauges:
        raise SchemaError(f"{where}: no [gauges.NAME] tables; add one per gauge with at least channel = \"...\"")
    entries = [_entry(name, table, defaults, where) for name, table in gauges.items()]
    rosettes = {}
    for name, table in doc.get("rosettes", {}).items():
        members = check_table(table, {"gauges": list}, where, f"rosettes.{name}.").get("gauges", [])
        unknown = [g for g in members if g not in gauges]
        if len(members) != 3 or unknown:
            raise SchemaError(f"{where}: rosettes.{name}.gauges needs three names of [gauges.*] tables"
                              + (f"; unknown: {unknown}" if unknown else ""))
        rosettes[name] = list(members)
    return GaugeMap(ComparisonSettings(**comparison), entries, rosettes, path)


def _entry(name, table, defaults, where):
    """The :class:`MapEntry` of the table ``[gauges.name]``."""
    label = f"gauges.{name}."
    table = check_table(table, _ENTRY, where, label)
    geometry = {k: table[k] for k in _GEOMETRY if k in table}
    gauge = None
    if geometry:
        missing = [k for k in ("beam", "node", "distance") if k not in geometry]
        if missing:
            raise SchemaError(f"{where}: [gauges.{name}] gives gauge geometry but lacks {missing}")
        gauge = Gauge(name, **geometry)
    if table.get("bridge") is not None and table["bridge"] not in BRIDGES:
        raise SchemaError(f"{where}: {label}bridge = {table['bridge']!r}; choose one of {list(BRIDGES)}")
    tolerances = {**defaults, **_tolerances(table.get("tolerances", {}), where, f"{label}tolerances.")}
    return MapEntry(name, table["channel"], gauge, table.get("unit"), table.get("gauge_factor"), table.get("bridge"),
                    table.get("simulated", f"{name}.strain"), tolerances)


def _tolerances(table, where, prefix):
    """A tolerances table: metric name → finite number."""
    table = check_table(table, dict.fromkeys(METRICS, float), where, prefix)
    for k, v in table.items():
        if not np.isfinite(v):
            raise SchemaError(f"{where}: {prefix}{k} = {v!r} must be a finite number")
    return table
