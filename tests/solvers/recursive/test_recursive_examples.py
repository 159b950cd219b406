"""The recursive-dynamics examples run to completion and write their figures (slow: ~25 s)."""
import subprocess
import sys

import pytest
from support import ROOT

EXAMPLES = ROOT / "examples"
FIGURES = {"recursive_space_arm.py": 5, "recursive_dual_arm.py": 4, "recursive_puma560.py": 1,
           "recursive_flexible_puma560.py": 2}


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(FIGURES))
def test_example_runs(script, tmp_path):
    subprocess.run([sys.executable, str(EXAMPLES / script), str(tmp_path)], check=True, capture_output=True,
                   timeout=600)
    assert len(list(tmp_path.glob("*.png"))) == FIGURES[script]
