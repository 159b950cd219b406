"""One study for every parallel robot: ``femdyn study parallel --robot ROBOT [config.toml]``.

(a) Rigid inverse dynamics along the task, two independent ways: the virtual-work efforts of the
robot's closure (:meth:`~femdyn.robots.parallel.ParallelRobot.efforts`) and the servo-constraint DAE of
its rigid model (Blajer & Kołodziejczyk 2004), compared; (b) flexible forward dynamics driven by the rigid
efforts from the static equilibrium: how far the platform strays from the task; (c) the flexible inverse,
the stable causal inverse of the flexible servo model (:mod:`femdyn.solvers.stable_inverse`) with its
zero-dynamics summary: the efforts that make the flexible robot follow the task; (d) strain gauges on
the flexible links; (e) on request, the tracking experiment with servo drives and joint clearance
(:mod:`.parallel_tracking`). Outputs: :mod:`.parallel_outputs`; the method: docs/parallel-robots.md.
"""
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import ModelError, SolverError
from ..motion import Tabulated
from . import parallel_measures as measures
from .parallel_model import actuator_coordinates, actuator_inputs, coordinate_sensors, flexible_model
from .parallel_task import POSITION, TaskConfig, platform_deviation, task_motion
from .parallel_tracking import TrackingConfig, run_tracking
from .record import Study, StudyStopped
from .reference import reference_rows

MIN_STEPS = 4       # time steps a run needs at least (its efforts are tabulated through ≥ 4 samples)


@dataclass
class ParallelStudyConfig:
    """Settings of the parallel-robot study (SI units, angles in rad).

    - ``robot``: a ready robot's name or a description file; ``parameters``: its overrides (a table);
    - ``task``: the motion (:class:`~.parallel_task.TaskConfig`); ``duration``: s (0: the whole task);
    - ``payload``: kg at the tool point (< 0: the description's);
    - ``h``: time step of the rigid and forward runs, s; ``stable_h``: sample spacing of the inverse, s;
    - ``rigid_rho_inf``, ``flexible_rho_inf``, ``tol_rigid``, ``tol_flexible``, ``max_halvings``: the runs;
    - ``forward``, ``inverse``: run parts (b) and (c); ``stable_iterations``, ``stable_window``,
      ``stable_elastic_window``: the stable inverse's options;
    - ``gauges``: per gauge a table {set, s, y, z}: ANCF element set, distance from its first node (m),
      section point (m), or {set, gauge}: a component link's body and one of its component's stored gauges
      (default all); empty: one on the outer fibre (y = radius) at mid-length of every flexible set and every
      stored gauge of every component link;
    - ``paraview_every``: every k-th sample of the flexible inverse to the ParaView series (0: none);
    - ``tracking``: (e) the tracking experiment with servo drives and joint clearance, off by default
      (:class:`~.parallel_tracking.TrackingConfig`, a ``[tracking]`` table);
    - ``reference``: published values beside the study's figures, ``[[reference]]`` tables with a verdict each
      (:func:`~.reference.reference_rows`: quantity, value and tolerance or below, scale, unit, text, source).
    """

    robot: str = ""
    parameters: dict = field(default_factory=dict)
    task: TaskConfig = field(default_factory=TaskConfig)
    duration: float = field(default=0.0, metadata={"schema": {"at_least": 0, "unit": "s"}})
    payload: float = -1.0
    h: float = field(default=1e-3, metadata={"schema": {"above": 0, "unit": "s"}})
    stable_h: float = field(default=5e-3, metadata={"schema": {"above": 0, "unit": "s"}})
    rigid_rho_inf: float = 0.5
    flexible_rho_inf: float = 0.0
    tol_rigid: float = 1e-10
    tol_flexible: float = 1e-8
    max_halvings: int = 4
    forward: bool = True
    inverse: bool = True
    stable_iterations: int = 2
    stable_window: float = 0.02
    stable_elastic_window: float = 0.3
    gauges: list = field(default_factory=list)
    paraview_every: int = 10
    tracking: TrackingConfig = field(default_factory=TrackingConfig)
    reference: list = field(default_factory=list)


def load_robot(config):
    """The :class:`ParallelRobot` of a study configuration (payload override applied)."""
    from ..robots.parallel import parallel_robot
    if not config.robot:
        raise ModelError("parallel study: name the robot (--robot NAME, or robot = \"NAME\" in the configuration): "
                         "a ready robot (femdyn robot list) or a description file")
    robot = parallel_robot(config.robot, **dict(config.parameters))
    return robot.with_payload(config.payload) if config.payload >= 0 else robot


