"""The whole 3-RRRU study of Liu et al. (2018), after their section 4: the platform centre
on a circle of radius 0.1 m in the plane Z = −0.8 m at 0.5 m/s with S-curve start and stop.

(a) rigid inverse dynamics (servo constraints, actuator torques unknown) → torques;
(b) flexible forward dynamics driven by those torques, from the static equilibrium →
    end-effector deviation, platform tilt, gauge strains;
(c) flexible inverse dynamics (servo constraints on the flexible robot, ρ∞ = 0: the
    non-collocated problem needs the damping) → torques and their difference from the
    rigid ones, tracking error, platform tilt, mid-link transverse deformation, shear
    angles;
(d) strains at the gauges (200, 407.5, 600 mm from the upper joint of each link 3).

:func:`run_study` writes the figures, ``results.npz`` and ``channels.csv``, a ParaView
series of the flexible inverse run and ``summary.json`` / ``summary.md``, which puts each
figure beside the paper's value. :class:`StudyConfig` holds every parameter; a TOML file
changes any of them (``femdyn study rrru config.toml``).
"""
import json
import os
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from ..errors import SolverError
from ..motion import Tabulated
from ..robots.rrru import RRRUGeometry, rrru
from .rrru import CircleMotion, circle_motion, servo_robot
from .rrru_mesh import mesh_adequacy

PAPER = {   # Liu et al. 2018, section 4
    "forward_deviation_x": "up to 8.7e-3 m",
    "forward_deviation_yz": "below 2e-3 m",
    "inverse_tracking_error": "< 2e-11 m",
    "tilt_start_stop": "up to 5.3°",
    "tilt_cruise": "< 0.5°",
    "torque_range": "−11.1 … −8.3 N·m",
    "torque_difference": "up to 0.39 N·m",
    "mid_link_deformation": "up to 7.73 mm",
    "shear_angle": "< 0.0004°",
}


@dataclass
class StudyConfig(CircleMotion):
    """Parameters of the 3-RRRU study (SI units; angles in rad).

    Parameters
    ----------
    centre, radius, normal, start_angle, speed, acceleration, jerk
        Circle of the platform centre and its S-curve (see
        :class:`~femdyn.studies.rrru.CircleMotion`).
    duration : float
        Simulated time [s]; 0 runs the whole circle (1.51 s with the defaults).
    h : float
        Time step [s].
    rigid_rho_inf, flexible_rho_inf : float
        Generalized-α ρ∞ of the rigid and the flexible runs (the flexible inverse problem
        is non-collocated and needs strong damping: 0).
    tol_rigid, tol_flexible : float
        Newton tolerance on the relative dynamic residual (the torques are only as accurate
        as the dynamics are solved; a flexible model's round-off floor is higher).
    n_elements : int
        ANCF beam elements per flexible link (2 is the coarsest that runs the whole circle; see
        :func:`~femdyn.studies.rrru_mesh.mesh_adequacy` for what each figure needs).
    formulation : {"index3", "stabilized"}
        Formulation of the forward run (b) (the servo inverse runs are index 3).
    max_halvings : int
        Step halvings a run may use to get past a step whose Newton iteration fails
        (``Options(on_failure="retry")``); 0 stops at the first failure.
    payload : float
        Point mass on the platform [kg]; 1.6 on the paper's test rig.
    gravity : (3,) tuple
        Gravity [m/s²].
    forward, inverse : bool
        Run part (b), part (c).
    paraview_every : int
        Every k-th step of the flexible inverse run goes to the ParaView series (0: none).
    geometry : RRRUGeometry
        The robot (E = 6.9e8 Pa in the paper's simulation).
    """

    duration: float = 0.0
    h: float = 1e-3
    rigid_rho_inf: float = 0.5
    flexible_rho_inf: float = 0.0
    tol_rigid: float = 1e-10
    tol_flexible: float = 1e-8
    formulation: str = "index3"
    max_halvings: int = 4
    n_elements: int = 8
    payload: float = 0.0
    gravity: tuple = (0.0, 0.0, -9.81)
    forward: bool = True
    inverse: bool = True
    paraview_every: int = 20
    geometry: RRRUGeometry = field(default_factory=RRRUGeometry)


