"""The tracking experiment with joint clearance (femdyn study rrru-tracking; femdyn.studies.tracking_contacts):
a short run with 30 µm in limb 1's motor and knee starts with the journals seated on their loaded side (in contact, no drop across the
gap), completes both closed loops and reports Table 2, Table 3 and each joint's impacts with an honest
verdict; the verdict's counting on made-up histories; a sweep over the clearance; the command line's
clearance options checked."""
import csv
import json
import math

import numpy as np
import pytest

from femdyn.cli import main
from femdyn.schema import config_from_dict
from femdyn.studies.parallel_study import run_parallel_study
from femdyn.studies.parallel_tracking import TrackingConfig
from femdyn.studies.rrru_tracking_command import RRRUTrackingConfig, sweep_case
from femdyn.studies.sweep import grid_cases, run_sweep
from femdyn.studies.tracking_contacts import impacts, time_step

# 0.02 s (the stable inverse needs 4 samples of 5 ms), 2 elements per link: ≈ 2100 steps of 9.6 µs
SHORT = {"duration": 0.02, "parameters": {"E": 6.9e10, "elements": 2}}
JOINTS = ("limb 0.joint0", "limb 0.joint1")           # limb 1's motor and knee


@pytest.mark.slow   # ~40 s on a shared machine; the slow suite runs it in CI
def test_a_short_run_with_clearance_seats_the_journals_and_reports_its_tables(tmp_path):
    config = config_from_dict({**SHORT, "tracking": {"clearance": 30e-6}}, RRRUTrackingConfig)
    study = run_parallel_study(config, output=str(tmp_path))
    h, k = time_step(config.tracking)
    assert k == 23 and h == pytest.approx(221e-6 / 23) and h <= config.tracking.clearance_h
    assert all(r["femdyn"] != "–" for r in study["summary"]["reference"])
    for name in ("rigid", "flexible"):
        run = study["tracking"]["runs"][name]
        assert np.allclose(np.diff(run.t), h, rtol=1e-6)            # every step recorded (impacts are counted)
        for joint in JOINTS:
            # seated: in contact from the start by the Hertz penetration of the load (< 1 µm), not dropped
            # from the centre (eccentricity 0) across the 30 µm gap
            e = run[f"{joint}.eccentricity"]
            assert 30e-6 < e[0] < 31e-6 and run[f"{joint}.force"][0] > 5.0
            row = study["tracking"]["contacts"][name][joint]
            assert row["verdict"] == "no impacts (stays in contact)" and row["impacts"] == 0
        # the loops still hold the joints to far below a degree
        assert study["summary"][f"tracking_{name}_joint_error_max"] < math.radians(0.05)
    summary = study["summary"]
    assert summary["tracking_flexible_deviation_max"] < summary["tracking_rigid_deviation_max"]
    assert "| flexible | limb 0.joint1 | 0 |" in (tmp_path / "tracking.md").read_text()
    assert "no impacts (stays in contact)" in (tmp_path / "report.html").read_text(encoding="utf-8")
    assert json.loads((tmp_path / "summary.json").read_text())["summary"]["tracking_rigid_limb 0.joint0_impacts"] == 0


def _history(contact):
    """Penetration (m) and force (N) histories from a 0/1 contact pattern."""
    pen = np.where(np.array(contact) > 0, 1e-7, -1e-6)
    return {"j.penetration": pen, "j.force": 10.0 * (pen > 0), "j.eccentricity": 3e-5 + pen}


def test_impacts_count_bounces_and_judge_their_resolution():
    tracking = TrackingConfig(clearance=30e-6, joints="j")
    # seated start (not an impact), a 3-step bounce, free flight, a 12-step bounce, a lasting contact at the end
    row = impacts(_history([1, 1, 0, 0, 1, 1, 1, 0, 0] + [1] * 12 + [0, 0, 1, 1]), tracking)["j"]
    assert (row["impacts"], row["bounces"], row["shortest bounce (steps)"]) == (3, 2, 3)
    assert row["verdict"].startswith("NOT resolved: shortest bounce 3 steps") and "clearance_h ≤ 2.9e-06 s" in row["verdict"]
    row = impacts(_history([0, 0] + [1] * 10 + [0]), tracking)["j"]
    assert row["verdict"].startswith("resolved (shortest bounce 10 steps")
    assert impacts(_history([1] * 5), tracking)["j"]["verdict"] == "no impacts (stays in contact)"
    assert impacts(_history([1] * 5), TrackingConfig(joints="j")) == {}          # ideal joints: nothing to judge


def test_a_sweep_over_the_clearance(tmp_path):
    """Ideal joints and 30 µm in limb 1's joints as two cases of the sweep case ``rrru_tracking``: both
    complete, the clearance case with its impacts in the table. Coarse: steps of 55 µs (a quarter of the
    controller period), enough for the seated journals, which stay in contact."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1) as pool:
        records = run_sweep(sweep_case, {**SHORT, "tracking": {"clearance_h": 6e-5}},
                            grid_cases({"tracking.clearance": [0.0, 30e-6]}), str(tmp_path), executor=pool)
    rows = list(csv.DictReader(open(tmp_path / "cases.csv")))
    assert [r["status"] for r in rows] == ["completed", "completed"], [r["error"] for r in records]
    assert [float(r["tracking.clearance"]) for r in rows] == [0.0, 30e-6]
    assert rows[0]["tracking_flexible_limb 0.joint1_impacts"] == ""
    assert rows[1]["tracking_flexible_limb 0.joint1_impacts"] == "0"
    assert int(rows[1]["tracking_steps"]) == round(0.02 / (221e-6 / 4))
    assert int(rows[0]["tracking_steps"]) == round(0.02 / 221e-6)
    for r in rows:
        assert float(r["tracking_flexible_joint_error_max"]) < math.radians(0.05)


def test_the_command_line_checks_the_clearance(tmp_path, capsys):
    assert main(["study", "rrru-tracking", "--clearance=-1e-6", "-o", str(tmp_path), "--quiet"]) == 2
    assert "clearance must be ≥ 0" in capsys.readouterr().err


def test_the_example_sweep_file_reads():
    from femdyn.studies.sweep_file import read_sweep
    sweep = read_sweep("examples/rrru_tracking_sweep.toml", RRRUTrackingConfig)      # examples/rrru_tracking_sweep.toml
    assert sweep.study == "rrru_tracking" and len(sweep.cases) == 12
    assert {c["tracking.clearance"] for c in sweep.cases} == {0.0, 20e-6, 50e-6}


def test_offset_joint_holds_the_journal_where_asked():
    """A pendulum's pivot held 30 µm below its bearing centre: statics puts the rod's end there exactly
    (to the solver's 1e-12 m constraint tolerance); a non-joint is refused by name."""
    import femdyn
    from femdyn.errors import ModelError
    from femdyn.solvers.static import static_equilibrium
    m = femdyn.Model("pendulum")
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
    m.offset_joint("pivot", (0.0, 0.0, -30e-6))
    system = m.assemble()
    q, _ = static_equilibrium(system, max_correction=0.01)
    assert np.allclose(q[system.nodes["O"].dofs], (0.0, 0.0, -30e-6), atol=1e-12)
    with pytest.raises(ModelError, match="'rod' is not a revolute or spherical joint"):
        m.offset_joint("rod", (0, 0, 0))