def run_parallel_study(config=None, output=None, progress=False):
    """Run parts (a)–(d) of the study on ``config.robot`` and write the outputs to ``output`` (if given).

    Parameters
    ----------
    config : ParallelStudyConfig, optional
    output : str, optional
        Folder for summary, figures, channels, ParaView series and report.html.
    progress : bool

    Returns
    -------
    dict
        ``summary`` and the runs: ``rigid`` (t, virtual-work and DAE efforts), ``forward`` and ``inverse``
        (femdyn Results or None).

    Raises
    ------
    StudyStopped
        A part failed: the parts before it and its steps so far are kept (and written).
    """
    config = config or ParallelStudyConfig()
    robot = load_robot(config)
    motion = task_motion(robot, config.task)
    t_end = config.duration if config.duration > 0 else motion.end
    if not config.h * MIN_STEPS <= t_end * (1 + 1e-9):
        raise ModelError(f"h = {config.h:g} s: a run of {t_end:.3g} s needs at least {MIN_STEPS} time steps; "
                         f"give h ≤ {t_end / MIN_STEPS:.3g} s (e.g. the default 1e-3 s)")
    summary = {"robot": robot.description.name, "title": robot.description.title, "task": config.task.kind,
               "duration": t_end, "actuators": _actuator_names(robot),
               "effort_units": ["N·m" if kind == "torque" else "N" for kind in _kinds(robot)]}
    study = {"summary": summary, "robot": robot, "motion": motion, "rigid": None, "forward": None,
             "inverse": None, "tracking": None, "systems": {}}
    try:
        study["rigid"] = _rigid(robot, motion, t_end, config, summary, progress)
        if config.forward and _flexible(robot):
            study["forward"] = _part(summary, "forward", lambda: _forward(robot, motion, t_end, study, config,
                                                                           summary, progress))
        if config.inverse and _flexible(robot) and "stopped" not in summary:
            study["inverse"] = _part(summary, "inverse", lambda: _inverse(robot, motion, t_end, study, config,
                                                                           summary, progress))
        if config.tracking.enabled and "stopped" not in summary:
            study["tracking"] = _part(summary, "tracking", lambda: run_tracking(robot, motion, t_end, study, config,
                                                                                 summary, progress))
    except SolverError:             # what ran is written; a bad input (a ModelError) writes nothing
        _finish(config, study, output)
        raise
    _finish(config, study, output)
    if "stopped" in summary:
        raise StudyStopped(f"parallel study of '{summary['robot']}'", summary["stopped"], study, output,
                           study[summary["stopped"]["part"]])
    return study


def _finish(config, study, output):
    """The published values beside the summary's figures, and the outputs written (if ``output``)."""
    from .parallel_outputs import write_outputs
    if config.reference:
        study["summary"]["reference"] = reference_rows(study["summary"], config.reference, "parallel study")
    if output:
        write_outputs(output, config, study)


def _part(summary, key, run):
    """A part's result, or None with ``summary["stopped"]`` when it raises a SolverError."""
    try:
        return run()
    except SolverError as err:
        steps = err.results is not None and len(err.results.t) > 0
        summary["stopped"] = {"part": key, "reason": str(err), "t": float(err.results.t[-1]) if steps else None}
        return err.results


def _actuator_names(robot):
    """'limb.jointJ' names of the actuated joints (the model's joint names)."""
    d = robot.description
    return [f"{d.limbs[i].name}.joint{j}" for i, j in d.actuated]


def _kinds(robot):
    """'torque' or 'force' per actuator."""
    d = robot.description
    return ["torque" if d.limbs[i].joints[j].kind == "R" else "force" for i, j in d.actuated]


def _flexible(robot):
    """Whether the description has a flexible link or forearm."""
    return any(x.flexible is not None for limb in robot.description.limbs for x in (*limb.links, *limb.joints))


def _options(config, rho, tol):
    """Generalized-α options of a run."""
    from ..solvers.generalized_alpha import Options
    return Options(rho_inf=rho, tol_dynamic=tol, on_failure="retry" if config.max_halvings else "stop",
                   max_halvings=config.max_halvings)


