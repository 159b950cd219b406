"""Liu et al.'s (2018) tracking experiment (section 4.3) simulated: the test rig's 3-RRRU robot (links 3 of
E = 6.9e10 Pa, 1.6 kg payload) tracks the study's circle under joint servo loops, once fed with the rigid
model's inverse solution and once with the rigid-flexible model's stable causal solution; a laser tracker
records the target 25 mm from the end effector; a least-squares circle is fitted to each track.
With ``clearance`` > 0 the chosen revolutes get radial clearance (:meth:`~femdyn.model.Model.clearance`), the
journals start seated on their loaded side, the runs step at ``clearance_h`` and report whether the impacts
were resolved (:func:`impacts`).

Each run: reference = that solution's motor angles, feedforward = its motor torques (cubic splines through
its samples), PID drives sampled every 221 µs with a zero-order hold and 16-bit encoders
(:mod:`femdyn.model.drives`) on the flexible robot, from its static equilibrium with the motors at the
reference's first angles. Table 2 (differences rigid − flexible of the fitted diameter, roundness, largest
and smallest radial error) and the zero-balanced gauge peaks of limb 1 beside Table 3. The rig's motors,
reducers and gains are not in the paper: :class:`TrackingConfig` states the defaults (docs/rrru.md,
"The tracking experiment").
"""
import math
import time
from dataclasses import dataclass, field, replace

import numpy as np

from ..model.drives import CONTROLLER_PERIOD, ENCODER_RESOLUTION
from ..motion import Tabulated
from ..reports.metrics import peak_metrics
from ..reports.metrology import REPEATABILITY, TARGET_OFFSET, fit_circle, tracker_samples
from ..robots.rrru import RRRUGeometry, rrru
from .record import Study
from .rrru import CircleMotion, check_steps, circle_motion, servo_robot
from .rrru_channels import motor_angles, motor_torques, platform_positions, tracking_error
from .rrru_gauges import PEAKS
from .rrru_study import StudyConfig, run_rigid

# Liu et al. 2018, Table 2: rigid − rigid-flexible feedforward, mm (the diameters' sign is not given)
PAPER = {"diameter": 0.153, "roundness": 1.46, "largest error": 0.372, "smallest error": 0.029}
RUNS = ("rigid", "flexible")


