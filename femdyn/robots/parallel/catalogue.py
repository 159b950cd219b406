"""Six ready parallel robots as descriptions, and :func:`parallel_robot` to get one by name or file.

Each ready robot is a function ``name(**parameters) -> RobotDescription`` whose defaults come from a
named machine or paper (its docstring and ``source`` say which, and which values are chosen here); the
home configuration follows from the parameters in closed form. Conventions (z up, home configuration,
actuator coordinates): :mod:`.description` and docs/parallel-robots.md.
"""
import inspect
import math
import os

import numpy as np

from femdyn.elements import ncf

from ...errors import ModelError
from ...schema import read_toml, with_overrides
from .description import BeamSpec, Joint, Limb, Link, Platform, RobotDescription, description_from_dict
from .robot import ParallelRobot

__all__ = ["delta", "linear_delta", "stewart", "planar_3rrr", "rps_3", "rrru_3", "READY", "parallel_robot",
           "robot_description"]

THIRDS = (0.0, 2 * math.pi / 3, 4 * math.pi / 3)
_Z = np.array([0.0, 0.0, 1.0])


# -- helpers ----------------------------------------------------------------------------------------------
def _radial(phi):
    """Radial unit e_r and tangential unit a = e_z × e_r at azimuth ``phi`` (rad), global frame."""
    return np.array([math.cos(phi), math.sin(phi), 0.0]), np.array([-math.sin(phi), math.cos(phi), 0.0])


def _t(v):
    """A vector as a tuple of floats (descriptions hold tuples)."""
    return tuple(float(x) for x in np.asarray(v, float).ravel())


def _matrix(m):
    """A 3 × 3 array as a tuple of tuples."""
    return tuple(_t(row) for row in np.asarray(m, float))


def _disc(mass, radius):
    """Centroidal inertia (kg·m²) of a thin uniform disc in the xy-plane."""
    return _matrix(np.diag([mass * radius**2 / 4, mass * radius**2 / 4, mass * radius**2 / 2]))


def _reach(target_x, target_z, first, second, name):
    """Angle of a planar two-link chain's first link (elbow outwards) whose end reaches (X, Z), Z downwards.

    The first link of length ``first`` at angle θ from the X axis (towards +Z) and a second link of
    length ``second`` must meet the target: X cos θ + Z sin θ = (first² + D² − second²) / (2 first)."""
    D = math.hypot(target_x, target_z)
    c = (first**2 + D * D - second**2) / (2 * first * D) if D > 0 else 2.0
    if not -1.0 < c < 1.0:
        raise ModelError(f"{name}: the home pose is out of reach (a link of {first:.4g} m and one of {second:.4g} m "
                         f"cannot span {D:.4g} m); change the lengths or the home pose")
    return math.atan2(target_z, target_x) - math.acos(c)


def _gravity(gravity):
    """Gravity as a 3-tuple of floats (m/s²)."""
    g = np.asarray(gravity, float)
    if g.shape != (3,) or not np.all(np.isfinite(g)):
        raise ModelError(f"gravity must be 3 finite numbers (m/s², global frame), got {gravity!r}")
    return _t(g)


def _three(values, name, what):
    """A length-3 sequence of floats (one per limb)."""
    v = tuple(float(x) for x in values)
    if len(v) != 3:
        raise ModelError(f"{name}: {what} must have 3 values (one per limb), got {len(v)}")
    return v