def _rigid(robot, motion, t_end, config, summary, progress):
    """(a): efforts by virtual work at every step time, and the rigid servo DAE's."""
    from ..solvers.generalized_alpha import integrate
    t = np.arange(0.0, t_end + 0.5 * config.h, config.h)
    clock = time.perf_counter()
    X, Xd, Xdd = motion.sampled(t)
    efforts = robot.efforts(X, Xd, Xdd)
    coordinates = np.atleast_2d(robot.inverse_kinematics(X))
    rigid = {"t": t, "pose": X, "efforts": efforts, "dae": None, "coordinates": coordinates}
    summary.update(rigid_effort_min=float(efforts.min()), rigid_effort_max=float(efforts.max()),
                   rigid_actuator_min=float(coordinates.min()), rigid_actuator_max=float(coordinates.max()),
                   rigid_runtime=time.perf_counter() - clock)
    built = robot.model(X[0], flexible=False, servo=motion)
    coordinate_sensors(built)
    res = integrate(built.model.assemble(), t_end, config.h, _options(config, config.rigid_rho_inf,
                                                                      config.tol_rigid), progress=progress)
    dae = actuator_inputs(res, built)
    rigid.update(dae=dae, results=res, built=built)
    settled = res.t >= 20 * config.h            # the integrator's start transient (ρ∞ = 0.5) has decayed
    n = min(len(res.t), len(t))
    difference = np.abs(dae[:n] - efforts[:n])[settled[:n]]
    if difference.size:                     # a run shorter than the transient compares nothing
        summary["rigid_paths_difference"] = float(difference.max() / np.abs(efforts).max())
    return rigid


def _forward(robot, motion, t_end, study, config, summary, progress):
    """(b): the flexible robot driven by the rigid efforts from its static equilibrium."""
    from ..solvers.generalized_alpha import integrate
    from ..solvers.static import static_equilibrium
    rigid = study["rigid"]
    built = flexible_model(robot, rigid["pose"][0], config)
    summary["flexible"] = sorted(built.flexible)
    m = built.model
    for k, (joint, kind) in enumerate(zip(built.actuated, _kinds(robot))):
        effort = Tabulated(rigid["t"], rigid["efforts"][:, k])
        (m.torque if kind == "torque" else m.joint_force)(f"effort {k}", joint, effort)
    system = m.assemble()
    study["systems"]["forward"] = system
    clock = time.perf_counter()
    q0, _ = static_equilibrium(system, load_steps=2)
    res = integrate(system, t_end, config.h, _options(config, config.flexible_rho_inf, config.tol_flexible), q0=q0,
                    progress=progress)
    deviation = platform_deviation(res, motion, robot)
    summary.update(forward_deviation=float(np.linalg.norm(deviation, axis=1).max()),
                   forward_deviation_at_rest=float(np.linalg.norm(deviation[0])),
                   forward_runtime=time.perf_counter() - clock)
    summary.update({f"forward_deviation_{c}": float(np.abs(deviation[:, POSITION.index(c)]).max())
                    for c in robot.description.task if c in POSITION})
    frames = measures.commanded_frames(robot, motion.sampled(res.t)[0])
    summary["forward_tilt_deg"] = float(measures.angle_between(measures.platform_normals(res, system),
                                                               frames[:, :, 2]).max())
    _gauge_peaks(res, summary, "forward")
    return res


def _gauge_peaks(results, summary, part):
    """Largest and smallest strain of every gauge of a run, and each gauge's range, into the summary."""
    peaks = measures.gauge_peaks(results)
    if peaks:
        summary[f"{part}_gauge_peaks"] = peaks
        summary.update({f"{part}_gauge_range_{k}": hi - lo for k, (hi, lo) in enumerate(peaks.values())})