def run_study(config=None, output=None, progress=False):
    """Run parts (a)–(d) and write their outputs to ``output`` (if given).

    Parameters
    ----------
    config : StudyConfig, optional
    output : str, optional
        Folder for figures, results, the ParaView series and the summary.
    progress : bool
        Progress bars.

    Returns
    -------
    dict
        ``summary`` (numbers), ``rigid``, ``forward``, ``inverse`` (Results or None),
        ``paper`` (the paper's values for the same quantities), ``system`` (the System of
        the flexible inverse run, None if not run).

    Raises
    ------
    StudyStopped
        A part failed: the parts after it are not run, every output of the parts before
        it and of its steps computed so far is written (``summary["stopped"]`` says which
        part stopped, where and why); the exception's ``study`` is what this function
        would return and its ``results`` the partial Results of the failed part.
    femdyn.SolverError
        A failure before a part's first step.
    """
    from femdyn.solvers.generalized_alpha import Options, integrate
    from femdyn.solvers.static import static_equilibrium
    from femdyn.solvers.zero_dynamics import servo_step
    config = config or StudyConfig()
    motion = circle_motion(config)
    t_end = config.duration if config.duration > 0 else motion.end
    summary, clock = {"duration": t_end, "steps": int(round(t_end / config.h))}, time.perf_counter()
    policy = dict(on_failure="retry" if config.max_halvings else "stop", max_halvings=config.max_halvings)

    rigid_system = servo_robot(config, motion).model.assemble()
    rigid = _part(summary, "rigid", lambda: integrate(
        rigid_system, t_end, config.h, Options(rho_inf=config.rigid_rho_inf, tol_dynamic=config.tol_rigid,
                                               tol_constraint=1e-12, **policy), progress=progress))
    torques = _torques(rigid)
    summary.update(rigid_torque_min=float(torques.min()), rigid_torque_max=float(torques.max()),
                   rigid_tracking_error=_tracking(rigid, motion).max(), runtime_rigid=time.perf_counter() - clock)

    forward = inverse = system = None
    if config.forward and "stopped" not in summary:
        clock = time.perf_counter()
        robot = rrru(pose=motion.position(motion.start), flexible=True, n_elements=config.n_elements,
                     payload=config.payload, gravity=config.gravity, geometry=config.geometry)
        m = robot.model
        for i, motor in enumerate(robot.motors):
            m.torque(f"motor torque {i}", motor, Tabulated(rigid.t, torques[:, i]))
        m.sensor_point("P", robot.platform, robot.centre)
        _shear_sensors(m, robot)
        forward_system = m.assemble()
        q0, _ = static_equilibrium(forward_system)
        forward = _part(summary, "forward", lambda: integrate(
            forward_system, t_end, config.h, Options(rho_inf=config.flexible_rho_inf, tol_dynamic=config.tol_flexible,
                                                     formulation=config.formulation, **policy),
            q0=q0, progress=progress))
        deviation = _positions(forward) - _targets(forward, motion)
        summary.update(forward_deviation_x=float(np.abs(deviation[:, 0]).max()),
                       forward_deviation_yz=float(np.abs(deviation[:, 1:]).max()),
                       forward_tilt_deg=float(np.degrees(_tilt(forward, forward_system)).max()),
                       forward_runtime=time.perf_counter() - clock)
    if config.inverse and "stopped" not in summary:
        clock = time.perf_counter()
        robot = servo_robot(config, motion, flexible=True, n_elements=config.n_elements)
        _shear_sensors(robot.model, robot)           # servo_robot has the platform centre "P"
        system = robot.model.assemble()
        q0, lam0 = static_equilibrium(system)
        # the shortest multiple of h that leaves the mesh's fast unstable zeros unamplified (zero_dynamics)
        h_inverse = servo_step(system, q0, lam0, config.h, config.flexible_rho_inf)
        inverse = _part(summary, "inverse", lambda: integrate(
            system, t_end, h_inverse, Options(rho_inf=config.flexible_rho_inf, tol_dynamic=config.tol_flexible,
                                              tol_constraint=1e-12, **policy), q0=q0, progress=progress,
            start=(0.0, lam0)))                      # at rest in equilibrium (see integrate's ``start``)
        flexible_torques = _torques(inverse)
        rigid_torques = np.column_stack([np.interp(inverse.t, rigid.t, tau) for tau in torques.T])
        cruise = _cruise(inverse.t, motion)
        tilt = np.degrees(_tilt(inverse, system, inverse.q[0]))
        summary.update(
            inverse_step=h_inverse,
            inverse_tracking_error=_tracking(inverse, motion).max(),
            inverse_torque_min=float(flexible_torques.min()), inverse_torque_max=float(flexible_torques.max()),
            torque_difference=float(np.abs(flexible_torques - rigid_torques).max()),
            tilt_start_stop_deg=float(tilt[~cruise].max()), tilt_cruise_deg=float(tilt[cruise].max(initial=0.0)),
            static_tilt_deg=float(np.degrees(_tilt(inverse, system)[0])),
            torque_difference_at_rest=float(np.abs(flexible_torques[0] - torques[0]).max()),
            mid_link_deformation=float(_mid_deflection(inverse, system, robot).max()),
            shear_angle_deg=float(np.degrees(_shear(inverse)).max()),
            gauge_strain_peaks={name: [float(inverse[name].max()), float(inverse[name].min())]
                                for name in _gauge_channels(inverse)},
            inverse_runtime=time.perf_counter() - clock)
    summary["mesh"] = mesh_adequacy(config.n_elements)
    summary["paper"] = PAPER
    if output:
        _write(output, config, summary, rigid, forward, inverse, system)
    study = {"summary": summary, "rigid": rigid, "forward": forward, "inverse": inverse, "paper": PAPER,
             "system": system}
    if "stopped" in summary:
        raise StudyStopped(summary["stopped"], study, output)
    return study