@dataclass
class TrackingConfig(CircleMotion):
    """Settings of the tracking experiment (SI units, angles in rad), after the circle fields of :class:`CircleMotion`.

    - ``duration``: simulated time, s (0: the whole circle);
    - ``h``: step of the closed-loop runs, s (the controller period: the hold is exact);
    - ``rigid_h``: step of the rigid inverse, s; ``stable_*``: the stable causal inverse (as ``StudyConfig``);
    - ``n_elements``: ANCF elements per link 3; ``payload``, kg; ``gravity``, m/s²; ``geometry``: E = 6.9e10 Pa;
    - ``kp``, ``ki``, ``kd``: joint-side PID gains, N·m/rad, N·m/(rad·s), N·m·s/rad (assumed: a 15 Hz,
      ζ ≈ 0.7 position loop on ≈ 0.2 kg·m²);
    - ``motor_inertia``, ``gear_ratio``, ``torque_limit``: assumed 400 W AC servo (3e-5 kg·m²), 50:1 reducer,
      150 N·m at the joint; ``period``: 221 µs (Power PMAC); ``resolution``: 2π/2¹⁶ rad (0.0055°), joint side;
      ``filter_time``: the velocity estimate's low-pass time constant, s (assumed 2 ms, 80 Hz);
    - ``rho_inf``, ``tol_dynamic``, ``max_halvings``: generalized-α settings of the closed-loop runs;
    - ``target_offset``, ``repeatability``: the tracker target 25 mm from the end effector (along the platform
      normal, below it), noise 0.02 mm as 2σ; ``tracker_every``: a tracker sample every k controller periods;
      ``seed``: of the noise;
    - ``clearance``: radial clearance, m (0: ideal joints) in ``clearance_joints`` (comma-separated revolute
      names); ``journal_radius``, m, and ``restitution`` of their steel journals (Hertz K, Lankarani–Nikravesh);
      ``clearance_h``: the largest step of runs with clearance, s (rounded down to period/k, k whole);
      ``contact_steps``: steps a bounce needs to count as resolved.
    """

    duration: float = field(default=0.0, metadata={"schema": {"at_least": 0, "unit": "s"}})
    h: float = field(default=CONTROLLER_PERIOD, metadata={"schema": {"above": 0, "unit": "s"}})
    rigid_h: float = 1e-3
    stable_h: float = 5e-3
    stable_iterations: int = 4
    stable_window: float = 0.02
    stable_elastic_window: float = 0.3
    n_elements: int = 4
    payload: float = 1.6
    gravity: tuple = (0.0, 0.0, -9.81)
    geometry: RRRUGeometry = field(default_factory=lambda: RRRUGeometry(E=6.9e10))
    kp: float = 1500.0
    ki: float = 15000.0
    kd: float = 25.0
    motor_inertia: float = 3e-5
    gear_ratio: float = 50.0
    torque_limit: float = 150.0
    period: float = CONTROLLER_PERIOD
    resolution: float = ENCODER_RESOLUTION
    filter_time: float = 2e-3
    rho_inf: float = 0.0
    tol_dynamic: float = 1e-8
    max_halvings: int = 4
    target_offset: float = TARGET_OFFSET
    repeatability: float = REPEATABILITY
    tracker_every: int = 5
    seed: int = 0
    clearance: float = field(default=0.0, metadata={"schema": {"at_least": 0, "unit": "m"}})
    clearance_joints: str = "motor_0,knee_0"
    journal_radius: float = field(default=10e-3, metadata={"schema": {"above": 0, "unit": "m"}})
    restitution: float = 0.9
    clearance_h: float = field(default=1e-5, metadata={"schema": {"above": 0, "unit": "s"}})
    contact_steps: int = 10


def _inverse_config(config):
    """The 3-RRRU study's settings of the two inverse solutions."""
    circle = {k: getattr(config, k) for k in CircleMotion.__dataclass_fields__}
    return StudyConfig(**circle, duration=config.duration, h=config.rigid_h, n_elements=config.n_elements,
                       payload=config.payload, gravity=config.gravity, geometry=config.geometry,
                       stable_h=config.stable_h, stable_iterations=config.stable_iterations,
                       stable_window=config.stable_window, stable_elastic_window=config.stable_elastic_window,
                       max_halvings=config.max_halvings)


def feedforwards(config, motion, t_end, progress=False):
    """The two solutions (t, motor angles, motor torques): the rigid robot's and the flexible robot's stable causal one."""
    from femdyn.solvers.stable_inverse import StableInverseOptions, stable_causal_inverse
    inverse = _inverse_config(config)
    rigid = run_rigid(inverse, motion, t_end, progress)
    system = servo_robot(inverse, motion, flexible=True, n_elements=config.n_elements).model.assemble()
    options = StableInverseOptions(config.stable_iterations, config.stable_window, config.stable_elastic_window,
                                   rest_after=t_end >= motion.end)
    stable = stable_causal_inverse(system, t_end, config.stable_h, options, progress=progress)
    return {"rigid": (rigid.t, motor_angles(rigid), motor_torques(rigid)),
            "flexible": (stable.t, motor_angles(stable), motor_torques(stable)), "start": stable.q[0]}


def tracking_robot(config, motion, t, angles, torques):
    """The flexible robot with a servo drive ``servo {i}`` on each motor following (angles, torques) sampled at t."""
    robot = rrru(pose=motion.position(motion.start), flexible=True, n_elements=config.n_elements,
                 payload=config.payload, gravity=config.gravity, geometry=config.geometry)
    m = robot.model
    for i, motor in enumerate(robot.motors):
        m.servo_drive(f"servo {i}", motor, Tabulated(t, angles[:, i]), config.kp, config.ki, config.kd,
                      feedforward=Tabulated(t, torques[:, i]), motor_inertia=config.motor_inertia,
                      gear_ratio=config.gear_ratio, torque_limit=config.torque_limit, period=config.period,
                      resolution=config.resolution, filter_time=config.filter_time)
    m.sensor_point("P", robot.platform, robot.centre)
    for name in clearance_joints(config):
        m.clearance(name, config.clearance, config.journal_radius, restitution=config.restitution)
        m.sensor_clearance(name, name)
    return robot


