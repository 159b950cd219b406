"""Example mechanisms of the source papers as model tables: the PUMA 560 (modified DH and
link inertias of Armstrong, Khatib & Burdick 1986, as Corke's ``mdl_puma560akb``; no motor
inertias or gears; link 1 given a nominal 1 kg and Ixx = Iyy = 0.175 kg·m², which never
enter the joint forces), Qiu et al.'s space arm and Wang et al.'s dual-arm spacecraft
(their lost link tables: femdyn's choices in the module constants).
"""
import numpy as np

from femdyn.geometry import rotation_about
from femdyn.solvers.recursive.model import Body, Joint, TreeModel
from femdyn.solvers.recursive.topology import Interface, Link, inertia_sets

# modified DH (Craig): alpha_{i-1} (rad), a_{i-1} (m), d_i (m); AKB 1986 via Corke's mdl_puma560akb
PUMA_MDH = [(0.0, 0.0, 0.0), (-np.pi / 2, 0.0, 0.2435), (0.0, 0.4318, -0.0934),
            (np.pi / 2, -0.0203, 0.4331), (-np.pi / 2, 0.0, 0.0), (np.pi / 2, 0.0, 0.0)]
PUMA_MASS = [1.0, 17.4, 4.8, 0.82, 0.34, 0.09]                    # kg (link 1 nominal, see module doc)
PUMA_COM = [(0, 0, 0), (0.068, 0.006, -0.016), (0, -0.070, 0.014), (0, 0, -0.019), (0, 0, 0), (0, 0, 0.032)]  # m
PUMA_INERTIA = [(0.175, 0.175, 0.35), (0.13, 0.524, 0.539), (0.066, 0.0125, 0.066),  # Ixx, Iyy, Izz (kg·m²)
                (1.8e-3, 1.8e-3, 1.3e-3), (0.3e-3, 0.3e-3, 0.4e-3), (0.15e-3, 0.15e-3, 0.04e-3)]


def puma560(gravity=(0.0, 0.0, -9.81)):
    """The PUMA 560 arm as a ``TreeModel``, bodies ``link1`` … ``link6``, revolutes about each frame's z.

    Parameters
    ----------
    gravity : (3,) array_like, optional
        m/s², world frame.
    """
    rows = []
    for i, ((alpha, a, d), m, c, I) in enumerate(zip(PUMA_MDH, PUMA_MASS, PUMA_COM, PUMA_INERTIA)):
        Rx = rotation_about([1, 0, 0], alpha)                 # Rx(α) Tx(a) Rz(θ) Tz(d) = Tx(a) Rx(α) Tz(d) Rz(θ)
        rows.append(dict(name=f"link{i + 1}", parent="world" if i == 0 else f"link{i}", joint="revolute",
                         axis=(0, 0, 1), R=Rx, xyz=np.array([a, 0, 0]) + Rx @ [0, 0, d], mass=m, com=c,
                         inertia=(*I, 0, 0, 0)))
    return TreeModel.from_table(rows, gravity)


def rod_inertia(mass, length, radius):
    """Principal inertias of a solid cylinder along x about its centre."""
    transverse = mass * (3 * radius**2 + length**2) / 12
    return mass * radius**2 / 2, transverse, transverse


# Qiu et al.'s arm (femdyn's choice): 7 revolute joints — yaw (z), pitch (y), roll (x, along
# the link), pitch, roll, pitch, roll — an S-R-S arm stretched along x at q = 0; links are
# solid cylinders of radius 0.08 m along their x axis
SPACE_ARM_LENGTH = [0.3, 0.3, 1.0, 0.3, 1.0, 0.2, 0.2]           # m
SPACE_ARM_MASS = [4.0, 4.0, 10.0, 4.0, 10.0, 3.0, 2.0]           # kg
SPACE_ARM_AXIS = ["z", "y", "x", "y", "x", "y", "x"]
SPACE_ARM_RADIUS = 0.08                                          # m
SPACECRAFT = dict(mass=500.0, inertia=(83.33, 83.33, 83.33, 0, 0, 0), half_size=0.5)   # 1 m cube, kg, kg·m²


def space_arm(floating=False):
    """The 7-DOF space manipulator of Qiu et al. (S-R-S, along x at q = 0), no gravity, as a ``TreeModel``.

    Parameters
    ----------
    floating : bool, optional
        On a free 500 kg, 1 m cube spacecraft (body 'base'), joint 1 on its +x face; else fixed at the origin.
    """
    axes = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0)}
    bodies, parent, offset = [], "world", (0.0, 0.0, 0.0)
    if floating:
        bodies.append(Body("base", "world", Joint("free"), SPACECRAFT["mass"], (0, 0, 0), SPACECRAFT["inertia"]))
        parent, offset = "base", (SPACECRAFT["half_size"], 0.0, 0.0)
    for k, (L, m, ax) in enumerate(zip(SPACE_ARM_LENGTH, SPACE_ARM_MASS, SPACE_ARM_AXIS)):
        bodies.append(Body(f"link{k + 1}", parent, Joint("revolute", axes[ax]), m, (L / 2, 0, 0),
                           (*rod_inertia(m, L, SPACE_ARM_RADIUS), 0, 0, 0), placement_p=offset))
        parent, offset = f"link{k + 1}", (L, 0.0, 0.0)
    return TreeModel(bodies, gravity=(0.0, 0.0, 0.0))


