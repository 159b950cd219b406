"""The figures Liu et al. (2018) report for the 3-RRRU study (section 4), as numbers femdyn computes,
and the misfit between the two.

The torque figures are per-limb peaks (``torque_peak_largest`` −11.1 N·m, ``torque_peak_smallest``
−8.3 N·m), whichever limb carries them; the paper's angle convention was lost, so three readings are
computed (``angle_max_deg``: horizontal zero, positive down; ``angle_max_up_deg``; ``angle_excursion_deg``:
zero at the start pose). Both readings are explained in docs/rrru.md. :func:`misfit` gives
``ln(figure / paper)`` for a reported value, ``max(0, ln(figure / limit))`` for an upper bound, and a
factor of 1000 for a figure of the wrong sign.
"""
import math
from dataclasses import dataclass

import numpy as np

from ..errors import ModelError


@dataclass(frozen=True)
class Target:
    """One figure of the paper (SI units, angles in degrees).

    ``kind`` "value" or "below" (an upper bound); ``tolerance`` is an absolute band if ``absolute``, else a factor.
    """

    value: float
    unit: str
    kind: str = "value"
    tolerance: float = 2.0
    absolute: bool = False
    text: str = ""


PAPER_FIGURES = {   # Liu et al. 2018, section 4
    "torque_peak_largest": Target(-11.1, "N·m", tolerance=1.0, absolute=True,
                                  text="the maximum torque occurs in limb 2, −11.1 N·m"),
    "torque_peak_smallest": Target(-8.3, "N·m", tolerance=1.0, absolute=True,
                                   text="the minimum in limb 1, −8.3 N·m"),
    # 1°: about the rigid–flexible angle difference the paper reports (0.84°)
    "angle_max_deg": Target(9.8, "°", tolerance=1.0, absolute=True, text="active joint angle: positive maximum 9.8°"),
    "torque_difference": Target(0.39, "N·m", text="deviation from the rigid model up to 0.39 N·m"),
    "angle_difference_deg": Target(0.84, "°", text="joint angle deviation up to 0.84°"),
    "mid_link_deformation": Target(7.73e-3, "m", text="mid-link transverse deformation up to 7.73 mm"),
    "tilt_start_stop_deg": Target(5.3, "°", text="platform tilt up to 5.3° at start and stop"),
    "tilt_cruise_deg": Target(0.5, "°", kind="below", text="platform tilt below 0.5° at cruise"),
    "forward_deviation_x": Target(8.7e-3, "m", text="forward: end-effector deviation up to 8.7 mm in x"),
    "forward_deviation_yz": Target(2e-3, "m", kind="below", text="forward: deviation below 2 mm in y and z"),
}
UNITS = {"torque_peak_largest": "N·m", "torque_peak_smallest": "N·m", "torque_min": "N·m", "torque_max": "N·m",
         "torque_start_1": "N·m", "torque_start_2": "N·m", "torque_start_3": "N·m", "angle_max_deg": "°",
         "angle_max_up_deg": "°", "angle_excursion_deg": "°", "angle_min_deg": "°", "inverse_angle_max_deg": "°",
         "torque_difference": "N·m", "angle_difference_deg": "°", "mid_link_deformation": "m",
         "tilt_start_stop_deg": "°", "tilt_cruise_deg": "°", "forward_deviation_x": "m", "forward_deviation_yz": "m",
         "rigid_torque_min": "N·m", "rigid_torque_max": "N·m", "inverse_torque_peak_largest": "N·m",
         "inverse_torque_peak_smallest": "N·m", "static_tilt_deg": "°", "rigid_angle_max_deg": "°",
         "inverse_dynamics_residual": "–"}
RIGID_FIGURES = ("torque_peak_largest", "torque_peak_smallest", "angle_max_deg")
ANGLE_CONVENTIONS = {"down": "angle_max_deg", "up": "angle_max_up_deg", "start": "angle_excursion_deg"}
WRONG_SIGN = math.log(1e-3)       # a figure of the wrong sign: as if a factor of 1000 off


def figure_label(name):
    """A figure's name with its unit, for tables and plots."""
    return f"{name} [{UNITS[name]}]" if name in UNITS else name


def torque_figures(torques):
    """Per-limb torque peaks of a run and the overall range."""
    torques = np.asarray(torques, float)
    peaks = torques.min(axis=0)
    return {"torque_peak_largest": float(peaks.min()), "torque_peak_largest_limb": int(peaks.argmin()) + 1,
            "torque_peak_smallest": float(peaks.max()), "torque_peak_smallest_limb": int(peaks.argmax()) + 1,
            "torque_min": float(torques.min()), "torque_max": float(torques.max())}


def angle_figures(angles):
    """The active joint angle's maximum in the three conventions (module docstring)."""
    deg = np.degrees(np.asarray(angles, float))
    return {"angle_max_deg": float(deg.max()), "angle_max_up_deg": float(-deg.min()),
            "angle_excursion_deg": float((deg[:, 0] - deg[0, 0]).max()), "angle_min_deg": float(deg.min())}


def check_reachable(robot, poses, margin=0.05):
    """Raise unless every pose assembles away from a singularity: 1/cond(J) ≥ ``margin``; return the smallest."""
    inverse_condition = 1.0 / np.linalg.cond(np.atleast_3d(robot.jacobian(poses)))
    k = int(np.argmin(inverse_condition))
    if inverse_condition[k] < margin:
        raise ModelError(f"3-RRRU: the pose {np.round(poses[k], 4).tolist()} of the task is within "
                         f"{inverse_condition[k]:.3g} of a singularity (1/cond(J) < {margin}); change the link "
                         "lengths or move the circle")
    return float(inverse_condition.min())