def clearance_joints(config):
    """The names of the joints given clearance (none when ``clearance`` is 0)."""
    return [n.strip() for n in config.clearance_joints.split(",") if n.strip()] if config.clearance > 0 else []


def time_step(config):
    """The closed-loop runs' time step: (step h in s, steps per controller period); ``config.h``,
    or with clearance period/k ≤ ``clearance_h``."""
    if not clearance_joints(config):
        return config.h, max(1, round(config.period / config.h))
    k = max(1, math.ceil(config.period / config.clearance_h - 1e-9))
    return config.period / k, k


def pid_run(config, motion, t_end, solution, start, progress=False):
    """One run of the PID servo loops (feedforward ``solution``) from the static equilibrium with the
    motors held at r(0) (journals :func:`seated`); (Results, System)."""
    from femdyn.solvers.generalized_alpha import Options, integrate
    from femdyn.solvers.static import static_equilibrium
    t, angles, torques = solution
    held = _held(replace(config, clearance=0.0), motion, solution)
    q0, _ = static_equilibrium(held.assemble(), q0=start, max_correction=0.02)
    if clearance_joints(config):
        q0 = seated(config, motion, solution, q0)
    system = tracking_robot(config, motion, t, angles, torques).model.assemble()
    options = Options(rho_inf=config.rho_inf, tol_dynamic=config.tol_dynamic, max_halvings=config.max_halvings,
                      on_failure="retry" if config.max_halvings else "stop")
    every = 1 if clearance_joints(config) else config.tracker_every       # impacts are counted step by step
    return integrate(system, t_end, time_step(config)[0], options, q0=q0, record_every=every, progress=progress), system


def _held(config, motion, solution):
    """The tracking robot's model with its motors also held at the reference's first angles (for statics)."""
    t, angles, torques = solution
    robot = tracking_robot(config, motion, t, angles, torques)
    for i, motor in enumerate(robot.motors):
        robot.model.drive_angle(f"hold {i}", motor, float(angles[0, i]))
    return robot.model


def seated(config, motion, solution, q):
    """The static equilibrium with clearance, each journal seated on its loaded side (q: the ideal one)."""
    # A centred journal has no stiffness in its joint plane: statics cannot start there. The ideal revolute's
    # reaction F on the journal, less its axial part (u from the clearance joint's axial row), gives the seat
    # d = −(c + (‖F‖/K)^(1/n)) F/‖F‖ (the Hertz penetration balancing ‖F‖); statics of the ideal robot with
    # the journal held at d (Model.offset_joint) places the mechanism, statics with clearance corrects the rest.
    from femdyn.solvers.static import static_equilibrium
    ideal = _held(replace(config, clearance=0.0), motion, solution)
    system = ideal.assemble()
    q, lam = static_equilibrium(system, q0=q, max_correction=0.02)
    mu = system.reaction_multipliers(q, lam)
    loose = _held(config, motion, solution).assemble()
    jacobian = loose.all_constraints.jacobian(q, 0.0)
    for name in clearance_joints(config):
        joint = loose.joints[name]
        force = np.asarray(system.joints[name].reaction(mu[system.equation_rows[name]])[1][:3], float)
        axial = jacobian[loose.equation_rows[name][0]][:, joint.dofs].toarray().ravel()
        u = np.linalg.lstsq(joint.D.T, axial, rcond=None)[0]
        u /= np.linalg.norm(u)
        radial = force - (force @ u) * u
        load = np.linalg.norm(radial)
        seat = -(joint.c + (load / joint.K) ** (1.0 / joint.p)) * radial / load
        ideal.offset_joint(name, seat)
    q, _ = static_equilibrium(ideal.assemble(), q0=q, max_correction=0.02)
    return static_equilibrium(loose, q0=q, max_correction=0.02)[0]


