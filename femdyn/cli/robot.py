"""``femdyn robot list | show | ik | fk``: the ready parallel robots and description files
(docs/parallel-robots.md): summary and picture, inverse and forward kinematics."""
import json
import tomllib

import numpy as np

from ..errors import ModelError
from ..robots.parallel import ComponentSpec
from ..robots.parallel.dynamics import bar_mass, link_inertia

UNITS = {"R": "rad", "P": "m"}


def add_parser(sub):
    """Register ``robot`` (with its actions ``list``, ``show``, ``ik``, ``fk``) on the sub-command parsers.

    ``sub`` (argparse._SubParsersAction): the sub-command parsers of :func:`femdyn.cli.main.main`; each action's
    parser gets its ``func``.
    """
    r = sub.add_parser("robot", help="parallel robots: the ready ones, summaries and pictures, inverse and forward "
                                     "kinematics")
    actions = r.add_subparsers(dest="action", required=True)
    actions.add_parser("list", help="the ready robots").set_defaults(func=run_list)
    show = actions.add_parser("show", help="summary of a robot (and a picture at home with -o)")
    _common(show)
    show.add_argument("-o", "--out", default=None, help="picture file at home (.png, .pdf, .svg)")
    show.set_defaults(func=run_show)
    ik = actions.add_parser("ik", help="inverse kinematics: actuator coordinates at a task pose")
    _common(ik)
    ik.add_argument("--pose", type=float, nargs="+", required=True, help="task coordinates (m, rad), in the "
                                                                          "robot's task order")
    ik.set_defaults(func=run_ik)
    fk = actions.add_parser("fk", help="forward kinematics: the task pose for actuator coordinates")
    _common(fk)
    fk.add_argument("--actuators", type=float, nargs="+", required=True, help="actuator coordinates (rad, m)")
    fk.add_argument("--guess", type=float, nargs="+", default=None, help="a task pose near the wanted assembly")
    fk.add_argument("--all", action="store_true", help="every assembly mode found (multi-start search), home's "
                                                       "marked")
    fk.add_argument("--starts", type=int, default=256, help="random starts of --all (default 256)")
    fk.set_defaults(func=run_fk)


