"""The whole 3-RRRU study of Liu et al. (2018), section 4: the platform centre on a circle of radius
0.1 m at Z = −0.8 m, 0.5 m/s, S-curve start and stop.

(a) rigid inverse dynamics → torques; (b) flexible forward dynamics driven by them from the static
equilibrium → end-effector deviation, tilt, gauge strains; (c) flexible inverse dynamics (by default the
stable causal inverse of :mod:`femdyn.solvers.stable_inverse`; the problem is non-collocated) → torques,
angles, tracking, tilt, deformation, shear, internal dynamics; (d) strains at the gauges.
:func:`run_study` writes the outputs of :mod:`.rrru_outputs`; :class:`StudyConfig` holds every setting
(``femdyn study rrru config.toml``). Method and results: docs/rrru.md.
"""
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import ModelError, SolverError
from ..motion import Tabulated
from ..robots.rrru import RRRUGeometry, rrru
from .rrru_channels import (commanded_positions, gauge_channels, motor_angles, motor_torques, platform_positions,
                            platform_tilt, resampled, tracking_error)
from .record import StudyStopped
from .rrru import CircleMotion, check_steps, circle_motion, servo_robot
from .rrru_mesh import FIGURES as MESH_FIGURES, mesh_adequacy
from .rrru_outputs import PAPER, summary_table, write_outputs  # noqa: F401  (summary_table: re-exported)


@dataclass
class StudyConfig(CircleMotion):
    """Settings of the 3-RRRU study (SI units, angles in rad), after the circle fields of :class:`CircleMotion`.

    - ``duration``: simulated time, s (0: the whole circle, 1.51 s);
    - ``h``: time step, s;
    - ``rigid_rho_inf``, ``flexible_rho_inf``: generalized-α ρ∞ of the runs (the plain causal inverse needs 0);
    - ``inverse_method``: "stable" (:func:`~femdyn.solvers.stable_inverse.stable_causal_inverse`) or "causal";
    - ``stable_h``: sample spacing of the stable inverse, s;
    - ``stable_iterations``, ``stable_window``, ``stable_elastic_window``: its ``StableInverseOptions`` (windows in s);
    - ``zero_dynamics_samples``: samples of the flexible inverse at which the internal dynamics are computed;
    - ``validate_inverse``: also drive the flexible forward model with the flexible inverse's torques;
    - ``tol_rigid``, ``tol_flexible``: Newton tolerances on the relative dynamic residual;
    - ``n_elements``: ANCF elements per flexible link (2 is the coarsest that runs the whole circle);
    - ``formulation``: "index3" or "stabilized", of the forward runs;
    - ``max_halvings``: step halvings a run may use past a failed Newton iteration (0: stop);
    - ``payload``: point mass on the platform, kg (1.6 on the paper's test rig);
    - ``gravity``: m/s²;
    - ``forward``, ``inverse``: run part (b), part (c);
    - ``paraview_every``: every k-th step of the flexible inverse to the ParaView series (0: none);
    - ``geometry``: the robot (E = 6.9e8 Pa in the paper's simulation).
    """

    duration: float = field(default=0.0, metadata={"schema": {"at_least": 0, "unit": "s"}})
    h: float = field(default=1e-3, metadata={"schema": {"above": 0, "unit": "s"}})
    rigid_rho_inf: float = 0.5
    flexible_rho_inf: float = 0.0
    tol_rigid: float = 1e-10
    tol_flexible: float = 1e-8
    formulation: str = "index3"
    max_halvings: int = 4
    inverse_method: str = "stable"
    stable_h: float = 5e-3
    stable_iterations: int = 4
    stable_window: float = 0.02
    stable_elastic_window: float = 0.3
    zero_dynamics_samples: int = 3
    validate_inverse: bool = True
    n_elements: int = 8
    payload: float = 0.0
    gravity: tuple = (0.0, 0.0, -9.81)
    forward: bool = True
    inverse: bool = True
    paraview_every: int = 20
    geometry: RRRUGeometry = field(default_factory=RRRUGeometry)


