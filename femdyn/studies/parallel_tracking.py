"""The tracking experiment of a parallel-robot study, for any robot: servo drives on the flexible robot.

Each actuated joint gets a PID servo drive (:mod:`femdyn.model.drives`: sampled controller, zero-order hold,
encoder; a torque drive on a revolute's angle, a force drive on a prismatic joint's stroke), fed once with
the rigid inverse solution and once with the flexible robot's stable causal one (the study's parts (a) and
(c)): reference = that solution's actuator coordinates, feedforward = its efforts (cubic splines through its
samples). Each run starts from the static equilibrium with the actuators held at the reference's first
values. A tracker records a target on the platform (``target`` from the tool point, platform frame) with
noise; a circle task's track gets a least-squares circle (diameter, roundness, largest and smallest radial
error), every task the platform's deviation from the commanded path and the drives' errors; gauges on the
flexible links give zero-balanced peaks. With ``clearance`` > 0 the chosen revolute or spherical joints get
radial clearance (:meth:`~femdyn.model.Model.clearance`), start seated on their loaded side (:func:`seated`),
the runs step at ``clearance_h`` and report their impacts (:mod:`.tracking_contacts`). Outputs:
:mod:`.parallel_tracking_outputs`; the method: docs/parallel-robots.md, "The tracking experiment".
"""
import time
from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import ModelError
from ..model.drives import CONTROLLER_PERIOD, ENCODER_RESOLUTION
from ..motion import Tabulated
from ..robots.parallel.chain import rotation
from ..reports.metrology import REPEATABILITY, fit_circle, tracker_samples
from .parallel_model import actuator_coordinates, actuator_inputs, flexible_model, is_prismatic
from .parallel_task import platform_deviation
from .tracking_contacts import clearance_joints, impacts, seated, time_step

RUNS = ("rigid", "flexible")
CIRCLE = ("diameter", "roundness", "largest_error", "smallest_error")


@dataclass
class TrackingConfig:
    """The ``[tracking]`` table of the parallel-robot study (SI units, angles in rad; off by default).

    - ``enabled``: run the experiment; ``h``: step of the closed-loop runs, s (the controller period: the
      hold is exact); ``rho_inf``, ``tol_dynamic``: their generalized-α settings;
    - ``kp``, ``ki``, ``kd``: PID gains on the joint side, every drive: N·m/rad, N·m/(rad·s), N·m·s/rad on a
      revolute, N/m, N/(m·s), N·s/m on a prismatic joint; ``effort_limit``: largest |command|, N·m or N;
    - ``motor_inertia`` (kg·m²), ``gear_ratio`` (motor rad per joint rad, or per metre of stroke),
      ``period`` (s), ``resolution`` (encoder, rad or m on the joint side), ``filter_time`` (s, the rate
      estimate's low-pass);
    - ``target``: the tracker's target from the tool point, platform frame, m; ``repeatability``: the
      tracker's noise as 2σ, m; ``tracker_every``: a sample every k controller periods; ``seed``;
    - ``clearance``: radial clearance, m (0: ideal joints) of the model joints named in ``joints``
      (comma-separated model joint names: ``"<limb>.joint<j>"``, revolute or spherical, or a forearm bar's
      ``"<limb>.bar<k>.upper"``/``.lower``);
      ``journal_radius`` (m) and ``restitution`` of their journals; ``clearance_h``: the largest step of
      runs with clearance, s (rounded down to period/k, k whole); ``contact_steps``: steps a bounce needs
      to count as resolved.
    """

    enabled: bool = False
    h: float = field(default=CONTROLLER_PERIOD, metadata={"schema": {"above": 0, "unit": "s"}})
    rho_inf: float = 0.0
    tol_dynamic: float = 1e-8
    kp: float = field(default=1500.0, metadata={"schema": {"at_least": 0}})
    ki: float = field(default=15000.0, metadata={"schema": {"at_least": 0}})
    kd: float = field(default=25.0, metadata={"schema": {"at_least": 0}})
    effort_limit: float = field(default=150.0, metadata={"schema": {"above": 0}})
    motor_inertia: float = field(default=3e-5, metadata={"schema": {"at_least": 0, "unit": "kg·m²"}})
    gear_ratio: float = field(default=50.0, metadata={"schema": {"above": 0}})
    period: float = field(default=CONTROLLER_PERIOD, metadata={"schema": {"above": 0, "unit": "s"}})
    resolution: float = field(default=ENCODER_RESOLUTION, metadata={"schema": {"at_least": 0}})
    filter_time: float = field(default=2e-3, metadata={"schema": {"at_least": 0, "unit": "s"}})
    target: tuple = (0.0, 0.0, 0.0)
    repeatability: float = field(default=REPEATABILITY, metadata={"schema": {"at_least": 0, "unit": "m"}})
    tracker_every: int = field(default=5, metadata={"schema": {"at_least": 1}})
    seed: int = 0
    clearance: float = field(default=0.0, metadata={"schema": {"at_least": 0, "unit": "m"}})
    joints: str = ""
    journal_radius: float = field(default=10e-3, metadata={"schema": {"above": 0, "unit": "m"}})
    restitution: float = 0.9
    clearance_h: float = field(default=1e-5, metadata={"schema": {"above": 0, "unit": "s"}})
    contact_steps: int = 10


