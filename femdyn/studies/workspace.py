"""``femdyn study workspace --robot ROBOT``: maps of any parallel robot over a slice of its workspace.

Per pose of a grid on two task coordinates (the others fixed): whether it is reachable, the dexterity of the
homogenized Jacobian, the actuator efforts with the payload (static, and the envelope over accelerations of a
given size in every direction), and — from the linearized femdyn model with flexible links — the platform's
Cartesian stiffness and first natural frequencies (:mod:`.workspace_linear`). The linearized poses run as
tasks on Dask (one BLAS thread per worker; the numbers do not depend on the executor). Definitions, units
and the outputs: docs/workspace.md.
"""
import concurrent.futures as cf
import contextlib
import math
import time
from dataclasses import dataclass, replace

import numpy as np

from ..errors import FemdynError, ModelError, SchemaError
from .record import Study
from .workspace_linear import hold_actuators, linearize, moved

__all__ = ["WorkspaceConfig", "WorkspaceSlice", "robot_of", "workspace_slice", "dexterity", "effort_envelope",
           "linear_pose", "workspace_map", "run_workspace", "STUDY"]


class _Auto:
    """The default 'from the robot's description' of a setting (any TOML value replaces it)."""

    def __repr__(self):
        return "auto"


AUTO = _Auto()


@dataclass(frozen=True)
class WorkspaceConfig:
    """Settings of the workspace study (a TOML file sets any of them; ``auto``: from the description).

    Parameters
    ----------
    robot : str
        A ready robot's name or a description file (TOML).
    axes : list of 2 str
        The two task coordinates of the grid (auto: the first two of the task).
    bounds : list of 2 [low, high]
        Their ranges, m or rad (auto: the description's workspace bounds).
    n : int
        Grid points per axis.
    fixed : dict
        Values of the other task coordinates, m or rad (absent: the home pose's).
    payload : float
        Point mass at the tool point, kg (auto: the description's).
    acceleration, angular_acceleration : float
        Size of the task accelerations of the effort envelope: m/s² (translations), rad/s² (rotations).
    length : float
        Characteristic length homogenizing rotations in the Jacobian, m (auto: the RMS distance of the limbs'
        platform attachments from the platform origin at home).
    condition_limit : float
        Poses whose Jacobian's condition number exceeds it count as unreachable (near-singular).
    actuator_stiffness : float
        k of every actuator in the linearized model, N·m/rad or N/m (inf: locked).
    flexible : bool
        Flexible links as ANCF elements in the linearized model.
    gravity : bool
        Linearize about the static equilibrium under gravity (True) or the undeformed pose, gravity off (False).
    modes : int
        Natural frequencies per pose.
    eigensolver : str
        ``"dense"`` (null-space) or ``"sparse"`` (shift-invert on the saddle form).
    linear : bool
        Compute stiffness and frequencies (False: kinematics and efforts only).
    scheduler : str
        Address of a running Dask scheduler ("": a local cluster).
    workers : int
        Worker processes of the local cluster (0: the CPU count).

    Examples
    --------
    >>> WorkspaceConfig(robot="delta", n=11).n
    11
    """

    robot: str = "delta"
    axes: object = AUTO
    bounds: object = AUTO
    n: int = 21
    fixed: object = AUTO
    payload: object = AUTO
    acceleration: float = 10.0
    angular_acceleration: float = 10.0
    length: object = AUTO
    condition_limit: float = 1e4
    actuator_stiffness: float = math.inf
    flexible: bool = True
    gravity: bool = False
    modes: int = 3
    eigensolver: str = "dense"
    linear: bool = True
    scheduler: str = ""
    workers: int = 0


@dataclass(frozen=True)
class WorkspaceSlice:
    """The grid of a study: the axes' indices in the task, their values, the full poses.

    Parameters
    ----------
    axes : tuple of str
    index : tuple of int
        Their positions in the robot's task coordinates.
    values : tuple of 2 ndarray
        Grid values along each axis, m or rad.
    poses : ndarray (n·n, n_task)
        Every pose, the first axis varying slowest.
    fixed : dict
        The other task coordinates' values.
    """

    axes: tuple
    index: tuple
    values: tuple
    poses: np.ndarray
    fixed: dict


