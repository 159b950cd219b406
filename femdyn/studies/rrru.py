"""The 3-RRRU study of Liu et al. 2018, rigid part: inverse dynamics along the circle, checked
by energy and by replaying the torques; the flexible robot's static start.

The end effector (platform centre) follows the circle of radius 0.1 m in the plane
Z = −0.8 m at 0.5 m/s with jerk-limited start and stop (:class:`~femdyn.motion.SCurve`).
Inverse dynamics of the rigid robot: the three motor angles are driven along their
exact inverse-kinematics histories (:class:`~femdyn.robots.rrru.ActuatedAngle`), so the
mechanism has no freedom left and the drives' multipliers are the motor torques
(Liu et al. 2018, eq. 14 with the actuated angles as the prescribed coordinates).
Checks, each against an independent truth:

* degrees of freedom by the rank of Φ_q (3 without drives);
* power balance Σ τᵢ θ̇ᵢ = dE/dt (E kinetic plus gravity potential energy) pointwise and
  its integral, the work–energy theorem;
* the torques of the time integration against the instantaneous solution of
  M q̈ + Φ_qᵀλ = Q, Φ_q q̈ = γ at the exact kinematic state (no integrator);
* forward dynamics driven by the tabulated torques tracks the circle.

Every function takes a :class:`RigidStudyConfig` (or a dict of its fields) and returns
plain data plus a ``summary`` dict of numbers; figures go to ``config.output``.
"""
import os
import time
from dataclasses import dataclass, field, fields

import numpy as np

from ..errors import FemdynError, ModelError
from ..motion import CirclePath, PathMotion, SCurve, Tabulated
from ..robots.rrru import ActuatedAngle, RRRUGeometry, rrru
from .rrru_channels import tracking_error


@dataclass
class CircleMotion:
    """The platform centre's motion of the study: a circle at a cruise speed with S-curve start and stop.

    Liu et al. 2018: Z = −0.8 m, radius 0.1 m, 0.5 m/s.

    Parameters
    ----------
    centre : (3,) tuple
        Centre of the circle [m], global frame.
    radius : float
        Radius [m].
    normal : (3,) tuple
        Normal of the circle's plane (the sense of travel is right-handed about it).
    start_angle : float
        Angle of the start point on the circle [rad].
    speed : float
        Cruise speed [m/s].
    acceleration : float
        Acceleration limit of the S-curve [m/s²].
    jerk : float
        Jerk limit of the S-curve [m/s³].
    """

    centre: tuple = (0.0, 0.0, -0.8)
    radius: float = 0.1
    normal: tuple = (0.0, 0.0, 1.0)
    start_angle: float = 0.0
    speed: float = 0.5
    acceleration: float = 2.5
    jerk: float = 50.0


@dataclass
class RigidStudyConfig(CircleMotion):
    """Parameters of the rigid 3-RRRU study (SI units); the circle fields of :class:`CircleMotion` first.

    Parameters
    ----------
    centre, radius, normal, start_angle, speed, acceleration, jerk
        The circle and its S-curve (see :class:`CircleMotion`).
    h : float
        Time step [s].
    rho_inf : float
        Generalized-α ρ∞ (0.5 damps the algorithmic transient after each jerk step of the
        profile within a few steps).
    tol_dynamic : float
        Newton tolerance on the relative dynamic residual (1e-10: the multipliers, i.e. the
        torques, are only as accurate as the dynamic equations are solved; at the default
        1e-6 single steps stop with torque errors of 1e-2 N·m).
    payload : float
        Point mass on the platform [kg].
    gravity : (3,) tuple
        Gravity [m/s²], global frame.
    geometry : RRRUGeometry
        The robot (defaults of docs/rrru.md).
    replay : bool
        Also run forward dynamics with the tabulated torques.
    reference_every : int
        Compare the torques with the instantaneous solution at every k-th sample.
    output : str or None
        Folder for figures and results (None: nothing written).
    """

    h: float = 1e-3
    rho_inf: float = 0.5
    tol_dynamic: float = 1e-10
    payload: float = 0.0
    gravity: tuple = (0.0, 0.0, -9.81)
    geometry: RRRUGeometry = field(default_factory=RRRUGeometry)
    replay: bool = True
    reference_every: int = 5
    output: str = None


