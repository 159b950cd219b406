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


def test_a_part_that_stops_keeps_every_result_so_far(tmp_path):
    """A forward run that cannot converge (a Newton tolerance below its round-off floor, no
    step halvings) stops the study with StudyStopped; the rigid part's outputs and the
    forward run's steps are written, and the summary says which part stopped, where and why."""
    from femdyn.studies.rrru_study import StudyStopped, run_study
    config = StudyConfig(n_elements=2, duration=0.01, tol_flexible=1e-16, max_halvings=0, paraview_every=0)
    with pytest.raises(StudyStopped, match=r"flexible forward dynamics \(b\) stopped at t = 0 s") as stop:
        run_study(config, output=str(tmp_path))
    summary = stop.value.study["summary"]
    assert summary["stopped"]["part"] == "flexible forward dynamics (b)" and "rigid_torque_min" in summary
    assert stop.value.results is stop.value.study["forward"] and stop.value.study["inverse"] is None
    for name in ("summary.md", "summary.json", "torques.png", "forward.png", "results.npz"):
        assert (tmp_path / name).exists(), name
    assert "**Stopped**: flexible forward dynamics (b)" in (tmp_path / "summary.md").read_text()


@pytest.mark.parametrize("argv, message", [
    (["study", "rrru", "--rho-inf", "0.99"], "--rho-inf must be in [0, 0.95]"),
    (["study", "rrru", "--halvings", "-1"], "--halvings must be in 0 … 20"),
    (["study", "rrru", "--elements", "0"], "--elements must be ≥ 1"),
    (["demo", "--rho-inf", "-0.1"], "--rho-inf must be in [0, 0.95]"),
    (["demo", "--halvings", "21"], "--halvings must be in 0 … 20"),
    (["demo", "--elements", "0"], "--elements must be ≥ 1"),
])
def test_a_bad_solver_option_exits_with_2_naming_it(tmp_path, capsys, argv, message):
    assert main(argv + ["--out" if argv[0] == "demo" else "-o", str(tmp_path / "x")]) == 2
    assert message in capsys.readouterr().err


def test_an_unknown_formulation_is_refused_by_name(capsys):
    with pytest.raises(SystemExit) as done:
        main(["study", "rrru", "--formulation", "index2"])
    assert done.value.code == 2 and "--formulation" in capsys.readouterr().err


def test_the_solver_options_reach_the_study(tmp_path):
    """--elements, --rho-inf, --formulation and --halvings override the TOML file's values."""
    config = tmp_path / "short.toml"
    config.write_text("duration = 0.005\nn_elements = 8\nparaview_every = 0\ninverse = false\n")
    out = tmp_path / "study"
    assert main(["study", "rrru", str(config), "-o", str(out), "--quiet", "--elements", "2", "--rho-inf", "0.3",
                 "--formulation", "stabilized", "--halvings", "2"]) == 0
    saved = json.loads((out / "summary.json").read_text())["config"]
    assert (saved["n_elements"], saved["flexible_rho_inf"], saved["formulation"], saved["max_halvings"]) == \
        (2, 0.3, "stabilized", 2)


def test_a_demo_that_stops_still_writes_its_picture(tmp_path, capsys, monkeypatch):
    """An inverse run that stops after its first steps (forward run off, a Newton tolerance
    below the round-off floor reached only at the start): exit code 2 with the part, the
    time and the command-line hint; the summary table, the outputs and demo.png are there."""
    import femdyn.studies.rrru_study as study

    def failing(**kwargs):
        return StudyConfig(**kwargs, forward=False, tol_flexible=1e-16, max_halvings=0, paraview_every=0)
    monkeypatch.setattr(study, "StudyConfig", failing)
    assert main(["demo", "--out", str(tmp_path), "--t-end", "0.01", "--elements", "2", "--quiet"]) == 2
    captured = capsys.readouterr()
    assert "flexible inverse dynamics (c) stopped at t = " in captured.err and "--halvings" in captured.err
    assert "**Stopped**: flexible inverse dynamics (c)" in captured.out
    for name in ("demo.png", "summary.md", "torques.png", "strains.png", "results.npz"):
        assert (tmp_path / name).exists(), name
