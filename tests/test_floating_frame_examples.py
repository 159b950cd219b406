"""The floating-frame examples run and write what they promise."""
import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


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