def _inverse(robot, motion, t_end, study, config, summary, progress):
    """(c): the stable causal inverse of the flexible servo model, and its zero dynamics at the static start."""
    from ..solvers.inversion import zero_dynamics
    from ..solvers.static import static_equilibrium
    from ..solvers.stable_inverse import StableInverseOptions, stable_causal_inverse
    built = flexible_model(robot, study["rigid"]["pose"][0], config, servo=motion)
    system = built.model.assemble()
    study["systems"]["inverse"] = system
    clock = time.perf_counter()
    q0, lam0 = static_equilibrium(system, load_steps=2)
    zero = zero_dynamics(system, q0, lam0)
    summary["zero_dynamics"] = {"statement": zero.statement, "classification": zero.classification,
                                "lowest_hz": zero.lowest_frequency}
    options = StableInverseOptions(config.stable_iterations, config.stable_window, config.stable_elastic_window,
                                   rest_after=t_end >= motion.end)
    res = stable_causal_inverse(system, t_end, config.stable_h, options, q0=q0, progress=progress)
    efforts = actuator_inputs(res, built)
    rigid = study["rigid"]
    reference = np.column_stack([np.interp(res.t, rigid["t"], rigid["efforts"][:, k])
                                 for k in range(efforts.shape[1])])
    summary.update(inverse_effort_min=float(efforts.min()), inverse_effort_max=float(efforts.max()),
                   effort_difference=float(np.abs(efforts - reference).max()),
                   inverse_tracking_error=float(np.linalg.norm(platform_deviation(res, motion, robot), axis=1).max()),
                   inverse_runtime=time.perf_counter() - clock)
    if "stable_inverse" in res.meta:
        summary["inverse_dynamics_residual"] = res.meta["stable_inverse"]["unresolved_inertia"]
        summary["inverse_input_change"] = res.meta["stable_inverse"]["input_change"]
    summary.update({f"inverse_effort_extreme_{k}": float(efforts[np.argmax(np.abs(efforts[:, k])), k])
                    for k in range(efforts.shape[1])})
    summary["effort_difference_at_rest"] = float(np.abs(efforts[0] - reference[0]).max())
    _inverse_coordinates(res, built, rigid, summary)
    _inverse_platform(res, system, motion, robot, summary)
    _inverse_links(res, system, built, summary)
    _gauge_peaks(res, summary, "inverse")
    return res


def _inverse_coordinates(res, built, rigid, summary):
    """The flexible inverse's actuator coordinates: largest, and largest difference from the rigid robot's at
    the same times, rad or m (the sensors read from the model's pose, the rigid robot's first coordinates)."""
    coordinates = rigid["coordinates"][0] + actuator_coordinates(res, built)
    reference = np.column_stack([np.interp(res.t, rigid["t"], rigid["coordinates"][:, k])
                                 for k in range(coordinates.shape[1])])
    summary.update(inverse_actuator_max=float(coordinates.max()),
                   actuator_difference=float(np.abs(coordinates - reference).max()))


def _inverse_platform(res, system, motion, robot, summary):
    """The platform's tilt in the flexible inverse (deg): from the task's orientation at the static start,
    and from its rest orientation (carried along the task's rotation) in and outside the constant-speed phases."""
    frames = measures.commanded_frames(robot, motion.sampled(res.t)[0])
    normals = measures.platform_normals(res, system)
    carried = np.einsum("kij,j->ki", frames @ frames[0].T, normals[0])
    from_rest = measures.angle_between(normals, carried)
    cruise = measures.cruise(motion, res.t)
    summary.update(static_tilt_deg=float(measures.angle_between(normals[:1], frames[:1, :, 2])[0]),
                   inverse_tilt_speed_change_deg=float(from_rest[~cruise].max(initial=0.0)),
                   inverse_tilt_cruise_deg=float(from_rest[cruise].max(initial=0.0)))


def _inverse_links(res, system, built, summary):
    """Mid-link deformation (m) and shear angle (deg) of every flexible set in the flexible inverse."""
    deformation = measures.mid_deflections(res, system, built.flexible)
    shear = measures.shear_angles(res)
    if deformation:
        summary.update(link_deformation=deformation, mid_link_deformation=max(deformation.values()))
    if shear:
        summary.update(link_shear_deg=shear, shear_angle_deg=max(shear.values()))


def study_report(summary):
    """The study's summary as text lines for the terminal."""
    from .parallel_outputs import summary_rows
    from .parallel_tracking_outputs import tracking_lines
    rows = summary_rows(summary)
    width = max((len(row[0]) for row in rows), default=0)
    lines = [f"{label:<{width}}  {value}" for label, value, _ in rows]
    if "zero_dynamics" in summary:
        lines.append(summary["zero_dynamics"]["statement"])
    lines += tracking_lines(summary)
    lines += [f"{r['label']}: femdyn {r['femdyn']}, published {r['published']} ({r['source']}): {r['verdict']}"
              + (f" — {r['reason']}" if r["reason"] else "") for r in summary.get("reference", [])]
    return "\n".join(lines)


def _run(config, output, progress):
    """The registered study's run."""
    return run_parallel_study(config, output, progress)


STUDY = Study("parallel", "any parallel robot (--robot): rigid and flexible inverse dynamics along a task, "
              "forward dynamics under the rigid efforts, gauges", ParallelStudyConfig, _run, report=study_report,
              hint="try a smaller h or task speed, fewer elements, or check the task lies inside the workspace "
                   "(femdyn robot ik)")
