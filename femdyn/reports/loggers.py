"""Readers of data-logger files: NI TDMS (npTDMS), ASAM MDF 4 (asammdf), Universal File Format
dataset 58 (pyuff) and HDF5 (h5py). Each returns the file's raw table — time column, its unit,
and (name, unit, values) per channel, names and units from the file's own metadata — and
:func:`femdyn.reports.measurements.read_measurements` checks it as it checks a CSV file.
"""
import importlib
from dataclasses import dataclass

import numpy as np

from ..errors import FemdynError

TIME_NAMES = ("t", "time")   # a channel of this name (any case) is the time column


@dataclass
class Table:
    """A logger file's time column and channels before the checks shared with CSV."""

    t: np.ndarray
    time_unit: str
    channels: list   # (name, unit or None, values)


def _library(module, package, path):
    """The reader's library, or a femdyn error naming the pip package."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise FemdynError(f"measurement file '{path}': reading it needs the Python package {package}, which is "
                          f"not installed; install it with: pip install {package}") from None


def _unit(text):
    """A unit label from file metadata: None when empty or a placeholder."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = str(text).strip() if text is not None else ""
    return None if text.upper() in ("", "NONE") else text


def _split_time(path, columns, fallback=None):
    """(t, time unit, other channels) from (name, unit, values) columns: the time channel by name, else ``fallback``."""
    times = [c for c in columns if c[0].lower() in TIME_NAMES]
    if len(times) > 1:
        raise FemdynError(f"measurement file '{path}' has {len(times)} time channels "
                          f"({', '.join(c[0] for c in times)}); keep one")
    rest = [c for c in columns if c[0].lower() not in TIME_NAMES]
    if times:
        return times[0][2], times[0][1] or "s", rest
    if fallback is None:
        raise FemdynError(f"measurement file '{path}' has no time channel; name it 't' or 'time' (unit s or ms)")
    return fallback, "s", rest


def _one_time_base(path, tracks):
    """The common time track of the channels {name: t}; refused when they differ."""
    names = list(tracks)
    t = np.asarray(tracks[names[0]], float)
    for n in names[1:]:
        other = np.asarray(tracks[n], float)
        if other.shape != t.shape or not np.allclose(other, t, rtol=0, atol=1e-12 * max(1.0, np.abs(t).max())):
            raise FemdynError(f"measurement file '{path}': channels '{names[0]}' ({t.size} samples) and '{n}' "
                              f"({other.size} samples) are sampled at different times; export them on one time base")
    return t


def _read_tdms(path):
    """NI TDMS: all channels of all groups, units from ``unit_string``, time from 't'/'time' or the waveform (s)."""
    tdms = _library("nptdms", "npTDMS", path)
    columns, tracks = [], {}
    for group in tdms.TdmsFile.read(path).groups():
        for ch in group.channels():
            columns.append((ch.name, _unit(ch.properties.get("unit_string")), ch[:]))
            if "wf_increment" in ch.properties:
                tracks[ch.name] = ch.time_track()
    _unique(path, [c[0] for c in columns])
    t, unit, rest = _split_time(path, columns, _one_time_base(path, tracks) if tracks else None)
    return Table(t, unit, rest)


def _read_mdf(path):
    """ASAM MDF 4 (and 3): every channel but the masters, units from the channel, time from the master (s)."""
    asammdf = _library("asammdf", "asammdf", path)
    mdf = asammdf.MDF(path)
    try:
        masters = {(g, i) for g, i in mdf.masters_db.items()}
        columns, tracks = [], {}
        for name, places in mdf.channels_db.items():
            for g, i in places:
                if (g, i) in masters:
                    continue
                s = mdf.get(name, g, i)
                columns.append((name, _unit(s.unit), s.samples))
                tracks[name] = s.timestamps
    finally:
        mdf.close()
    if not columns:
        raise FemdynError(f"measurement file '{path}' has no channels besides time")
    _unique(path, [c[0] for c in columns])
    return Table(_one_time_base(path, tracks), "s", columns)


def _read_uff(path):
    """UFF dataset 58: one channel per time history, named by ID line 1, units from the axis labels."""
    pyuff = _library("pyuff", "pyuff", path)
    sets = pyuff.UFF(path).read_sets()
    sets = [d for d in ([sets] if isinstance(sets, dict) else sets) if d.get("type") == 58]   # one set: a dict
    if not sets:
        raise FemdynError(f"measurement file '{path}' holds no dataset 58 (time histories)")
    columns, tracks, units = [], {}, set()
    for d in sets:
        name = (d.get("id1") or "").strip()
        if not name or name.upper() == "NONE":
            name = f"{d.get('rsp_node')}:{d.get('rsp_dir')}"
        if d.get("abscissa_spec_data_type") not in (0, 17):
            raise FemdynError(f"measurement file '{path}': dataset 58 '{name}' is not a time history (abscissa type "
                              f"{d.get('abscissa_spec_data_type')}, 17 is time); export time histories")
        columns.append((name, _unit(d.get("ordinate_axis_units_lab")), np.real(d["data"])))
        tracks[name] = d["x"]
        units.add(_unit(d.get("abscissa_axis_units_lab")) or "s")
    _unique(path, [c[0] for c in columns])
    if len(units) > 1:
        raise FemdynError(f"measurement file '{path}': the datasets give time in {sorted(units)}; use one unit")
    return Table(_one_time_base(path, tracks), units.pop(), columns)


def _read_hdf5(path):
    """HDF5: each 1-D numeric dataset a channel (by path), unit from its ``unit``/``units`` attribute."""
    h5py = _library("h5py", "h5py", path)
    columns = []

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset) and obj.ndim == 1 and obj.dtype.kind in "fiu":
            columns.append((name.rsplit("/", 1)[-1] if name.rsplit("/", 1)[-1].lower() in TIME_NAMES else name,
                            _unit(obj.attrs.get("unit", obj.attrs.get("units"))), obj[()]))

    with h5py.File(path, "r") as f:
        f.visititems(visit)
    _unique(path, [c[0] for c in columns])
    t, unit, rest = _split_time(path, columns)
    return Table(t, unit, rest)


def _unique(path, names):
    """Refuse a channel name given twice (in two groups of one file)."""
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise FemdynError(f"measurement file '{path}': channel names {twice} appear more than once; rename them "
                          "so that the gauge map can name each")


READERS = {".tdms": _read_tdms, ".mf4": _read_mdf, ".mdf": _read_mdf, ".uff": _read_uff,
           ".unv": _read_uff, ".h5": _read_hdf5, ".hdf5": _read_hdf5}