class StudyStopped(SolverError):
    """A part of the study stopped: the parts before it and its steps up to the failure are kept.

    Parameters
    ----------
    stopped : dict
        ``part`` (its name), ``key`` ("rigid", "forward" or "inverse"), ``t`` (the last time
        reached [s]) and ``reason`` (the solver's diagnosis).
    study : dict
        What :func:`run_study` returns, with the partial results of the part that stopped
        and ``summary["stopped"]``.
    output : str or None
        The folder the outputs were written to.
    """

    def __init__(self, stopped, study, output=None):
        written = f"; everything computed so far is written to {output}" if output else ""
        super().__init__(f"3-RRRU study: {stopped['part']} stopped at t = {stopped['t']:.6g} s{written}. "
                         f"{stopped['reason']}", study[stopped["key"]])
        self.study = study


PARTS = {"rigid": "rigid inverse dynamics (a)", "forward": "flexible forward dynamics (b)",
         "inverse": "flexible inverse dynamics (c)"}


def _part(summary, key, run):
    """One part's Results; a SolverError leaves its partial Results and ``summary["stopped"]``."""
    try:
        return run()
    except SolverError as err:
        if err.results is None or not len(err.results.t):
            raise
        summary["stopped"] = {"part": PARTS[key], "key": key, "t": float(err.results.t[-1]), "reason": str(err)}
        return err.results


HEADLINE = ("rigid_torque_min", "rigid_torque_max", "forward_deviation_x", "forward_deviation_yz",
            "forward_tilt_deg", "inverse_tracking_error", "inverse_torque_min", "inverse_torque_max",
            "torque_difference", "torque_difference_at_rest", "static_tilt_deg", "tilt_start_stop_deg",
            "tilt_cruise_deg", "mid_link_deformation", "shear_angle_deg")


def headline(summary):
    """The summary numbers of :func:`run_study` that a sweep tabulates: the figures of
    :func:`summary_table` (SI units, angles in degrees), the largest gauge strain
    ``gauge_strain_max`` (absolute, over all gauges), ``duration`` and ``steps``; run times
    are left out (they vary from run to run).

    Parameters
    ----------
    summary : dict
        ``run_study(...)["summary"]``.

    Returns
    -------
    dict
        Name → number, parts not run left out.

    Example
    -------
    >>> headline(run_study(StudyConfig(duration=0.01, n_elements=2))["summary"])   # doctest: +SKIP
    """
    out = {"duration": summary["duration"], "steps": summary["steps"]}
    out.update({key: summary[key] for key in HEADLINE if key in summary})
    if "gauge_strain_peaks" in summary:
        out["gauge_strain_max"] = max(abs(v) for peaks in summary["gauge_strain_peaks"].values() for v in peaks)
    return out