def run_study(config=None, output=None, progress=False):
    """Run parts (a)–(d) and write their outputs to ``output`` (if given)."""
    config = config or StudyConfig()
    motion = circle_motion(config)
    t_end = config.duration if config.duration > 0 else motion.end
    check_steps(config.h, t_end)
    summary, clock = {"duration": t_end, "steps": int(round(t_end / config.h))}, time.perf_counter()

    rigid = _part(summary, "rigid", lambda: run_rigid(config, motion, t_end, progress))
    if rigid is None:                    # nothing computed at all
        raise SolverError(summary["stopped"]["reason"])
    torques = motor_torques(rigid)
    summary.update(rigid_torque_min=float(torques.min()), rigid_torque_max=float(torques.max()),
                   rigid_tracking_error=tracking_error(rigid, motion).max(), runtime_rigid=time.perf_counter() - clock)

    forward = inverse = system = None
    if config.forward and "stopped" not in summary:
        clock = time.perf_counter()
        forward, system = _part(summary, "forward", lambda: _forward(config, motion, t_end, rigid.t, torques,
                                                                     progress)) or (None, None)
    if forward is not None:
        deviation = platform_positions(forward) - commanded_positions(forward, motion)
        summary.update(forward_deviation_x=float(np.abs(deviation[:, 0]).max()),
                       forward_deviation_yz=float(np.abs(deviation[:, 1:]).max()),
                       forward_tilt_deg=float(np.degrees(platform_tilt(forward, system)).max()),
                       forward_runtime=time.perf_counter() - clock)
    if config.inverse and "stopped" not in summary:
        clock = time.perf_counter()
        inverse, system, robot, zero = _part(summary, "inverse", lambda: _flexible_inverse(
            config, motion, t_end, progress)) or (None, system, None, None)
    if inverse is not None:
        flexible_torques = motor_torques(inverse)
        reference = resampled(rigid, inverse.t, torques)
        angles, rigid_angles = motor_angles(inverse), resampled(rigid, inverse.t, motor_angles(rigid))
        cruise = _cruise(inverse.t, motion)
        tilt = np.degrees(platform_tilt(inverse, system, inverse.q[0]))
        summary.update(
            inverse_method=config.inverse_method,
            inverse_step=float(inverse.t[1] - inverse.t[0]) if len(inverse.t) > 1 else config.h,
            inverse_tracking_error=tracking_error(inverse, motion).max(),
            inverse_torque_min=float(flexible_torques.min()), inverse_torque_max=float(flexible_torques.max()),
            inverse_torque_extreme_limb={i + 1: float(flexible_torques[np.argmax(np.abs(flexible_torques[:, i])), i])
                                         for i in range(3)},
            torque_difference=float(np.abs(flexible_torques - reference).max()),
            inverse_angle_max_deg=float(np.degrees(angles.max())),
            rigid_angle_max_deg=float(np.degrees(motor_angles(rigid).max())),
            angle_difference_deg=float(np.degrees(np.abs(angles - rigid_angles).max())),
            tilt_start_stop_deg=float(tilt[~cruise].max()), tilt_cruise_deg=float(tilt[cruise].max(initial=0.0)),
            static_tilt_deg=float(np.degrees(platform_tilt(inverse, system)[0])),
            torque_difference_at_rest=float(np.abs(flexible_torques[0] - torques[0]).max()),
            mid_link_deformation=float(_mid_deflection(inverse, system, robot).max()),
            shear_angle_deg=float(np.degrees(_shear(inverse)).max()),
            gauge_strain_peaks={name: [float(inverse[name].max()), float(inverse[name].min())]
                                for name in gauge_channels(inverse)},
            inverse_runtime=time.perf_counter() - clock)
        if zero is not None:
            summary["zero_dynamics"] = zero
        if "stable_inverse" in inverse.meta:
            summary["inverse_dynamics_residual"] = inverse.meta["stable_inverse"]["unresolved_inertia"]
            summary["inverse_input_change"] = inverse.meta["stable_inverse"]["input_change"]
        if config.forward and config.validate_inverse and "stopped" not in summary:
            replay, _ = _forward(config, motion, t_end, inverse.t, flexible_torques, progress, inverse.q[0])
            summary["forward_inverse_deviation"] = float(np.linalg.norm(
                platform_positions(replay) - commanded_positions(replay, motion), axis=1).max())
            summary["forward_rigid_deviation"] = float(np.linalg.norm(
                platform_positions(forward) - commanded_positions(forward, motion), axis=1).max())
    summary["mesh"] = mesh_adequacy(config.n_elements)
    summary["paper"] = PAPER
    system = system if inverse is not None else None
    if output:
        write_outputs(output, config, summary, rigid, forward, inverse, system)
    study = {"summary": summary, "rigid": rigid, "forward": forward, "inverse": inverse, "paper": PAPER,
             "system": system}
    if "stopped" in summary:
        raise StudyStopped("3-RRRU study", summary["stopped"], study, output, study[summary["stopped"]["key"]])
    return study