def solutions(study):
    """The feedforwards by run: (t, actuator coordinates, efforts) of the rigid DAE and the stable inverse."""
    rigid, built = study["rigid"], study["rigid"]["built"]
    out = {"rigid": (rigid["results"].t, actuator_coordinates(rigid["results"], built), rigid["dae"])}
    if study["inverse"] is not None:
        inverse = study["inverse"]
        out["flexible"] = (inverse.t, actuator_coordinates(inverse, built), actuator_inputs(inverse, built))
    return out


def tracking_model(robot, pose, config, solution, hold=False):
    """The flexible robot with a servo drive ``<joint> drive`` on every actuated joint following ``solution``,
    the tracker's target ``target`` and, with ``hold``, the actuators also held at their first reference values."""
    t, coordinates, efforts = solution
    tracking = config.tracking
    built = flexible_model(robot, pose, config)
    m = built.model
    for k, joint in enumerate(built.actuated):
        m.servo_drive(f"{joint} drive", joint, Tabulated(t, coordinates[:, k]), tracking.kp, tracking.ki, tracking.kd,
                      feedforward=Tabulated(t, efforts[:, k]), motor_inertia=tracking.motor_inertia,
                      gear_ratio=tracking.gear_ratio, torque_limit=tracking.effort_limit, period=tracking.period,
                      resolution=tracking.resolution, filter_time=tracking.filter_time)
        if hold:
            (m.drive_slide if is_prismatic(built, joint) else m.drive_angle)(f"{joint} hold", joint,
                                                                              float(coordinates[0, k]))
    target = built.tool + rotation(built.state[-3:]) @ np.asarray(tracking.target, float)
    m.sensor_point("target", built.platform, target)
    for name in clearance_joints(tracking):
        if name not in m.joints:
            raise ModelError(f"tracking.joints: '{name}' is not a joint of robot '{robot.description.name}'; its "
                             f"joints: {sorted(m.joints)}")
        m.clearance(name, tracking.clearance, tracking.journal_radius, restitution=tracking.restitution)
        m.sensor_clearance(name, name)
    return built


def closed_loop(robot, pose, t_end, config, solution, start, progress=False):
    """One run of the servo loops from the static equilibrium with the actuators held at r(0) (journals
    :func:`~.tracking_contacts.seated`); (Results, System)."""
    from ..solvers.generalized_alpha import Options, integrate
    from ..solvers.static import static_equilibrium
    tracking = config.tracking
    ideal = replace(config, tracking=replace(tracking, clearance=0.0))
    held = tracking_model(robot, pose, ideal, solution, hold=True).model.assemble()
    q0 = start if start is not None and start.size == held.n else None
    q0, _ = static_equilibrium(held, q0=q0, max_correction=0.02, load_steps=1 if q0 is not None else 2)
    if clearance_joints(tracking):
        loose = tracking_model(robot, pose, config, solution, hold=True).model.assemble()
        q0 = seated(held, loose, clearance_joints(tracking), q0)
    system = tracking_model(robot, pose, config, solution).model.assemble()
    options = Options(rho_inf=tracking.rho_inf, tol_dynamic=tracking.tol_dynamic, max_halvings=config.max_halvings,
                      on_failure="retry" if config.max_halvings else "stop")
    every = 1 if clearance_joints(tracking) else tracking.tracker_every        # impacts are counted step by step
    return integrate(system, t_end, time_step(tracking)[0], options, q0=q0, record_every=every,
                     progress=progress), system