def robot_of(config):
    """The ParallelRobot of ``config.robot`` (a description file or a ready robot's name), payload applied.

    Parameters
    ----------
    config : WorkspaceConfig

    Returns
    -------
    ParallelRobot

    Raises
    ------
    ModelError
        If the name is neither a readable file nor a ready robot.
    """
    from ..robots.parallel import parallel_robot
    robot = parallel_robot(str(config.robot))
    if config.payload is AUTO:
        return robot
    return robot.with_payload(_number(config.payload, "payload", "kg", at_least=0.0))


def _number(value, name, unit, at_least=None, above=None):
    """A setting as a float within its bound (SchemaError naming it otherwise)."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or (at_least is not None and value < at_least) or (above is not None and value <= above):
        bound = f" ≥ {at_least}" if at_least is not None else f" > {above}" if above is not None else ""
        raise SchemaError(f"workspace study: {name} must be a finite number{bound} ({unit}), got {value!r}")
    return float(value)


def workspace_slice(robot, config):
    """The grid of poses of ``config`` for ``robot`` (axes, bounds, fixed values checked).

    Parameters
    ----------
    robot : ParallelRobot
    config : WorkspaceConfig

    Returns
    -------
    WorkspaceSlice

    Raises
    ------
    SchemaError
        For an axis that is not a task coordinate, bounds that are not two [low, high] pairs, n < 2, or a
        fixed value of an unknown coordinate.
    """
    task = tuple(robot.description.task)
    axes = tuple(task[:2]) if config.axes is AUTO else tuple(config.axes) if isinstance(config.axes, (list, tuple)) \
        else ()
    if len(axes) != 2 or len(set(axes)) != 2 or not set(axes) <= set(task):
        raise SchemaError(f"workspace study: axes must name two distinct task coordinates of robot "
                          f"'{robot.description.name}' among {list(task)}, got {config.axes!r}")
    if isinstance(config.n, bool) or not isinstance(config.n, int) or config.n < 2:
        raise SchemaError(f"workspace study: n must be a whole number ≥ 2 (grid points per axis), got {config.n!r}")
    bounds = _bounds(robot, axes, config.bounds)
    fixed = {} if config.fixed is AUTO else config.fixed
    if not isinstance(fixed, dict):
        raise SchemaError(f"workspace study: fixed must be a table {{coordinate = value}} (m, rad), got {fixed!r}")
    unknown = sorted(set(fixed) - set(task))
    if unknown or set(fixed) & set(axes):
        raise SchemaError(f"workspace study: fixed sets {sorted(fixed)}; it may only set task coordinates of robot "
                          f"'{robot.description.name}' other than the axes {list(axes)} ({list(task)})")
    home = robot.home[robot.task]
    base = np.array([_number(fixed[c], f"fixed.{c}", "m or rad") if c in fixed else home[k]
                     for k, c in enumerate(task)])
    index = tuple(task.index(a) for a in axes)
    values = tuple(np.linspace(lo, hi, config.n) for lo, hi in bounds)
    poses = np.tile(base, (config.n * config.n, 1))
    A, B = np.meshgrid(values[0], values[1], indexing="ij")
    poses[:, index[0]], poses[:, index[1]] = A.ravel(), B.ravel()
    return WorkspaceSlice(axes, index, values, poses, {c: float(base[k]) for k, c in enumerate(task) if c not in axes})


def _bounds(robot, axes, given):
    """((low, high), (low, high)) of the axes: given, or the description's sampling bounds."""
    if given is AUTO:
        all_bounds = robot.workspace_bounds()
        return tuple(tuple(all_bounds[list(robot.description.task).index(a)]) for a in axes)
    pairs = np.asarray(given, float) if isinstance(given, (list, tuple)) else np.zeros(0)
    if pairs.shape != (2, 2) or not np.all(np.isfinite(pairs)) or not np.all(pairs[:, 0] < pairs[:, 1]):
        raise SchemaError(f"workspace study: bounds must be [[low, high], [low, high]] (m or rad, low < high) for "
                          f"the axes {list(axes)}, got {given!r}")
    return tuple(map(tuple, pairs))