def study_config(config=None):
    """A :class:`RigidStudyConfig` from None, a config or a dict of its fields.

    ``config`` (RigidStudyConfig, dict or None): the settings (None: the defaults). Returns RigidStudyConfig.
    Raises ModelError: unknown keys (named, with the known ones).

    Examples
    --------
    >>> study_config({"payload": 1.6}).payload
    1.6
    """
    if config is None:
        return RigidStudyConfig()
    if isinstance(config, RigidStudyConfig):
        return config
    known = {f.name for f in fields(RigidStudyConfig)}
    unknown = sorted(set(config) - known)
    if unknown:
        raise ModelError(f"3-RRRU study: unknown settings {unknown}; known: {sorted(known)}")
    return RigidStudyConfig(**config)


def circle_motion(config):
    """The platform-centre trajectory of the study: circle × S-curve, one turn, rest to rest.

    ``config`` (CircleMotion): the circle and its speed limits (any config deriving from it). Returns
    PathMotion: position, velocity and acceleration of the platform centre [m, m/s, m/s²]. Raises ModelError: a
    speed the S-curve cannot reach on the circle.

    Examples
    --------
    >>> motion = circle_motion(RigidStudyConfig())
    >>> round(motion.end, 2), motion.position(0.0).round(6).tolist()
    (1.51, [0.1, 0.0, -0.8])
    """
    circle = CirclePath(config.centre, config.radius, config.normal, config.start_angle)
    profile = SCurve(circle.length, config.speed, config.acceleration, config.jerk, exact_speed=True)
    return PathMotion(circle, profile)


def driven_robot(config, motion):
    """The rigid robot at the start of a motion with its motor angles driven along the inverse kinematics.

    The drives' multipliers are the motor torques (Liu et al. 2018, eq. 14 with the actuated
    angles prescribed). Sensors: ``torque {i}.torque`` (N·m on link 1 about a),
    ``motor {i}.angle``/``.rate`` and the platform centre ``P.x``, ``P.y``, ``P.z``.

    ``config`` (RigidStudyConfig): payload, gravity and geometry; ``motion`` (PathMotion): the platform-centre
    motion (:func:`circle_motion`). Returns RRRU: the robot handles; its model is not yet assembled.
    """
    robot = rrru(pose=motion.position(motion.start), payload=config.payload, gravity=config.gravity,
                 geometry=config.geometry)
    m = robot.model
    for i, motor in enumerate(robot.motors):
        drive = m.drive_angle(f"drive {i}", motor, ActuatedAngle(robot.geometry, i, motion))
        m.sensor_reaction(f"torque {i}", drive.name)
        m.sensor_angle(f"motor {i}", motor)
    m.sensor_point("P", robot.platform, robot.centre)
    return robot


def servo_robot(config, motion, flexible=False, n_elements=8):
    """The robot at the start of a motion set up for servo-constraint inverse dynamics.

    Liu et al. 2018, eq. 14; Blajer & Kołodziejczyk 2004: an actuator with unknown torque in
    each motor joint and the platform centre prescribed along ``motion`` (three servo rows).
    Sensors: ``actuator {i}.torque`` (N·m on link 1 about a), the active joint angles
    ``motor {i}.angle`` (rad, from the horizontal, positive downwards) and ``P.x``, ``P.y``, ``P.z``.
    With ``flexible`` the links 3 are ANCF beams (non-collocated: see
    :mod:`femdyn.model.actuators` for the index and the damping it needs).

    ``config`` (RigidStudyConfig or StudyConfig): payload, gravity and geometry; ``motion`` (PathMotion): the
    platform-centre motion; ``flexible`` (bool, optional): ANCF links 3; ``n_elements`` (int, optional):
    elements per flexible link. Returns RRRU.
    """
    robot = rrru(pose=motion.position(motion.start), flexible=flexible, n_elements=n_elements, payload=config.payload,
                 gravity=config.gravity, geometry=config.geometry)
    m = robot.model
    for i, motor in enumerate(robot.motors):
        m.actuator(f"actuator {i}", motor)
        m.sensor_angle(f"motor {i}", motor)
    m.servo("platform centre", robot.platform, robot.centre, [motion.along(d) for d in np.eye(3)])
    m.sensor_point("P", robot.platform, robot.centre)
    return robot