def _common(parser):
    """The robot argument, ``--set`` and ``--json`` of every action but ``list``."""
    parser.add_argument("robot", help="a ready robot (femdyn robot list) or a description file (.toml)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a ready robot's parameter or a file's dotted key (TOML value; repeatable)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def overrides(pairs):
    """``{key: value}`` of ``--set KEY=VALUE`` strings, each value read as TOML (a bare word as a string)."""
    out = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise ModelError(f"--set {pair!r}: write KEY=VALUE, e.g. --set arm_length=0.5")
        try:
            out[key.strip()] = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            out[key.strip()] = text
    return out


def _robot(args):
    """The ParallelRobot the arguments name."""
    from femdyn.robots.parallel import parallel_robot
    return parallel_robot(args.robot, **overrides(args.set))


def _print(args, data, lines):
    """Print ``data`` as JSON with ``--json``, else the text ``lines``."""
    print(json.dumps(data, indent=2) if args.json else "\n".join(lines))


def run_list(args):
    """Print the ready robots, one line each: name, title, task. Returns int: exit code 0."""
    from femdyn.robots.parallel import READY
    for name, function in READY.items():
        d = function()
        print(f"{name:<13} {d.title}  (task {', '.join(d.task)})")
    return 0


def actuator_names(robot):
    """'limb joint-index kind' of each actuator, and its unit."""
    d = robot.description
    return ([f"{d.limbs[i].name} {d.limbs[i].joints[j].kind}{j}" for i, j in d.actuated],
            [UNITS[d.limbs[i].joints[j].kind] for i, j in d.actuated])


def summary(robot):
    """The summary of ``show`` as a dict (JSON-ready): limbs, actuators, task, mobility, masses, workspace."""
    d = robot.description
    mobility, rank = robot.mobility()
    names, units = actuator_names(robot)
    home = robot.inverse_kinematics(robot.home[robot.task])
    links = sum(link_inertia(limb, k)[0] for limb in d.limbs for k in range(len(limb.links)))  # flexible: their own
    bars = sum(2 * bar_mass(j) for limb in d.limbs for j in limb.joints if j.kind == "Pa")
    return {"name": d.name, "title": d.title, "source": d.source, "task": list(d.task),
            "home": [float(x) for x in robot.chains.home],
            "limbs": [{"name": limb.name, "joints": [j.kind + ("*" if j.actuated else "") for j in limb.joints],
                       "flexible": [f"link {k}" + (" (component)" if isinstance(link.flexible, ComponentSpec) else "")
                                    for k, link in enumerate(limb.links) if link.flexible is not None]
                       + ["bars" for j in limb.joints if j.flexible is not None]} for limb in d.limbs],
            "actuators": [{"name": n, "unit": u, "home": float(h),
                           "limits": list(d.limbs[i].joints[j].limits or ())}
                          for n, u, h, (i, j) in zip(names, units, home, d.actuated)],
            "mobility": mobility, "closure_rank": rank, "coordinates": robot.chains.n,
            "grubler_kutzbach": robot.grubler_kutzbach(),
            "masses": {"platform": d.platform.mass, "payload": d.platform.payload, "links": links, "bars": bars,
                       "total": d.platform.mass + d.platform.payload + links + bars},
            "workspace": {k: list(v) for k, v in d.workspace.items()}, "gravity": list(d.gravity)}


def summary_lines(s):
    """The text of a :func:`summary`."""
    unit = {c: "m" if c in "xyz" else "rad" for c in ("x", "y", "z", "rx", "ry", "rz")}
    lines = [f"{s['name']}: {s['title']}", f"source: {s['source']}",
             f"task: {', '.join(s['task'])}; home pose (x, y, z, rx, ry, rz) = "
             f"({', '.join(f'{x:.6g}' for x in s['home'])}) m, rad",
             f"limbs ({len(s['limbs'])}; * actuated):"]
    for limb in s["limbs"]:
        flexible = f"  [flexible: {', '.join(limb['flexible'])}]" if limb["flexible"] else ""
        lines.append(f"  {limb['name']:<10} {' – '.join(limb['joints'])}{flexible}")
    lines.append(f"actuators ({len(s['actuators'])}):")
    for a in s["actuators"]:
        limits = f", limits [{a['limits'][0]:.4g}, {a['limits'][1]:.4g}]" if a["limits"] else ""
        lines.append(f"  {a['name']:<14} home {a['home']:.6g} {a['unit']}{limits}")
    lines.append(f"mobility: {s['mobility']} (closure Jacobian rank {s['closure_rank']} of {s['coordinates']} "
                 f"coordinates; Grübler–Kutzbach count {s['grubler_kutzbach']})")
    m = s["masses"]
    lines.append(f"masses: platform {m['platform']:.4g} kg, payload {m['payload']:.4g} kg, links {m['links']:.4g} kg, "
                 f"bars {m['bars']:.4g} kg; total {m['total']:.4g} kg")
    lines.append("workspace: " + ", ".join(f"{k} [{lo:.4g}, {hi:.4g}] {unit[k]}" for k, (lo, hi) in
                                           s["workspace"].items()))
    lines.append(f"gravity: ({', '.join(f'{g:.4g}' for g in s['gravity'])}) m/s²")
    return lines


def picture(robot, pose=None):
    """A matplotlib Figure of the robot at a task pose (default home) from :meth:`ParallelRobot.skeleton`:
    a 3-D view and the top view, links as lines, joints as dots, the parallelogram bars, the platform
    polygon and the tool point; axes in m."""
    from matplotlib.figure import Figure
    pose = robot.home[robot.task] if pose is None else np.asarray(pose, float)
    sk = robot.skeleton(pose)
    fig = Figure(figsize=(12, 5.8), layout="constrained")
    space = fig.add_subplot(1, 2, 1, projection="3d")
    top = fig.add_subplot(1, 2, 2)
    points = _draw(space, sk, 3)
    _draw(top, sk, 2)
    centre, half = (points.min(axis=0) + points.max(axis=0)) / 2, max(np.ptp(points, axis=0).max() / 2, 0.05) * 1.05
    for axis, c in zip("xyz", centre):
        getattr(space, f"set_{axis}lim")(c - half, c + half)
        getattr(space, f"set_{axis}label")(f"{axis} (m)")
        space.locator_params(axis=axis, nbins=5)
    space.set_box_aspect((1, 1, 1))
    space.view_init(elev=18, azim=-70)
    top.set_aspect("equal")
    top.set_xlim(centre[0] - half, centre[0] + half)
    top.set_ylim(centre[1] - half, centre[1] + half)
    top.set_xlabel("x (m)")
    top.set_ylabel("y (m)")
    top.set_title("top view", fontsize=10)
    top.grid(alpha=0.3)
    top.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8)
    d = robot.description
    fig.suptitle(f"{d.name}: {d.title}\npose ({', '.join(d.task)}) = ({', '.join(f'{x:.4g}' for x in pose)})",
                 fontsize=11)
    return fig


