"""The tracking experiment (femdyn.studies.rrru_tracking): a short run of both closed loops writes Table 2
beside the paper's with verdicts, Table 3's zero-balanced gauge peaks, the figures and the report page; the
flexible feedforward (which knows the links' sag under the payload) tracks the end effector better than the
rigid one. The whole circle is slow-marked."""
import json
import runpy

import numpy as np
import pytest

from femdyn.cli import main
from femdyn.studies import registry
from femdyn.studies.rrru_tracking import PAPER, TrackingConfig, agreement


def test_short_run_writes_both_tables_and_the_report(tmp_path, capsys):
    study = runpy.run_path("examples/rrru_tracking.py")["main"](str(tmp_path), 0.05, 2)      # examples/rrru_tracking.py
    assert "| roundness |" in capsys.readouterr().out
    s = study["summary"]
    assert [r["quantity"] for r in study["table2"]] == list(PAPER)
    assert all(r["verdict"] for r in study["table2"])
    assert [r["gauge"] for r in study["table3"]] == ["SG200", "SG407", "SG600"]
    assert all(np.isfinite(r["femdyn"]).all() for r in study["table3"])
    # the joint loops hold their references to a few encoder counts and far below a degree
    assert s["flexible joint error max (deg)"] < 0.05 and s["rigid joint error max (deg)"] < 0.05
    assert s["flexible end-effector error max (mm)"] < s["rigid end-effector error max (mm)"]
    for name in ("tracks.png", "joints.png", "gauges.png", "report.html", "table2.md", "track_rigid.csv"):
        assert (tmp_path / name).stat().st_size > 0
    assert "Table 2" in (tmp_path / "report.html").read_text(encoding="utf-8")
    assert json.loads((tmp_path / "summary.json").read_text())["table2"][1]["quantity"] == "roundness"


def test_verdicts():
    assert agreement(1.0, 1.46) == "agrees (within a factor 2)"
    assert agreement(-1.0, 1.46) == "opposite sign"
    assert agreement(0.0146, 1.46) == "same sign, 100× smaller"


def test_the_study_and_its_sweep_are_registered():
    assert registry.get("rrru-tracking").config is TrackingConfig
    assert "rrru_tracking" in registry.sweep_cases()


@pytest.mark.slow
def test_whole_circle_from_the_command_line(tmp_path):
    assert main(["study", "rrru-tracking", "-o", str(tmp_path), "--quiet"]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())["summary"]
    assert abs(summary["flexible diameter (mm)"] - 200.0) < 1.0