def instantaneous_torques(system, robot, q, v, t):
    """Motor torques from the rigid DAE solved at each recorded state, without time integration.

    M q̈ + Φ_qᵀλ = Q, Φ_q q̈ = γ at each state, velocities projected on Φ_q v = −Φ_t first;
    an angle drive's multiplier is minus its torque.

    ``system`` (System): the assembled driven robot (:func:`driven_robot`); ``robot`` (RRRU): its handles; ``q,
    v`` ((k, n) ndarray): recorded coordinates and velocities; ``t`` ((k,) ndarray): their times [s]. Returns
    (k, 3) ndarray: torques [N·m] on link 1 about the motor axis a.
    """
    from femdyn.solvers.initial import accelerations_and_multipliers, consistent_velocities
    rows = [system.joint_rows[f"drive {i}"][0] for i in range(len(robot.motors))]
    out = []
    for qk, vk, tk in zip(q, v, t):
        vk = consistent_velocities(system, qk, vk, tk)
        _, lam = accelerations_and_multipliers(system, qk, vk, tk)
        out.append(-lam[rows])          # an angle drive's multiplier is minus its torque
    return np.array(out)


def power_balance(t, torques, rates, energy, breakpoints, margin):
    """Relative errors of the power balance Σ τᵢθ̇ᵢ = dE/dt, pointwise and integrated.

    Pointwise: dE/dt by central differences, at samples more than ``margin`` from the
    profile's jerk steps (there the difference quotient straddles a kink of the power and
    the integrator's accelerations carry an O(h) transient that generalized-α damps within
    a few steps). Integrated: the work–energy theorem, trapezoid rule, all samples.

    ``t`` ((k,) ndarray): times [s]; ``torques`` ((k, 3) ndarray): motor torques [N·m]; ``rates`` ((k, 3)
    ndarray): motor rates [rad/s]; ``energy`` ((k,) ndarray): kinetic plus gravity potential energy [J];
    ``breakpoints`` (array_like): times of the jerk steps of the profile [s]; ``margin`` (float): samples closer
    than this to a breakpoint are left out of the pointwise test [s]. Returns dict: ``power_max`` [W],
    ``power_balance_error`` and ``work_energy_error`` (relative).

    Examples
    --------
    >>> import numpy as np
    >>> t = np.linspace(0.0, 1.0, 101)
    >>> rates = np.column_stack([t, 0 * t, 0 * t])               # τ = 2 N·m, θ̇ = t: E = t²
    >>> errors = power_balance(t, np.full((101, 3), 2.0), rates, t**2, [], 0.0)
    >>> errors["work_energy_error"] < 1e-12
    True
    """
    power = np.sum(torques * rates, axis=1)
    dE = np.gradient(energy, t)
    far = np.min(np.abs(t[:, None] - np.asarray(breakpoints, float)[None, :]), axis=1, initial=np.inf) > margin
    work = np.concatenate([[0.0], np.cumsum(0.5 * (power[1:] + power[:-1]) * np.diff(t))])
    change = energy - energy[0]
    return {"power_max": float(np.abs(power).max()),
            "power_balance_error": float(np.abs(power - dE)[far].max() / np.abs(power).max()),
            "work_energy_error": float(np.abs(work - change).max() / np.abs(change).max())}


def replay_torques(config, motion, t, torques):
    """Forward dynamics of the rigid robot driven by tabulated torques (cubic splines through the samples).

    ``config`` (RigidStudyConfig): payload, gravity, geometry, step and Newton settings; ``motion``
    (PathMotion): the motion whose start is the initial pose and whose end the end time; ``t`` ((k,) ndarray):
    sample times [s]; ``torques`` ((k, 3) ndarray): motor torques [N·m]. Returns ``results`` (Results): the
    forward run; ``error`` ((k',) ndarray): distance of the platform centre from the prescribed motion [m] at
    each step.
    """
    from femdyn.solvers.generalized_alpha import integrate
    robot = rrru(pose=motion.position(motion.start), payload=config.payload, gravity=config.gravity,
                 geometry=config.geometry)
    m = robot.model
    for i, motor in enumerate(robot.motors):
        m.torque(f"motor torque {i}", motor, Tabulated(t, torques[:, i]))
    m.sensor_point("P", robot.platform, robot.centre)
    res = integrate(m.assemble(), motion.end, config.h, _options(config))
    return res, tracking_error(res, motion)


