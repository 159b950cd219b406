"""What the 3-RRRU study writes and shows: every figure beside the paper's value with a verdict,
the figures an engineer expects and a self-contained report page.

Each row of :data:`QUANTITIES` compares femdyn's value with Liu et al.'s (2018) as a :class:`Band`
(±:data:`REFERENCE_TOLERANCE` around a reported value, 0 to a reported bound) and a :func:`verdict`;
rows outside the band carry a reason from :data:`REASONS`. :func:`write_outputs` writes ``summary.md``,
``summary.json``, the figures, ``results.npz``, ``channels.csv``, the ParaView series and ``report.html``.
"""
import json
import math
import os
import time
from dataclasses import asdict, dataclass

import numpy as np

from ..reports.pages import plain
from .reference import (FACTOR_2, NOT_REPORTED, NOT_RUN, REFERENCE_TOLERANCE, WITHIN, Band, verdict,
                        verdict_class)
from .rrru_channels import commanded_positions, gauge_channels, motor_torques, platform_positions, platform_tilt

DOCS = "docs/rrru.md"
_GAUGE_PEAKS = ((9.655e-6, -1.2739e-5), (4.692e-6, -5.4250e-6), (7.612e-6, -1.0965e-5))   # limb 1, measured
_GAUGE_MM = (200, 407.5, 600)
_RULE = (f"A value the paper reports is the band ±{REFERENCE_TOLERANCE:.0%} around it, a bound (\"below\", \"<\") "
         f"the band from 0 to it; how to read the table: {DOCS}#reading-the-summary-and-the-report.")


# --- figures ------------------------------------------------------------------------------
def study_figures(config, rigid, forward=None, inverse=None, system=None):
    """The study's figures, each titled with the quantity it compares and the paper's value
    drawn where the paper gives one (Matplotlib figures outside pyplot's global state)."""
    from .rrru import circle_motion
    motion = circle_motion(config)
    figures = {"torques.png": _torque_figure(rigid, inverse)}
    if forward is not None:
        figures["forward.png"] = _forward_figure(forward, motion)
    if inverse is not None:
        figures["angles.png"] = _angle_figure(rigid, inverse)
        if system is not None:
            figures["tilt.png"] = _tilt_figure(inverse, system, motion)
        figures["deformation.png"] = _deformation_figure(inverse)
        if gauge_channels(inverse):
            figures["strains.png"] = _strain_figure(inverse, config.geometry.gauges)
    return figures


def _figure(title, rows=1, height=3.6, sharex=True):
    """A titled figure with ``rows`` stacked axes, outside pyplot's global state (safe in threads)."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(8, height), layout="constrained")
    axes = fig.subplots(rows, 1, sharex=sharex, squeeze=False)[:, 0]
    fig.suptitle(title, fontsize=11)
    for ax in axes:
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("time t (s)")
    return fig, axes


def _paper_line(ax, y, text, **kw):
    """A dotted line at a value of the paper's, labelled."""
    ax.axhline(y, color="C3", ls=":", lw=1.2, label=text, **kw)


def _torque_figure(rigid, inverse):
    """torques.png: motor torques per limb, flexible and rigid, with the paper's extremes."""
    fig, axes = _figure("Motor torques: flexible inverse dynamics (solid) beside the rigid robot (dashed)", 3, 7.0)
    rigid_torques = motor_torques(rigid)
    flexible = None if inverse is None else motor_torques(inverse)
    paper = {0: (-8.3, "paper: limb 1's extreme −8.3 N·m"), 1: (-11.1, "paper: largest −11.1 N·m")}
    for i, ax in enumerate(axes):
        if flexible is not None:
            ax.plot(inverse.t, flexible[:, i], f"C{i}-", lw=1.2, label="flexible")
        ax.plot(rigid.t, rigid_torques[:, i], "k--", lw=1.0, label="rigid")
        if i in paper:
            _paper_line(ax, *paper[i])
        ax.set_ylabel(f"limb {i + 1}\ntorque (N·m)")
        ax.legend(fontsize=7, loc="best", ncol=3)
    return fig


