"""Small parallel-robot descriptions built in code, for tests that must not depend on the ready catalogue."""
import math

import numpy as np
from scipy.optimize import brentq

from femdyn.robots.parallel import ComponentSpec, Joint, Limb, Link, Platform, RobotDescription


def delta(flex=None, Rb=0.2, Rp=0.05, La=0.35, Lf=0.8, z0=-0.7, w=0.08, bar_mass=0.1, payload=0.2):
    """A Delta robot (three R-Pa limbs, revolute actuators at the base) with its platform at (0, 0, z0)."""
    limbs = []
    for k, phi in enumerate(np.radians([0.0, 120.0, 240.0])):
        er, ez = np.array([math.cos(phi), math.sin(phi), 0.0]), np.array([0.0, 0.0, 1.0])
        a = np.cross(ez, er)
        B, D = Rb * er, np.array([0.0, 0.0, z0]) + Rp * er
        arm = brentq(lambda th: np.linalg.norm(D - B - La * (math.cos(th) * er - math.sin(th) * ez)) - Lf, -1.2, 1.5)
        E = B + La * (math.cos(arm) * er - math.sin(arm) * ez)
        joints = (Joint("R", tuple(B), (tuple(a),), actuated=True, home=arm, limits=(-1.2, 1.5)),
                  Joint("Pa", tuple(E), (tuple(a),), end=tuple(D), width=w, bar_mass=bar_mass, flexible=flex))
        limbs.append(Limb(f"arm {k}", joints, (Link(1.0, radius=0.02),)))
    platform = Platform(home=(0.0, 0.0, z0, 0.0, 0.0, 0.0), mass=0.5,
                        inertia=((1e-3, 0, 0), (0, 1e-3, 0), (0, 0, 2e-3)), payload=payload)
    return RobotDescription("delta", tuple(limbs), platform,
                            workspace={"x": (-0.2, 0.2), "y": (-0.2, 0.2), "z": (-0.95, -0.6)})


def stewart(rb=0.5, rp=0.3, h=0.6, leg_mass=(1.0, 0.5), mass=2.0, inertia=((0.05, 0, 0), (0, 0.06, 0), (0, 0, 0.1)),
            gravity=(0.0, 0.0, -9.81)):
    """A Stewart platform (six U-P-S legs, prismatic actuators) with its platform at height h."""
    limbs = []
    for i in range(6):
        ab = np.radians(120 * (i // 2) + (-10 if i % 2 == 0 else 10))
        ap = np.radians(120 * (i // 2) + (10 if i % 2 == 0 else -10))
        A = np.array([rb * np.cos(ab), rb * np.sin(ab), 0.0])
        B = np.array([rp * np.cos(ap), rp * np.sin(ap), h])
        u = (B - A) / np.linalg.norm(B - A)
        x1 = np.cross(u, [0, 0, 1.0])
        x1 /= np.linalg.norm(x1)
        joints = (Joint("U", tuple(A), (tuple(x1), tuple(np.cross(u, x1)))), Joint("P", tuple(A), (tuple(u),),
                                                                                   actuated=True), Joint("S", tuple(B)))
        links = (Link(leg_mass[0], tuple(A + 0.25 * (B - A))), Link(leg_mass[1], tuple(A + 0.75 * (B - A))))
        limbs.append(Limb(f"leg {i}", joints, links))
    return RobotDescription("stewart", tuple(limbs), Platform(home=(0, 0, h, 0, 0, 0), mass=mass, inertia=inertia),
                            task=("x", "y", "z", "rx", "ry", "rz"), gravity=gravity,
                            workspace={"x": (-0.1, 0.1), "y": (-0.1, 0.1), "z": (0.5, 0.7), "rx": (-0.2, 0.2),
                                       "ry": (-0.2, 0.2), "rz": (-0.2, 0.2)})


def _toml_value(value):
    """A TOML literal of a number, bool, string, sequence or inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return repr(float(value))


def description_toml(d):
    """The TOML text of a RobotDescription (the format of femdyn.robots.parallel.read_description)."""
    lines = [f"name = {_toml_value(d.name)}", f"task = {_toml_value(list(d.task))}",
             f"gravity = {_toml_value(d.gravity)}", "", "[platform]"]
    p = d.platform
    lines += [f"{k} = {_toml_value(getattr(p, k))}" for k in ("home", "mass", "com", "inertia", "tool", "payload")]
    if d.workspace:
        lines += ["", "[workspace]"] + [f"{k} = {_toml_value(v)}" for k, v in d.workspace.items()]
    for limb in d.limbs:
        lines += ["", "[[limb]]", f"name = {_toml_value(limb.name)}"]
        for j in limb.joints:
            lines += ["[[limb.joint]]", f"type = {_toml_value(j.kind)}", f"point = {_toml_value(j.point)}"]
            if j.axes:
                lines.append(f"axes = {_toml_value(j.axes)}" if j.kind == "U" else f"axis = {_toml_value(j.axes[0])}")
            extra = {"actuated": j.actuated or None, "home": j.home, "end": j.end, "width": j.width or None,
                     "bar_mass": j.bar_mass or None, "limits": j.limits,
                     "flexible": vars(j.flexible) if j.flexible is not None else None}
            lines += [f"{k} = {_toml_value(v)}" for k, v in extra.items() if v is not None]
        for link in limb.links:
            component = isinstance(link.flexible, ComponentSpec)
            extra = {"mass": link.mass, "com": link.com, "inertia": link.inertia, "radius": link.radius,
                     "flexible": vars(link.flexible) if link.flexible is not None and not component else None,
                     "component": {k: v for k, v in vars(link.flexible).items() if v is not None} if component
                     else None}
            lines += ["[[limb.link]]"] + [f"{k} = {_toml_value(v)}" for k, v in extra.items() if v is not None]
    return "\n".join(lines) + "\n"