# -- Delta robots -----------------------------------------------------------------------------------------
def delta(base_radius=0.1637, platform_radius=0.04388, arm_length=0.524, forearm_length=1.244, azimuths=THIRDS,
          arm_mass=1.2, bar_mass=None, platform_mass=0.6, forearm_width=0.131, home_z=-1.1,
          flexible_forearms=False, gravity=(0.0, 0.0, -9.81)):
    """Clavel's rotary Delta robot with the dimensions of an ABB IRB 360 FlexPicker.

    Three motors at z = 0 turn arms in vertical planes; each arm carries a parallelogram forearm (two
    bars, spherical joints at their ends) to the platform, which only translates. Actuator angle 0 with
    the arm horizontal (pointing outwards), positive swinging down; the motor axis a = e_z × e_r.

    Defaults: the ABB IRB 360 FlexPicker dimensions of R. L. Williams II, *The Delta Parallel Robot:
    Kinematics Solutions* (Ohio University, 2015), example parameters: base triangle side s_B = 0.567 m,
    platform triangle side s_P = 0.076 m, upper legs L = 0.524 m, lower legs (parallelogram) l = 1.244 m
    and width h = 0.131 m; in his notation the motor axes lie on the base triangle's sides, w_B = s_B/(2√3)
    = 0.1637 m from the centre (``base_radius``), and the forearms end at the platform triangle's vertices,
    u_P = s_P/√3 = 0.04388 m from its centre (``platform_radius``; his IK uses a = w_B − u_P). Masses are
    chosen here (not ABB data): aluminium arms 1.2 kg, carbon-tube bars (Ø 20/16 mm, 1550 kg/m³), platform
    0.6 kg. The workspace bounds (±0.3 m, home ± 0.15 m) are chosen, not ABB's working range.

    Parameters
    ----------
    base_radius : float
        Centre of the base to each motor axis, m.
    platform_radius : float
        Platform centre to the forearm's platform end (the bars' mid-point), along the limb's radial, m.
    arm_length, forearm_length : float
        Motor axis to elbow, and the bars' length, m.
    azimuths : (3,) tuple
        Limb directions in the base plane, rad from x.
    arm_mass, platform_mass : float
        kg (platform without payload).
    bar_mass : float or None
        Each bar, kg (None: the carbon tube's mass).
    forearm_width : float
        Distance between the two bars, m.
    home_z : float
        Height of the platform at home (below the base: negative), m.
    flexible_forearms : bool or int
        The bars as ANCF carbon tubes (True: 4 elements each; an int: that many).
    gravity : (3,) tuple
        m/s², global frame.

    Returns
    -------
    RobotDescription
        Task (x, y, z); platform home (0, 0, ``home_z``).

    Examples
    --------
    >>> d = delta(flexible_forearms=6)
    >>> d.limbs[0].joints[1].kind, d.limbs[0].joints[1].flexible.elements
    ('Pa', 6)
    """
    name = "delta"
    tube = BeamSpec(elements=4, E=1.1e11, density=1550.0, radius=0.010, inner_radius=0.008, nu=0.3)
    if flexible_forearms is not False and flexible_forearms is not True:
        tube = BeamSpec(**{**tube.__dict__, "elements": int(flexible_forearms)})
    flexible = tube if flexible_forearms is not False else None
    bar = tube.density * tube.area * forearm_length if bar_mass is None else float(bar_mass)
    P = np.array([0.0, 0.0, float(home_z)])
    limbs = []
    for k, phi in enumerate(_three(azimuths, name, "azimuths")):
        e_r, a = _radial(phi)
        A, C = base_radius * e_r, P + platform_radius * e_r
        d = C - A
        s = d @ a                                        # out of the limb's plane: the bars lean sideways
        theta = _reach(d @ e_r, -(d @ _Z), arm_length, math.sqrt(max(forearm_length**2 - s * s, 0.0)), name)
        B = A + arm_length * (math.cos(theta) * e_r - math.sin(theta) * _Z)
        joints = (Joint("R", _t(A), (_t(a),), actuated=True, home=theta, limits=(-0.7, 1.4)),
                  Joint("Pa", _t(B), (_t(a),), end=_t(C), width=forearm_width, bar_mass=bar, flexible=flexible))
        limbs.append(Limb(f"arm {k}", joints, (Link(arm_mass, radius=0.025),)))
    return RobotDescription(name, tuple(limbs), Platform((0.0, 0.0, float(home_z), 0.0, 0.0, 0.0), platform_mass,
                                                          inertia=_disc(platform_mass, max(platform_radius, 0.05))),
                            ("x", "y", "z"), _gravity(gravity),
                            {"x": (-0.3, 0.3), "y": (-0.3, 0.3), "z": (home_z - 0.15, home_z + 0.15)},
                            "Delta robot (Clavel), ABB IRB 360 dimensions (Williams 2015)",
                            "R. L. Williams II, The Delta Parallel Robot: Kinematics Solutions, Ohio University 2015 "
                            "(ABB IRB 360 example parameters sB 567, sP 76, L 524, l 1244, h 131 mm: base_radius = "
                            "wB = sB/(2√3), platform_radius = uP = sP/√3); masses and workspace bounds chosen")