def characteristic_length(robot, config):
    """L, m: the configured one, or the RMS distance of the limbs' platform attachments from the origin at home."""
    if config.length is not AUTO:
        return _number(config.length, "length", "m", above=0.0)
    home = robot.home[robot.task]
    attach = robot.skeleton(home)["platform"] - robot.chains.home[:3]
    return float(np.sqrt(np.mean(np.sum(attach**2, axis=1)))) or 1.0


def _scales(robot, length):
    """Per task coordinate: 1 for a translation, 1/L for a rotation (ẋ_h = (v, L ω))."""
    return np.array([1.0 if c in "xyz" else 1.0 / length for c in robot.description.task])


def dexterity(robot, poses, length):
    """Condition number and singular values of the homogenized Jacobian J_h = J diag(1 or 1/L) at poses.

    J = ∂(actuators)/∂(task) (:meth:`ParallelRobot.jacobian`: rad or m per m or rad, rotations as the rotation
    vector); each rotational column is divided by L, so that J_h maps (v, L ω) (m/s) to actuator rates.

    Parameters
    ----------
    robot : ParallelRobot
    poses : ndarray (N, n_task)
    length : float
        L, m.

    Returns
    -------
    condition, smallest, largest : ndarray (N,)
        κ(J_h) = σ_max/σ_min (–) and σ_min, σ_max (rad/m or m/m).
    """
    J = robot.jacobian(np.atleast_2d(poses)) * _scales(robot, length)
    s = np.linalg.svd(J, compute_uv=False)
    return s[:, 0] / s[:, -1], s[:, -1], s[:, 0]


def effort_envelope(robot, poses, acceleration, angular_acceleration):
    """Static actuator efforts and their envelope over task accelerations of a given size in every direction.

    At rest (zero velocity) the rigid inverse dynamics are affine in the task acceleration a: u = u_g + A a
    (:meth:`ParallelRobot.efforts`, A's columns from unit accelerations). Over the ellipsoid
    Σ (a_t/ā)² + Σ (a_r/ᾱ)² ≤ 1 (ā m/s² on translations, ᾱ rad/s² on rotations) the largest |u_i| is
    |u_g,i| + ‖A_i S‖₂ with S = diag(ā or ᾱ).

    Parameters
    ----------
    robot : ParallelRobot
    poses : ndarray (N, n_task)
    acceleration, angular_acceleration : float
        ā (m/s²), ᾱ (rad/s²).

    Returns
    -------
    static, envelope : ndarray (N, n_act)
        N·m for revolute, N for prismatic actuators.
    """
    P = np.atleast_2d(poses)
    static = robot.efforts(P)
    scale = np.array([acceleration if c in "xyz" else angular_acceleration for c in robot.description.task])
    columns = [(robot.efforts(P, None, np.tile(e, (len(P), 1))) - static) * s
               for e, s in zip(np.eye(len(scale)), scale)]
    A = np.stack(columns, axis=-1)
    return static, np.abs(static) + np.linalg.norm(A, axis=-1)


_CACHE = {}


def _cached(key, make):
    """``make()`` once per process for ``key`` (workers keep the last robot and model between tasks)."""
    if key not in _CACHE:
        if len(_CACHE) > 8:
            _CACHE.clear()
        _CACHE[key] = make()
    return _CACHE[key]


def _held_system(robot, flexible):
    """(RobotModel, System) of the robot at its home pose with the actuators locked, assembled once."""
    built = hold_actuators(robot.model(flexible=flexible))
    return built, built.model.assemble()


