"""The built-in demonstration model: a spatial RSSR four-bar linkage (m, kg).

Crank (revolute about z), coupler with ball joints at both ends (a rigid beam on its end
nodes), rocker (revolute about x); the drive's multiplier gives the motor torque.
"""
import numpy as np

from ..model import Model
from ..motion.timefunctions import RampedMotion

CRANK, ROCKER, ROCKER_PIVOT = 0.05, 0.2, np.array([0.2, 0.0, 0.15])
# rocker at 170° about x: the linkage then turns through full crank revolutions with its
# coupler length at least 17 % away from its limits (no dead point)
COUPLER_END = ROCKER_PIVOT + ROCKER * np.array([0.0, np.cos(np.radians(170)), np.sin(np.radians(170))])


def rssr_model(speed=2 * np.pi, ramp=0.5, gravity=(0.0, 0.0, -9.81)):
    """Build the spatial RSSR four-bar linkage, unassembled; the crank starts on a quintic ramp to ``speed``.

    Sensors 'crank', 'rocker' (angles), 'coupler middle' (point), 'motor' (reaction).

    Parameters
    ----------
    speed, ramp : float, optional
        Final crank speed, rad/s, and duration of the start-up, s.
    gravity : (3,) array_like, optional
        m/s², global frame.
    """
    m = Model("rssr four-bar", gravity=gravity)
    O, A = m.point("O", (0, 0, 0)), m.point("A", (CRANK, 0, 0))
    B, C = m.point("B", COUPLER_END), m.point("C", ROCKER_PIVOT)
    crank = m.rigid_beam("crank", O, A, mass=0.2)
    m.rigid_beam("coupler", A, B, mass=0.5)
    rocker = m.rigid_beam("rocker", C, B, mass=0.3)
    motor = m.revolute("motor", m.ground, crank, (0, 0, 0), (0, 0, 1))
    m.revolute("rocker pivot", m.ground, rocker, ROCKER_PIVOT, (1, 0, 0))
    m.drive_angle("crank drive", motor, RampedMotion(speed, ramp))
    m.sensor_angle("crank", motor)
    m.sensor_angle("rocker", "rocker pivot")
    m.sensor_point("coupler middle", "coupler", 0.5 * (np.array([CRANK, 0, 0]) + COUPLER_END))
    m.sensor_reaction("motor", "crank drive")
    return m
