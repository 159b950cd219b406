"""A parallel robot as data: base, limbs as chains of joints, platform, task coordinates.

Every geometric quantity is given in the *home configuration*, in the global frame (z up): the
joint centres and axes where they are when the platform sits at its home pose. A limb runs from the
base (ground) to the platform: joints j = 0 … k−1 with the links between them (link j joins joint j and
joint j + 1); the last joint attaches the limb's last link to the platform. Kinds of joint:

``R``  revolute (``axis``), ``P`` prismatic (``axis``), ``U`` universal (``axes``: the first fixed in the
proximal link, the second in the distal one), ``S`` spherical (last joint only), ``Pa`` the parallelogram
forearm of the Delta robot (last joint only: two bars of length ``|end − point|`` and ``width`` apart along
``axis``, spherical joints at their four ends; ``point`` is the elbow centre on the last link, ``end`` the
centre of the bars' platform ends).

A joint may be ``actuated``; the actuator coordinate is, for a revolute, the angle from its home
position plus ``home`` (rad); for a prismatic, the slide plus ``home`` (m; by default the distance along
the axis between the joint centres it separates, a Stewart leg's length). The file format and the
six ready robots: docs/parallel-robots.md.
"""
import math
import os
from dataclasses import dataclass, field, replace

import numpy as np

from ...errors import SchemaError
from ...schema import Key, check_table, read_toml
from .component_link import ComponentSpec, component_placement, component_spec

__all__ = ["BeamSpec", "Joint", "Link", "Limb", "Platform", "RobotDescription", "read_description",
           "description_from_dict", "TASK_COORDINATES"]

TASK_COORDINATES = ("x", "y", "z", "rx", "ry", "rz")
JOINT_KINDS = {"R": 1, "P": 1, "U": 2, "S": 3, "Pa": 0}     # internal variables of each kind
LAST_ONLY = ("S", "Pa")


@dataclass(frozen=True)
class BeamSpec:
    """A flexible link as ANCF beam elements of circular (or tubular) section.

    Parameters
    ----------
    elements : int
        Elements along the link.
    E, density : float
        Young's modulus, Pa; density, kg/m³.
    radius : float
        Outer radius of the section, m.
    inner_radius : float
        0 for a solid section, m.
    nu, damping : float
        Poisson's ratio; Kelvin–Voigt coefficient, s.
    """

    elements: int = 4
    E: float = 7.0e10
    density: float = 2700.0
    radius: float = 0.01
    inner_radius: float = 0.0
    nu: float = 0.3
    damping: float = 0.0

    @property
    def area(self):
        """Section area, m²."""
        return math.pi * (self.radius**2 - self.inner_radius**2)


@dataclass(frozen=True)
class Joint:
    """One joint of a limb at the home configuration (module docstring: kinds and actuator coordinates).

    Parameters
    ----------
    kind : {"R", "P", "U", "S", "Pa"}
    point : (3,) tuple
        Joint centre, m, global frame at home.
    axes : tuple of (3,) tuples
        Unit axes: one for R, P and Pa (the bars' spacing direction), two for U, none for S.
    actuated : bool
    home : float or None
        Actuator coordinate at home, rad or m (None: 0 for R; the centres' distance for P).
    end : (3,) tuple or None
        Pa only: centre of the bars' platform ends at home, m.
    width : float
        Pa only: distance between the two bars, m.
    bar_mass : float
        Pa only: mass of each bar, kg (uniform slender rods).
    flexible : BeamSpec or None
        Pa only: the bars as ANCF elements.
    limits : (2,) tuple or None
        Range of the joint coordinate (rad or m, in actuator coordinates if actuated).
    """

    kind: str
    point: tuple
    axes: tuple = ()
    actuated: bool = False
    home: float = None
    end: tuple = None
    width: float = 0.0
    bar_mass: float = 0.0
    flexible: BeamSpec = None
    limits: tuple = None

    @property
    def variables(self):
        """Number of joint coordinates this joint adds inside a limb (0 at the platform)."""
        return JOINT_KINDS[self.kind]


