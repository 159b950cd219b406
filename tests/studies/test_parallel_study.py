"""The parallel-robot study: one study for every robot, its tasks, outputs and command line."""
import ast
import csv
import pathlib

import numpy as np
import pytest

from femdyn.errors import ModelError, SchemaError
from femdyn.robots.parallel import parallel_robot
from femdyn.robots.parallel.catalogue import READY
from femdyn.studies.parallel_study import ParallelStudyConfig, run_parallel_study
from femdyn.studies.parallel_task import TaskConfig, task_motion

GENERIC = ("parallel_study.py", "parallel_task.py", "parallel_outputs.py", "parallel_measures.py", "reference.py",
           "study_preset.py", "parallel_model.py", "parallel_tracking.py", "parallel_tracking_outputs.py",
           "tracking_contacts.py")


def test_the_generic_study_layer_names_no_robot():
    """No ready robot's name and no 3-RRRU part name in the generic modules' code (docstrings aside)."""
    folder = pathlib.Path(__file__).parents[2] / "femdyn" / "studies"
    words = [*READY, "rrru", "link3", "limb 0", "stewart", "delta"]
    for name in GENERIC:
        tree = ast.parse((folder / name).read_text(encoding="utf-8"))
        strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and not _is_docstring(n, tree)]
        names = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]
        for word in words:
            assert not any(word in s.lower() for s in strings + names), (name, word)


def _is_docstring(node, tree):
    """Whether a string constant is a module, class or function docstring."""
    for parent in ast.walk(tree):
        body = getattr(parent, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and body[0].value is node:
            return True
    return False


def test_the_pick_and_place_cycle_rises_25_mm_crosses_305_mm_and_returns():
    robot = parallel_robot("delta")
    motion = task_motion(robot, TaskConfig(kind="pick_place"))
    t = np.linspace(motion.start, motion.end, 2001)
    X = motion.sampled(t)[0]
    start = robot.home[robot.task]
    assert np.ptp(X[:, 2]) == pytest.approx(0.025, abs=1e-12)
    assert np.ptp(X[:, 0]) == pytest.approx(0.305, abs=1e-12)
    np.testing.assert_allclose(X[0], start, atol=1e-12)
    np.testing.assert_allclose(X[-1], start, atol=1e-12)
    velocity = motion.sampled([motion.start, motion.end])[1]
    np.testing.assert_allclose(velocity, 0.0, atol=1e-12)         # rest to rest


def test_a_table_task_is_read_with_its_rates_and_a_bad_one_is_refused(tmp_path):
    robot = parallel_robot("stewart")
    names = robot.description.task
    home = robot.home[robot.task]
    t = np.linspace(0.0, 1.0, 41)
    path = tmp_path / "poses.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t", *names])
        for tk in t:
            w.writerow([tk, *(home + 0.01 * np.sin(2 * np.pi * tk) * np.array([1, 0, 1, 0.5, 0, 0]))])
    motion = task_motion(robot, TaskConfig(kind="table", table=str(path)))
    x, xd, _ = motion.state(0.3)
    assert x[0] == pytest.approx(home[0] + 0.01 * np.sin(0.6 * np.pi), abs=2e-6)     # spline error ~h⁴
    assert xd[2] == pytest.approx(0.02 * np.pi * np.cos(0.6 * np.pi), rel=1e-3)
    bad = tmp_path / "bad.csv"
    bad.write_text("time,x\n0,1\n")
    with pytest.raises(SchemaError, match="header must be t, x, y, z, rx, ry, rz"):
        task_motion(robot, TaskConfig(kind="table", table=str(bad)))
    with pytest.raises(SchemaError, match="not a task"):
        task_motion(robot, TaskConfig(kind="spiral"))


def test_a_path_that_moves_a_coordinate_the_robot_lacks_is_refused():
    robot = parallel_robot("3rps")
    with pytest.raises(SchemaError, match="moves \\['x', 'y'\\], which are not task coordinates of robot '3rps'"):
        task_motion(robot, TaskConfig(kind="circle"))


