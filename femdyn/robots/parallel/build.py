"""A parallel robot's femdyn model (natural coordinates, ANCF links) from its description at a pose.

Every rigid link is a natural-coordinate body on one point (its first joint's centre) and three unit
vectors (García de Jalón & Bayo 1994, ch. 2), so that any joint axis is a material direction of it; the
joints are the model's own (revolute, prismatic, universal, spherical), placed where the robot's
kinematics (:meth:`ParallelRobot.state`) puts them at the pose. A link with a ``flexible`` specification
becomes ANCF beam elements between its joints (``element="beam"``: its end nodes carry the section axes a
revolute or universal joint needs), or, given a component, a floating-frame body
(:meth:`~femdyn.model.Model.flexible_body`, placed by :mod:`.component_link` and moved with the link to the
pose) whose two interface frames carry its joints; a Pa forearm becomes two bars, rigid slender rods or ANCF
cables, with ball joints at their four ends. The platform is one rigid body with the payload at the tool point.
"""
from dataclasses import dataclass, field

import numpy as np

from femdyn.elements import sections

from ...errors import ModelError
from ...model import Model
from .chain import link_transform, point_on_link, point_on_platform, rotation
from .component_link import ComponentSpec, component_placement, link_component
from .dynamics import bar_mass, link_inertia

MASSLESS = 1e-9      # kg given to a massless link or bar (the DAE's bodies need a mass; 1 µg changes no effort)


@dataclass
class RobotModel:
    """A built robot: the femdyn ``model`` and the names of its parts.

    Parameters
    ----------
    model : Model
        Not yet assembled.
    actuated : list of str
        The actuated joints, limb order (drive them, or give them actuators).
    actuators : list of str
        The actuators of a servo model (empty without ``servo``); their inputs are recorded as
        ``<name>.torque`` or ``<name>.force``.
    platform : str
        The platform body.
    tool : ndarray (3,)
        The tool point at the model's pose, m, global.
    flexible : dict
        The ANCF element sets (flexible links and bars) and their :class:`BeamSpec`.
    links : dict
        Body or element-set name of every link, by (limb index, link index).
    state : ndarray
        The robot's closure coordinates Z at the pose (:class:`ParallelRobot`).
    components : dict
        The floating-frame bodies of component links and their :class:`ComponentSpec`; the joints attach to
        the bodies ``"<body>.<interface>"``.
    """

    model: Model
    actuated: list
    actuators: list
    platform: str
    tool: np.ndarray
    flexible: dict = field(default_factory=dict)
    links: dict = field(default_factory=dict)
    state: np.ndarray = None
    components: dict = field(default_factory=dict)


def _frame(first):
    """An orthonormal frame (3, 3), columns, whose first axis is ``first``."""
    e1 = np.asarray(first, float) / np.linalg.norm(first)
    e2 = np.cross(e1, [1.0, 0, 0] if abs(e1[0]) < 0.9 else [0, 1.0, 0])
    e2 /= np.linalg.norm(e2)
    return np.column_stack([e1, e2, np.cross(e1, e2)])


def _rigid(m, name, origin, frame, mass, com, inertia):
    """A natural-coordinate rigid body on one point and the three frame vectors; returns its name."""
    point = m.point(f"{name}.O", origin)
    vectors = [m.vector(f"{name}.e{k}", frame[:, k]) for k in range(3)]
    m.rigid_body(name, [point], vectors, mass=mass if mass > 0 else MASSLESS, com=com, inertia=inertia)
    return name