def linear_delta(rail_radius=0.144, carriage_offset=0.0195, effector_offset=0.020, rod_length=0.2135,
                 rod_spacing=0.044, azimuths=(-math.pi / 6, math.pi / 2, 7 * math.pi / 6), carriage_mass=0.08,
                 rod_mass=0.012, effector_mass=0.25, home_z=0.1, gravity=(0.0, 0.0, -9.81)):
    """A linear Delta (delta 3-D printer): carriages on vertical rails drive parallelogram rods.

    Limb: a P joint along z at the rail (actuated; actuator coordinate = carriage height, m, of the
    carriage's rod pivots), the carriage, then a Pa joint (two rods) to the effector, which translates.

    Defaults: the Kossel Mini (J. C. Rocholl) as in P. Rouzeau's OpenSCAD Delta simulator data set
    ``data_Kossel_mini.scad`` (github.com/PRouzeau/OpenSCAD-Delta-Simulator): rail radius 144 mm,
    carriage offset 19.5 mm, effector offset 20 mm, rods 213.5 mm, 44 mm apart. Masses chosen here.

    Parameters
    ----------
    rail_radius : float
        Centre to each rail, m.
    carriage_offset, effector_offset : float
        Rail to the carriage's rod pivots, and effector centre to its rod pivots, radial, m.
    rod_length, rod_spacing : float
        The rods' length and the distance between the two rods of a pair, m.
    azimuths : (3,) tuple
        Rail directions, rad.
    carriage_mass, rod_mass, effector_mass : float
        kg (each carriage, each rod, the effector).
    home_z : float
        Effector height at home above the bed (z = 0), m.
    gravity : (3,) tuple
        m/s², global frame.

    Returns
    -------
    RobotDescription
        Task (x, y, z).

    Examples
    --------
    >>> d = linear_delta()
    >>> [j.kind for j in d.limbs[0].joints], round(d.limbs[0].joints[0].home, 4)
    (['P', 'Pa'], 0.2862)
    """
    name = "linear_delta"
    spread = rail_radius - carriage_offset - effector_offset          # horizontal reach of a rod at home
    if not 0 < spread < rod_length:
        raise ModelError(f"{name}: the rods ({rod_length} m) must be longer than the horizontal distance "
                         f"{spread:.4g} m from carriage to effector pivots; change the lengths")
    height = float(home_z) + math.sqrt(rod_length**2 - spread**2)     # carriage pivots above the effector's
    P = np.array([0.0, 0.0, float(home_z)])
    limbs = []
    for k, phi in enumerate(_three(azimuths, name, "azimuths")):
        e_r, a = _radial(phi)
        rail = rail_radius * e_r + height * _Z
        pivot = rail - carriage_offset * e_r
        joints = (Joint("P", _t(rail), (_t(_Z),), actuated=True, home=height, limits=(0.0, 0.5)),
                  Joint("Pa", _t(pivot), (_t(a),), end=_t(P + effector_offset * e_r), width=rod_spacing,
                        bar_mass=rod_mass))
        limbs.append(Limb(f"tower {k}", joints, (Link(carriage_mass, radius=0.01),)))
    return RobotDescription(name, tuple(limbs), Platform((0.0, 0.0, float(home_z), 0.0, 0.0, 0.0), effector_mass,
                                                          inertia=_disc(effector_mass, 0.03)),
                            ("x", "y", "z"), _gravity(gravity),
                            {"x": (-0.07, 0.07), "y": (-0.07, 0.07), "z": (0.0, 0.25)},
                            "Linear Delta 3-D printer, Kossel Mini dimensions",
                            "Kossel Mini (J. C. Rocholl) dimensions from P. Rouzeau, OpenSCAD Delta simulator, "
                            "data_Kossel_mini.scad (2015); masses chosen")


# -- Stewart platform ------------------------------------------------------------------------------------
def _hexagon(radius, centres, half_angle, z=0.0):
    """(6, 3) points in pairs at azimuths centre ± half_angle (rad) on a circle of ``radius`` (m)."""
    angles = [c + s * half_angle for c in centres for s in (-1.0, 1.0)]
    return np.array([[radius * math.cos(t), radius * math.sin(t), z] for t in angles])


