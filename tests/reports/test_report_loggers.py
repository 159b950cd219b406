"""Data-logger files (NI TDMS, ASAM MDF 4, UFF dataset 58, HDF5) written with their own
libraries and read back by ``read_measurements``: channels, units and time from the file's
metadata, and the same checks and messages as CSV (missing channel, unit missing or wrong,
NaN samples, unknown suffix, missing library)."""
import sys

import numpy as np
import pytest

from femdyn.errors import FemdynError
from femdyn.reports.measurements import Histories, channel_unit, read_measurements
from femdyn.reports.signals import check_samples

from support.loggers import WRITERS

T = np.arange(50) * 1e-3                           # s, 1 kHz
SG1 = 100 * np.sin(2 * np.pi * 10 * T)             # µε
SG2 = 0.2 * np.cos(2 * np.pi * 10 * T)             # mV/V


UNIT = "ue"                                        # a strain unit every format stores (UFF labels are ASCII)


def written(tmp_path, suffix, channels):
    path = tmp_path / f"m{suffix}"
    WRITERS[suffix](path, channels, T)
    return str(path)


@pytest.fixture(params=list(WRITERS))
def suffix(request):
    return request.param


def test_channels_units_and_time_from_the_files_metadata(tmp_path, suffix):
    data = read_measurements(written(tmp_path, suffix, [("SG1", UNIT, SG1), ("SG2", "mV/V", SG2)]))
    assert isinstance(data, Histories)
    assert data.units == {"SG1": UNIT, "SG2": "mV/V"}
    np.testing.assert_allclose(data.t, T, rtol=0, atol=1e-12)                      # s
    np.testing.assert_allclose(data.channels["SG1"], SG1, rtol=1e-9, atol=1e-9)    # UFF ASCII keeps 12 digits
    np.testing.assert_allclose(data.channels["SG2"], SG2, rtol=1e-9, atol=1e-12)


def test_a_channel_the_map_names_but_the_file_lacks_is_refused_naming_both(tmp_path, suffix):
    data = read_measurements(written(tmp_path, suffix, [("SG1", UNIT, SG1)]))
    with pytest.raises(FemdynError, match=r"channel 'SG9' is not in '.*m\..*'; its channels are \['SG1'\]"):
        channel_unit(data, "SG9", None)


def test_unit_missing_from_the_file_comes_from_the_map_or_is_refused(tmp_path, suffix):
    data = read_measurements(written(tmp_path, suffix, [("SG1", None, SG1)]))
    assert data.units["SG1"] is None and channel_unit(data, "SG1", "µε") == "µε"
    with pytest.raises(FemdynError, match="channel 'SG1' has no unit"):
        channel_unit(data, "SG1", None)


def test_unit_disagreeing_with_the_map_or_unknown_is_refused(tmp_path, suffix):
    data = read_measurements(written(tmp_path, suffix, [("SG1", "mV/V", SG1)]))
    with pytest.raises(FemdynError, match="channel 'SG1': units do not match: .* says mV/V, the gauge map says µε"):
        channel_unit(data, "SG1", "µε")
    with pytest.raises(FemdynError, match=r"channel 'SG1' in '.*': unit 'psi' is not known"):
        read_measurements(written(tmp_path, suffix, [("SG1", "psi", SG1)]))


def test_nan_samples_are_kept_and_reported_as_in_csv(tmp_path, suffix):
    values = SG1.copy()
    values[[7, 8]] = np.nan
    data = read_measurements(written(tmp_path, suffix, [("SG1", UNIT, values)]))
    assert np.isnan(data.channels["SG1"]).sum() == 2
    _, _, warnings = check_samples(data.t, data.channels["SG1"], "SG1")
    assert warnings == ["channel 'SG1': 2 NaN or empty samples (first at t = 0.007 s) dropped; the comparison "
                        "interpolates across them"]


def test_time_in_ms_and_no_time_channel_in_hdf5(tmp_path):
    import h5py
    path = tmp_path / "m.h5"
    with h5py.File(path, "w") as f:
        f["run/t"] = T * 1e3
        f["run/t"].attrs["unit"] = "ms"
        f["run/SG1"] = SG1
        f["run/SG1"].attrs["units"] = np.bytes_(UNIT)
    data = read_measurements(str(path))
    np.testing.assert_allclose(data.t, T, atol=1e-15)
    assert data.units == {"run/SG1": UNIT}
    with h5py.File(path, "w") as f:
        f["SG1"] = SG1
    with pytest.raises(FemdynError, match="has no time channel; name it 't' or 'time'"):
        read_measurements(str(path))
    with h5py.File(path, "w") as f:
        f["t"] = T
        f["t"].attrs["unit"] = "min"
        f["SG1"] = SG1
    with pytest.raises(FemdynError, match="time unit 'min' is not known; use s or ms"):
        read_measurements(str(path))


def test_channels_on_different_time_bases_are_refused(tmp_path):
    import pyuff
    path = tmp_path / "m.uff"
    sets = [pyuff.prepare_58(func_type=1, id1=name, rsp_node=1, rsp_dir=1, ref_node=0, ref_dir=0, data=SG1, x=x,
                             abscissa_spec_data_type=17, abscissa_axis_units_lab="s", ordinate_spec_data_type=0,
                             ordinate_axis_units_lab=UNIT, orddenom_spec_data_type=0, z_axis_spec_data_type=0,
                             binary=0) for name, x in (("SG1", T), ("SG2", 2 * T))]
    pyuff.UFF(str(path)).write_sets(sets, mode="overwrite")
    with pytest.raises(FemdynError, match="'SG1' .* and 'SG2' .* are sampled at different times"):
        read_measurements(str(path))


def test_unknown_suffix_and_missing_file(tmp_path):
    (tmp_path / "m.xlsx").write_bytes(b"PK\x03\x04")
    with pytest.raises(FemdynError, match=r"'\.xlsx' is not a known format; give a \.csv, .*\.tdms"):
        read_measurements(str(tmp_path / "m.xlsx"))
    with pytest.raises(FemdynError, match="'.*nothing.tdms' not found"):
        read_measurements(str(tmp_path / "nothing.tdms"))


@pytest.mark.parametrize("suffix, module, package", [(".tdms", "nptdms", "npTDMS"), (".mf4", "asammdf", "asammdf"),
                                                     (".uff", "pyuff", "pyuff"), (".h5", "h5py", "h5py")])
def test_a_missing_reader_library_is_named_with_its_pip_package(tmp_path, monkeypatch, suffix, module, package):
    path = written(tmp_path, suffix, [("SG1", UNIT, SG1)])
    monkeypatch.setitem(sys.modules, module, None)                                 # import now fails
    with pytest.raises(FemdynError, match=f"needs the Python package {package}.*pip install {package}"):
        read_measurements(path)