def track(results, config, seed):
    """The tracker's samples (every ``tracker_every`` controller periods) of the target, with noise, m."""
    tracking = config.tracking
    stride = tracking.tracker_every * time_step(tracking)[1] if clearance_joints(tracking) else 1
    points = np.column_stack([results[f"target.{c}"] for c in "xyz"])[::stride]
    return tracker_samples(points, np.tile([0.0, 0.0, 1.0], (len(points), 1)), 0.0, tracking.repeatability, seed)


def zero_balanced_peaks(results):
    """Gauge name → [largest, smallest] strain less its initial value (the gauges are balanced at the start)."""
    out = {}
    for column in results.sensor_columns:
        if column.startswith("gauge ") and column.endswith(".strain"):
            strain = results[column] - results[column][0]
            out[column[:-len(".strain")]] = [float(strain.max()), float(strain.min())]
    return out


def drive_errors(results, built):
    """Largest |r − θ| over the revolute drives (rad) and over the prismatic drives (m): summary keys → values."""
    errors = {}
    for joint in built.actuated:
        key = "stroke_error_max" if is_prismatic(built, joint) else "joint_error_max"
        errors[key] = max(errors.get(key, 0.0), float(np.abs(results[f"{joint} drive.error"]).max()))
    return errors


def run_tracking(robot, motion, t_end, study, config, summary, progress=False):
    """The experiment after the study's parts (a) and (c): both closed-loop runs, tracks, fits, gauges, contacts.

    Parameters
    ----------
    robot : ParallelRobot
    motion : TaskMotion
    t_end : float
        Duration of the runs, s.
    study : dict
        The study so far (``rigid`` with its DAE run, ``inverse`` or None).
    config : ParallelStudyConfig
    summary : dict
        Receives ``tracking_*`` figures (SI units).
    progress : bool

    Returns
    -------
    dict
        ``runs`` (Results by feedforward), ``systems``, ``tracks`` (m), ``fits`` (CircleFit or None),
        ``solutions``, ``contacts`` and ``gauges``.
    """
    feeds = solutions(study)
    pose = study["rigid"]["pose"][0]
    start = study["inverse"].q[0] if study["inverse"] is not None else None
    out = {"runs": {}, "systems": {}, "tracks": {}, "fits": {}, "contacts": {}, "gauges": {}, "solutions": feeds}
    for k, name in enumerate(feeds):
        clock = time.perf_counter()
        res, system = closed_loop(robot, pose, t_end, config, feeds[name], start, progress)
        out["runs"][name], out["systems"][name] = res, system
        out["tracks"][name] = track(res, config, config.tracking.seed + k)
        out["fits"][name] = fit_circle(out["tracks"][name]) if config.task.kind == "circle" else None
        out["gauges"][name] = zero_balanced_peaks(res)
        out["contacts"][name] = impacts(res, config.tracking)
        summary[f"tracking_{name}_runtime"] = time.perf_counter() - clock
        _summarise(summary, name, out, robot, motion, study["rigid"]["built"])
    if all(out["fits"].get(name) is not None for name in RUNS):
        for q in CIRCLE:
            summary[f"tracking_{q}_difference"] = summary[f"tracking_rigid_{q}"] - summary[f"tracking_flexible_{q}"]
    summary["tracking_steps"] = int(round(t_end / time_step(config.tracking)[0]))
    return out


def _summarise(summary, name, out, robot, motion, built):
    """A run's figures into the summary: circle fit, deviation, drive errors, gauge peaks, impacts."""
    res, fit = out["runs"][name], out["fits"][name]
    if fit is not None:
        summary.update({f"tracking_{name}_{q}": float(getattr(fit, q)) for q in CIRCLE})
    deviation = np.linalg.norm(platform_deviation(res, motion, robot), axis=1)
    summary[f"tracking_{name}_deviation_max"] = float(deviation.max())
    summary.update({f"tracking_{name}_{k}": v for k, v in drive_errors(res, built).items()})
    for gauge, (high, low) in out["gauges"][name].items():
        summary[f"tracking_{name}_{gauge}_max"], summary[f"tracking_{name}_{gauge}_min"] = high, low
    for joint, row in out["contacts"][name].items():
        summary[f"tracking_{name}_{joint}_impacts"] = row["impacts"]
        summary[f"tracking_{name}_{joint}_verdict"] = row["verdict"]