def _leg_links(A, B, mass):
    """Cylinder and piston of a prismatic leg from A to B: half the mass each, centred a quarter and three
    quarters up, solid rods of half the leg's length (radii 20 and 15 mm)."""
    length = float(np.linalg.norm(B - A))
    u = (B - A) / length
    half = mass / 2
    return (Link(half, _t(A + 0.25 * (B - A)), _matrix(ncf.cylinder(half, length / 2, 0.02, u)), radius=0.02),
            Link(half, _t(A + 0.75 * (B - A)), _matrix(ncf.cylinder(half, length / 2, 0.015, u)), radius=0.015))


def stewart(base_points=None, platform_points=None, platform_mass=1.5, platform_inertia=None, leg_mass=1.0,
            height=0.6, stroke=(0.45, 0.85), gravity=(0.0, 0.0, -9.81)):
    """The 6-UPS Gough–Stewart platform: six legs, U at the base, actuated P along the leg, S at the platform.

    The leg's U axes are ⟂ the leg at home (x₁ = u × e_z normalized, x₂ = u × x₁); the actuator coordinate
    is the leg length (the U–S distance; it is each P joint's default home). Each leg's mass is split
    half to the cylinder (link U–P, centre a quarter of the way up) and half to the piston (link P–S,
    centre three quarters up), slender rods along the leg.

    Defaults: the semi-regular hexagons of D. Stewart, *A platform with six degrees of freedom*
    (Proc. IMechE 180, 1965) and E. F. Fichter (Int. J. Robotics Research 5(2), 1986) — base joints in
    pairs at 0°, 120°, 240° ± 10° on a 0.5 m circle, platform joints at 60°, 180°, 300° ± 10° on a 0.3 m
    circle, 0.6 m apart; the numbers and the masses are chosen here (a bench-size hexapod), not
    Fichter's machine.

    Parameters
    ----------
    base_points : (6, 3) array_like, optional
        U joint centres, m, global frame.
    platform_points : (6, 3) array_like, optional
        S joint centres in the platform frame (origin at its centre), m.
    platform_mass : float
        kg.
    platform_inertia : (3, 3) array_like, optional
        About the centre of mass (the platform frame's origin), platform axes, kg·m² (default: a thin disc
        of the platform's radius).
    leg_mass : float
        Each leg, kg (0: massless legs).
    height : float
        Platform frame origin above the base at home, m.
    stroke : (2,) tuple
        Leg length limits, m.
    gravity : (3,) tuple
        m/s², global frame.

    Returns
    -------
    RobotDescription
        Task (x, y, z, rx, ry, rz).

    Examples
    --------
    >>> d = stewart()
    >>> len(d.limbs), [j.kind for j in d.limbs[0].joints]
    (6, ['U', 'P', 'S'])
    """
    name = "stewart"
    base = _hexagon(0.5, THIRDS, math.radians(10)) if base_points is None else np.asarray(base_points, float)
    top = (_hexagon(0.3, [t + math.pi / 3 for t in THIRDS], math.radians(10)) if platform_points is None
           else np.asarray(platform_points, float))
    if base.shape != (6, 3) or top.shape != (6, 3):
        raise ModelError(f"{name}: base_points and platform_points must be (6, 3) arrays (m), got {base.shape} and "
                         f"{top.shape}")
    top = np.roll(top, 1, axis=0) if platform_points is None else top   # leg i: base pair k to the nearer platform joint
    origin = np.array([0.0, 0.0, float(height)])
    limbs = []
    for k in range(6):
        A, B = base[k], origin + top[k]
        length = float(np.linalg.norm(B - A))
        u = (B - A) / length
        x1 = np.cross(u, _Z)
        x1 = x1 / np.linalg.norm(x1) if np.linalg.norm(x1) > 1e-9 else np.array([1.0, 0.0, 0.0])
        x2 = np.cross(u, x1)
        joints = (Joint("U", _t(A), (_t(x1), _t(x2))),
                  Joint("P", _t(A), (_t(u),), actuated=True, limits=tuple(float(s) for s in stroke)),
                  Joint("S", _t(B)))
        limbs.append(Limb(f"leg {k}", joints, _leg_links(A, B, leg_mass)))
    radius = float(np.max(np.linalg.norm(top[:, :2], axis=1)))
    inertia = _disc(platform_mass, radius) if platform_inertia is None else _matrix(platform_inertia)
    return RobotDescription(name, tuple(limbs), Platform((0.0, 0.0, float(height), 0.0, 0.0, 0.0), platform_mass,
                                                          inertia=inertia),
                            ("x", "y", "z", "rx", "ry", "rz"), _gravity(gravity),
                            {"x": (-0.08, 0.08), "y": (-0.08, 0.08), "z": (height - 0.08, height + 0.08),
                             "rx": (-0.15, 0.15), "ry": (-0.15, 0.15), "rz": (-0.2, 0.2)},
                            "Gough–Stewart platform (6-UPS)",
                            "semi-regular hexapod after Stewart (1965) and Fichter (1986); dimensions and masses chosen")


