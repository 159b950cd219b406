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


def flexible_four_bar():
    """The RSSR linkage whose coupler is an ANCF cable (4 elements, E = 1 GPa, Kelvin–Voigt
    damping 1e-4 s), crank driven to 2π rad/s, gauge at the coupler's middle."""
    from femdyn.elements import sections
    from femdyn.motion.timefunctions import RampedMotion
    from femdyn.robots.rssr import COUPLER_END, CRANK, ROCKER_PIVOT
    m = femdyn.Model("flexible four-bar")
    O, A = m.point("O", (0, 0, 0)), m.point("A", (CRANK, 0, 0))
    B, C = m.point("B", COUPLER_END), m.point("C", ROCKER_PIVOT)
    crank = m.rigid_beam("crank", O, A, mass=0.2)
    rocker = m.rigid_beam("rocker", C, B, mass=0.3)
    m.straight_beam("coupler", (CRANK, 0, 0), COUPLER_END, 4, E=1e9, rho=2700.0, section=sections.circular(0.004),
                    damping=1e-4)
    m.spherical("ball A", crank, "coupler.0", (CRANK, 0, 0))
    m.spherical("ball B", rocker, "coupler.4", COUPLER_END)
    motor = m.revolute("motor", m.ground, crank, (0, 0, 0), (0, 0, 1))
    m.revolute("pivot", m.ground, rocker, ROCKER_PIVOT, (1, 0, 0))
    m.drive_angle("drive", motor, RampedMotion(2 * np.pi, 0.5))
    m.sensor_strain("gauge", "coupler", 2, 0.5)
    return m