@dataclass(frozen=True)
class Link:
    """A link between two consecutive joints of a limb.

    Parameters
    ----------
    mass : float
        kg (0: massless).
    com : (3,) tuple or None
        Centre of mass at home, m, global (None: midway between its joints).
    inertia : (3, 3) tuple or None
        About the centre of mass, kg·m², global axes at home (None: a solid rod of ``radius``).
    radius : float
        Drawing radius and the default inertia's rod radius, m.
    flexible : BeamSpec, ComponentSpec or None
        The link as ANCF beam elements between its joints, or as a reduced component whose interfaces are
        matched to its joints (:mod:`.component_link`). Either gives the link's mass properties: ``mass``,
        ``com`` and ``inertia`` are then not used.
    """

    mass: float = 0.0
    com: tuple = None
    inertia: tuple = None
    radius: float = 0.01
    flexible: BeamSpec = None


@dataclass(frozen=True)
class Limb:
    """A chain of joints from the base to the platform with the links between them.

    Parameters
    ----------
    name : str
    joints : tuple of Joint
    links : tuple of Link
        ``len(joints) − 1`` links; link j joins joints j and j + 1.
    """

    name: str
    joints: tuple
    links: tuple


@dataclass(frozen=True)
class Platform:
    """The moving platform.

    Parameters
    ----------
    home : (6,) tuple
        Home pose (x, y, z, rx, ry, rz): platform frame origin, m, and rotation vector, rad.
    mass : float
        kg, payload excluded.
    com : (3,) tuple
        Centre of mass in the platform frame, m.
    inertia : (3, 3) tuple
        About the centre of mass, platform axes, kg·m².
    tool : (3,) tuple
        Tool point in the platform frame, m.
    payload : float
        Point mass at the tool point, kg.
    """

    home: tuple = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    mass: float = 1.0
    com: tuple = (0.0, 0.0, 0.0)
    inertia: tuple = ((1e-3, 0.0, 0.0), (0.0, 1e-3, 0.0), (0.0, 0.0, 1e-3))
    tool: tuple = (0.0, 0.0, 0.0)
    payload: float = 0.0


@dataclass(frozen=True)
class RobotDescription:
    """A parallel robot: limbs, platform, task coordinates and workspace bounds.

    Parameters
    ----------
    name, title, source : str
        Short name, full name, and where the defaults come from.
    task : tuple of str
        Task coordinates, a subset of ``TASK_COORDINATES`` (the others are fixed by the mechanism).
    limbs : tuple of Limb
    platform : Platform
    gravity : (3,) tuple
        m/s², global frame.
    workspace : dict
        Sampling bounds per task coordinate, ``{"x": (lo, hi), …}`` (m, rad), absolute.

    Examples
    --------
    >>> from femdyn.robots.parallel import parallel_robot
    >>> d = parallel_robot("stewart").description
    >>> d.task, len(d.limbs), [j.kind for j in d.limbs[0].joints]
    (('x', 'y', 'z', 'rx', 'ry', 'rz'), 6, ['U', 'P', 'S'])
    """

    name: str
    limbs: tuple
    platform: Platform
    task: tuple = ("x", "y", "z")
    gravity: tuple = (0.0, 0.0, -9.81)
    workspace: dict = field(default_factory=dict)
    title: str = ""
    source: str = ""

    @property
    def actuated(self):
        """(limb index, joint index) of every actuated joint, in limb order."""
        return [(i, j) for i, limb in enumerate(self.limbs) for j, joint in enumerate(limb.joints) if joint.actuated]

    def with_gravity(self, gravity):
        """A copy with another gravity vector (m/s²).

        Parameters
        ----------
        gravity : (3,) array_like
            m/s², global frame.
        """
        return replace(self, gravity=tuple(float(g) for g in gravity))


def read_description(path):
    """The robot description of a TOML file (format: docs/parallel-robots.md).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    RobotDescription

    Raises
    ------
    SchemaError
        Naming the file, the limb, the joint and the fix.
    """
    return description_from_dict(read_toml(path, "robot description"), where=str(path),
                                 folder=os.path.dirname(os.path.abspath(path)))


_BEAM = {"elements": Key(int, at_least=1), "E": Key(float, above=0, unit="Pa"),
         "density": Key(float, above=0, unit="kg/m³"), "radius": Key(float, above=0, unit="m"),
         "inner_radius": Key(float, at_least=0, unit="m"), "nu": Key(float, at_least=0), "damping": Key(float, at_least=0)}
_JOINT = {"type": Key(str, required=True, hint="R, P, U, S or Pa"), "point": Key(3, required=True, unit="m"),
          "axis": 3, "axes": list, "actuated": bool, "home": float, "end": 3, "width": Key(float, at_least=0),
          "bar_mass": Key(float, at_least=0, unit="kg"), "flexible": dict, "limits": 2}
