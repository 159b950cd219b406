"""examples/force_elements_quarter_car.py: a quarter car of point masses and spring-dampers
against its linear closed form exp(A t) x(0)."""
import pytest


def test_quarter_car_follows_its_closed_form(example, tmp_path):
    run = example("force_elements_quarter_car")
    out = run.main(tmp_path)
    # preloads equal to the carried weights: the drawn pose is the equilibrium (Newton does not move it)
    assert out["static_shift"] < 1e-12
    # generalized-α's phase error (ωh)²/12 per radian for the 74 rad/s wheel hop at h = 5e-4:
    # measured 2.1e-4 (wheel) and 9.2e-5 (body) of their peaks
    assert out["error"][0] < 5e-4 and out["error"][1] < 3e-4
    assert out["stop_force"] == 0.0                    # the bump stop never closes its 5 cm gap
    expected = -run.BODY * run.G + run.SPRING * out["deflection"] + run.DAMPER * out["rate"]
    assert out["suspension"] == pytest.approx(expected, rel=1e-12, abs=1e-9)
    assert (tmp_path / "quarter-car.png").stat().st_size > 10_000
