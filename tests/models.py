"""Small models shared by the core tests."""
import numpy as np

import femdyn


def pendulum(angle0=np.pi / 2, length=1.0, mass=1.0, gravity=9.81):
    """Uniform rod pinned at the origin about the y axis; ``angle0`` is its initial angle
    below the horizontal x axis (0 = horizontal, π/2 = hanging)."""
    m = femdyn.Model("pendulum", gravity=(0, 0, -gravity))
    tip = length * np.array([np.cos(angle0), 0.0, -np.sin(angle0)])
    O, A = m.point("O", (0, 0, 0)), m.point("A", tip)
    rod = m.rigid_beam("rod", O, A, mass=mass)
    m.revolute("pivot", m.ground, rod, (0, 0, 0), (0, 1, 0))
    m.sensor_angle("pivot", "pivot")
    m.sensor_point("tip", "rod", tip)
    return m


def zoo():
    """One model with every joint, body and load kind (not meant to be consistent)."""
    m = femdyn.Model("zoo", gravity=(0.3, -0.2, -9.81))
    P0, P1, P2 = m.point("P0", (0, 0, 0)), m.point("P1", (0.5, 0, 0)), m.point("P2", (0.9, 0.1, 0.0))
    u = m.vector("u", (0, 0, 1))
    link1 = m.rigid_beam("link1", P0, P1, mass=1.2, axis=u, end_masses=(0.0, 0.3))
    link2 = m.rigid_beam("link2", P1, P2, mass=0.7)
    r1 = m.revolute("r1", m.ground, link1, (0, 0, 0), (0, 0, 1))
    m.revolute("r2", link1, link2, (0.5, 0, 0), (0, 0, 1))
    plat = m.triangle_platform("plat", center=(1.0, 0.5, 0.2), normal=(0.1, 0.2, 1.0) / np.linalg.norm((0.1, 0.2, 1.0)),
                               circumradius=0.06, thickness=0.01, density=2700.0)
    Q0, Q1 = m.point("Q0", (1.5, 0.5, 0.2)), m.point("Q1", (1.5, 0.9, 0.2))
    w1, w2 = m.vector("w1", (1, 0, 0)), m.vector("w2", (0, 0, 1))
    box = m.rigid_body("box", [Q0, Q1], [w1, w2], mass=2.0, com=(1.5, 0.7, 0.25),
                       inertia=np.diag([0.02, 0.03, 0.04]))
    m.universal("u1", link2, plat, (0.9, 0.1, 0.0), (0.4, 0.1, 0.0) / np.linalg.norm((0.4, 0.1, 0.0)),
                (0.0, 0.0, 1.0))
    m.prismatic("p1", m.ground, box, (1.5, 0.5, 0.2), (0, 1, 0))
    m.spherical("sph", plat, box, plat.vertices[1])
    m.distance("d1", link2, (0.9, 0.1, 0.0), box, (1.5, 0.9, 0.2))
    m.drive_angle("drive", r1, femdyn.Sine(0.3, 2.0, 0.1))
    m.drive_coordinate("slide", box, (1.5, 0.5, 0.2), (0, 1, 0), femdyn.Sine(0.05, 3.0, offset=0.5))
    m.torque("motor2", "r2", femdyn.Sine(1.5, 1.0, 0.3, offset=0.2))
    m.force("push", "box", (1.5, 0.7, 0.2), (1.0, 2.0, -3.0), femdyn.Sine(1.0, 4.0))
    return m