_LINK = {"mass": Key(float, at_least=0, unit="kg"), "com": 3, "inertia": list, "radius": Key(float, above=0),
         "flexible": dict, "component": dict}
_PLATFORM = {"home": Key(6, required=True, hint="x, y, z (m), rx, ry, rz (rad)"), "mass": Key(float, at_least=0),
             "com": 3, "inertia": list, "tool": 3, "payload": Key(float, at_least=0, unit="kg")}
_ROBOT = {"name": Key(str, required=True), "title": str, "source": str, "task": list, "gravity": 3,
          "workspace": dict, "platform": Key(dict, required=True), "limb": Key(list, required=True)}


def description_from_dict(data, where="robot description", folder=None):
    """A :class:`RobotDescription` from the tables of a description file (see :func:`read_description`).

    Parameters
    ----------
    data : dict
        As read from TOML: ``name``, ``task``, ``gravity``, ``[platform]``, ``[workspace]``, ``[[limb]]``
        with ``[[limb.joint]]`` and ``[[limb.link]]``.
    where : str
        The file's name for messages.
    folder : str, optional
        The folder a link's ``component.file`` is relative to (the description file's; default the working
        directory).

    Returns
    -------
    RobotDescription
    """
    top = check_table(data, _ROBOT, where)
    task = tuple(top.get("task", ("x", "y", "z")))
    bad = [c for c in task if c not in TASK_COORDINATES] or ([] if len(set(task)) == len(task) else ["(repeated)"])
    if bad or not task:
        raise SchemaError(f"{where}: task {list(task)} must name distinct coordinates among {list(TASK_COORDINATES)}")
    platform = _platform(top["platform"], where)
    limbs = tuple(_limb(table, k, where, folder) for k, table in enumerate(top["limb"]))
    workspace = _workspace(top.get("workspace", {}), task, where)
    return RobotDescription(top["name"], limbs, platform, task, tuple(top.get("gravity", (0.0, 0.0, -9.81))),
                            workspace, top.get("title", ""), top.get("source", ""))


def _platform(table, where):
    """The [platform] table."""
    p = check_table(table, _PLATFORM, where, "platform.")
    inertia = _inertia(p["inertia"], f"{where}: platform.inertia") if "inertia" in p else Platform.inertia
    return Platform(p["home"], p.get("mass", 1.0), p.get("com", (0.0, 0.0, 0.0)), inertia,
                    p.get("tool", (0.0, 0.0, 0.0)), p.get("payload", 0.0))


def _limb(table, k, where, folder):
    """One [[limb]] table: its joints and links, checked for kinds, axes and counts."""
    if not isinstance(table, dict):
        raise SchemaError(f"{where}: limb {k} must be a table with [[limb.joint]] and [[limb.link]]")
    name = str(table.get("name", f"limb {k}"))
    t = check_table(table, {"name": str, "joint": Key(list, required=True), "link": list}, where, f"limb '{name}'.")
    joints = tuple(_joint(j, f"{where}: limb '{name}' joint {n}") for n, j in enumerate(t["joint"]))
    links = tuple(_link(lk, f"{where}: limb '{name}' link {n}", folder) for n, lk in enumerate(t.get("link", [])))
    limb = checked_limb(Limb(name, joints, links), where)
    for n, link in enumerate(limb.links):            # a component must fit between its joints: refused here
        if isinstance(link.flexible, ComponentSpec):
            component_placement(link.flexible, limb.joints[n], limb.joints[n + 1], f"{where}: limb '{name}' link {n}")
    return limb


def checked_limb(limb, where):
    """``limb`` after the structural checks (joint counts, kinds in place, links between joints)."""
    name = f"{where}: limb '{limb.name}'"
    if not limb.joints:
        raise SchemaError(f"{name} has no joint; list its joints from the base to the platform")
    for n, joint in enumerate(limb.joints[:-1]):
        if joint.kind in LAST_ONLY:
            raise SchemaError(f"{name} joint {n}: a {joint.kind} joint may only attach the limb to the platform "
                              "(its last joint); use R, P or U inside the limb")
    if len(limb.links) != len(limb.joints) - 1:
        raise SchemaError(f"{name}: {len(limb.joints)} joints need {len(limb.joints) - 1} links between them "
                          f"([[limb.link]]), got {len(limb.links)}")
    return limb