class _Builder:
    """Places the robot's bodies and joints in a Model at one state Z of its closure."""

    def __init__(self, robot, Z, flexible, name):
        self.robot, self.Z, self.flexible = robot, Z, flexible
        self.F = robot.frames(Z[None])
        self.m = Model(name, gravity=robot.description.gravity)
        self.sets, self.components, self.links, self.actuated = {}, {}, {}, []

    def at_link(self, i, screws, x):
        """Current position of the home point x on limb i's body after ``screws`` screws."""
        return point_on_link(self.F, self.robot.chains, i, screws, np.asarray(x, float))[0][0]

    def turn(self, i, screws, v):
        """Current direction of the home vector v on that body."""
        return link_transform(self.F, i, screws)[0][0] @ np.asarray(v, float)

    def platform(self):
        """The platform body, payload included; returns its name and the tool point."""
        d, robot = self.robot.description, self.robot
        R = rotation(self.Z[-3:])
        origin = self.Z[-6:-3]
        plat = d.platform
        com, tool = origin + R @ np.array(plat.com), origin + R @ np.array(plat.tool)
        mass = plat.mass + plat.payload
        c = (plat.mass * com + plat.payload * tool) / mass if mass > 0 else com
        inertia = R @ np.array(plat.inertia) @ R.T
        for part_mass, x in ((plat.mass, com), (plat.payload, tool)):       # parallel axes to the joint com
            r = x - c
            inertia = inertia + part_mass * (r @ r * np.eye(3) - np.outer(r, r))
        _rigid(self.m, "platform", origin, R, mass, c, inertia)
        self.tool = tool
        return "platform"

    def limb(self, i):
        """Limb i's links and joints."""
        limb, chain = self.robot.description.limbs[i], self.robot.chains.limbs[i]
        bodies = ["ground"]
        for j, link in enumerate(limb.links):
            bodies.append(self.link(i, j, link, chain.ends[j]))
        for j, joint in enumerate(limb.joints[:-1]):
            self.joint(i, j, joint, bodies[j], bodies[j + 1], chain.screws_before(j))
        self.close(i, limb.joints[-1], bodies[-1], len(chain.kinds))

    def link(self, i, j, link, screws):
        """Link j of limb i as a rigid body, ANCF beam or component; returns the name(s) its joints attach to."""
        limb = self.robot.description.limbs[i]
        name = f"{limb.name}.link{j}"
        p, q = self.at_link(i, screws, limb.joints[j].point), self.at_link(i, screws, limb.joints[j + 1].point)
        self.links[(i, j)] = name
        if isinstance(link.flexible, ComponentSpec) and self.flexible:
            return self.component(i, j, name, link.flexible, screws)
        if link.flexible is not None and self.flexible:
            if "P" in (limb.joints[j].kind, limb.joints[j + 1].kind):
                raise ModelError(f"limb '{limb.name}' link {j}: a flexible link cannot carry a prismatic joint; make "
                                 "it rigid or move the slider")
            b = link.flexible
            y_axis = self.turn(i, screws, limb.joints[j].axes[-1]) if limb.joints[j].axes else None
            self.m.straight_beam(name, p, q, b.elements, E=b.E, rho=b.density, section=_section(b), element="beam",
                                 nu=b.nu, damping=b.damping, y_axis=y_axis)
            self.sets[name] = b
            return (f"{name}.0", f"{name}.{b.elements}")
        axis = q - p if np.linalg.norm(q - p) > 1e-9 else self.turn(i, screws, limb.joints[j].axes[0])
        mass, com, inertia = link_inertia(limb, j)
        R = link_transform(self.F, i, screws)[0][0]
        _rigid(self.m, name, p, _frame(axis), mass, self.at_link(i, screws, com), R @ inertia @ R.T)
        return name

    def component(self, i, j, name, spec, screws):
        """Link j of limb i as a floating-frame body of its component, placed at home and moved to the pose."""
        limb = self.robot.description.limbs[i]
        where = f"limb '{limb.name}' link {j}"
        placed = component_placement(spec, limb.joints[j], limb.joints[j + 1], where)
        R = link_transform(self.F, i, screws)[0][0] @ placed.rotation
        self.m.flexible_body(name, link_component(spec, where), self.at_link(i, screws, placed.position), R,
                             modes=spec.modes)
        self.components[name] = spec
        return tuple(f"{name}.{interface}" for interface in spec.interfaces)

    def joint(self, i, j, joint, before, after, screws):
        """Joint j of limb i between the bodies ``before`` and ``after`` (a name, or (first, last) node of a beam)."""
        a = before[1] if isinstance(before, tuple) else before
        b = after[0] if isinstance(after, tuple) else after
        limb = self.robot.description.limbs[i]
        name = f"{limb.name}.joint{j}"
        c = self.at_link(i, screws, joint.point)
        axes = [self.turn(i, screws + k, axis) for k, axis in enumerate(joint.axes)]
        if joint.kind == "R":
            self.m.revolute(name, a, b, c, axes[0])
        elif joint.kind == "P":
            self.m.prismatic(name, a, b, c, axes[0])
        else:
            self.m.universal(name, a, b, c, axes[0], axes[1])
        if joint.actuated:
            self.actuated.append(name)

    def close(self, i, joint, last, screws):
        """The limb's last joint: to the platform, or the Pa forearm's two bars."""
        limb = self.robot.description.limbs[i]
        name = f"{limb.name}.joint{len(limb.joints) - 1}"
        body = last[1] if isinstance(last, tuple) else last
        if joint.kind == "Pa":
            return self.bars(i, joint, body, screws)
        c = self.at_link(i, screws, joint.point)
        if joint.kind == "S":
            self.m.spherical(name, body, "platform", c)
        elif joint.kind == "U":
            u2 = self.F.R_p[0] @ np.array(joint.axes[1])
            self.m.universal(name, body, "platform", c, self.turn(i, screws, joint.axes[0]), u2)
        else:
            self.m.revolute(name, body, "platform", c, self.turn(i, screws, joint.axes[0]))

    def bars(self, i, joint, arm, screws):
        """The two bars of a Pa forearm with ball joints at their ends."""
        limb, chain = self.robot.description.limbs[i], self.robot.chains.limbs[i]
        for k, (on_arm, on_platform) in enumerate(chain.anchors):
            A = self.at_link(i, screws, on_arm)
            B = point_on_platform(self.F, self.robot.chains, on_platform)[0][0]
            name = f"{limb.name}.bar{k}"
            spec = joint.flexible
            if spec is not None and self.flexible:
                self.m.straight_beam(name, A, B, spec.elements, E=spec.E, rho=spec.density, section=_section(spec),
                                     element="cable", nu=spec.nu, damping=spec.damping)
                self.sets[name] = spec
                ends = (f"{name}.0", f"{name}.{spec.elements}")
            else:
                p1, p2 = self.m.point(f"{name}.A", A), self.m.point(f"{name}.B", B)
                self.m.rigid_beam(name, p1, p2, mass=bar_mass(joint) if bar_mass(joint) > 0 else MASSLESS)
                ends = (name, name)
            self.m.spherical(f"{name}.upper", arm, ends[0], A)
            self.m.spherical(f"{name}.lower", ends[1], "platform", B)