# -- planar 3-RRR ------------------------------------------------------------------------------------------
def planar_3rrr(base_radius=0.5, platform_radius=0.1, proximal_length=0.3, distal_length=0.3, azimuths=THIRDS,
                proximal_mass=0.5, distal_mass=0.4, platform_mass=1.0, gravity=(0.0, 0.0, -9.81)):
    """The planar 3-RRR robot in the horizontal plane z = 0: all joint axes along z.

    Limb i: actuated R at A_i on the base circle, proximal link, passive R, distal link, passive R at the
    platform's C_i. Task (x, y, rz); the closed-form home angle comes from the two-link triangle
    A_i – B_i – C_i with the elbow turned counter-clockwise.

    Defaults: the symmetric architecture of C. Gosselin & J. Angeles, *The optimum kinematic design of a
    planar three-degree-of-freedom parallel manipulator* (ASME J. Mech. Trans. Autom. Des. 110, 1988):
    base and platform joints on equilateral triangles; the lengths (base circumradius 0.5 m, platform
    0.1 m, links 0.3 m) and masses are chosen here.

    Parameters
    ----------
    base_radius, platform_radius : float
        Circumradii of the base joints A_i and the platform joints C_i, m.
    proximal_length, distal_length : float
        A_i B_i and B_i C_i, m.
    azimuths : (3,) tuple
        Directions of A_i and (at home) C_i, rad.
    proximal_mass, distal_mass, platform_mass : float
        kg.
    gravity : (3,) tuple
        m/s² (default along −z: ⟂ the plane of motion).

    Returns
    -------
    RobotDescription
        Task (x, y, rz).

    Examples
    --------
    >>> planar_3rrr().task
    ('x', 'y', 'rz')
    """
    name = "3rrr"
    limbs = []
    for k, phi in enumerate(_three(azimuths, name, "azimuths")):
        e_r, _ = _radial(phi)
        A, C = base_radius * e_r, platform_radius * e_r
        d = C - A
        # angle of A→B in the plane: the triangle's base angle turned counter-clockwise from A→C
        D = float(np.linalg.norm(d))
        c = (proximal_length**2 + D * D - distal_length**2) / (2 * proximal_length * D)
        if not -1.0 < c < 1.0:
            raise ModelError(f"{name}: links of {proximal_length} m and {distal_length} m cannot span the {D:.4g} m "
                             "from base to platform joint at home; change the lengths or radii")
        angle = math.remainder(math.atan2(d[1], d[0]) + math.acos(c), 2 * math.pi)
        B = A + proximal_length * np.array([math.cos(angle), math.sin(angle), 0.0])
        z = _t(_Z)
        joints = (Joint("R", _t(A), (z,), actuated=True, home=angle), Joint("R", _t(B), (z,)), Joint("R", _t(C), (z,)))
        links = (Link(proximal_mass, radius=0.02), Link(distal_mass, radius=0.015))
        limbs.append(Limb(f"limb {k}", joints, links))
    return RobotDescription(name, tuple(limbs), Platform((0.0,) * 6, platform_mass,
                                                          inertia=_disc(platform_mass, platform_radius)),
                            ("x", "y", "rz"), _gravity(gravity),
                            {"x": (-0.08, 0.08), "y": (-0.08, 0.08), "rz": (-0.3, 0.3)},
                            "Planar 3-RRR parallel robot",
                            "symmetric 3-RRR of Gosselin & Angeles (1988); dimensions and masses chosen")