def rigid_case(config, output=None):
    """The rigid figures of one setting (the rrru preset's settings over which ``config`` is laid): the 3rrru
    robot's efforts by virtual work at every step ``h`` of the preset's circle; a sweep case
    (:func:`femdyn.studies.sweep.run_case`)."""
    from ..schema import config_from_dict
    from .parallel_study import load_robot
    from .parallel_task import task_motion
    from .rrru_preset import RRRUStudyConfig
    study_config = config_from_dict(config, RRRUStudyConfig, where="3-RRRU rigid figures")
    robot = load_robot(study_config)
    motion = task_motion(robot, study_config.task)
    t = np.arange(0.0, motion.end + 0.5 * study_config.h, study_config.h)
    poses, velocities, accelerations = motion.sampled(t)
    margin = check_reachable(robot, poses)
    torques = robot.efforts(poses, velocities, accelerations)
    out = {**torque_figures(torques), **angle_figures(np.atleast_2d(robot.inverse_kinematics(poses)))}
    out.update({f"torque_start_{i + 1}": float(torques[0, i]) for i in range(3)})
    out["singularity_margin"] = margin
    return out


FLEXIBLE_FIGURES = ("torque_difference", "angle_difference_deg", "mid_link_deformation", "tilt_start_stop_deg",
                    "tilt_cruise_deg", "forward_deviation_x", "forward_deviation_yz")
SUMMARY_KEYS = {    # figure → key of the rrru study's summary (femdyn study rrru) and the factor to the figure's unit
    "torque_difference": ("effort_difference", 1.0), "angle_difference_deg": ("actuator_difference", 180 / math.pi),
    "mid_link_deformation": ("mid_link_deformation", 1.0), "tilt_start_stop_deg": ("inverse_tilt_speed_change_deg", 1.0),
    "tilt_cruise_deg": ("inverse_tilt_cruise_deg", 1.0), "forward_deviation_x": ("forward_deviation_x", 1.0),
    "inverse_angle_max_deg": ("inverse_actuator_max", 180 / math.pi),
    "rigid_angle_max_deg": ("rigid_actuator_max", 180 / math.pi), "angle_max_deg": ("rigid_actuator_max", 180 / math.pi),
    "inverse_dynamics_residual": ("inverse_dynamics_residual", 1.0), "static_tilt_deg": ("static_tilt_deg", 1.0)}


def flexible_case(config, output=None):
    """The flexible figures of one setting: a sweep case running the rrru study (the parallel-robot study on
    the preset, settings over the preset's)."""
    from ..schema import config_from_dict
    from .parallel_study import run_parallel_study
    from .rrru_preset import RRRUStudyConfig
    study = run_parallel_study(config_from_dict(config, RRRUStudyConfig, where="3-RRRU flexible figures"), output)
    summary = study["summary"]
    out = {name: float(summary[key]) * scale for name, (key, scale) in SUMMARY_KEYS.items() if key in summary}
    if "forward_deviation_y" in summary:
        out["forward_deviation_yz"] = max(summary["forward_deviation_y"], summary["forward_deviation_z"])
    out.update(torque_figures(study["rigid"]["efforts"]))
    extremes = [summary[f"inverse_effort_extreme_{k}"] for k in range(3) if f"inverse_effort_extreme_{k}" in summary]
    if extremes:
        out.update(inverse_torque_peak_largest=float(min(extremes)), inverse_torque_peak_smallest=float(max(extremes)))
    return out


def misfit(figures, names, weights=None):
    """Residuals of figures against the paper's (module docstring)."""
    weights = weights or {}
    out = []
    for name in names:
        target = paper_target(name)
        if name not in figures:
            raise ModelError(f"3-RRRU misfit: the figure {name!r} was not computed; computed: {sorted(figures)}")
        ratio = figures[name] / target.value
        r = math.log(ratio) if ratio > 0 else WRONG_SIGN
        out.append(weights.get(name, 1.0) * (max(r, 0.0) if target.kind == "below" else r))
    return np.array(out)


def paper_target(name):
    """The paper's :class:`Target` for a figure name (any ``angle_max*``/``angle_excursion``
    reading of the angle maximum compares with the paper's 9.8°)."""
    if name in (*ANGLE_CONVENTIONS.values(), "inverse_angle_max_deg"):
        return PAPER_FIGURES["angle_max_deg"]
    if name.startswith("inverse_torque_peak_"):
        return PAPER_FIGURES[name[len("inverse_"):]]
    if name not in PAPER_FIGURES:
        raise ModelError(f"3-RRRU: the paper reports no figure {name!r}; known: "
                         f"{sorted(PAPER_FIGURES) + sorted(ANGLE_CONVENTIONS.values())}")
    return PAPER_FIGURES[name]


def within(name, value):
    """Whether a figure meets the agreement a fit asks of it (:class:`Target` tolerance)."""
    t = paper_target(name)
    if t.kind == "below":
        return value <= t.value * (1.0 if t.absolute else t.tolerance)
    if t.absolute:
        return abs(value - t.value) <= t.tolerance
    ratio = value / t.value
    return ratio > 0 and 1.0 / t.tolerance <= ratio <= t.tolerance
