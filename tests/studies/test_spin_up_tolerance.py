"""The spin-up study takes the error-controlled step: ``tolerance`` in its configuration and ``--tolerance``."""
import numpy as np

from femdyn.cli.main import main
from femdyn.studies.flexible_beam import SpinUpConfig, run_spin_up


def test_the_spin_up_runs_by_tolerance_like_the_fixed_step():
    """0.5 s of the ANCF spin-up (8 elements): with τ = 1e-6 and h = 10 ms the largest step the tip
    deflection (up to 1.2e-3 m) follows the fixed h = 1 ms run within 2e-6 m (measured 3.2e-7 m,
    the fixed run's own step error included)."""
    fixed = run_spin_up(SpinUpConfig(t_end=0.5, h=1e-3))
    adaptive = run_spin_up(SpinUpConfig(t_end=0.5, h=1e-2, tolerance=1e-6))
    assert adaptive["summary"]["status"] == "completed"
    assert np.allclose(adaptive["t"], fixed["t"][::10])
    assert np.abs(adaptive["deflection"] - fixed["deflection"][::10]).max() <= 2e-6


def test_a_bad_tolerance_on_the_command_line_is_refused(tmp_path, capsys):
    assert main(["study", "spin_up", "--tolerance", "2", "-o", str(tmp_path / "x")]) == 2
    assert "--tolerance must lie in (0, 1)" in capsys.readouterr().err
    config = tmp_path / "spin.toml"
    config.write_text("tolerance = -1.0\n")
    assert main(["study", "spin_up", str(config), "-o", str(tmp_path / "y")]) == 2
    assert "tolerance must be ≥ 0" in capsys.readouterr().err
