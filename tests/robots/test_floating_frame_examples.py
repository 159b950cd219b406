"""The floating-frame examples run and write what they promise."""
import subprocess
import sys

import pytest
from support import ROOT

EXAMPLES = ROOT / "examples"


def test_pendulum_example(tmp_path):
    """Reduces, writes and reads a component, swings it (~8 s), writes the figure and a
    ParaView series with the deformed mesh."""
    run = subprocess.run([sys.executable, str(EXAMPLES / "floating_frame_pendulum.py"), str(tmp_path)], check=True,
                         capture_output=True, text=True, timeout=600)
    assert "largest tip deflection" in run.stdout
    assert (tmp_path / "bar.fdc").exists() and (tmp_path / "floating_frame_pendulum.png").exists()
    assert len(list((tmp_path / "paraview").glob("*.vtu"))) == 41


@pytest.mark.slow
def test_spin_up_example(tmp_path):
    run = subprocess.run([sys.executable, str(EXAMPLES / "floating_frame_spin_up.py"), str(tmp_path)], check=True,
                         capture_output=True, text=True, timeout=900)
    assert (tmp_path / "spin_up.png").exists() and run.stdout.count("peak tip deflection") == 3


def test_rrru_component_links_example(tmp_path):
    """Both flexible link models of the 3-RRRU robot in one run (released for 10 ms here):
    statics within 2 % at g and 0.25 % at g/10 (as tests/robots/test_floating_frame_rrru.py),
    the released platforms within 2 % of the motion, and the figure."""
    run = subprocess.run([sys.executable, str(EXAMPLES / "rrru_component_links.py"), str(tmp_path), "--t-end", "0.01"],
                         check=True, capture_output=True, text=True, timeout=600)
    gaps = [float(line.rsplit("difference ", 1)[1].rstrip("%")) for line in run.stdout.splitlines()
            if line.startswith("static sag")]
    assert len(gaps) == 2 and gaps[0] < 2.0 and gaps[1] < 0.25
    follow = float(run.stdout.split("ANCF links to ", 1)[1].split("%", 1)[0])
    assert follow < 2.0
    assert (tmp_path / "rrru_component_links.png").exists()