PARTS = {"rigid": "rigid inverse dynamics (a)", "forward": "flexible forward dynamics (b)",
         "inverse": "flexible inverse dynamics (c)"}


def _part(summary, key, run):
    """One part's result; a SolverError leaves ``summary["stopped"]`` and the part's partial
    Results (with the System and, for the inverse, the robot and no zero-dynamics summary), or
    None when it computed no step."""
    try:
        return run()
    except SolverError as err:
        results = err.results
        steps = results is not None and len(results.t) > 0
        summary["stopped"] = {"part": PARTS[key], "key": key, "t": float(results.t[-1]) if steps else 0.0,
                              "reason": str(err)}
        if not steps:
            return None
        return results if err.partial is None else err.partial


HEADLINE = ("rigid_torque_min", "rigid_torque_max", "forward_deviation_x", "forward_deviation_yz",
            "forward_tilt_deg", "inverse_tracking_error", "inverse_torque_min", "inverse_torque_max",
            "torque_difference", "torque_difference_at_rest", "static_tilt_deg", "tilt_start_stop_deg",
            "tilt_cruise_deg", "mid_link_deformation", "shear_angle_deg")


def headline(summary):
    """The summary numbers of :func:`run_study` that a sweep tabulates: the figures of
    :func:`summary_table` (SI units, angles in degrees), the largest gauge strain
    ``gauge_strain_max`` (absolute, over all gauges), ``duration`` and ``steps``; run times
    are left out (they vary from run to run)."""
    out = {"duration": summary["duration"], "steps": summary["steps"]}
    out.update({key: summary[key] for key in HEADLINE if key in summary})
    if "gauge_strain_peaks" in summary:
        out["gauge_strain_max"] = max(abs(v) for peaks in summary["gauge_strain_peaks"].values() for v in peaks)
    return out


def sweep_case(config, output):
    """The study as a sweep case (:func:`femdyn.studies.sweep.run_sweep`)."""
    from ..schema import config_from_dict
    study = run_study(config_from_dict(config, StudyConfig, where="3-RRRU study"), output)
    return headline(study["summary"])


def run_rigid(config, motion, t_end, progress=False):
    """The rigid robot's inverse dynamics: servo constraints on the platform centre."""
    from femdyn.solvers.generalized_alpha import Options, integrate
    options = Options(rho_inf=config.rigid_rho_inf, tol_dynamic=config.tol_rigid, tol_constraint=1e-12,
                      **_policy(config))
    return integrate(servo_robot(config, motion).model.assemble(), t_end, config.h, options, progress=progress)


def _policy(config):
    """The failure policy of every run: retry with halved steps up to ``max_halvings`` times."""
    return dict(on_failure="retry" if config.max_halvings else "stop", max_halvings=config.max_halvings)


