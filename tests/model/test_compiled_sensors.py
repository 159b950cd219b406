"""Sensor readers (``Sensor.reader``): all strain sensors and gauges of a class read at once, the
recovered fibre strains of ANCF beams by one compiled call, against each sensor's own ``measure``
(the reference) on random states; the results writer records the same values in column order.

Tolerance 1e-14 absolute on strains: ε = ‖r_x(y, z)‖/‖r⁰_x(y, z)‖ − 1 cancels to ~1e-3 from
lengths of ~1, so the two paths (C q_e by loops vs the kernel's shape-function products) differ
by a few ulps of 1, ~5e-16; 1e-14 leaves 20× margin and is 1e-10 of the strains read.
"""
import numpy as np
import pytest

import femdyn
from femdyn.elements import sections
from femdyn.model.protocol import Sensor
from femdyn.model.sensors import BeamSensor, Gauge, GaugeSensor
from femdyn.solvers.generalized_alpha import integrate

ATOL = 1e-14


class Spread(Sensor):
    """A user's sensor following the contract only through ``measure``."""

    columns = ("spread.x",)

    def __init__(self, name):
        self.name = name

    def measure(self, q, v, a, lam, t):
        return np.array([q.max() - q.min()])


class Clock:
    """A sensor written to the contract without deriving from Sensor: no ``reader``, only ``measure``."""

    name, columns = "clock", ("clock.t",)

    def bind(self, system):
        pass

    def measure(self, q, v, a, lam, t):
        return np.array([t])


def _model():
    m = femdyn.Model("gauges", gravity=(0, 0, -9.81))
    for name, y in (("beam", 0.0), ("other", 0.3)):
        m.straight_beam(name, (0, y, 0), (1.0, y, 0), 4, E=2.1e9, rho=7800, section=sections.circular(0.01),
                        element="beam")
        m.clamp(f"root {name}", f"{name}.0")
    m.straight_beam("cable", (0, -0.3, 0), (1.0, -0.3, 0), 3, E=2.1e9, rho=7800, section=sections.circular(0.01),
                    element="cable")
    m.clamp("root cable", "cable.0")
    m.sensor_strain("s0", "beam", 0, 0.2, y=0.01)
    m.sensor_strain("s1", "beam", 3, 0.5, z=-0.01)                   # ξ = ½: no neighbour in the recovery
    m.sensor_strain("s2", "other", 0, 0.9, y=0.004, z=0.007)
    m.sensor_strain("s3", "cable", 1, 0.4)                          # another kernel: its own measure
    m.sensor_beam("k0", "beam", 2, 0.3, "curvature")
    m.add_sensor(Spread("spread"))
    m.add_sensor(Clock())
    m.sensor_gauge(Gauge("grid", "beam", "beam.0", 0.5, wall_angle_deg=30.0, grid_length=0.1))
    m.sensor_gauge(Gauge("rosette", "other", "other.4", 0.3, wall_angle_deg=60.0, direction_deg=45.0,
                          grid_length=0.05))                         # shear parts: twist and shear sensors
    m.sensor_gauge(Gauge("point", "beam", "beam.4", 0.05, direction_deg=90.0))
    return m


@pytest.fixture(scope="module")
def system():
    return _model().assemble()


def _states(system, count=3):
    rng = np.random.default_rng(4)
    for _ in range(count):
        yield system.q0 + 1e-3 * rng.standard_normal(system.n)


@pytest.mark.parametrize("kind", [BeamSensor, GaugeSensor])
def test_reader_equals_each_measure(system, kind):
    sensors = [s for s in system.sensors if type(s) is kind]
    assert len(sensors) >= 3
    read = kind.reader(sensors)
    for q in _states(system):
        expected = np.concatenate([s.measure(q, None, None, None, 0.0) for s in sensors])
        assert np.abs(read(q, None, None, None, 0.0) - expected).max() <= ATOL
        assert np.abs(expected).max() > 1e-6                           # the states strain the beams


def test_results_record_the_measured_values_in_column_order(system):
    r = integrate(system, 3e-3, 1e-3)
    for k in range(len(r.t)):
        expected = np.concatenate([s.measure(r.q[k], r.v[k], r.a[k], r.lam[k], r.t[k]) for s in system.sensors])
        assert np.abs(r.sensors[k] - expected).max() <= ATOL
    assert r.sensor_columns == [c for s in system.sensors for c in s.columns]