# -- 3-RPS ------------------------------------------------------------------------------------------------
def rps_3(base_radius=0.3, platform_radius=0.15, height=0.5, azimuths=THIRDS, leg_mass=0.8, platform_mass=1.0,
          stroke=(0.35, 0.75), gravity=(0.0, 0.0, -9.81)):
    """The 3-RPS lower-mobility robot of Lee & Shah: R at the base (axis tangential), actuated P, S on top.

    Each leg stays in its radial vertical plane; the platform has the task (z, rx, ry) and the
    mechanism sets the parasitic x, y and rz (:meth:`ParallelRobot.state` reports them). The actuator
    coordinate is the leg length (the R–S distance at home).

    Defaults: the architecture of K.-M. Lee & D. K. Shah, *Kinematic analysis of a three-degrees-of-freedom
    in-parallel actuated manipulator* (IEEE J. Robotics and Automation 4(3), 1988): equilateral base and
    platform, legs in radial planes; base circumradius 0.3 m, platform 0.15 m, height 0.5 m and the
    masses are chosen here.

    Parameters
    ----------
    base_radius, platform_radius : float
        Circumradii of the R joints and the S joints, m.
    height : float
        Platform centre above the base at home, m.
    azimuths : (3,) tuple
        Leg directions, rad.
    leg_mass, platform_mass : float
        kg (each leg's mass split half-half between cylinder and piston).
    stroke : (2,) tuple
        Leg length limits, m.
    gravity : (3,) tuple
        m/s².

    Returns
    -------
    RobotDescription
        Task (z, rx, ry).

    Examples
    --------
    >>> rps_3().task
    ('z', 'rx', 'ry')
    """
    name = "3rps"
    origin = np.array([0.0, 0.0, float(height)])
    limbs = []
    for k, phi in enumerate(_three(azimuths, name, "azimuths")):
        e_r, a = _radial(phi)
        A, B = base_radius * e_r, origin + platform_radius * e_r
        u = (B - A) / np.linalg.norm(B - A)
        joints = (Joint("R", _t(A), (_t(a),)),
                  Joint("P", _t(A), (_t(u),), actuated=True, limits=tuple(float(s) for s in stroke)),
                  Joint("S", _t(B)))
        limbs.append(Limb(f"leg {k}", joints, _leg_links(A, B, leg_mass)))
    return RobotDescription(name, tuple(limbs), Platform((0.0, 0.0, float(height), 0.0, 0.0, 0.0), platform_mass,
                                                          inertia=_disc(platform_mass, platform_radius)),
                            ("z", "rx", "ry"), _gravity(gravity),
                            {"z": (height - 0.08, height + 0.08), "rx": (-0.25, 0.25), "ry": (-0.25, 0.25)},
                            "3-RPS parallel robot (Lee & Shah)",
                            "architecture of Lee & Shah (1988); dimensions and masses chosen")