def space_arm_desired(t):
    """Qiu et al.'s desired path (q, v, a), rad, rad/s, rad/s²: q = (sin t, cos t, ½ sin t, ½ cos t, sin t, cos t, ½ sin t).

    Parameters
    ----------
    t : float
        Time, s.
    """
    amp = np.array([1, 1, 0.5, 0.5, 1, 1, 0.5])
    cos_phase = np.array([0, 1, 0, 1, 0, 1, 0], bool)
    q = np.where(cos_phase, amp * np.cos(t), amp * np.sin(t))
    v = np.where(cos_phase, -amp * np.sin(t), amp * np.cos(t))
    return q, v, -q


# Wang et al.'s planar dual-arm spacecraft (femdyn's dimensions; the paper's were lost)
BASE = dict(mass=200.0, size=1.0)               # kg, m: square plate
ARM_LINK = dict(mass=5.0, length=1.0, width=0.06)
TARGET = dict(mass=10.0, length=1.0, width=0.1)


def _plate_inertia(mass, a, b):
    """(Ixx, Iyy, Izz) of a thin a × b plate in the xy plane, thickness 0.02 m (kg·m²)."""
    t = 0.02
    return mass * (b**2 + t**2) / 12, mass * (a**2 + t**2) / 12, mass * (a**2 + b**2) / 12


def _bar(link_id, pointers, mass, length, width):
    """A bar along x with interfaces at x = 0, x = length and a side port at mid-length (three interfaces)."""
    itfs = (Interface((0.0, 0.0, 0.0)), Interface((length, 0.0, 0.0)), Interface((length / 2, 0.0, 0.0)))
    inertia = _plate_inertia(mass, length, width)
    pointers = tuple(pointers) + (0,) * (3 - len(pointers))
    return Link(link_id, pointers, itfs, inertia_sets(mass, (length / 2, 0, 0), inertia, itfs))


def _base(link_id, pointers):
    """The square base: interface 0 at its centre (to inertial space), 1 and 2 at its top corners."""
    h = BASE["size"] / 2
    itfs = (Interface((0.0, 0.0, 0.0)), Interface((-h, h, 0.0)), Interface((h, h, 0.0)))
    inertia = _plate_inertia(BASE["mass"], BASE["size"], BASE["size"])
    return Link(link_id, tuple(pointers), itfs, inertia_sets(BASE["mass"], (0, 0, 0), inertia, itfs))


G = "inertial"                  # stands for s + 1, one more than the largest link ID
DUAL_ARM_POINTERS = {
    # link: pointers per interface (0 free end, G inertial space); arm A 2-3-4, arm B 5-6-7
    1: {1: (G, 2, 5), 2: (1, 3), 3: (2, 4), 4: (3, 0), 5: (1, 6), 6: (5, 7), 7: (6, 0)},
    # configuration 2: link 4 re-attached from the tip of arm A to the tip of arm B
    2: {1: (G, 2, 5), 2: (1, 3), 3: (2, 0), 4: (7, 0), 5: (1, 6), 6: (5, 7), 7: (6, 4)},
    # configuration 3: arm B (5-6-7) re-attached to the side port of link 3 of arm A
    3: {1: (G, 2, 0), 2: (1, 3), 3: (2, 4, 5), 4: (3, 0), 5: (3, 6), 6: (5, 7), 7: (6, 0)},
    # closed loop: arms 2-3 and 5-6 hold the target 8 at its two ends; joint 3-8 is cut
    "loop": {1: (G, 2, 5), 2: (1, 3), 3: (2, 8), 5: (1, 6), 6: (5, 8), 8: (6, 3)},
}


def dual_arm_links(configuration, renumber=None):
    """Configuration parameters (list of ``Link``, for ``build_topology``) of Wang et al.'s planar dual-arm spacecraft.

    Base (link 1), arms 2–4 and 5–7; 2 and 3 re-attach links, 'loop' holds a target bar 8 (``DUAL_ARM_POINTERS``).

    Parameters
    ----------
    configuration : {1, 2, 3, "loop"}
    renumber : dict, optional
        Old ID → new ID (a permutation).
    """
    table = DUAL_ARM_POINTERS[configuration]
    new = renumber or {}

    def rename(k):
        return max(new.get(i, i) for i in table) + 1 if k == G else new.get(k, k) if k else 0

    links = []
    for link_id, pointers in table.items():
        pointers = tuple(rename(p) for p in pointers)
        if link_id == 1:
            links.append(_base(rename(1), pointers))
        elif link_id == 8:
            links.append(_bar(rename(8), pointers, TARGET["mass"], TARGET["length"], TARGET["width"]))
        else:
            links.append(_bar(rename(link_id), pointers, ARM_LINK["mass"], ARM_LINK["length"], ARM_LINK["width"]))
    return links