def _draw(ax, sk, dims):
    """Draw a skeleton on 3-D (dims 3) or top-view (dims 2) axes; returns every point drawn (N, 3)."""
    points = [sk["platform"], sk["tool"][None]]
    for k, limb in enumerate(sk["limbs"]):
        ax.plot(*limb.T[:dims], "-", color="tab:blue", lw=2.5, label="links" if k == 0 else None)
        ax.plot(*limb.T[:dims], "o", color="black", ms=4, label="joints" if k == 0 else None)
        points.append(limb)
    for k, (one, two) in enumerate(sk["bars"]):
        quad = np.array([one[0], one[1], two[1], two[0], one[0]])    # the parallelogram: bars and their ends' spacing
        ax.plot(*quad.T[:dims], "-", color="tab:orange", lw=1.2, label="parallelogram bars" if k == 0 else None)
        points.append(quad)
    polygon = np.vstack([sk["platform"], sk["platform"][:1]])
    ax.plot(*polygon.T[:dims], "-", color="tab:green", lw=2, label="platform")
    ax.plot(*sk["tool"][:dims], "*", color="tab:red", ms=12, label="tool point")
    return np.vstack(points)


def run_show(args):
    """Print a robot's summary (``--json``: as JSON) and with ``-o`` write its picture at home. Returns int: 0."""
    robot = _robot(args)
    s = summary(robot)
    if args.out:
        picture(robot).savefig(args.out, dpi=120)
        s["picture"] = args.out
    _print(args, s, summary_lines(s) + ([f"picture: {args.out}"] if args.out else []))
    return 0


def run_ik(args):
    """Print the actuator coordinates at ``--pose`` and the platform's whole pose (the mechanism's coordinates
    included). Returns int: 0. Raises ModelError (wrong count), ConvergenceError (out of the workspace)."""
    robot = _robot(args)
    actuators = robot.inverse_kinematics(args.pose)
    platform = robot.state(args.pose)[-6:]
    names, units = actuator_names(robot)
    coords = ("x", "y", "z", "rx", "ry", "rz")
    data = {"robot": robot.description.name, "pose": dict(zip(robot.description.task, args.pose)),
            "actuators": {n: float(a) for n, a in zip(names, actuators)}, "units": dict(zip(names, units)),
            "platform": {c: float(v) for c, v in zip(coords, platform)}}
    lines = [f"{n:<14} {a: .9g} {u}" for n, a, u in zip(names, actuators, units)]
    lines.append("platform pose: " + ", ".join(f"{c} {v:.9g}" for c, v in zip(coords, platform))
                 + f" (task: {', '.join(robot.description.task)})")
    _print(args, data, lines)
    return 0


def run_fk(args):
    """Print the task pose for ``--actuators`` (the assembly reached from home or ``--guess``; with ``--all``
    every assembly mode found). Returns int: 0.
    Raises ModelError (wrong count), ConvergenceError (no assembly)."""
    robot = _robot(args)
    if args.all:
        return _all_modes(args, robot)
    pose = robot.forward_kinematics(args.actuators, guess=args.guess)
    data = {"robot": robot.description.name, "actuators": list(args.actuators),
            "pose": {c: float(v) for c, v in zip(robot.description.task, pose)}}
    _print(args, data, [f"{c:<3} {v: .9g} {'m' if c in 'xyz' else 'rad'}" for c, v in
                        zip(robot.description.task, pose)])
    return 0


def _all_modes(args, robot):
    """Print every assembly mode for ``--actuators`` (``fk --all``), home's branch marked. Returns int: 0."""
    modes = robot.assembly_modes(args.actuators, starts=args.starts)
    task = robot.description.task
    data = {"robot": robot.description.name, "actuators": list(args.actuators), "starts": modes.starts,
            "modes": [{"pose": {c: float(v) for c, v in zip(task, pose)}, "home": k == modes.home,
                       "residual": float(r)} for k, (pose, r) in enumerate(zip(modes.poses, modes.residual))]}
    lines = [f"mode {k}: " + ", ".join(f"{c} {v: .9g}" for c, v in zip(task, pose))
             + ("  (home branch: fk without --all)" if k == modes.home else "") for k, pose in enumerate(modes.poses)]
    lines.append(f"{len(modes.poses)} assembly modes found from {modes.starts} starts (a numerical search)")
    _print(args, data, lines)
    return 0
