"""The figures Liu et al. (2018) report for the 3-RRRU study, as numbers femdyn computes,
and the misfit between the two.

The paper's section 4 (circle of radius 0.1 m at Z = −0.8 m, 0.5 m/s, S-curve) gives:

* rigid inverse dynamics: "the maximum torque occurs in limb 2, −11.1 N·m; the minimum in
  limb 1, −8.3 N·m"; the active joint angle's positive maximum 9.8° (limb 1);
* flexible inverse (E = 6.9e8 Pa): torque deviations from the rigid model up to 0.39 N·m,
  joint-angle deviations up to 0.84°, mid-link transverse deformation up to 7.73 mm, platform
  tilt up to 5.3° at start and stop and below 0.5° at cruise;
* flexible forward dynamics driven by the rigid torques: end-effector deviation up to
  8.7 mm in x, below 2 mm in y and z.

**Torques without the limb numbering.** The paper's limb numbering relative to the circle's
start is not known. The torque figures are read as per-limb peaks (the most negative torque
of each limb over the circle): the largest of the three peaks is −11.1 N·m (their limb 2),
the smallest −8.3 N·m (their limb 1). ``torque_peak_largest`` and ``torque_peak_smallest``
compute exactly that, whichever limb carries them; the limbs are recorded beside them. The
other reading — −8.3 N·m as the least negative torque of the whole run, the range of all
torques — is ``torque_max``, computed as well.

**The angle convention.** femdyn's motor angle is link 1's rotation about the motor axis
from the horizontal, positive downwards; the paper's zero and sign were lost. Three
readings are computed from the same history: ``angle_max_deg`` (femdyn's: horizontal
zero, positive downwards), ``angle_max_up_deg`` (horizontal zero, positive upwards: the
negated minimum) and ``angle_excursion_deg`` (zero at the start pose, positive
downwards, limb 1 at azimuth 0°). A fit names the one it matches
(:class:`~femdyn.studies.rrru_fit.FitConfig` ``angle_convention``).

:func:`misfit` turns figures into residuals: ``ln(figure / paper)`` for a reported value,
``max(0, ln(figure / limit))`` for a reported upper bound ("below 2 mm"); a figure of the
wrong sign counts as a factor of 1000 off.
"""
import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ..errors import ModelError
from .rrru_channels import motor_angles, motor_torques


