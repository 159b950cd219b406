"""The 3-RRRU study of Liu et al. 2018, rigid part: inverse dynamics along the circle, checked
by energy and by replaying the torques; the flexible robot's static start.

The motor angles are driven along their exact inverse kinematics, so the drives' multipliers are
the motor torques (Liu et al. 2018, eq. 14). Checks: degrees of freedom by the rank of Φ_q, the
power balance Σ τᵢ θ̇ᵢ = dE/dt and the work–energy theorem, the instantaneous solution of
M q̈ + Φ_qᵀλ = Q, Φ_q q̈ = γ at each state, and forward dynamics replaying the torques (docs/rrru.md).
Every function takes a :class:`RigidStudyConfig` (or a dict of its fields).
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
    """The platform centre's motion: a circle at a cruise speed with S-curve start and stop (Liu et al. 2018).

    - ``centre``: centre of the circle, m, global frame (Liu et al.: Z = −0.8 m);
    - ``radius``: m (0.1 m);
    - ``normal``: normal of the circle's plane (travel right-handed about it);
    - ``start_angle``: angle of the start point on the circle, rad;
    - ``speed``: cruise speed, m/s (0.5 m/s);
    - ``acceleration``, ``jerk``: limits of the S-curve, m/s², m/s³.
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
    """Settings of the rigid 3-RRRU study (SI units), after the circle fields of :class:`CircleMotion`.

    - ``h``: time step, s;
    - ``rho_inf``: generalized-α ρ∞ (0.5 damps the transient after each jerk step within a few steps);
    - ``tol_dynamic``: Newton tolerance on the relative dynamic residual (the torques are as accurate as it);
    - ``payload``: point mass on the platform, kg;
    - ``gravity``: m/s², global frame;
    - ``geometry``: the robot (:class:`~femdyn.robots.rrru.RRRUGeometry`, docs/rrru.md);
    - ``replay``: also run forward dynamics with the tabulated torques;
    - ``reference_every``: compare with the instantaneous torques at every k-th sample;
    - ``output``: folder for figures and results (None: nothing written).
    """

    h: float = field(default=1e-3, metadata={"schema": {"above": 0, "unit": "s"}})
    rho_inf: float = 0.5
    tol_dynamic: float = 1e-10
    payload: float = 0.0
    gravity: tuple = (0.0, 0.0, -9.81)
    geometry: RRRUGeometry = field(default_factory=RRRUGeometry)
    replay: bool = True
    reference_every: int = 5
    output: str = None


MIN_STEPS = 4       # time steps a study run needs at least (its histories are tabulated, ≥ 4 samples)


def check_steps(h, t_end):
    """A ModelError naming ``h`` when a run of ``t_end`` s would take fewer than MIN_STEPS steps."""
    if not h * MIN_STEPS <= t_end * (1 + 1e-9):
        raise ModelError(f"h = {h:g} s: a run of {t_end:.3g} s needs at least {MIN_STEPS} time steps; "
                         f"give h ≤ {t_end / MIN_STEPS:.3g} s (e.g. the default 1e-3 s)")


def study_config(config=None):
    """A :class:`RigidStudyConfig` from None, a config or a dict of its fields."""
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
    """The platform-centre trajectory of the study: circle × S-curve, one turn, rest to rest."""
    circle = CirclePath(config.centre, config.radius, config.normal, config.start_angle)
    profile = SCurve(circle.length, config.speed, config.acceleration, config.jerk, exact_speed=True)
    return PathMotion(circle, profile)


def driven_robot(config, motion):
    """The rigid robot at the start of a motion with its motor angles driven along the inverse kinematics.

    Sensors ``torque {i}.torque`` (N·m on link 1 about a), ``motor {i}.angle``/``.rate``, ``P.x``, ``P.y``, ``P.z``.
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
    """The robot set up for servo-constraint inverse dynamics (Liu et al. 2018, eq. 14; Blajer & Kołodziejczyk 2004).

    Sensors ``actuator {i}.torque`` (N·m on link 1 about a), ``motor {i}.angle`` (rad from the horizontal,
    positive downwards), ``P.x``, ``P.y``, ``P.z``; ``flexible``: ANCF links 3 (non-collocated).
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
    """Motor torques (k, 3), N·m about the motor axes, from M q̈ + Φ_qᵀλ = Q, Φ_q q̈ = γ at each recorded state."""
    from femdyn.solvers.initial import accelerations_and_multipliers, consistent_velocities
    rows = [system.joint_rows[f"drive {i}"][0] for i in range(len(robot.motors))]
    out = []
    for qk, vk, tk in zip(q, v, t):
        vk = consistent_velocities(system, qk, vk, tk)
        _, lam = accelerations_and_multipliers(system, qk, vk, tk)
        out.append(-lam[rows])          # an angle drive's multiplier is minus its torque
    return np.array(out)


def power_balance(t, torques, rates, energy, breakpoints, margin):
    """Relative errors of the power balance Σ τᵢθ̇ᵢ = dE/dt, pointwise and integrated (work–energy theorem).

    Pointwise only at samples more than ``margin`` (s) from the profile's jerk steps ``breakpoints``.
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
    """Forward dynamics of the rigid robot driven by tabulated torques (cubic splines through the samples)."""
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
    """Inverse dynamics of the rigid 3-RRRU robot along the study's circle: dict of histories and ``summary``."""
    from femdyn.solvers.generalized_alpha import integrate
    config = study_config(config)
    motion = circle_motion(config)
    free = rrru(pose=motion.position(motion.start), payload=config.payload, gravity=config.gravity,
                geometry=config.geometry).model.assemble()
    robot = driven_robot(config, motion)
    system = robot.model.assemble()
    check_steps(config.h, motion.end)
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
    """Write the study's figures: motor torques and angles, and the platform path."""
    from matplotlib.figure import Figure
    from ..results import time_histories
    os.makedirs(folder, exist_ok=True)
    t = study["t"]
    torques = time_histories(os.path.join(folder, "torques.png"), t,
                             [("τ [N·m]", {f"limb {i + 1}": study["torques"][:, i] for i in range(3)}),
                              ("θ1 [deg]", {f"limb {i + 1}": np.degrees(study["angles"][:, i]) for i in range(3)})],
                             "3-RRRU rigid inverse dynamics: motor torques and angles")
    res, motion = study["results"], study["motion"]
    fig = Figure(figsize=(10, 4.2))
    ax, ax2 = fig.subplots(1, 2)
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
    return [torques, path]


def flexible_statics(config=None, n_elements=8, load_steps=1):
    """Static equilibrium under gravity of the robot with ANCF links 3, motors locked."""
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