# -- the paper's 3-RRRU -----------------------------------------------------------------------------------
def rrru_3(reconstructed=False, elements=8, home=(0.1, 0.0, -0.8), gravity=(0.0, 0.0, -9.81), **geometry):
    """The 3-RRRU robot of Liu, Zhao, Zhou & Wang (2018) as a description (femdyn.robots.rrru's geometry).

    Limb i: R at A1 (actuated, axis a, home θ1 of :func:`femdyn.robots.rrru.inverse_kinematics`), R at B
    (axis a), R at A2 (axis b), U at A4 (axes b on link 3, a on the platform); link 3 flexible (ANCF
    beam of the geometry's E, density, radius, ν, damping).

    Parameters
    ----------
    reconstructed : bool
        :meth:`~femdyn.robots.rrru.RRRUGeometry.reconstructed` (True) or the defaults (docs/rrru.md).
    elements : int
        Elements of link 3's BeamSpec.
    home : (3,) tuple
        Platform centre at home, m.
    gravity : (3,) tuple
        m/s².
    **geometry
        Fields of :class:`~femdyn.robots.rrru.RRRUGeometry` to change (e.g. ``E=6.9e10``).

    Returns
    -------
    RobotDescription
        Task (x, y, z).

    Examples
    --------
    >>> d = rrru_3()
    >>> [j.kind for j in d.limbs[0].joints], d.limbs[0].links[2].flexible.elements
    (['R', 'R', 'R', 'U'], 8)
    """
    from ...elements import ncf
    from ..rrru import RRRUGeometry, inverse_kinematics
    name = "3rrru"
    try:
        g = RRRUGeometry.reconstructed(**geometry) if reconstructed else RRRUGeometry(**geometry)
    except TypeError as err:
        raise ModelError(f"{name}: {err}; the geometry's fields are {list(RRRUGeometry.__dataclass_fields__)}") from None
    ik = inverse_kinematics(home, g)
    beam = BeamSpec(int(elements), g.E, g.density, g.link3_radius, 0.0, g.nu, g.damping)
    limbs = []
    for k, limb in enumerate(ik.limbs):
        u2 = (limb.A2 - limb.B) / g.link2_length
        joints = (Joint("R", _t(limb.A1), (_t(limb.a),), actuated=True, home=limb.theta),
                  Joint("R", _t(limb.B), (_t(limb.a),)),
                  Joint("R", _t(limb.A2), (_t(limb.b),)),
                  Joint("U", _t(limb.A4), (_t(limb.b), _t(limb.a))))
        links = (Link(g.link1_mass, radius=g.rigid_link_radius),
                 Link(g.link2_mass, inertia=_matrix(ncf.cylinder(g.link2_mass, g.link2_length, g.rigid_link_radius, u2)),
                      radius=g.rigid_link_radius),
                 Link(g.link3_mass, radius=g.link3_radius, flexible=beam))
        limbs.append(Limb(f"limb {k}", joints, links))
    mass, local = ncf.equilateral_plate(g.platform_radius, g.platform_thickness, mass=g.platform_mass)
    d = np.array([math.cos(g.azimuths[0]), math.sin(g.azimuths[0]), 0.0])
    R = np.column_stack([d, np.cross(_Z, d), _Z])
    x, y, z = (float(c) for c in home)
    return RobotDescription(name, tuple(limbs), Platform((x, y, z, 0.0, 0.0, 0.0), mass, inertia=_matrix(R @ local @ R.T)),
                            ("x", "y", "z"), _gravity(gravity),
                            {"x": (-0.15, 0.15), "y": (-0.15, 0.15), "z": (-0.88, -0.72)},
                            "3-RRRU rigid-flexible parallel robot (Liu, Zhao, Zhou & Wang 2018)",
                            "Liu, Zhao, Zhou & Wang, Trans. CSAM 2018(2); lost data as docs/rrru.md"
                            + (" (reconstructed)" if reconstructed else ""))


READY = {"delta": delta, "linear_delta": linear_delta, "stewart": stewart, "3rrr": planar_3rrr, "3rps": rps_3,
         "3rrru": rrru_3}


def parallel_robot(name_or_path, **overrides):
    """A :class:`ParallelRobot` from a ready robot's name or a description file, with overrides.

    Parameters
    ----------
    name_or_path : str or path-like
        A key of :data:`READY` (``"delta"``, ``"linear_delta"``, ``"stewart"``, ``"3rrr"``, ``"3rps"``,
        ``"3rrru"``) or a TOML description file (docs/parallel-robots.md).
    **overrides
        For a ready robot, its function's parameters; for a file, dotted keys of the file
        (``**{"platform.mass": 2.0}``) set through :func:`femdyn.schema.with_overrides`.

    Returns
    -------
    ParallelRobot

    Raises
    ------
    ModelError
        An unknown name or parameter (the message lists what exists), or a description that does not assemble.
    SchemaError
        An invalid description file.

    Examples
    --------
    >>> robot = parallel_robot("3rps", height=0.55)
    >>> robot.description.platform.home[2]
    0.55
    """
    return ParallelRobot(robot_description(name_or_path, **overrides))


def robot_description(name_or_path, **overrides):
    """The :class:`RobotDescription` :func:`parallel_robot` builds.

    Parameters
    ----------
    name_or_path, **overrides
        As :func:`parallel_robot`.

    Returns
    -------
    RobotDescription
    """
    key = str(name_or_path)
    if key in READY:
        function = READY[key]
        known = list(inspect.signature(function).parameters)
        unknown = [k for k in overrides if k not in known]
        if unknown and "geometry" not in known:
            raise ModelError(f"ready robot '{key}': unknown parameter{'s' if len(unknown) > 1 else ''} {unknown}; "
                             f"it takes {known}")
        return function(**overrides)
    if not key.endswith(".toml"):
        raise ModelError(f"unknown robot '{key}': give a ready robot ({', '.join(READY)}) or a description file "
                         "(.toml)")
    data = with_overrides(read_toml(key, "robot description"), overrides)
    return description_from_dict(data, where=key, folder=os.path.dirname(os.path.abspath(key)))
