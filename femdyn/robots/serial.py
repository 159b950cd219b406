"""Example mechanisms of the source papers (Tian et al. 2010, Qiu et al., Wang et al.), as model tables and configuration parameters.

* :func:`puma560` — Unimation PUMA 560, modified Denavit–Hartenberg kinematics and rigid
  link inertias of Armstrong, Khatib & Burdick 1986 ("The explicit dynamic model and
  inertial parameters of the PUMA 560 arm", IEEE ICRA), as tabulated in Corke's Robotics
  Toolbox (``mdl_puma560akb``; Corke & Armstrong-Hélouvry 1994 discuss the spread of the
  published values). Motor armature inertias and gear ratios are left out (link dynamics
  only). AKB give no mass for link 1 and only its inertia about the joint axis
  (0.35 kg·m²); since its centre of mass lies on that fixed axis, its mass and transverse
  moments never enter the joint forces, and femdyn gives it a nominal 1 kg and
  Ixx = Iyy = 0.175 kg·m² so that the inertia is physical.
* :func:`space_arm` — the 7-DOF manipulator of Qiu et al., whose link table
  was lost: femdyn's choice is documented there; :func:`space_arm_desired` its desired path.
* :func:`dual_arm_links` — the planar dual-arm spacecraft of Wang et al.:
  configuration parameters of configurations 1–3 and of the closed loop.
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
    """The PUMA 560 arm as a kinematic tree (6 revolute joints about each frame's z axis).

    Modified Denavit–Hartenberg kinematics and link inertias of Armstrong, Khatib & Burdick
    1986 (see the module docstring; motor inertias and gear ratios left out).

    Parameters
    ----------
    gravity : (3,) array_like, optional
        Gravity [m/s²], world frame.

    Returns
    -------
    TreeModel
        Bodies ``link1`` … ``link6``.

    Examples
    --------
    >>> model = puma560()
    >>> model.nv, round(float(model.mass.sum()), 2)
    (6, 24.45)
    """
    rows = []
    for i, ((alpha, a, d), m, c, I) in enumerate(zip(PUMA_MDH, PUMA_MASS, PUMA_COM, PUMA_INERTIA)):
        Rx = rotation_about([1, 0, 0], alpha)                 # Rx(α) Tx(a) Rz(θ) Tz(d) = Tx(a) Rx(α) Tz(d) Rz(θ)
        rows.append(dict(name=f"link{i + 1}", parent="world" if i == 0 else f"link{i}", joint="revolute",
                         axis=(0, 0, 1), R=Rx, xyz=np.array([a, 0, 0]) + Rx @ [0, 0, d], mass=m, com=c,
                         inertia=(*I, 0, 0, 0)))
    return TreeModel.from_table(rows, gravity)


def rod_inertia(mass, length, radius):
    """Principal inertias of a solid cylinder along x about its centre.

    Examples
    --------
    >>> rod_inertia(2.0, 1.0, 0.0)
    (0.0, 0.16666666666666666, 0.16666666666666666)
    """
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
    """The 7-DOF space manipulator of Qiu et al., no gravity.

    The link table of the paper is not available; femdyn's choice (module constants): 7
    revolute joints — yaw (z), pitch (y), roll (x, along the link), pitch, roll, pitch,
    roll — an S-R-S arm stretched along x at q = 0, links solid cylinders of radius 0.08 m.

    Parameters
    ----------
    floating : bool, optional
        False: joint 1 at the world origin (fixed base). True: a 500 kg, 1 m cube spacecraft
        on a free joint (body 'base'), joint 1 on the centre of its +x face.

    Returns
    -------
    TreeModel

    Examples
    --------
    >>> model = space_arm(floating=True)
    >>> model.n, model.nq, model.nv                 # base quaternion: 7 coordinates, 6 velocities
    (8, 14, 13)
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
    """Qiu et al.'s desired joint path with its first two derivatives.

    q_d = (sin t, cos t, 0.5 sin t, 0.5 cos t, sin t, cos t, 0.5 sin t).

    Parameters
    ----------
    t : float
        Time [s].

    Returns
    -------
    q, v, a : (7,) ndarray
        Desired angles [rad], rates [rad/s] and accelerations [rad/s²].

    Examples
    --------
    >>> q, v, a = space_arm_desired(0.0)
    >>> q.tolist()
    [0.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.0]
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
    """Configuration parameters of Wang et al.'s planar dual-arm spacecraft.

    Base (square plate, link 1) and two three-link arms (links 2–4 and 5–7); configurations 2
    and 3 re-attach links, 'loop' holds a target bar (link 8) with both arms (see
    ``DUAL_ARM_POINTERS``; femdyn's dimensions, the paper's are not available).

    Parameters
    ----------
    configuration : {1, 2, 3, "loop"}
        Which configuration.
    renumber : dict, optional
        Old ID → new ID (a permutation), to check that the numbering does not matter.

    Returns
    -------
    list of Link
        For :func:`~femdyn.solvers.recursive.topology.build_topology`.

    Examples
    --------
    >>> from femdyn.solvers.recursive import build_topology
    >>> build_topology(dual_arm_links(1)).tree.n, len(build_topology(dual_arm_links("loop")).cuts)
    (7, 1)
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