def _joint(table, where):
    """One [[limb.joint]] table."""
    j = check_table(table, _JOINT, where, "")
    kind = j["type"]
    if kind not in JOINT_KINDS:
        raise SchemaError(f"{where}: type {kind!r} is not a joint kind; use one of {list(JOINT_KINDS)}")
    axes = _axes(j, kind, where)
    if kind == "Pa" and ("end" not in j or not j.get("width", 0) > 0):
        raise SchemaError(f"{where}: a Pa (parallelogram) joint needs end = [x, y, z] (its platform side, m) and "
                          "width > 0 (m, distance between the bars)")
    if j.get("actuated") and kind not in ("R", "P"):
        raise SchemaError(f"{where}: only R and P joints can be actuated, not {kind}; move 'actuated' to the "
                          "limb's revolute or prismatic joint")
    flexible = BeamSpec(**check_table(j["flexible"], _BEAM, where, "flexible.")) if "flexible" in j else None
    return Joint(kind, j["point"], axes, j.get("actuated", False), j.get("home"), j.get("end"), j.get("width", 0.0),
                 j.get("bar_mass", 0.0), flexible, j.get("limits"))


def _axes(j, kind, where):
    """The unit axes of a joint table: ``axis`` (R, P, Pa) or ``axes`` (U), normalized."""
    need = {"R": 1, "P": 1, "Pa": 1, "U": 2, "S": 0}[kind]
    given = [j["axis"]] if "axis" in j else list(j.get("axes", []))
    if len(given) != need:
        key = "axes = [[…], […]]" if need == 2 else "axis = [x, y, z]"
        raise SchemaError(f"{where}: a {kind} joint needs {need} axis{'es' if need != 1 else ''} ({key})"
                          if need else f"{where}: an S joint takes no axis")
    out = []
    for a in given:
        v = np.asarray(a, float)
        if v.shape != (3,) or not np.all(np.isfinite(v)) or not np.linalg.norm(v) > 0:
            raise SchemaError(f"{where}: axis {a!r} must be 3 finite numbers, not all zero")
        out.append(tuple(v / np.linalg.norm(v)))
    if kind == "U" and abs(np.dot(out[0], out[1])) > 1e-9:
        raise SchemaError(f"{where}: the two axes of a U joint must be perpendicular (dot product "
                          f"{np.dot(out[0], out[1]):.3g})")
    return tuple(out)


def _link(table, where, folder):
    """One [[limb.link]] table."""
    lk = check_table(table, _LINK, where, "")
    if "flexible" in lk and "component" in lk:
        raise SchemaError(f"{where}: a link is flexible as ANCF beam elements (flexible) or as a component "
                          "(component), not both; remove one of the two tables")
    flexible = BeamSpec(**check_table(lk["flexible"], _BEAM, where, "flexible.")) if "flexible" in lk else None
    if "component" in lk:
        flexible = component_spec(lk["component"], where, folder)
    inertia = _inertia(lk["inertia"], where + ".inertia") if "inertia" in lk else None
    return Link(lk.get("mass", 0.0), lk.get("com"), inertia, lk.get("radius", 0.01), flexible)


def _inertia(value, where):
    """A 3 × 3 symmetric positive semi-definite inertia from a 3 × 3 list or a diagonal (3,) list, kg·m²."""
    a = np.asarray(value, float)
    if a.shape == (3,):
        a = np.diag(a)
    if a.shape != (3, 3) or not np.all(np.isfinite(a)) or not np.allclose(a, a.T) \
            or np.linalg.eigvalsh(a).min() < -1e-12 * max(1.0, abs(a).max()):
        raise SchemaError(f"{where}: {value!r} must be a symmetric positive semi-definite 3 × 3 matrix (or its "
                          "diagonal), kg·m²")
    return tuple(map(tuple, a))


def _workspace(table, task, where):
    """[workspace] bounds, one (lo, hi) per task coordinate."""
    out = {}
    for key, value in table.items():
        if key not in task:
            raise SchemaError(f"{where}: workspace.{key} is not a task coordinate; the task is {list(task)}")
        v = np.asarray(value, float)
        if v.shape != (2,) or not np.all(np.isfinite(v)) or not v[0] < v[1]:
            raise SchemaError(f"{where}: workspace.{key} must be [low, high] with low < high, got {value!r}")
        out[key] = (float(v[0]), float(v[1]))
    return out