def sweep_case(config, output):
    """The study as a sweep case (:func:`femdyn.studies.sweep.run_sweep`).

    Parameters
    ----------
    config : dict
        Plain settings of :class:`StudyConfig` (tables as dicts), checked like a TOML file.
    output : str
        Folder for the study's outputs.

    Returns
    -------
    dict
        :func:`headline` of the summary.

    Raises
    ------
    ModelError
        A bad key or value (named), a circle outside the workspace or a speed the S-curve
        cannot reach.
    SolverError
        A failed run.

    Example
    -------
    >>> sweep_case({"duration": 0.01, "n_elements": 2, "forward": False}, "case")   # doctest: +SKIP
    """
    from ..formats.config import config_from_dict
    study = run_study(config_from_dict(config, StudyConfig, where="3-RRRU study"), output)
    return headline(study["summary"])


def _shear_sensors(m, robot):
    """The shear at the middle of each flexible link."""
    n = robot.model.element_set("link3_0").count
    for i in range(3):
        m.sensor_beam(f"shear {i}", f"link3_{i}", n // 2, 0.0 if n % 2 == 0 else 0.5, "shear")


def _torques(results):
    return np.column_stack([results[f"actuator {i}.torque"] for i in range(3)])


def _positions(results):
    return np.column_stack([results[f"P.{c}"] for c in "xyz"])


def _targets(results, motion):
    return np.array([motion.position(t) for t in results.t])


def _tracking(results, motion):
    return np.linalg.norm(_positions(results) - _targets(results, motion), axis=1)


def _tilt(results, system, q_reference=None):
    """Angle (rad) of the platform normal from its direction in ``q_reference`` (by default
    the rigid robot's, global z) at each sample."""
    n = system.nodes["platform.n"]
    reference = np.array([0.0, 0.0, 1.0]) if q_reference is None else q_reference[n.dofs]
    cosine = results.q[:, n.dofs] @ reference / np.linalg.norm(reference)
    return np.arccos(np.clip(cosine, -1.0, 1.0))


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
    return np.max([np.abs(results[f"shear {i}.{c}"]) for i in range(3) for c in ("gamma_y", "gamma_z")
                   if f"shear {i}.{c}" in results.sensor_columns] or [np.zeros(len(results.t))], axis=0)


def _gauge_channels(results):
    return [c for c in results.sensor_columns if c.startswith("gauge ")]


def _write(folder, config, summary, rigid, forward, inverse, system):
    from femdyn.mesh.vtk import write_series
    os.makedirs(folder, exist_ok=True)
    arrays = {"t": rigid.t, "rigid_torques": _torques(rigid)}
    if forward is not None:
        arrays.update(forward_t=forward.t, forward_position=_positions(forward))
    if inverse is not None:
        arrays.update(inverse_t=inverse.t, inverse_torques=_torques(inverse),
                      gauges=np.column_stack([inverse[c] for c in _gauge_channels(inverse)]))
        inverse.to_csv(os.path.join(folder, "channels.csv"),
                       [f"actuator {i}.torque" for i in range(3)] + ["P.x", "P.y", "P.z"] + _gauge_channels(inverse))
        if config.paraview_every:
            write_series(system, inverse, os.path.join(folder, "paraview"), every=config.paraview_every)
    np.savez(os.path.join(folder, "results.npz"), **arrays)
    with open(os.path.join(folder, "summary.json"), "w") as f:
        json.dump({"config": asdict(config), "summary": summary}, f, indent=1, default=float)
    with open(os.path.join(folder, "summary.md"), "w") as f:
        f.write(summary_table(summary))
    _figures(folder, rigid, forward, inverse)


def summary_table(summary):
    """The study's figures beside the paper's, as a Markdown table.

    Parameters
    ----------
    summary : dict
        The ``summary`` of :func:`run_study` (missing parts show "not run").

    Returns
    -------
    str
        Markdown: a title line and the table (quantity, femdyn, Liu et al. 2018).
    """
    def fmt(key, scale=1.0, unit=""):
        return f"{summary[key] * scale:.4g} {unit}".strip() if key in summary else "not run"
    rows = [
        ("forward: end-effector deviation in x", fmt("forward_deviation_x", 1, "m"), PAPER["forward_deviation_x"]),
        ("forward: deviation in y, z", fmt("forward_deviation_yz", 1, "m"), PAPER["forward_deviation_yz"]),
        ("inverse: tracking error", fmt("inverse_tracking_error", 1, "m"), PAPER["inverse_tracking_error"]),
        ("inverse: platform tilt at rest (gravity, from vertical)", fmt("static_tilt_deg", 1, "°"), "not reported"),
        ("inverse: platform tilt from rest, start/stop", fmt("tilt_start_stop_deg", 1, "°"), PAPER["tilt_start_stop"]),
        ("inverse: platform tilt from rest, cruise", fmt("tilt_cruise_deg", 1, "°"), PAPER["tilt_cruise"]),
        ("inverse: torques", f"{fmt('inverse_torque_min')} … {fmt('inverse_torque_max', 1, 'N·m')}",
         PAPER["torque_range"]),
        ("inverse: torque difference from rigid", fmt("torque_difference", 1, "N·m"), PAPER["torque_difference"]),
        ("inverse: the same at rest (t = 0)", fmt("torque_difference_at_rest", 1, "N·m"), "not reported"),
        ("inverse: mid-link transverse deformation", fmt("mid_link_deformation", 1e3, "mm"),
         PAPER["mid_link_deformation"]),
        ("inverse: shear angle", fmt("shear_angle_deg", 1, "°"), PAPER["shear_angle"]),
    ]
    lines = [f"3-RRRU study over {summary['duration']:.3g} s ({summary['steps']} steps)", ""]
    if "stopped" in summary:
        stop = summary["stopped"]
        lines += [f"**Stopped**: {stop['part']} at t = {stop['t']:.6g} s (the figures of that part cover the steps "
                  f"up to then; the parts after it were not run). {stop['reason']}", ""]
    if "mesh" in summary:
        lines += [f"Mesh: {summary['mesh']}", ""]
    lines += ["| quantity | femdyn | Liu et al. 2018 |", "|---|---|---|"]
    return "\n".join(lines + [f"| {a} | {b} | {c} |" for a, b, c in rows]) + "\n"


def _figure():
    """A Matplotlib figure and axes outside pyplot's global state (safe in threads)."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(7, 3.5))
    return fig, fig.add_subplot()


def _figures(folder, rigid, forward, inverse):
    fig, ax = _figure()
    for i in range(3):
        ax.plot(rigid.t, rigid[f"actuator {i}.torque"], f"C{i}--", lw=1, label=f"rigid {i + 1}")
        if inverse is not None:
            ax.plot(inverse.t, inverse[f"actuator {i}.torque"], f"C{i}-", lw=1, label=f"flexible {i + 1}")
    ax.set_xlabel("t (s)"), ax.set_ylabel("motor torque (N·m)"), ax.legend(ncol=2, fontsize=8)
    fig.tight_layout(), fig.savefig(os.path.join(folder, "torques.png"), dpi=120)
    if forward is not None:
        fig, ax = _figure()
        P = _positions(forward)
        for k, c in enumerate("xyz"):
            ax.plot(forward.t, 1e3 * (P[:, k] - P[0, k]), label=c)
        ax.set_xlabel("t (s)"), ax.set_ylabel("platform centre − start (mm)"), ax.legend()
        fig.tight_layout(), fig.savefig(os.path.join(folder, "forward.png"), dpi=120)
    if inverse is not None:
        fig, ax = _figure()
        for c in _gauge_channels(inverse):
            ax.plot(inverse.t, 1e6 * inverse[c], lw=1, label=c)
        ax.set_xlabel("t (s)"), ax.set_ylabel("strain (µm/m)"), ax.legend(ncol=3, fontsize=7)
        fig.tight_layout(), fig.savefig(os.path.join(folder, "strains.png"), dpi=120)