def _section(spec):
    """The ANCF section of a BeamSpec: solid or hollow circle."""
    return sections.tube(spec.radius, spec.inner_radius) if spec.inner_radius > 0 else sections.circular(spec.radius)


class PoseMotion:
    """The platform's whole pose (x, y, z, rx, ry, rz) and its rates along a task motion: the coordinates the
    task leaves to the mechanism (a lower-mobility robot's parasitic motion) from the rigid kinematics.

    Parameters
    ----------
    robot : ParallelRobot
    task : object with ``state(t)``
        (x, ẋ, ẍ) of the task coordinates at t, s.
    """

    def __init__(self, robot, task):
        self.robot, self.task = robot, task
        self._t, self._state, self._guess = None, None, None

    def state(self, t):
        """(pose, rate, acceleration), (6,) each: m, rad and their time derivatives."""
        if t != self._t:
            x, xd, xdd = (np.asarray(v, float)[None] for v in self.task.state(t))
            Z, Zd, Zdd = self.robot.motion(x, xd, xdd, guess=self._guess)     # from the last state: its branch
            self._t, self._guess = t, Z
            self._state = Z[0, -6:], Zd[0, -6:], Zdd[0, -6:]
        return self._state


def build_model(robot, pose, flexible=True, servo=None, name=None):
    """The femdyn model of ``robot`` at ``pose`` (see :meth:`ParallelRobot.model`).

    Parameters
    ----------
    robot : ParallelRobot
    pose : (n_task,) array_like
        Task coordinates, m and rad.
    flexible : bool
        Flexible links and bars as ANCF elements (True) or rigid.
    servo : object with ``state(t)``, optional
        The task coordinates in time: ``state(t)`` gives them with their rates, (n_task,) each (a
        :class:`~femdyn.motion.trajectories.Trajectory` for an x, y, z task). Servo rows prescribe the
        platform's task coordinates (:meth:`~femdyn.model.Model.servo_pose` with the task's rows) and every
        actuated joint gets an actuator (inverse dynamics; the inputs are recorded as ``<joint>.torque`` or
        ``<joint>.force``).
    name : str, optional
        The model's name (default the robot's).

    Returns
    -------
    RobotModel
    """
    d = robot.description
    Z = robot.state(np.asarray(pose, float))
    b = _Builder(robot, Z, flexible, name or d.name)
    platform = b.platform()
    for i in range(len(d.limbs)):
        b.limb(i)
    actuators = []
    if servo is not None:
        for joint in b.actuated:
            actuators.append(b.m.actuator(joint, joint).name)
        b.m.servo_pose("platform", platform, Z[-6:-3], PoseMotion(robot, servo), frame=rotation(Z[-3:]).T,
                       rows=d.task)
    return RobotModel(b.m, b.actuated, actuators, platform, b.tool, b.sets, b.links, Z, b.components)