def track(results, system, config, seed):
    """The tracker's samples (every ``tracker_every`` periods): the target ``target_offset`` below the platform, noisy."""
    stride = config.tracker_every * time_step(config)[1] if clearance_joints(config) else 1
    normals = results.q[::stride, system.nodes["platform.n"].dofs]
    return tracker_samples(platform_positions(results)[::stride], -normals, config.target_offset,
                           config.repeatability, seed)


def impacts(results, config):
    """Per clearance joint: impacts, bounces, the shortest bounce (steps), largest force and eccentricity, a verdict."""
    h = time_step(config)[0]
    out = {}
    for name in clearance_joints(config):
        contact = np.concatenate([[False], results[f"{name}.penetration"] > 0, [False]]).astype(int)
        starts, ends = np.flatnonzero(np.diff(contact) == 1), np.flatnonzero(np.diff(contact) == -1)
        hits = [(a, b) for a, b in zip(starts, ends) if a > 0]              # the seated start is no impact
        bounces = [b - a for a, b in hits if b < len(contact) - 2]
        shortest = min(bounces, default=0)
        verdict = ("no impacts (stays in contact)" if not hits else
                   f"resolved (shortest bounce {shortest} steps of {h:.3g} s)" if shortest >= config.contact_steps
                   else f"NOT resolved: shortest bounce {shortest} steps of {h:.3g} s (< {config.contact_steps}); "
                        f"give clearance_h ≤ {h * max(shortest, 1) / config.contact_steps:.2g} s")
        out[name] = {"impacts": len(hits), "bounces": len(bounces), "shortest bounce (steps)": int(shortest),
                     "force max (N)": float(results[f"{name}.force"].max()),
                     "eccentricity max (m)": float(results[f"{name}.eccentricity"].max()), "verdict": verdict}
    return out


def gauge_peaks(results):
    """Zero-balanced (initial value removed) peaks (+, −) of limb 1's three gauges, µε (Table 3's quantities)."""
    return {name: tuple(1e6 * f(results[f"gauge 0.{k}.strain"] - results[f"gauge 0.{k}.strain"][0]) for f in (np.max, np.min))
            for k, name in enumerate(PEAKS)}


def agreement(femdyn, paper):
    """How a difference of femdyn's Table 2 agrees with the paper's (both mm, rigid − flexible): sign and
    ratio in words (the summary's verdict on a value against a band is :func:`.rrru_outputs.verdict`)."""
    if femdyn * paper < 0:
        return "opposite sign"
    ratio = abs(femdyn) / paper
    if 0.5 <= ratio <= 2:
        return "agrees (within a factor 2)"
    return f"same sign, {1 / ratio:.3g}× smaller" if ratio < 1 else f"same sign, {ratio:.3g}× larger"


