"""One TOML schema checker, one error: every file reader raises SchemaError naming file, table and key,
and the command line turns it into exit code 2."""
import pytest

from femdyn.cli.main import main
from femdyn.errors import FemdynError, ModelError, SchemaError
from femdyn.reports.measurements import read_gauge_map
from femdyn.studies.sweep_file import read_sweep
from femdyn.identification import config
from femdyn.schema import Key, check_table, read_config
from femdyn.studies.rrru_study import StudyConfig


def test_the_error_is_a_model_error_and_a_femdyn_error():
    assert issubclass(SchemaError, ModelError) and issubclass(SchemaError, FemdynError)


@pytest.mark.parametrize("table, message", [
    ({"durration": 1.0}, "f.toml: unknown key run.durration; known keys: ['run.duration', 'run.plots']"),
    ({"duration": "long"}, "f.toml: run.duration must be a number, got 'long'"),
    ({"duration": -1.0}, "f.toml: run.duration must be positive, got -1.0 s"),
    ({"duration": 1.0, "plots": 1}, "f.toml: run.plots must be true or false, got 1"),
    ({"plots": True}, "f.toml: missing key run.duration (the time simulated); add it to [run]"),
])
def test_check_table_names_file_table_key_and_fix(table, message):
    schema = {"duration": Key(float, required=True, above=0, unit="s", hint="the time simulated"), "plots": bool}
    with pytest.raises(SchemaError) as err:
        check_table(table, schema, "f.toml", "run.")
    assert str(err.value) == message


@pytest.mark.parametrize("name, text, read", [
    ("study.toml", "durationn = 1.0\n", lambda p: read_config(p, StudyConfig)),
    ("sweep.toml", "[sweeps]\n", lambda p: read_sweep(p, StudyConfig)),
    ("gauges.toml", "[gauges.G1]\nchannel = \"SG1\"\nchanel = 1\n", read_gauge_map),
    ("identify.toml", "[robot]\nbuiltin = \"puma560\"\ncolour = 3\n[experiment]\nkind = \"joint_torque\"\n",
     config.load),
    ("broken.toml", "title = \n", config.load),
])
def test_every_reader_raises_the_one_error(tmp_path, name, text, read):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(SchemaError, match=str(path).replace("\\", "\\\\") if name != "broken.toml" else "not valid TOML"):
        read(str(path))


def test_the_command_line_exits_with_2(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[sweep]\ngrids = {payload = [0.0]}\n")
    assert main(["sweep", str(path)]) == 2
    assert "unknown key sweep.grids" in capsys.readouterr().err


def test_conversions_follow_the_kind_of_the_default():
    from femdyn.schema import checked_value, convert
    assert (convert(3, float, "duration"), convert([1, 2], 2, "window")) == (3.0, (1.0, 2.0))
    assert checked_value(3, 0.5, "duration") == 3.0 and checked_value([1, 2], (0.0, 0.0), "window") == (1.0, 2.0)
    with pytest.raises(SchemaError, match="whole number"):
        convert(1.5, int, "count")


def test_dotted_keys_read_and_set_nested_settings():
    from femdyn.schema import config_from_dict, field_default, setting_value, with_overrides
    config = config_from_dict({"payload": 1, "geometry": {"E": 6.9e9}}, StudyConfig)
    assert (config.payload, config.geometry.E) == (1.0, 6.9e9)
    assert field_default(StudyConfig, "geometry.E") == 6.9e8
    assert setting_value(StudyConfig(), "geometry.link1_length") == 0.35
    assert with_overrides({"payload": 0.0}, {"geometry.E": 6.9e9}) == {"payload": 0.0, "geometry": {"E": 6.9e9}}


def test_check_table_converts_the_given_keys():
    out = check_table({"duration": 2, "plots": True}, {"duration": Key(float, above=0, unit="s"), "plots": bool},
                      "study.toml", "output.")
    assert out == {"duration": 2.0, "plots": True}


def test_an_empty_list_default_takes_any_list():
    """A field whose default is an empty list or tuple (tables of a study, a pose left to the robot) takes a
    list of any length; a non-empty default still fixes the count."""
    from dataclasses import dataclass, field

    from femdyn.schema import config_from_dict

    @dataclass
    class Settings:
        tables: list = field(default_factory=list)
        start: tuple = ()
        point: tuple = (0.0, 0.0)

    s = config_from_dict({"tables": [{"a": 1}, {"b": 2}], "start": [0.1, 0.2, 0.3]}, Settings)
    assert s.tables == [{"a": 1}, {"b": 2}] and list(s.start) == [0.1, 0.2, 0.3]
    with pytest.raises(SchemaError, match="point must be a list of 2 numbers"):
        config_from_dict({"point": [1.0, 2.0, 3.0]}, Settings)
    with pytest.raises(SchemaError, match="tables must be a list"):
        config_from_dict({"tables": 3}, Settings)