def _options(config):
    """Generalized-α options of the rigid runs."""
    from femdyn.solvers.generalized_alpha import Options
    return Options(rho_inf=config.rho_inf, tol_dynamic=config.tol_dynamic)



def rigid_inverse_dynamics(config=None):
    """Inverse dynamics of the rigid 3-RRRU robot along the study's circle.

    ``config`` (RigidStudyConfig or dict, optional). Returns dict: ``t`` (s), ``torques`` (n, 3) N·m,
    ``angles``, ``rates`` (rad, rad/s, exact IK), ``reference_t``, ``reference_torques`` (instantaneous
    solution), ``results`` (the run), ``replay`` and ``replay_error`` (m) if replayed, ``figures`` (paths) and
    ``summary``: degrees of freedom, coordinate and equation counts, torque range, tracking, power-balance,
    torque-agreement and replay errors, run times. Raises ModelError: a circle outside the workspace or a speed
    the S-curve cannot reach.

    Example
    -------
    >>> study = rigid_inverse_dynamics({"replay": False})        # doctest: +SKIP
    >>> study["summary"]["torque_min"]                           # doctest: +SKIP
    -11.26
    """
    from femdyn.solvers.generalized_alpha import integrate
    config = study_config(config)
    motion = circle_motion(config)
    free = rrru(pose=motion.position(motion.start), payload=config.payload, gravity=config.gravity,
                geometry=config.geometry).model.assemble()
    robot = driven_robot(config, motion)
    system = robot.model.assemble()
    clock = time.perf_counter()
    folder = os.path.join(config.output, "inverse") if config.output else None
    res = integrate(system, motion.end, config.h, _options(config), output=folder)
    runtime = time.perf_counter() - clock
    t = res.t
    torques = np.column_stack([res[f"torque {i}.torque"] for i in range(3)])
    ik = [ActuatedAngle(config.geometry, i, motion) for i in range(3)]
    angles = np.array([[f.value(x) for f in ik] for x in t])
    rates = np.array([[f.d1(x) for f in ik] for x in t])
    every = slice(None, None, config.reference_every)
    reference = instantaneous_torques(system, robot, res.q[every], res.v[every], t[every])
    margin = 10 * config.h          # ten steps after a jerk step: the integrator's transient has decayed
    far = np.min(np.abs(t[every, None] - motion.profile.breakpoints[None, :]), axis=1) > margin
    summary = {
        "coordinates": free.n, "equations": free.m, "degrees_of_freedom": free.degrees_of_freedom(),
        "degrees_of_freedom_driven": system.degrees_of_freedom(),
        "duration": motion.duration, "cruise_speed": motion.profile.peak_speed, "steps": len(t) - 1,
        "torque_min": float(torques.min()), "torque_max": float(torques.max()),
        "tracking_error": float(tracking_error(res, motion).max()),
        "angle_error": float(np.abs(np.column_stack([res[f"motor {i}.angle"] for i in range(3)]) - angles).max()),
        "torque_difference_max": float(np.abs(torques[every] - reference).max()),
        "torque_difference_smooth": float(np.abs(torques[every] - reference)[far].max()),
        **power_balance(t, torques, rates, res["energy"], motion.profile.breakpoints, margin),
        "runtime_inverse": runtime,
    }
    study = {"t": t, "torques": torques, "angles": angles, "rates": rates, "reference_t": t[every],
             "reference_torques": reference,
             "results": res, "motion": motion, "summary": summary}
    if config.replay:
        clock = time.perf_counter()
        study["replay"], study["replay_error"] = replay_torques(config, motion, t, torques)
        summary["runtime_replay"] = time.perf_counter() - clock
        summary["replay_tracking_error"] = float(study["replay_error"].max())
    if config.output:
        study["figures"] = rigid_figures(study, config.output)
    return study