def _forward(config, motion, t_end, t, torques, progress, start=None):
    """Flexible forward dynamics from the static equilibrium (Newton from ``start``, default the
    undeformed robot), driven by tabulated motor torques (cubic splines through ``torques`` at
    ``t``); returns the Results and the System."""
    from femdyn.solvers.generalized_alpha import Options, integrate
    from femdyn.solvers.static import static_equilibrium
    robot = rrru(pose=motion.position(motion.start), flexible=True, n_elements=config.n_elements,
                 payload=config.payload, gravity=config.gravity, geometry=config.geometry)
    m = robot.model
    for i, motor in enumerate(robot.motors):
        m.torque(f"motor torque {i}", motor, Tabulated(t, torques[:, i]))
    m.sensor_point("P", robot.platform, robot.centre)
    _shear_sensors(m, robot)
    system = m.assemble()
    q0, _ = static_equilibrium(system, q0=start)
    options = Options(rho_inf=config.flexible_rho_inf, tol_dynamic=config.tol_flexible,
                      formulation=config.formulation, **_policy(config))
    return _keep_system(lambda: integrate(system, t_end, config.h, options, q0=q0, progress=progress), system)


def _keep_system(run, *rest):
    """(run(), *rest); a SolverError carries the same tuple with its partial Results as ``partial``."""
    try:
        return (run(), *rest)
    except SolverError as err:
        if err.results is not None:
            err.partial = (err.results, *rest)
        raise


def _flexible_inverse(config, motion, t_end, progress):
    """The flexible inverse run of ``config.inverse_method`` from the static start, and the
    internal dynamics there; returns (Results, System, RRRU, zero-dynamics summary)."""
    from femdyn.solvers.generalized_alpha import Options, integrate
    from femdyn.solvers.inversion import zero_dynamics
    from femdyn.solvers.stable_inverse import StableInverseOptions, stable_causal_inverse
    from femdyn.solvers.static import static_equilibrium
    from femdyn.solvers.causal_step import servo_step, servo_zeros
    if config.inverse_method not in ("stable", "causal"):
        raise ModelError(f"3-RRRU study: inverse_method must be 'stable' or 'causal', got {config.inverse_method!r}")
    robot = servo_robot(config, motion, flexible=True, n_elements=config.n_elements)
    _shear_sensors(robot.model, robot)           # servo_robot has the platform centre "P"
    system = robot.model.assemble()
    start = None
    if config.inverse_method == "stable":
        options = StableInverseOptions(config.stable_iterations, config.stable_window, config.stable_elastic_window,
                                       rest_after=t_end >= motion.end)
        results, *_ = _keep_system(lambda: stable_causal_inverse(system, t_end, config.stable_h, options,
                                                                 progress=progress), system, robot, None)
    else:
        q0, lam0 = static_equilibrium(system)
        start = zero_dynamics(system, q0, lam0)          # once: for the step and for the summary's first sample
        # the shortest multiple of h that leaves the mesh's fast unstable zeros unamplified (solvers/causal_step.py)
        h_inverse = servo_step(system, q0, lam0, config.h, config.flexible_rho_inf,
                               zeros=servo_zeros(system, q0, lam0, coordinates=False, dynamics=start))
        options = Options(rho_inf=config.flexible_rho_inf, tol_dynamic=config.tol_flexible, tol_constraint=1e-12,
                          **_policy(config))
        results, *_ = _keep_system(lambda: integrate(system, t_end, h_inverse, options, q0=q0, progress=progress,
                                                     start=(0.0, lam0)),     # at rest in equilibrium
                                   system, robot, None)
    samples = np.unique(np.linspace(0, len(results.t) - 1, max(1, config.zero_dynamics_samples)).astype(int))
    zero = _zero_summary([(results.t[k], start if k == 0 and start is not None else      # the causal run starts at (q0, λ0)
                           zero_dynamics(system, results.q[k], results.lam[k])) for k in samples], config.h)
    return results, system, robot, zero


