"""`femdyn study rrru`: the whole study on a short stretch, its outputs and its configuration errors."""
import json

import pytest

from femdyn.cli import main
from femdyn.errors import ModelError
from femdyn.formats.config import read_config
from femdyn.studies.rrru_study import StudyConfig


def test_study_command_writes_the_summary_beside_the_paper(tmp_path, capsys):
    """20 ms of the study with 2 elements per link: all four parts run; the inverse run
    tracks the circle to 1e-10 m; every output the command lists is there."""
    config = tmp_path / "short.toml"
    config.write_text("duration = 0.02\nn_elements = 2\nparaview_every = 10\n[geometry]\nE = 6.9e10\n")
    out = tmp_path / "study"
    assert main(["study", "rrru", str(config), "-o", str(out), "--quiet"]) == 0
    summary = json.loads((out / "summary.json").read_text())["summary"]
    assert summary["inverse_tracking_error"] < 1e-10 and summary["steps"] == 20
    assert -12 < summary["rigid_torque_min"] < summary["rigid_torque_max"] < -5
    for name in ("summary.md", "torques.png", "forward.png", "strains.png", "results.npz", "channels.csv",
                 "paraview/motion.pvd"):
        assert (out / name).exists(), name
    assert "Liu et al. 2018" in capsys.readouterr().out


@pytest.mark.parametrize("text, message", [
    ("durationn = 1.0\n", "unknown key durationn"),
    ("[geometry]\nEE = 1.0\n", "unknown key geometry.EE"),
    ("n_elements = 'eight'\n", "n_elements must be a number"),
    ("centre = [0, 0]\n", "centre must be a list of 3 numbers"),
    ("forward = 1\n", "forward must be true or false"),
    ("geometry = 3\n", "geometry must be a table"),
])
def test_a_bad_key_or_value_is_named(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ModelError, match=message):
        read_config(str(path), StudyConfig)


def test_the_command_reports_a_bad_config_in_one_line(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("speed = 'fast'\n")
    assert main(["study", "rrru", str(path), "-o", str(tmp_path / "x")]) == 2
    assert "speed must be a number" in capsys.readouterr().err