@dataclass(frozen=True)
class Target:
    """One figure of the paper.

    ``value`` (float): the paper's number (SI units, angles in degrees); ``unit`` (str): its unit, for tables;
    ``kind`` ({"value", "below"}): a reported value, or an upper bound ("below 0.5°"); ``tolerance`` (float):
    agreement asked of a fit: an absolute band for the rigid torques and angle (``absolute``), otherwise a
    factor; ``absolute`` (bool): whether ``tolerance`` is an absolute band (units of ``value``) or a factor;
    ``text`` (str): the paper's words.
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
    """A figure's name with its unit, for tables and plots.

    ``name`` (str): a figure name. Returns str.

    Example
    -------
    >>> figure_label("mid_link_deformation")
    'mid_link_deformation [m]'
    """
    return f"{name} [{UNITS[name]}]" if name in UNITS else name


def torque_figures(torques):
    """Per-limb torque peaks of a run and the overall range.

    ``torques`` ((k, 3) array_like): motor torques [N·m], one column per limb. Returns dict:
    ``torque_peak_largest`` / ``torque_peak_smallest`` [N·m]: the most and the least negative of the three
    per-limb minima, ``torque_peak_largest_limb`` / ``torque_peak_smallest_limb`` (1-based, femdyn's numbering:
    limb 1 at azimuth 0°), ``torque_min`` and ``torque_max`` [N·m] over all limbs and samples.

    Example
    -------
    >>> f = torque_figures([[-9.0, -11.0, -10.0], [-7.0, -8.0, -6.0]])
    >>> f["torque_peak_largest"], f["torque_peak_largest_limb"], f["torque_peak_smallest"], f["torque_max"]
    (-11.0, 2, -9.0, -6.0)
    """
    torques = np.asarray(torques, float)
    peaks = torques.min(axis=0)
    return {"torque_peak_largest": float(peaks.min()), "torque_peak_largest_limb": int(peaks.argmin()) + 1,
            "torque_peak_smallest": float(peaks.max()), "torque_peak_smallest_limb": int(peaks.argmax()) + 1,
            "torque_min": float(torques.min()), "torque_max": float(torques.max())}


def angle_figures(angles):
    """The active joint angle's maximum in the three conventions (module docstring).

    ``angles`` ((k, 3) array_like): motor angles [rad] in femdyn's convention (from the horizontal, positive
    downwards), one column per limb, the first row the start pose. Returns dict: ``angle_max_deg``,
    ``angle_max_up_deg``, ``angle_excursion_deg`` (limb 1 from its start angle) and ``angle_min_deg`` [°].

    Example
    -------
    >>> f = angle_figures(np.radians([[2.0, 2.0, 2.0], [12.0, 0.0, -6.0]]))
    >>> [round(f[k], 6) for k in ("angle_max_deg", "angle_max_up_deg", "angle_excursion_deg")]
    [12.0, 6.0, 10.0]
    """
    deg = np.degrees(np.asarray(angles, float))
    return {"angle_max_deg": float(deg.max()), "angle_max_up_deg": float(-deg.min()),
            "angle_excursion_deg": float((deg[:, 0] - deg[0, 0]).max()), "angle_min_deg": float(deg.min())}


def check_reachable(config, samples=360, margin=0.05):
    """Raise unless every limb reaches the whole circle away from its singularities.

    Inverse kinematics (:func:`~femdyn.robots.rrru.inverse_kinematics`) at ``samples``
    points of the circle; at each, the limb Jacobian's singularity measure
    ``|sin(θ1 − ψ)| cos γ`` (links 1 and 2 aligned or link 3 along the motor axis make it 0,
    :func:`~femdyn.robots.rrru.limb_rates`) must exceed ``margin``.

    ``config`` (CircleMotion): circle and geometry (:class:`~femdyn.studies.rrru.RigidStudyConfig` or
    :class:`~femdyn.studies.rrru_study.StudyConfig`); ``samples`` (int, optional): points on the circle;
    ``margin`` (float, optional): smallest singularity measure accepted (0.05: links 1 and 2 at least 2.9° from
    aligned). Returns float: the smallest singularity measure met. Raises ModelError: a point out of reach (the
    inverse kinematics' message) or too near a singularity (named with the limb and the point).

    Example
    -------
    >>> from femdyn.studies.rrru import RigidStudyConfig
    >>> round(check_reachable(RigidStudyConfig()), 3)
    0.867
    """
    from ..robots.rrru import inverse_kinematics
    from .rrru import circle_motion
    path = circle_motion(config).path
    smallest = math.inf
    for s in np.linspace(0.0, path.length, samples, endpoint=False):
        point = path.position(s)
        for i, limb in enumerate(inverse_kinematics(point, config.geometry).limbs):
            theta, psi, gamma = limb.x
            measure = abs(math.sin(theta - psi)) * math.cos(gamma)
            if measure < margin:
                raise ModelError(f"3-RRRU: limb {i} is within {measure:.3g} of a singularity at the circle's point "
                                 f"{np.round(point, 4).tolist()} m (|sin(θ1 − ψ)| cos γ < {margin}); change the link "
                                 "lengths or move the circle")
            smallest = min(smallest, measure)
    return smallest


def rigid_case(config, output=None):
    """The rigid figures of one setting: a sweep case (:func:`femdyn.studies.sweep.run_case`).

    Checks the whole circle's reachability first (:func:`check_reachable`), then runs
    :func:`~femdyn.studies.rrru.rigid_inverse_dynamics` without the replay and reads the
    torques of the instantaneous solution at every step (``reference_every = 1``: the exact
    inverse dynamics at each sampled state, free of the integrator's O(h) transient after
    the S-curve's jerk steps, so the torque peaks do not move with h: within 2e-4 N·m from
    h = 1 ms to 10 ms, where the integrator's own torques move by 0.1 N·m).

    ``config`` (dict): plain settings of :class:`~femdyn.studies.rrru.RigidStudyConfig` (``geometry`` a dict),
    checked like a TOML file; ``output`` (str or None): unused (the figures are numbers; the sweep writes
    ``case.json``). Returns dict: :func:`torque_figures`, :func:`angle_figures`, ``torque_start_1`` … ``_3``
    (the holding torques at rest at the circle's start [N·m]) and ``singularity_margin``. Raises ModelError: a
    bad setting, or a circle out of reach or too near a singularity.

    Example
    -------
    >>> f = rigid_case({"h": 5e-3})                                   # doctest: +SKIP
    >>> round(f["torque_peak_largest"], 2), f["torque_peak_largest_limb"]      # doctest: +SKIP
    (-11.26, 2)
    """
    from ..schema import config_from_dict
    from .rrru import RigidStudyConfig, rigid_inverse_dynamics
    study_config = config_from_dict(config, RigidStudyConfig, where="3-RRRU rigid figures")
    study_config = dataclasses.replace(study_config, replay=False, reference_every=1, output=None)
    margin = check_reachable(study_config)
    study = rigid_inverse_dynamics(study_config)
    torques = study["reference_torques"]
    out = {**torque_figures(torques), **angle_figures(study["angles"])}
    out.update({f"torque_start_{i + 1}": float(torques[0, i]) for i in range(3)})
    out["singularity_margin"] = margin
    return out


FLEXIBLE_FIGURES = ("torque_difference", "angle_difference_deg", "mid_link_deformation", "tilt_start_stop_deg",
                    "tilt_cruise_deg", "forward_deviation_x", "forward_deviation_yz")


def flexible_case(config, output=None):
    """The flexible figures of one setting: a sweep case running the whole study.

    :func:`~femdyn.studies.rrru_study.run_study` (with the stable causal inverse unless
    configured otherwise), its figures that the paper reports (:data:`FLEXIBLE_FIGURES`,
    ``inverse_angle_max_deg``) and the rigid figures of its rigid run
    (``torque_peak_largest`` … from the servo run's torques: the integrator's own, so they
    carry its O(h) transient after the jerk steps; :func:`rigid_case` is exact).

    ``config`` (dict): plain settings of :class:`~femdyn.studies.rrru_study.StudyConfig`; ``output`` (str or
    None): folder for the study's outputs (None: nothing written). Returns dict: figure name → value (SI, angles
    in degrees), parts not run left out; also ``inverse_torque_peak_largest``/``_smallest`` (per-limb peaks of
    the flexible inverse's torques) and ``inverse_dynamics_residual``. Raises ModelError: a bad setting or a
    circle out of reach; SolverError: a failed run.

    Example
    -------
    >>> f = flexible_case({"n_elements": 2, "paraview_every": 0, "validate_inverse": False})  # doctest: +SKIP
    >>> round(f["mid_link_deformation"], 4)                                                   # doctest: +SKIP
    0.0072
    """
    from ..schema import config_from_dict
    from .rrru_study import StudyConfig, run_study
    study_config = config_from_dict(config, StudyConfig, where="3-RRRU flexible figures")
    check_reachable(study_config)
    study = run_study(study_config, output)
    summary = study["summary"]
    out = {k: float(summary[k]) for k in (*FLEXIBLE_FIGURES, "inverse_angle_max_deg", "rigid_angle_max_deg",
                                          "inverse_dynamics_residual", "static_tilt_deg") if k in summary}
    out.update(torque_figures(motor_torques(study["rigid"])))
    out["angle_max_deg"] = float(np.degrees(motor_angles(study["rigid"]).max()))
    if study["inverse"] is not None:
        inverse = torque_figures(motor_torques(study["inverse"]))
        out.update(inverse_torque_peak_largest=inverse["torque_peak_largest"],
                   inverse_torque_peak_smallest=inverse["torque_peak_smallest"])
    return out


def misfit(figures, names, weights=None):
    """Residuals of figures against the paper's (module docstring).

    ``figures`` (dict): figure name → value (e.g. :func:`rigid_case`'s result); the paper's figure of name ``n``
    is ``PAPER_FIGURES[n]``, except that any ``angle_*`` figure is compared with the paper's 9.8°; ``names``
    (sequence of str): the figures to compare; ``weights`` (dict, optional): name → weight (default 1). Returns
    ndarray: one residual per name (0 for a reported bound that holds). Raises ModelError: a name the paper has
    no figure for, or a figure missing from ``figures``.

    Example
    -------
    >>> r = misfit({"torque_peak_largest": -11.1, "tilt_cruise_deg": 1.0}, ["torque_peak_largest", "tilt_cruise_deg"])
    >>> r.round(4).tolist()
    [0.0, 0.6931]
    """
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
    reading of the angle maximum compares with the paper's 9.8°).

    ``name`` (str): a key of :data:`PAPER_FIGURES` or of :data:`ANGLE_CONVENTIONS`' values. Returns Target.
    Raises ModelError: an unknown name (with the known ones).

    Example
    -------
    >>> paper_target("angle_max_up_deg").value
    9.8
    """
    if name in (*ANGLE_CONVENTIONS.values(), "inverse_angle_max_deg"):
        return PAPER_FIGURES["angle_max_deg"]
    if name.startswith("inverse_torque_peak_"):
        return PAPER_FIGURES[name[len("inverse_"):]]
    if name not in PAPER_FIGURES:
        raise ModelError(f"3-RRRU: the paper reports no figure {name!r}; known: "
                         f"{sorted(PAPER_FIGURES) + sorted(ANGLE_CONVENTIONS.values())}")
    return PAPER_FIGURES[name]


def within(name, value):
    """Whether a figure meets the agreement a fit asks of it (:class:`Target` tolerance).

    ``name`` (str): figure name (:func:`paper_target`); ``value`` (float): femdyn's figure. Returns bool.

    Example
    -------
    >>> within("torque_peak_largest", -11.9), within("mid_link_deformation", 20e-3)
    (True, False)
    """
    t = paper_target(name)
    if t.kind == "below":
        return value <= t.value * (1.0 if t.absolute else t.tolerance)
    if t.absolute:
        return abs(value - t.value) <= t.tolerance
    ratio = value / t.value
    return ratio > 0 and 1.0 / t.tolerance <= ratio <= t.tolerance
