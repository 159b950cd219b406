"""The side-by-side benchmark harness (benchmarks/common.py) checks what it times.

A pair of cases that disagree on a node position stops the comparison with a
Disagreement; an agreeing pair gives costs, errors and ratios; the slope fit recovers a
known power law. With Exudyn installed, the chain and cable benchmark models of both
codes agree after 20 steps within the benchmarks' own tolerances (otherwise skipped:
pip install exudyn).
"""
import sys

import numpy as np
import pytest

from support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import common  # noqa: E402


class _Fixed:
    """A stand-in code whose run returns fixed node positions."""

    failure = RuntimeError

    def __init__(self, name, points):
        self.name, self.points = name, np.asarray(points, float)

    def run(self, steps, h=common.H, tight=1.0):
        return 1e-3 * steps, self.points, 3.0


def test_disagreeing_codes_stop_the_benchmark():
    a = _Fixed("femdyn", [[0.0, 0.0, 0.0], [1.0, 0.0, -0.2]])
    b = _Fixed("Exudyn", [[0.0, 0.0, 0.0], [1.0, 0.0, -0.2 + 2e-5]])
    with pytest.raises(common.Disagreement, match="node 1 of 2"):
        common.compare([a, b], steps=10, repeat=1, tolerance=1e-5)


def test_agreeing_codes_are_timed_and_checked():
    a = _Fixed("femdyn", [[1.0, 0.0, -0.2]])
    b = _Fixed("Exudyn", [[1.0, 0.0, -0.2 + 1e-7]])
    out = common.compare([a, b], steps=10, repeat=2, tolerance=1e-5)
    assert out["difference"] == pytest.approx(1e-7, rel=1e-6)
    assert out["femdyn"]["cost"] == pytest.approx(1e-3, rel=1e-9)      # (15 − 5 steps) · 1 ms / 10 steps
    assert out["femdyn"]["newton_error"] == 0.0 and out["femdyn"]["step_error"] == 0.0
    assert common.ratios(out)[0] == pytest.approx(1.0)


def test_slope_of_a_power_law():
    sizes = np.array([8, 32, 128, 512])
    assert common.slope(sizes, 3e-6 * sizes ** 1.0) == pytest.approx(1.0, abs=1e-12)
    assert common.slope(sizes, 2e-7 * sizes ** 1.5) == pytest.approx(1.5, abs=1e-12)


@pytest.mark.filterwarnings("ignore:beams.GenerateStraightLineANCFCable is deprecated")
@pytest.mark.parametrize("bench, n", [("bench_chain", 3), ("bench_flexible", 4)])
def test_benchmark_models_agree_with_exudyn(bench, n):
    """The same model in both codes: node positions after 20 steps within the benchmark's
    tolerance (chain 1e-5 m, cable 0.1 ℓ_e² m)."""
    exu = pytest.importorskip("exudyn", reason="the comparison needs Exudyn: pip install exudyn")
    module = __import__(bench)
    femdyn_case = module.femdyn_case(n)[0]
    exudyn_case = module.exudyn_case(exu, n)
    tolerance = module.tolerance(n) if hasattr(module, "tolerance") else module.TOLERANCE
    a, b = femdyn_case.run(20)[1], exudyn_case.run(20)[1]
    assert a.shape == b.shape
    assert np.abs(a - b).max() <= tolerance