def test_the_study_of_a_delta_with_flexible_forearms(tmp_path):
    """A short run: the two rigid paths agree, the flexible robot under rigid efforts stays within a
    millimetre, the flexible inverse tracks, every output file is written."""
    config = ParallelStudyConfig(robot="delta", parameters={"flexible_forearms": 2}, duration=0.12,
                                 task=TaskConfig(radius=0.05, speed=0.5, acceleration=5.0, jerk=100.0),
                                 paraview_every=0)
    study = run_parallel_study(config, output=str(tmp_path))
    s = study["summary"]
    assert s["rigid_paths_difference"] < 1e-2           # generalized-α at h = 1 ms against the exact efforts
    assert s["forward_deviation"] < 1e-3
    assert s["inverse_tracking_error"] < 1e-9
    assert abs(s["effort_difference"]) < 0.2 * max(abs(s["rigid_effort_min"]), abs(s["rigid_effort_max"]))
    assert s["inverse_gauge_peaks"]
    # the robot-independent measures: the motors' angles of the flexible inverse (angle sensors + the rigid start)
    # are the rigid robot's to 1e-4 rad (measured 1.4e-6: stiff forearms; a sign or offset error would give
    # ≥ 0.07 rad, the coordinates' size); the parallelograms keep the platform level (measured 1.3e-4°);
    # every bar's mid-node deflection is named; cable elements report no shear
    assert s["actuator_difference"] < 1e-4 and s["inverse_actuator_max"] == pytest.approx(s["rigid_actuator_max"],
                                                                                          abs=1e-4)
    assert s["static_tilt_deg"] < 1e-3 and s["forward_tilt_deg"] < 1e-2 and s["inverse_tilt_speed_change_deg"] < 1e-2
    assert sorted(s["link_deformation"]) == [f"arm {i}.bar{k}" for i in range(3) for k in range(2)]
    assert 0 < s["mid_link_deformation"] < 1e-3 and "shear_angle_deg" not in s
    assert {"forward_deviation_x", "forward_deviation_y", "forward_deviation_z", "inverse_effort_extreme_2"} <= set(s)
    for name in ("report.html", "summary.json", "summary.md", "rigid_efforts.csv", "channels.csv", "efforts.png",
                 "deviation.png", "gauges.png"):
        assert (tmp_path / name).exists(), name
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "rigid efforts: DAE servo vs virtual work" in page and "zero dynamics" in page


def test_a_study_needs_a_robot_that_exists():
    with pytest.raises(ModelError, match="unknown robot 'nonesuch'"):
        run_parallel_study(ParallelStudyConfig(robot="nonesuch"))


def test_the_command_line_takes_the_configuration_after_the_robot(tmp_path, capsys):
    """`femdyn study parallel --robot delta study.toml`: the file may follow the options; a second stray
    argument is refused (exit 2)."""
    from femdyn.cli.main import main
    config = tmp_path / "study.toml"
    config.write_text('duration = 0.05\n[task]\nkind = "line"\noffset = [0.02, 0.0, 0.0]\n', encoding="utf-8")
    out = tmp_path / "out"
    assert main(["study", "parallel", "--robot", "delta", str(config), "-o", str(out), "--quiet"]) == 0
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "rigid efforts: DAE servo vs virtual work" in summary
    with pytest.raises(SystemExit) as stop:
        main(["study", "parallel", "--robot", "delta", str(config), "extra.toml", "-o", str(out)])
    assert stop.value.code == 2
    assert "extra.toml" in capsys.readouterr().err.splitlines()[-1]


def test_published_values_stand_beside_the_figures_with_a_verdict(tmp_path):
    """The 3-RRRU overlay file: its reference rows are read with the study's configuration and each gets
    the verdict of the one rule (femdyn.studies.reference); a short run keeps the test quick."""
    from femdyn.schema import config_from_dict, read_toml
    data = read_toml(pathlib.Path(__file__).parents[2] / "examples" / "robots" / "3rrru_liu2018.toml")
    config = config_from_dict({**data, "duration": 0.02, "paraview_every": 0}, ParallelStudyConfig)
    summary = run_parallel_study(config, output=str(tmp_path))["summary"]
    rows = {r["quantity"]: r for r in summary["reference"]}
    assert set(rows) == {"inverse_effort_min", "effort_difference", "inverse_tracking_error"}
    assert rows["inverse_tracking_error"]["verdict"] == "within the paper's band"     # the servo holds exactly
    assert all(r["verdict"] for r in rows.values()) and rows["inverse_effort_min"]["published"] == "−11.1 N·m (limb 2)"
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Beside published values" in page and "Liu et al. 2018, section 4" in page


def test_a_reference_needs_a_value_or_a_bound():
    from femdyn.studies.reference import reference_rows
    with pytest.raises(SchemaError, match=r"reference\[0\] \(x\) needs value = … \(with tolerance\) or below"):
        reference_rows({"x": 1.0}, [{"quantity": "x"}], "study")
    with pytest.raises(SchemaError, match="unknown key reference\\[0\\].valu"):
        reference_rows({"x": 1.0}, [{"quantity": "x", "valu": 2.0}], "study")


def test_the_pick_and_place_example_sizes_the_delta_motors(example, tmp_path):
    """examples/parallel_pick_and_place.py: the servo DAE agrees with the virtual-work torques to the
    integrator's error at the cycle's jerk steps (h = 1 ms, ρ∞ = 0.5: measured 1.5e-2 of the peak); motors 1
    and 2 carry equal torques on a cycle in motor 0's plane (the robot's symmetry); a payload adds torque."""
    out = example("parallel_pick_and_place").main(tmp_path)
    assert out["agreement"] < 2e-2
    np.testing.assert_allclose(out["full"][:, 1], out["full"][:, 2], atol=1e-9 * np.abs(out["full"]).max())
    assert out["added"] > 1.0 and np.all(out["rms"] < out["peak"])
    assert (tmp_path / "pick-and-place-torques.png").stat().st_size > 20_000