def _forward_figure(forward, motion):
    """forward.png: the forward run's deviation from the commanded circle."""
    deviation = 1e3 * (platform_positions(forward) - commanded_positions(forward, motion))
    fig, (ax,) = _figure("Forward dynamics driven by the rigid torques: platform-centre deviation from the "
                         "commanded circle\n(at t = 0 the static sag under gravity: the run starts from equilibrium)")
    for k, c in enumerate("xyz"):
        ax.plot(forward.t, deviation[:, k], f"C{k}", lw=1.2, label=c)
    ax.axhspan(-2, 2, color="0.85", alpha=0.6, label="paper: y, z below 2 mm")
    for sign in (1, -1):
        _paper_line(ax, sign * 8.7, "paper: x up to 8.7 mm" if sign > 0 else None)
    ax.set_ylabel("position − commanded (mm)")
    ax.legend(fontsize=8, ncol=5, loc="best")
    return fig


def _motor_angles(results):
    """Active joint angles (rad, about the motor axis, from the horizontal, positive down)
    per limb: the ``motor {i}.angle`` channels, else from link 1's end points A1, B."""
    if all(f"motor {i}.angle" in results.sensor_columns for i in range(3)):
        return np.column_stack([results[f"motor {i}.angle"] for i in range(3)])
    labels = {name: k for k, name in enumerate(results.meta["coordinates"])}
    out = []
    for i in range(3):
        a1, b = (results.q[:, [labels[f"{node}_{i}.r{c}"] for c in "xyz"]] for node in ("A1", "B"))
        radial = a1[:, :2] / np.linalg.norm(a1[:, :2], axis=1, keepdims=True)
        d = b - a1
        out.append(np.arctan2(-d[:, 2], np.sum(d[:, :2] * radial, axis=1)))
    return np.column_stack(out)


def _angle_figure(rigid, inverse):
    """angles.png: active joint angles, flexible and rigid, and their difference."""
    flexible = np.degrees(_motor_angles(inverse))
    reference = np.degrees(_motor_angles(rigid))
    at_inverse = np.column_stack([np.interp(inverse.t, rigid.t, reference[:, i]) for i in range(3)])   # own steps
    fig, (top, bottom) = _figure("Active joint (motor) angles: flexible inverse dynamics (solid) beside the rigid "
                                 "robot (dashed)", 2, 5.6)
    for i in range(3):
        top.plot(inverse.t, flexible[:, i], f"C{i}-", lw=1.2, label=f"limb {i + 1}")
        top.plot(rigid.t, reference[:, i], f"C{i}--", lw=1.0)
        bottom.plot(inverse.t, flexible[:, i] - at_inverse[:, i], f"C{i}-", lw=1.0, label=f"limb {i + 1}")
    _paper_line(top, 9.8, "paper: positive maximum 9.8° (limb 1)")
    for sign in (1, -1):
        _paper_line(bottom, sign * 0.84, "paper: up to 0.84°" if sign > 0 else None)
    top.set_ylabel("angle θ1 (deg)")
    bottom.set_ylabel("flexible − rigid (deg)")
    top.legend(fontsize=8, ncol=4)
    bottom.legend(fontsize=8, ncol=4)
    return fig


def _tilt_figure(inverse, system, motion):
    """tilt.png: platform tilt from rest with the S-curve's phases shaded."""
    tilt = np.degrees(platform_tilt(inverse, system, inverse.q[0]))
    fig, (ax,) = _figure("Platform tilt from its rest orientation, flexible inverse dynamics")
    b, t_end = motion.profile.breakpoints, inverse.t[-1]
    phases = [(b[0], b[3], "start/stop (S-curve)", "C1", 5.3), (b[3], b[4], "cruise", "C2", 0.5),
              (b[4], b[-1], None, "C1", 5.3)] if len(b) >= 5 else []
    for start, stop, label, colour, paper in phases:
        if start < t_end:
            stop = min(stop, t_end)
            ax.axvspan(start, stop, color=colour, alpha=0.12, label=label)
            ax.hlines(paper, start, stop, colors="C3", linestyles=":", lw=1.2)
    ax.plot(inverse.t, tilt, "k-", lw=1.2, label="platform normal from rest")
    ax.plot([], [], "C3:", label="paper: up to 5.3° at start/stop, < 0.5° at cruise")
    ax.set_ylabel("tilt (deg)")
    ax.set_ylim(bottom=0)
    fig.legend(fontsize=8, loc="outside lower center", ncol=4)
    return fig