def _zero_summary(samples, h, band=100.0):
    """The internal dynamics in the summary: at the static start (the first sample) and the
    lowest zeros along the path (below ``band`` Hz: the band the trajectory and the step
    resolve), from [(t, ZeroDynamics)]."""
    start = samples[0][1]
    unstable = start.eigenvalues[start.kinds == "unstable"]
    along = []
    for t, zd in samples:
        low = zd.eigenvalues[np.abs(zd.eigenvalues) < 2 * np.pi * band]
        along.append({"t": float(t), "lowest_hz": zd.lowest_frequency,
                      "max_real_part_below_band": float(low.real.max()) if low.size else 0.0})
    growth = max(a["max_real_part_below_band"] for a in along[1:]) if len(along) > 1 else None
    statement = f"{start.statement.removeprefix('zero dynamics: ')} at the static start"
    if growth is not None:
        statement += (f"; the zeros below {band:g} Hz stay " +
                      (f"undamped at {len(along) - 1} later sample{'s' * (len(along) > 2)} of the path (largest real part "
                        f"{growth:.2g} 1/s)"
                       if growth <= start.threshold else
                       f"near the imaginary axis along the path but some turn weakly unstable in loaded states "
                       f"(real part up to {growth:.2g} 1/s)"))
    return {"statement": statement, "classification": start.classification, "lowest_hz": start.lowest_frequency,
            "max_real_part": start.largest_real_part, "counts": start.counts,
            "nonminimum_phase_from_hz": float(np.abs(unstable).min() / (2 * np.pi)) if unstable.size else None,
            "unresolved_at_h": int(len(start.unresolved(h))), "band_hz": band, "along_path": along}




def _shear_sensors(m, robot):
    """The shear at the middle of each flexible link."""
    n = robot.model.element_set("link3_0").count
    for i in range(3):
        m.sensor_beam(f"shear {i}", f"link3_{i}", n // 2, 0.0 if n % 2 == 0 else 0.5, "shear")







def _cruise(t, motion):
    """Samples in the constant-speed phase of the S-curve."""
    b = motion.profile.breakpoints
    return (t >= b[3]) & (t <= b[4]) if len(b) >= 5 else np.zeros(len(t), bool)


def _mid_deflection(results, system, robot):
    """Largest distance (m) of a flexible link's middle node from its chord, per sample."""
    n = robot.model.element_set("link3_0").count
    out = []
    for i in range(3):
        a, b, c = (system.nodes[f"link3_{i}.{k}"].start for k in (0, n // 2, n))
        ra, rm, rb = (results.q[:, s:s + 3] for s in (a, b, c))
        chord = (rb - ra) / np.linalg.norm(rb - ra, axis=1, keepdims=True)
        offset = rm - ra
        out.append(np.linalg.norm(offset - chord * np.sum(offset * chord, axis=1, keepdims=True), axis=1))
    return np.max(out, axis=0)


def _shear(results):
    """Largest shear angle (rad) of the mid-link shear sensors per sample (zeros without them)."""
    return np.max([np.abs(results[f"shear {i}.{c}"]) for i in range(3) for c in ("gamma_y", "gamma_z")
                   if f"shear {i}.{c}" in results.sensor_columns] or [np.zeros(len(results.t))], axis=0)


def measure_meshes(meshes=(2, 4, 8, 16), duration=0.0, damping=0.0):
    """The figures of :data:`femdyn.studies.rrru_mesh.FIGURES` for each mesh: elements per link →
    figures (SI, angles in degrees) as ``rrru_mesh.MEASURED``; ``duration`` in s (0: the whole
    circle), ``damping`` the links' Kelvin–Voigt coefficient in s."""
    out = {}
    for n in meshes:
        s = run_study(StudyConfig(n_elements=n, duration=duration, paraview_every=0,
                                  geometry=RRRUGeometry(damping=damping)))["summary"]
        s["torque_span"] = s["inverse_torque_max"] - s["inverse_torque_min"]
        out[n] = {key: float(s[key]) for key in MESH_FIGURES if key in s}
    return out
