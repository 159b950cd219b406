"""The space-robot identification study's planar free-floating space robot: a base with a reaction wheel and a 2-DOF arm.

The paper's parameter table (Table 1: nominal and true values) is not available;
femdyn's choice, documented here, follows the paper's geometry (their Fig. 1 and eqs. 1–6):
base centre of mass at the base origin, joint 1 at b₀ from it, link i with its centre of
mass a_i from joint i and length l_i = a_i + b_i, all joints about the z axis, no gravity.

======  =========  ==========================  ===========================================
body    mass (kg)  centre of mass (m)          I_zz about the centre of mass (kg·m²)
======  =========  ==========================  ===========================================
base    40         (0, 0, 0); b₀ = 0.5         6.6667 (1 m × 1 m plate)
wheel   2          on the base origin          0.0225 (disk, radius 0.15 m): spin axis z
link1   4          a₁ = 0.5 of l₁ = 1.0        0.3333 (slender 1 m bar)
link2   6          a₂ = 0.6 of l₂ = 1.0        0.60   (bar with a heavier distal end)
======  =========  ==========================  ===========================================

The wheel is balanced and axisymmetric, so its mass and transverse inertia move with the
base; what it "absorbs" is its spin momentum relative to the base (the paper's eq. 8).
Out-of-plane moments are chosen so every body is physical (I_xx = I_yy ≥ I_zz/2).
"""
import numpy as np

from femdyn.solvers.recursive.model import Body, Joint, TreeModel

Z = (0.0, 0.0, 1.0)
BASE = dict(mass=40.0, half_size=0.5)
WHEEL = dict(mass=2.0, radius=0.15, thickness=0.05)
LINKS = [dict(name="link1", mass=4.0, a=0.5, length=1.0, Izz=4.0 / 12),
         dict(name="link2", mass=6.0, a=0.6, length=1.0, Izz=0.6)]
# the space-robot identification study §3.1: rest-to-rest cubic plans over 10 s, sampled every 0.5 s
PLANS = [("base", np.pi / 6), ("link1", np.pi / 2), ("link2", np.pi / 3)]
PLAN_TIME, SAMPLE_INTERVAL = 10.0, 0.5


def planar_inertia(Izz):
    """Inertia entries of a flat body from its in-plane moment.

    Out-of-plane moments are chosen so the body is physical: Ixx = Iyy = 0.6 Izz ≥ Izz/2.
    """
    return (0.6 * Izz, 0.6 * Izz, Izz, 0.0, 0.0, 0.0)


def planar_space_robot():
    """The space-robot identification study's robot (module doc): bodies base (free joint), wheel, link1, link2; no gravity.

    Example
    -------
    >>> planar_space_robot().names
    ('base', 'wheel', 'link1', 'link2')
    """
    h = BASE["half_size"]
    m_w, r_w, t_w = WHEEL["mass"], WHEEL["radius"], WHEEL["thickness"]
    wheel_transverse = m_w * (3 * r_w**2 + t_w**2) / 12
    bodies = [Body("base", "world", Joint("free"), BASE["mass"], inertia=planar_inertia(BASE["mass"] * (2 * h)**2 / 6)),
              Body("wheel", "base", Joint("revolute", Z), m_w,
                   inertia=(wheel_transverse, wheel_transverse, m_w * r_w**2 / 2, 0, 0, 0))]
    parent, offset = "base", (h, 0.0, 0.0)
    for link in LINKS:
        bodies.append(Body(link["name"], parent, Joint("revolute", Z), link["mass"], (link["a"], 0.0, 0.0),
                           planar_inertia(link["Izz"]), placement_p=offset))
        parent, offset = link["name"], (link["length"], 0.0, 0.0)
    return TreeModel(bodies, gravity=(0.0, 0.0, 0.0))
