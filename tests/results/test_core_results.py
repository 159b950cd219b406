"""Results round trip, CSV export, reactions, and the command line demo."""
import csv

import numpy as np

import femdyn
from femdyn.cli import main
from femdyn.solvers.generalized_alpha import integrate
from support.models import pendulum


def test_results_round_trip_and_csv(tmp_path):
    s = pendulum(0.3).assemble()
    r = integrate(s, 0.2, 1e-2, output=str(tmp_path / "run"))
    back = femdyn.load(str(tmp_path / "run"))
    for key in ("t", "q", "v", "a", "lam", "sensors", "steps", "iterations"):
        assert np.array_equal(getattr(back, key), getattr(r, key)), key
    assert back.status == "completed" and len(back.t) == 21
    path = r.to_csv(str(tmp_path / "c.csv"), ["tip.z", "pivot.angle", "energy"])
    rows = list(csv.reader(open(path)))
    assert rows[0] == ["t", "tip.z", "pivot.angle", "energy"] and len(rows) == 22
    assert np.isclose(float(rows[-1][1]), r["tip.z"][-1])


def test_pivot_reaction_in_static_hanging_position():
    """Hanging at rest: the pivot's force on the rod is exactly its weight, upward."""
    r = integrate(pendulum(np.pi / 2).assemble(), 0.05, 1e-2)
    assert np.allclose(r.multipliers("pivot")[:, :3], [0, 0, 9.81], atol=1e-8)


def test_demo_command(tmp_path, capsys):
    """The short 3-RRRU study: 20 ms with 2 elements per link; its summary beside the
    paper's, the study's outputs and the picture of the deformed robot."""
    assert main(["demo", "--out", str(tmp_path), "--t-end", "0.02", "--elements", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "degrees of freedom" in out and "Liu et al. 2018" in out and "rigid efforts, smallest" in out
    for name in ("demo.png", "summary.md", "efforts.png", "deviation.png", "gauges.png", "channels.csv",
                 "paraview/motion.pvd"):
        assert (tmp_path / name).exists(), name
    assert (tmp_path / "demo.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_demo_names_a_bad_option(capsys):
    assert main(["demo", "--t-end", "0", "--quiet"]) == 2
    assert "--t-end must be > 0" in capsys.readouterr().err