def _mid_deflections(results):
    """Distance (m) of each flexible link's middle node from its chord: (samples, 3 limbs)."""
    labels = results.meta["coordinates"]
    out = []
    for i in range(3):
        prefix = f"link3_{i}."
        nodes = sorted(int(name[len(prefix):-3]) for name in labels if name.startswith(prefix) and name.endswith(".rx"))
        ra, rm, rb = (results.q[:, labels.index(f"{prefix}{k}.rx"):labels.index(f"{prefix}{k}.rx") + 3]
                      for k in (nodes[0], nodes[len(nodes) // 2], nodes[-1]))
        chord = (rb - ra) / np.linalg.norm(rb - ra, axis=1, keepdims=True)
        offset = rm - ra
        out.append(np.linalg.norm(offset - chord * np.sum(offset * chord, axis=1, keepdims=True), axis=1))
    return np.column_stack(out)


def _deformation_figure(inverse):
    """deformation.png: mid-link transverse deformation per limb."""
    fig, (ax,) = _figure("Mid-link transverse deformation of the flexible links 3 (middle node from the chord)")
    deflection = 1e3 * _mid_deflections(inverse)
    for i in range(3):
        ax.plot(inverse.t, deflection[:, i], f"C{i}", lw=1.2, label=f"limb {i + 1}")
    _paper_line(ax, 7.73, "paper: up to 7.73 mm (limb 1)")
    ax.set_ylabel("deformation (mm)")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8, ncol=4)
    return fig


def _strain_figure(inverse, distances):
    """strains.png: gauge strains per limb."""
    fig, axes = _figure("Axial strain at the gauges on the outer wall of each link 3, flexible inverse dynamics\n"
                        "(not zero-balanced: the static strain under gravity included)", 3, 7.4)
    for i, ax in enumerate(axes):
        for k, d in enumerate(distances):
            name = f"gauge {i}.{k}.strain"
            if name in inverse.sensor_columns:
                ax.plot(inverse.t, 1e6 * inverse[name], f"C{k}", lw=1.0,
                        label=f"{1e3 * d:g} mm from the upper joint" if i == 0 else None)
        ax.set_ylabel(f"limb {i + 1}\nstrain (µε)")
    fig.legend(fontsize=8, loc="outside lower center", ncol=3)
    return fig


# --- files and the report page --------------------------------------------------------------
CAPTIONS = {
    "torques.png": "Motor torques of the flexible inverse run per limb (solid) with the rigid robot's (dashed), "
                   "N·m; dotted: the paper's extremes.",
    "forward.png": "Forward run (the flexible robot driven by the rigid torques): the platform centre's deviation "
                   "from the commanded circle in x, y, z, mm; the paper's band: x up to 8.7 mm, y and z below 2 mm.",
    "angles.png": "Active joint angles θ1 (from the horizontal, positive down) of the flexible inverse run (solid) "
                  "and the rigid robot (dashed), deg, and their difference.",
    "tilt.png": "Tilt of the platform normal from its rest orientation in the flexible inverse run, deg; shaded: "
                "the S-curve's start/stop and cruise phases, dotted: the paper's figures for each.",
    "deformation.png": "Transverse deformation at mid-link of each flexible link 3 (distance of the middle node "
                       "from the chord), mm.",
    "strains.png": "Axial strain at the three gauges of each link 3 (outer wall), µε, including the static strain.",
}
_RUNS = (("rigid inverse", "rigid", "runtime_rigid"), ("flexible forward", "forward", "forward_runtime"),
         ("flexible inverse", "inverse", "inverse_runtime"))


def write_outputs(folder, config, summary, rigid, forward=None, inverse=None, system=None):
    """Write every output of the study into a folder."""
    from femdyn.mesh.vtk import write_series

    clock = time.perf_counter()
    os.makedirs(folder, exist_ok=True)
    written = {}

    def path(name):
        written[name] = os.path.join(folder, name)
        return written[name]

    arrays = {"t": rigid.t, "rigid_torques": motor_torques(rigid)}
    if forward is not None:
        arrays.update(forward_t=forward.t, forward_position=platform_positions(forward))
    if inverse is not None:
        gauges = gauge_channels(inverse)
        arrays.update(inverse_t=inverse.t, inverse_torques=motor_torques(inverse),
                      gauges=np.column_stack([inverse[c] for c in gauges]) if gauges else np.zeros((len(inverse.t), 0)))
        inverse.to_csv(path("channels.csv"),
                       [f"actuator {i}.torque" for i in range(3)] + ["P.x", "P.y", "P.z"] + gauges)
        if config.paraview_every and system is not None:
            write_series(system, inverse, os.path.join(folder, "paraview"), every=config.paraview_every)
            written["paraview/motion.pvd"] = os.path.join(folder, "paraview", "motion.pvd")
    np.savez(path("results.npz"), **arrays)
    rows = verdicts(summary)
    with open(path("summary.json"), "w", encoding="utf-8") as f:
        json.dump({"config": asdict(config), "summary": summary, "verdicts": rows, "notes": notes(summary)}, f,
                  indent=1, default=plain, ensure_ascii=False)
    with open(path("summary.md"), "w", encoding="utf-8") as f:
        f.write(summary_table(summary))
    figures = study_figures(config, rigid, forward, inverse, system)
    for name, fig in figures.items():
        fig.savefig(path(name), dpi=120)
    runs = {"rigid": rigid, "forward": forward, "inverse": inverse}
    write_report(path("report.html"), config, summary, runs, system, figures, sorted(written),
                 time.perf_counter() - clock)
    return written



def write_report(path, config, summary, runs, system=None, figures=None, files=(), output_time=None):
    """Write the study's report page: one self-contained HTML file (figures embedded,
    no network, a print stylesheet) with the summary table and its verdicts, the figures,
    the settings, the model summary, solver statistics and run times."""
    from femdyn.reports.pages import cells, png, render_page
    if figures is None:
        figures = study_figures(config, runs["rigid"], runs.get("forward"), runs.get("inverse"), system)
    rows = verdicts(summary)
    table = [[(r["quantity"], ""), (r["femdyn"], ""), (r["paper"] or "–", ""),
              (r["verdict"], verdict_class(r["verdict"])),
              (r["reason"] or "", "", r["docs"] or "")] for r in rows]
    statistics = [cells((label, *_statistics(runs.get(key)), _seconds(summary.get(clock))))
                  for label, key, clock in _RUNS]
    if output_time is not None:
        statistics.append(cells(("writing the outputs", "", "", "", "", "", "", _seconds(output_time))))
    model = system.summary() if system is not None else next(
        (r.meta.get("summary", "") for r in (runs.get("inverse"), runs.get("forward"), runs["rigid"]) if r), "")
    return render_page(
        "rrru.html", path, title="3-RRRU study: femdyn beside Liu et al. (2018)",
        lead=f"Over {summary.get('duration', 0):.3g} s ({summary.get('steps', 0)} steps); "
             + ", ".join(f"{n} {v}" for v, n in tally(rows).items()) + ".",
        rule=_RULE, table=table, notes=notes(summary),
        figures=[{"uri": png(fig), "alt": name, "caption": f"{name}: {CAPTIONS.get(name, '')}"}
                 for name, fig in figures.items()],
        settings=list(_flatten(asdict(config))), model=model, statistics=statistics, files=list(files))


def _statistics(results):
    """Status, steps, Newton iterations (total, per step), factorizations, rejected steps, corrections."""
    if results is None:
        return ("not run", "", "", "", "", "")
    steps = max(len(results.t) - 1, 0)
    iterations = int(results["iterations"].sum())
    rejected = sum(1 for e in results.events if e.get("event") == "step rejected")
    return (results.status, str(steps), f"{iterations} ({iterations / max(steps, 1):.2f})",
            str(int(results["factorizations"].sum())), str(rejected), str(int(results["corrections"].sum())))


def _seconds(value):
    """A duration as text (empty for None)."""
    return "" if value is None else f"{value:.3g} s"


def _flatten(settings, prefix=""):
    """(dotted name, text) of every setting, nested tables flattened."""
    for key, value in settings.items():
        if isinstance(value, dict):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", _setting(value)


def _setting(value):
    """A setting as text: numbers in 6 significant digits, sequences as lists."""
    if isinstance(value, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_setting(v) for v in value) + "]"
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    return str(value)


@dataclass(frozen=True)
class Quantity:
    """One row of the summary: a figure of the study and the paper's value for it.

    ``scale`` converts the summary's unit to ``unit`` (1e3: m → mm); ``band`` None: not reported; ``part``: a
    limb (1–3) of a per-limb dict or the gauge whose range is compared.
    """

    id: str
    label: str
    key: str
    unit: str
    scale: float = 1.0
    band: Band = None
    part: object = None

    def value(self, summary):
        """femdyn's value of this row in a study summary (summary units), None if missing."""
        found = summary.get(self.key)
        if found is None or self.part is None:
            return None if found is None else float(found)
        if isinstance(self.part, str):                      # a gauge's range: zero balancing does not change it
            peaks = found.get(self.part, found.get(f"{self.part}.strain"))
            return None if peaks is None else float(max(peaks) - min(peaks))
        by_limb = _by_limb(found)
        return float(by_limb[self.part]) if self.part in by_limb else None


def _by_limb(values):
    """A per-limb dict keyed 1, 2, 3 (keys may be ints or strings, 0- or 1-based, "limb 1")."""
    numbers = {int("".join(c for c in str(k) if c.isdigit())): v for k, v in values.items()}
    shift = 1 if 0 in numbers else 0
    return {k + shift: v for k, v in numbers.items()}


_Q = Quantity
QUANTITIES = (
    _Q("rigid_torque_min", "rigid inverse: most negative motor torque", "rigid_torque_min", "N·m"),
    _Q("rigid_torque_max", "rigid inverse: least negative motor torque", "rigid_torque_max", "N·m"),
    _Q("rigid_angle_max_deg", "rigid inverse: largest active joint angle", "rigid_angle_max_deg", "°"),
    _Q("forward_deviation_x", "forward: platform-centre deviation from the circle, x", "forward_deviation_x", "mm",
       1e3, Band.about(8.7e-3, "up to 8.7 mm")),
    _Q("forward_deviation_yz", "forward: the same in y and z", "forward_deviation_yz", "mm", 1e3,
       Band.below(2e-3, "below 2 mm")),
    _Q("forward_tilt_deg", "forward: platform tilt from vertical", "forward_tilt_deg", "°"),
    _Q("inverse_tracking_error", "inverse: platform-centre tracking error", "inverse_tracking_error", "m", 1.0,
       Band.below(2e-11, "< 2e-11 m")),
    _Q("forward_inverse_deviation", "check: forward run driven by the flexible inverse's torques, largest "
       "platform-centre deviation", "forward_inverse_deviation", "mm", 1e3),
    _Q("forward_rigid_deviation", "check: the same driven by the rigid torques", "forward_rigid_deviation", "mm",
       1e3),
    _Q("static_tilt_deg", "inverse: platform tilt at rest (gravity, from vertical)", "static_tilt_deg", "°"),
    _Q("tilt_start_stop_deg", "inverse: platform tilt from rest, start and stop", "tilt_start_stop_deg", "°", 1.0,
       Band.about(5.3, "up to 5.3°")),
    _Q("tilt_cruise_deg", "inverse: platform tilt from rest, cruise", "tilt_cruise_deg", "°", 1.0,
       Band.below(0.5, "< 0.5°")),
    _Q("inverse_torque_min", "inverse: most negative motor torque (any limb)", "inverse_torque_min", "N·m", 1.0,
       Band.about(-11.1, "−11.1 N·m (limb 2)")),
    _Q("inverse_torque_max", "inverse: least negative motor torque (any limb)", "inverse_torque_max", "N·m"),
    _Q("inverse_torque_extreme_limb_1", "inverse: limb 1's extreme motor torque", "inverse_torque_extreme_limb",
       "N·m", 1.0, Band.about(-8.3, "−8.3 N·m"), 1),
    _Q("inverse_torque_extreme_limb_2", "inverse: limb 2's extreme motor torque", "inverse_torque_extreme_limb",
       "N·m", 1.0, Band.about(-11.1, "−11.1 N·m (the largest)"), 2),
    _Q("inverse_torque_extreme_limb_3", "inverse: limb 3's extreme motor torque", "inverse_torque_extreme_limb",
       "N·m", 1.0, None, 3),
    _Q("torque_difference", "inverse: largest motor torque difference from rigid", "torque_difference", "N·m", 1.0,
       Band.about(0.39, "up to 0.39 N·m (limb 2)")),
    _Q("torque_difference_at_rest", "inverse: the same at rest (t = 0)", "torque_difference_at_rest", "N·m"),
    _Q("inverse_angle_max_deg", "inverse: largest active joint angle", "inverse_angle_max_deg", "°", 1.0,
       Band.about(9.8, "9.8° (limb 1)")),
    _Q("angle_difference_deg", "inverse: largest active joint angle difference from rigid", "angle_difference_deg",
       "°", 1.0, Band.about(0.84, "up to 0.84° (limb 1)")),
    _Q("mid_link_deformation", "inverse: mid-link transverse deformation", "mid_link_deformation", "mm", 1e3,
       Band.about(7.73e-3, "up to 7.73 mm (limb 1)")),
    _Q("shear_angle_deg", "inverse: shear angle at mid-link", "shear_angle_deg", "°", 1.0,
       Band.below(4e-4, "< 0.0004°")),
    *(_Q(f"gauge_range_{k}", f"inverse: limb 1 strain range (max − min), gauge at {mm:g} mm", "gauge_strain_peaks",
         "µε", 1e6,
         Band.about(p - n, f"{(p - n) * 1e6:.4g} µε (test rig: +{p * 1e6:.4g} / −{-n * 1e6:.5g} µε)"),
         f"gauge 0.{k}")
      for k, (mm, (p, n)) in enumerate(zip(_GAUGE_MM, _GAUGE_PEAKS))),
)
PAPER = {q.id: q.band.text for q in QUANTITIES if q.band is not None}

_MOTION = f"{DOCS}#why-the-flexible-robot-differs-in-motion"
_RIG = f"{DOCS}#the-strain-gauges-beside-the-test-rig"
_SOLVER = f"{DOCS}#tracking-and-the-solver-tolerance"
_INVERSES = f"{DOCS}#four-inverses-on-the-robot"
_LOST = f"{DOCS}#data-from-the-paper-and-the-defaults-chosen-for-what-was-lost"
REASONS = {   # row id → (one line on why femdyn lies outside the paper's band, the docs section)
    "forward_deviation_x": ("the rigid torques drive a robot whose platform orientation is held only by the soft "
                            "links 3 (tilt mode 3.6 Hz, undamped): it starts from its static sag and drifts open-loop",
                            _MOTION),
    "forward_deviation_yz": ("the platform's orientation compliance: the static sag at the start and the undamped "
                             "tilt mode move the centre off the circle's plane", _MOTION),
    "inverse_tracking_error": ("the servo constraint holds to the Newton tolerance (tol_flexible); tighten it",
                               _SOLVER),
    "tilt_start_stop_deg": ("the links hold the platform's orientation softly: statics alone tilt it by 9–26° along "
                            "the circle for every reachable layout at E = 6.9e8 Pa", _MOTION),
    "tilt_cruise_deg": ("the same compliance; no single E gives both this bound and the paper's 7.73 mm deformation",
                        _MOTION),
    "inverse_torque_min": ("the lost link masses and lengths set the torque level; RRRUGeometry.reconstructed() "
                           "meets the paper's peaks", _LOST),
    "inverse_torque_extreme_limb_1": ("the lost link masses and lengths set each limb's torque level; "
                                      "RRRUGeometry.reconstructed() meets it within 1 N·m", _LOST),
    "inverse_torque_extreme_limb_2": ("the lost link masses and lengths set each limb's torque level; "
                                      "RRRUGeometry.reconstructed() meets it within 1 N·m", _LOST),
    "torque_difference": ("the platform's orientation compliance changes the load path; the plain causal inverse "
                          "adds ringing at the undamped internal modes (inverse_method = 'causal')", _INVERSES),
    "inverse_angle_max_deg": ("the lost link lengths: the defaults give active joint angles from −6.6° to 12.2° "
                              "on the circle; RRRUGeometry.reconstructed() meets 9.8° within 1°", _LOST),
    "angle_difference_deg": ("the motors follow the platform's tilt and sag, which the soft links allow", _MOTION),
    "mid_link_deformation": ("the links' bending follows the platform's orientation compliance", _MOTION),
    "shear_angle_deg": ("shear follows the links' bending", _MOTION),
    **{f"gauge_range_{k}": ("the paper measured on the test rig (E = 6.9e10 Pa, 1.6 kg payload, joint clearance); "
                            "the study's default is the simulation's E = 6.9e8 Pa", _RIG) for k in range(3)},
}
_UNEXPLAINED = ("not explained yet: add a reason to REASONS in femdyn/studies/rrru_outputs.py", DOCS)


def verdicts(summary):
    """Every row of :data:`QUANTITIES` with its value, the paper's band and the verdict."""
    rows = []
    for q in QUANTITIES:
        value = q.value(summary)
        label, k = verdict(value, q.band)
        reason, docs = (REASONS.get(q.id, _UNEXPLAINED) if k is not None and k > 1 else (None, None))
        rows.append({"id": q.id, "quantity": q.label, "key": q.key, "value": value, "unit": q.unit,
                     "femdyn": _shown(value, q), "paper": q.band.text if q.band else None,
                     "band": [q.band.low, q.band.high] if q.band else None, "verdict": label,
                     "factor": None if k is None or math.isinf(k) else k, "reason": reason, "docs": docs})
    return rows


def _shown(value, q):
    """A value in the unit of its row, 4 significant digits, a typographic minus."""
    if value is None:
        return NOT_RUN
    text = f"{value * q.scale:.4g}".replace("-", "−", 1) if value < 0 else f"{value * q.scale:.4g}"
    return text + ("" if not q.unit else q.unit if q.unit.startswith("°") else f" {q.unit}")


def notes(summary):
    """The text lines under the table: the inverse method and the zero dynamics."""
    z = summary.get("zero_dynamics")
    if z:
        details = [z.get("classification")] + [f"{name} {z[key]:.4g}{unit}" for key, name, unit in (
            ("lowest_hz", "lowest", " Hz"), ("max_real_part", "largest real part", " 1/s")) if z.get(key) is not None]
        zero = f"{z.get('statement', '').rstrip('.')} ({'; '.join(d for d in details if d)})"
    else:
        zero = "not run"
    lines = [f"Inverse method: {summary.get('inverse_method', 'not run')}.", f"Zero dynamics: {zero}."]
    return lines + ([f"Mesh: {summary['mesh']}"] if summary.get("mesh") else [])


def tally(rows):
    """How many rows have each verdict ("outside (×k)" counted as "outside")."""
    order = (WITHIN, FACTOR_2, "outside", NOT_REPORTED, NOT_RUN)
    found = [("outside" if r["verdict"].startswith("outside") else r["verdict"]) for r in rows]
    return {v: found.count(v) for v in order if v in found}


def _footnotes(rows):
    """Number per reason (rows sharing a reason share a number) and the numbered lines."""
    numbers, lines = {}, []
    for r in rows:
        if r["reason"] and (r["reason"], r["docs"]) not in numbers:
            numbers[(r["reason"], r["docs"])] = len(numbers) + 1
            lines.append(f"[{len(numbers)}] {r['reason']} ({r['docs']})")
    return {r["id"]: numbers[(r["reason"], r["docs"])] for r in rows if r["reason"]}, lines


def summary_table(summary):
    """The study's figures beside the paper's, with verdicts, as Markdown (``summary.md``
    and what ``femdyn study rrru`` and ``femdyn demo`` print)."""
    rows = verdicts(summary)
    marks, reasons = _footnotes(rows)
    counts = ", ".join(f"{n} {v}" for v, n in tally(rows).items())
    lines = [f"3-RRRU study over {summary.get('duration', 0):.3g} s ({summary.get('steps', 0)} steps): femdyn beside "
             "Liu et al. 2018", ""]
    if "stopped" in summary:
        stop = summary["stopped"]
        lines += [f"**Stopped**: {stop['part']} at t = {stop['t']:.6g} s (the figures of that part cover the steps "
                  f"up to then; the parts after it were not run). {stop['reason']}", ""]
    lines += ["| quantity | femdyn | Liu et al. 2018 | verdict |", "|---|---|---|---|"]
    for r in rows:
        mark = f" [{marks[r['id']]}]" if r["id"] in marks else ""
        lines.append(f"| {r['quantity']} | {r['femdyn']} | {r['paper'] or '–'} | {r['verdict']}{mark} |")
    lines += ["", f"Verdicts: {counts}. {_RULE}", "", *notes(summary)]
    if reasons:
        lines += ["", "Why rows lie outside the paper's band:", *reasons]
    return "\n".join(lines) + "\n"