def run_tracking(config=None, output=None, progress=False):
    """Run the experiment: both solutions, both closed-loop runs, tracks, circle fits, Table 2 and Table 3."""
    config = config or TrackingConfig()
    motion = circle_motion(config)
    t_end = config.duration if config.duration > 0 else motion.end
    check_steps(config.h, t_end)
    clock = time.perf_counter()
    solutions = feedforwards(config, motion, t_end, progress)
    runtime = {"inverse solutions": time.perf_counter() - clock}
    runs, fits, tracks, gauges = {}, {}, {}, {}
    for k, name in enumerate(RUNS):
        clock = time.perf_counter()
        runs[name], system = pid_run(config, motion, t_end, solutions[name], solutions["start"], progress)
        runtime[f"closed loop, {name} feedforward"] = time.perf_counter() - clock
        tracks[name] = track(runs[name], system, config, config.seed + k)
        fits[name] = fit_circle(tracks[name])
        gauges[name] = gauge_peaks(runs[name])
    tables = {name: fits[name].table() for name in RUNS}
    table2 = [{"quantity": q, "rigid": tables["rigid"][q], "flexible": tables["flexible"][q],
               "difference": tables["rigid"][q] - tables["flexible"][q], "paper": p,
               "verdict": agreement(abs(tables["rigid"][q] - tables["flexible"][q]) if q == "diameter"
                                  else tables["rigid"][q] - tables["flexible"][q], p)} for q, p in PAPER.items()]
    table3 = [{"gauge": g, "femdyn": gauges["flexible"][g], "paper": PEAKS[g],
               **peak_metrics(gauges["flexible"][g], PEAKS[g])} for g in PEAKS]
    contacts = {name: impacts(runs[name], config) for name in RUNS}
    summary = {"duration": float(t_end), "steps": int(round(t_end / time_step(config)[0])),
               **{f"{q} difference (mm)": row["difference"] for q, row in zip(PAPER, table2)},
               **{f"{name} {q} (mm)": v for name in RUNS for q, v in tables[name].items()},
               **{f"{name} end-effector error max (mm)": float(1e3 * tracking_error(runs[name], motion).max())
                  for name in RUNS},
               **{f"{name} joint error max (deg)": float(np.degrees(max(np.abs(runs[name][f"servo {i}.error"]).max()
                                                                         for i in range(3)))) for name in RUNS},
               **{f"{name} {joint} {k}": v for name in RUNS for joint, row in contacts[name].items()
                  for k, v in row.items()},
               **{f"runtime {k} (s)": v for k, v in runtime.items()}}
    study = {"summary": summary, "table2": table2, "table3": table3, "contacts": contacts, "fits": fits,
             "tracks": tracks, "runs": runs, "solutions": solutions, "motion": motion, "config": config}
    if output:
        from .rrru_tracking_outputs import write_outputs
        study["files"] = write_outputs(output, study)
    return study


def report(summary):
    """The summary's Table 2 and run numbers, one per line."""
    return "\n".join(f"{k} = {v:.6g}" if isinstance(v, float) else f"{k} = {v}" for k, v in summary.items())


def sweep_case(config, output):
    """The experiment as a sweep case: Table 2's differences and the errors (``femdyn sweep``, docs/sweeps.md)."""
    from ..schema import config_from_dict
    study = run_tracking(config_from_dict(config, TrackingConfig, where="3-RRRU tracking study"), output)
    return {k: v for k, v in study["summary"].items() if not k.startswith("runtime")}


def _add_options(parser):
    """Register the clearance options of the tracking study (each overrides the configuration)."""
    parser.add_argument("--clearance", type=float, help="radial clearance of the chosen joints, m (e.g. 30e-6; "
                                                        "default 0: ideal joints)")
    parser.add_argument("--clearance-joints", help="comma-separated revolutes given clearance (default "
                                                   "motor_0,knee_0: limb 1's motor and knee)")
    parser.add_argument("--clearance-h", type=float, help="largest step of runs with clearance, s (default 1e-5)")


def _apply_options(config, args):
    """The configuration with the command line's clearance options, checked as a configuration file's."""
    from ..schema import config_from_dict
    changes = {k: getattr(args, k) for k in ("clearance", "clearance_joints", "clearance_h")
               if getattr(args, k) is not None}
    if not changes:
        return config
    checked = config_from_dict(changes, TrackingConfig, where="femdyn study rrru-tracking")
    return replace(config, **{k: getattr(checked, k) for k in changes})


def _label(name):
    """A summary number's label with its unit (it carries it already)."""
    return name


STUDY = Study(name="rrru-tracking",
              description="Liu et al. 2018's tracking experiment: rigid vs flexible feedforward under joint servo "
                          "loops, laser tracker, circle fit (Table 2) and gauges (Table 3)",
              config=TrackingConfig, run=run_tracking, report=report,
              sweeps={"rrru_tracking": (TrackingConfig, sweep_case)}, figure_label=_label,
              add_options=_add_options, apply_options=_apply_options)
