"""Measurement CSV, peaks-only CSV and gauge-map TOML readers: values, units, and errors
that name the file, table, key or channel."""
import pytest

from femdyn.errors import FemdynError
from femdyn.reports.measurements import Histories, Peaks, channel_unit, read_gauge_map, read_measurements


def write(path, text):
    path.write_text(text)
    return str(path)


def test_histories_with_units_in_the_header_and_time_in_ms(tmp_path):
    f = write(tmp_path / "m.csv", "# rig 3\ntime [ms],SG1 [mV/V],SG2 (µε),SG3\n0,0.1,5,1\n1,0.2,,2\n2,0.3,7,3\n")
    data = read_measurements(f)
    assert isinstance(data, Histories)
    assert data.t.tolist() == [0.0, 1e-3, 2e-3]
    assert data.units == {"SG1": "mV/V", "SG2": "µε", "SG3": None}
    assert data.channels["SG1"].tolist() == [0.1, 0.2, 0.3]
    assert str(data.channels["SG2"][1]) == "nan"                                    # empty cell


def test_peaks_only_file(tmp_path):
    f = write(tmp_path / "p.csv", "channel,positive,negative,unit\nS1,9.655,-12.739,µε\nS2,4.692,-5.425,µε\n")
    data = read_measurements(f)
    assert isinstance(data, Peaks) and data.peaks["S2"] == (4.692, -5.425) and data.units["S1"] == "µε"


def test_unit_checks_name_the_channel(tmp_path):
    data = read_measurements(write(tmp_path / "m.csv", "t,SG1 [mV/V],SG2\n0,1,2\n1,2,3\n"))
    assert channel_unit(data, "SG1", None) == "mV/V" and channel_unit(data, "SG2", "µε") == "µε"
    with pytest.raises(FemdynError, match="channel 'SG1': units do not match: .* says mV/V, the gauge map says µε"):
        channel_unit(data, "SG1", "µε")
    with pytest.raises(FemdynError, match="channel 'SG2' has no unit"):
        channel_unit(data, "SG2", None)
    with pytest.raises(FemdynError, match=r"channel 'SG9' is not in .*\['SG1', 'SG2'\]"):
        channel_unit(data, "SG9", None)


@pytest.mark.parametrize("text, message", [
    ("x,SG1\n0,1\n", "first column must be time"),
    ("t,SG1 [psi]\n0,1\n", "channel 'SG1' in .*: unit 'psi' is not known"),
    ("t,SG1\n0,1\n1,abc\n", "line 3, column 2: 'abc' is not a number"),
    ("t,SG1\n0,1,2\n", "line 2: 3 cells, the header has 2"),
    ("channel,max,min\nS1,1,2\n", "header must be 'channel,positive,negative'"),
])
def test_bad_measurement_files(tmp_path, text, message):
    with pytest.raises(FemdynError, match=message):
        read_measurements(write(tmp_path / "bad.csv", text))


MAP = """
[comparison]
cutoff = 50.0
window = [0.1, 0.5]
[tolerances]
nrmse = 0.3
[gauges.G1]
beam = "link"
node = "link.0"
distance = 0.2
channel = "SG1"
unit = "mV/V"
gauge_factor = 2.0
bridge = "half"
[gauges.G1.tolerances]
nrmse = 0.1
[gauges.G2]
channel = "SG2"
simulated = "tip.strain"
"""


def test_gauge_map_entries_defaults_and_overrides(tmp_path):
    gm = read_gauge_map(write(tmp_path / "g.toml", MAP))
    g1, g2 = gm.entries
    assert gm.comparison.cutoff == 50.0 and gm.comparison.window == (0.1, 0.5)
    assert g1.gauge.distance == 0.2 and g1.gauge.wall_angle_deg == 90.0 and g1.simulated == "G1.strain"
    assert g1.tolerances == {"nrmse": 0.1} and g2.tolerances == {"nrmse": 0.3}
    assert g2.gauge is None and g2.simulated == "tip.strain" and [g.name for g in gm.gauges()] == ["G1"]


@pytest.mark.parametrize("old, new, message", [
    ("distance = 0.2", "distnace = 0.2", "unknown key gauges.G1.distnace"),
    ("cutoff = 50.0", "cut_off = 50.0", "unknown key comparison.cut_off"),
    ("nrmse = 0.1", "nrsme = 0.1", "unknown key gauges.G1.tolerances.nrsme"),
    ('bridge = "half"', 'bridge = "double"', "bridge = 'double'; choose one of"),
    ('channel = "SG2"', "", "missing key gauges.G2.channel"),
    ('node = "link.0"', "", r"\[gauges.G1\] gives gauge geometry but lacks \['node'\]"),
    ("window = [0.1, 0.5]", "window = [0.5, 0.1]", "window must be"),
    ("cutoff = 50.0", "cutoff = 50.0\n[[oops", "gauge map .*g.toml"),
])
def test_gauge_map_errors_name_the_table_and_key(tmp_path, old, new, message):
    with pytest.raises(FemdynError, match=message):
        read_gauge_map(write(tmp_path / "g.toml", MAP.replace(old, new)))
