"""Bridge output to strain, against a resistor model of the Wheatstone bridge.

Bridge: excitation across two dividers R1–R2 and R4–R3, output V_r = R1/(R1+R2) −
R4/(R3+R4) (balanced at zero when all arms are equal). Active gauges change by
ΔR/R = ±kε; completion resistors stay at R. Inverting the circuit must give back ε to
rounding: relative 1e-12, and 1e-15 absolute (the circuit subtracts two ratios near ½, so
its rounding is 1e-16 in V_r; 1e-9 µε, far below any gauge), including the quarter
bridge's non-linearity at 5000 µε.
"""
import numpy as np
import pytest

from femdyn.errors import FemdynError
from femdyn.reports.bridge import bridge_to_strain, to_strain

K = 2.1
EPS = np.array([-5000e-6, -800e-6, -1e-6, 0.0, 3e-6, 120e-6, 5000e-6])


def bridge_ratio(eps, bridge, R=350.0):
    up, down = R * (1 + K * eps), R * (1 - K * eps)
    r1, r2, r3, r4 = {"quarter": (up, R, R, R), "half": (up, down, R, R), "full": (up, down, up, down)}[bridge]
    return r1 / (r1 + r2) - r4 / (r3 + r4)


@pytest.mark.parametrize("bridge", ["quarter", "half", "full"])
def test_each_bridge_type_inverts_the_circuit(bridge):
    np.testing.assert_allclose(bridge_to_strain(bridge_ratio(EPS, bridge), K, bridge), EPS, rtol=1e-12, atol=1e-15)


def test_quarter_bridge_nonlinearity_is_not_neglected():
    """The linear 4V_r/k would be off by kε/2 = 0.5 % at 5000 µε: the exact form is used."""
    ratio = bridge_ratio(np.array([5000e-6]), "quarter")
    assert abs(4 * ratio[0] / K / 5000e-6 - 1) > 4e-3
    assert bridge_to_strain(ratio, K, "quarter")[0] == pytest.approx(5000e-6, rel=1e-12)


def test_units_mV_per_V_and_microstrain():
    ratio = bridge_ratio(EPS, "half")
    np.testing.assert_allclose(to_strain(1e3 * ratio, "mV/V", "SG1", K, "half"), EPS, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(to_strain([250.0], "µε", "SG1"), [250e-6])


def test_bad_bridge_data_are_named():
    with pytest.raises(FemdynError, match="'SG4' is in mV/V: give gauge_factor and bridge"):
        to_strain([0.1], "mV/V", "SG4")
    with pytest.raises(FemdynError, match="bridge type 'third'"):
        bridge_to_strain([0.1], K, "third")
    with pytest.raises(FemdynError, match="gauge factor -2"):
        bridge_to_strain([0.1], -2, "full")
    with pytest.raises(FemdynError, match="channel 'SG2': unit 'kPa'"):
        to_strain([1.0], "kPa", "SG2")