def linear_pose(description, pose, stiffness=math.inf, flexible=True, gravity=False, modes=3, eigensolver="dense"):
    """Platform compliance (6 × 6) and first frequencies (Hz) of the linearized robot at one pose (a Dask task).

    With the actuators locked and gravity off the model is assembled once per process, at the home pose, and
    moved to each pose (:func:`.workspace_linear.moved`); springs or gravity preload the model at the pose, so
    then it is built and assembled there.

    Parameters
    ----------
    description : RobotDescription
    pose : (n_task,) array_like
        m, rad.
    stiffness : float
        Actuator stiffness, N·m/rad or N/m (inf: locked).
    flexible, gravity : bool
        See :class:`WorkspaceConfig`.
    modes : int
    eigensolver : {"dense", "sparse"}

    Returns
    -------
    dict
        ``compliance`` (6, 6), ``frequencies`` (modes,), ``error`` ('' or what failed; NaN values then).
    """
    from threadpoolctl import threadpool_limits

    from ..robots.parallel import ParallelRobot
    if not gravity:
        description = description.with_gravity((0.0, 0.0, 0.0))
    key = repr(description)
    robot = _cached(key, lambda: ParallelRobot(description))
    try:
        with threadpool_limits(1):
            if math.isinf(stiffness) and not gravity:
                built, system = _cached((key, flexible), lambda: _held_system(robot, flexible))
                q = moved(robot, built, system, pose, flexible)
                result = linearize(built, modes, method=eigensolver, system=system, q=q)
            else:
                built = hold_actuators(robot.model(np.asarray(pose, float), flexible=flexible),
                                       None if math.isinf(stiffness) else stiffness)
                result = linearize(built, modes, gravity=gravity, method=eigensolver)
        return {"compliance": result.compliance, "frequencies": result.frequencies, "error": ""}
    except FemdynError as err:      # a pose that fails is a blank in the maps, named in the table
        return {"compliance": np.full((6, 6), np.nan), "frequencies": np.full(modes, np.nan),
                "error": f"{type(err).__name__}: {err}".replace("\n", " ")}


def workspace_map(config, executor=None, progress=False):
    """Every quantity of the study at every pose of the grid.

    Parameters
    ----------
    config : WorkspaceConfig
    executor : concurrent.futures.Executor, optional
        Runs the linearized poses (Dask's ``client.get_executor()``, …); None: one after the other here.
    progress : bool
        A progress bar over the poses.

    Returns
    -------
    dict
        ``robot``, ``slice`` (:class:`WorkspaceSlice`), ``length`` (m), ``reachable`` (N,) bool, ``condition``,
        ``sigma_min``, ``sigma_max`` (N,), ``static``, ``envelope`` (N, n_act), ``compliance`` (N, 6, 6),
        ``frequencies`` (N, modes), ``errors`` (N,) str, ``times`` (s).
    """
    from threadpoolctl import threadpool_limits
    clock = time.perf_counter()
    robot = robot_of(config)
    grid = workspace_slice(robot, config)
    length = characteristic_length(robot, config)
    N, n_act = len(grid.poses), len(robot.actuators)
    out = {"robot": robot, "slice": grid, "length": length, "condition": np.full(N, np.nan),
           "sigma_min": np.full(N, np.nan), "sigma_max": np.full(N, np.nan), "static": np.full((N, n_act), np.nan),
           "envelope": np.full((N, n_act), np.nan), "compliance": np.full((N, 6, 6), np.nan),
           "frequencies": np.full((N, config.modes), np.nan), "errors": np.full(N, "", object)}
    with threadpool_limits(1):
        ok = robot.reachable(grid.poses, config.condition_limit)
        if ok.any():
            P = grid.poses[ok]
            out["condition"][ok], out["sigma_min"][ok], out["sigma_max"][ok] = dexterity(robot, P, length)
            out["static"][ok], out["envelope"][ok] = effort_envelope(robot, P, config.acceleration,
                                                                     config.angular_acceleration)
    out["reachable"] = ok
    kinematics = time.perf_counter()
    if config.linear:
        _linear_poses(out, robot, config, np.flatnonzero(ok), executor, progress)
    out["times"] = {"kinematics": kinematics - clock, "linear": time.perf_counter() - kinematics}
    return out