def rigid_figures(study, folder):
    """Write the study's figures: motor torques and angles, and the platform path.

    ``torques.png`` (motor torques and angles against time) and ``path.png`` (platform path
    against the circle, tracking errors).

    ``study`` (dict): the result of :func:`rigid_inverse_dynamics`; ``folder`` (str or path-like): output folder
    (created). Returns list of str: the two paths.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from ..results import time_histories
    os.makedirs(folder, exist_ok=True)
    t = study["t"]
    torques = time_histories(os.path.join(folder, "torques.png"), t,
                             [("τ [N·m]", {f"limb {i + 1}": study["torques"][:, i] for i in range(3)}),
                              ("θ1 [deg]", {f"limb {i + 1}": np.degrees(study["angles"][:, i]) for i in range(3)})],
                             "3-RRRU rigid inverse dynamics: motor torques and angles")
    res, motion = study["results"], study["motion"]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 4.2))
    circle = np.array([motion.path.position(s) for s in np.linspace(0, motion.path.length, 361)])
    ax.plot(circle[:, 0], circle[:, 1], "k--", lw=1, label="circle")
    ax.plot(res["P.x"], res["P.y"], lw=1.5, label="platform centre (inverse)")
    if "replay" in study:
        ax.plot(study["replay"]["P.x"], study["replay"]["P.y"], ":", lw=1.5, label="forward, replayed torques")
        ax2.semilogy(study["replay"].t, np.maximum(study["replay_error"], 1e-16), label="forward replay")
    ax2.semilogy(t, np.maximum(tracking_error(res, motion), 1e-16), label="inverse dynamics")
    ax.set_aspect("equal")
    ax.set_xlabel("X [m]")
    ax.set_ylabel("Y [m]")
    ax.legend(fontsize=7)
    ax.set_title("platform path, Z = %.2f m" % motion.path.centre[2])
    ax2.set_xlabel("t [s]")
    ax2.set_ylabel("|P − P_circle| [m]")
    ax2.grid(True, alpha=0.3)
    ax2.legend(fontsize=7)
    fig.tight_layout()
    path = os.path.join(folder, "path.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [torques, path]


def flexible_statics(config=None, n_elements=8, load_steps=1):
    """Static equilibrium under gravity of the robot with ANCF links 3, motors locked.

    At the start of the study's circle, motors locked at their inverse-kinematics angles;
    the rigid robot's holding torques for comparison.

    ``config`` (RigidStudyConfig or dict, optional): the settings (payload, gravity, geometry); ``n_elements``
    (int, optional): fully parameterized beam elements per link 3; ``load_steps`` (int, optional): load levels
    of :func:`~femdyn.solvers.static.static_equilibrium`. Returns dict: ``coordinates``, ``equations``,
    ``degrees_of_freedom`` (unlocked), holding torques ``torques`` and ``rigid_torques`` [N·m], platform-centre
    ``displacement`` [m], ``gauges`` (strain of each gauge), ``converged`` and, on failure, ``error``.
    """
    from femdyn.solvers.static import static_equilibrium
    config = study_config(config)
    start = circle_motion(config).position(0.0)
    out = {}
    for flexible in (True, False):
        robot = rrru(pose=start, flexible=flexible, n_elements=n_elements, payload=config.payload,
                     gravity=config.gravity, geometry=config.geometry)
        m = robot.model
        if flexible:
            free = m.assemble()
            out.update(coordinates=free.n, equations=free.m, degrees_of_freedom=free.degrees_of_freedom())
        locks = [m.drive_angle(f"lock {i}", motor, robot.pose.angles[i]) for i, motor in enumerate(robot.motors)]
        centre = m.sensor_point("P", robot.platform, robot.centre)
        system = m.assemble()
        try:
            q, lam = static_equilibrium(system, load_steps=load_steps)
        except FemdynError as err:
            out.update(converged=False, error=f"{type(err).__name__}: {err}")
            return out
        torques = np.array([-lam[system.joint_rows[j.name][0]] for j in locks])
        if not flexible:
            out["rigid_torques"] = torques
            continue
        gauges = {s.name: float(s.measure(q, None, None, None, 0.0)[0]) for s in m.sensors if s.name in robot.gauges}
        out.update(converged=True, torques=torques, displacement=centre.expr(q) - robot.centre, gauges=gauges)
    return out