def _linear_poses(out, robot, config, which, executor, progress):
    """Fill the compliance, frequencies and errors of the poses ``which``, one task each on ``executor``."""
    from tqdm.auto import tqdm
    options = (_number(config.actuator_stiffness, "actuator_stiffness", "N·m/rad or N/m", above=0.0)
               if not math.isinf(config.actuator_stiffness) else math.inf, bool(config.flexible),
               bool(config.gravity), int(config.modes), config.eigensolver)
    d, poses = robot.description, out["slice"].poses
    with tqdm(total=len(which), desc="poses", unit="pose", disable=not progress) as bar:
        if executor is None:
            results = {}
            for k in which:
                results[k] = linear_pose(d, poses[k], *options)
                bar.update()
        else:
            futures = {executor.submit(linear_pose, d, poses[k], *options): k for k in which}
            results = {}
            for future in cf.as_completed(futures):
                results[futures[future]] = future.result()
                bar.update()
    for k, r in results.items():
        out["compliance"][k], out["frequencies"][k], out["errors"][k] = r["compliance"], r["frequencies"], r["error"]


def run_workspace(config, output, progress=True, executor=None):
    """The study: the maps on Dask (a LocalCluster, or ``config.scheduler``), then the files in ``output``.

    Parameters
    ----------
    config : WorkspaceConfig
    output : str or None
        Folder for workspace.csv, summary.json, the PNG maps and report.html (None: no files).
    progress : bool
        Progress bars.
    executor : concurrent.futures.Executor, optional
        Used as given (no cluster started).

    Returns
    -------
    dict
        ``summary`` and ``map`` (:func:`workspace_map`).

    Raises
    ------
    SchemaError
        For a bad setting (the message names it).
    """
    from .sweep import dask_executor
    from .workspace_outputs import summary_of, write_outputs
    if config.eigensolver not in ("dense", "sparse"):
        raise SchemaError(f"workspace study: eigensolver must be 'dense' or 'sparse', got {config.eigensolver!r}")
    if isinstance(config.modes, bool) or not isinstance(config.modes, int) or config.modes < 1:
        raise SchemaError(f"workspace study: modes must be a whole number ≥ 1, got {config.modes!r}")
    if config.workers < 0:
        raise SchemaError(f"workspace study: workers must be ≥ 0 (0: the CPU count), got {config.workers}")
    with contextlib.ExitStack() as stack:
        if executor is None and config.linear:
            executor = stack.enter_context(dask_executor(config.scheduler or None, config.workers or None))
        result = workspace_map(config, executor, progress)
    summary = summary_of(result, config)
    if output is not None:
        write_outputs(output, result, config, summary)
    return {"summary": summary, "map": result}


def _add_options(parser):
    """--scheduler and --workers of ``femdyn study workspace``."""
    parser.add_argument("--scheduler", help="workspace: address of a running Dask scheduler, e.g. tcp://host:8786 "
                                            "(default: a local cluster)")
    parser.add_argument("--workers", type=int, help="workspace: worker processes of the local cluster (default: "
                                                    "the CPU count)")


def _apply_options(config, args):
    """The configuration with the command line's Dask options (ModelError for --workers < 1)."""
    if args.workers is not None and args.workers < 1:
        raise ModelError(f"--workers must be ≥ 1, got {args.workers}")
    return replace(config, scheduler=args.scheduler or config.scheduler, workers=args.workers or config.workers)


def _report(summary):
    """The lines printed after a run."""
    keys = ("robot", "slice", "reachable_fraction", "condition_min", "translational_stiffness_min_N_per_m",
            "rotational_stiffness_min_Nm_per_rad", "first_frequency_min_Hz", "envelope_max", "not_mapped", "time_s")
    return "\n".join(f"{k} = {summary[k]}" for k in keys if k in summary)


STUDY = Study(name="workspace",
              description="maps over a slice of a parallel robot's workspace: reachability, dexterity, effort "
                          "envelope, platform stiffness and first frequencies with flexible links (on Dask)",
              config=WorkspaceConfig, run=run_workspace, report=_report, add_options=_add_options,
              apply_options=_apply_options,
              hint="check the robot's workspace bounds, or set actuator_stiffness for a rigid robot")
