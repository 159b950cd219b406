"""What the tracking experiment (:mod:`.parallel_tracking`) adds to the parallel-robot study's outputs, for any
robot: its figures, the tracks (CSV), ``tracking.md`` and the rows of its report section and terminal lines."""
import os

import numpy as np
from matplotlib.figure import Figure

from .parallel_task import platform_deviation

# summary key after "tracking_<run>_" → (label with unit, scale to that unit, what it means)
ROWS = (
    ("diameter", "fitted circle: diameter (mm)", 1e3, "least-squares circle through the tracker's samples"),
    ("roundness", "fitted circle: roundness (mm)", 1e3, "largest minus smallest radial error"),
    ("largest_error", "fitted circle: largest radial error (mm)", 1e3, "farthest sample outside the circle"),
    ("smallest_error", "fitted circle: smallest radial error (mm)", 1e3, "nearest sample to the circle"),
    ("deviation_max", "platform: largest deviation from the task (mm)", 1e3, "platform origin minus commanded"),
    ("joint_error_max", "revolute drives: largest error r − θ (deg)", 180 / np.pi, "encoder counts and lag"),
    ("stroke_error_max", "prismatic drives: largest error r − s (mm)", 1e3, "encoder counts and lag"),
    ("runtime", "closed-loop run: wall time (s)", 1.0, "this machine"),
)
CONTACT_HEADER = ("feedforward", "joint", "impacts", "shortest bounce (steps)", "largest force (N)",
                  "largest eccentricity (µm)", "verdict")


def tracking_rows(summary):
    """(label, rigid feedforward, flexible feedforward, meaning) of the experiment's figures present in the summary."""
    rows = []
    for key, label, scale, meaning in ROWS:
        values = [summary.get(f"tracking_{run}_{key}") for run in ("rigid", "flexible")]
        if any(v is not None for v in values):
            rows.append((label, *("–" if v is None else f"{v * scale:.4g}" for v in values), meaning))
    return rows


def contact_rows(tracking):
    """The clearance joints' impacts per run, as text cells (empty with ideal joints)."""
    return [(run, joint, str(r["impacts"]), str(r["shortest bounce (steps)"]), f"{r['force max (N)']:.1f}",
             f"{1e6 * r['eccentricity max (m)']:.2f}", r["verdict"])
            for run, rows in tracking["contacts"].items() for joint, r in rows.items()]


def tracking_lines(summary):
    """The experiment's figures as terminal lines (none when it did not run)."""
    return [f"tracking, {label}: rigid feedforward {rigid}, flexible feedforward {flexible}"
            for label, rigid, flexible, _ in tracking_rows(summary)]


def tracking_markdown(summary, tracking):
    """The experiment's table (and the contacts table with clearance) as markdown."""
    lines = ["| quantity | rigid feedforward | flexible feedforward |", "|---|---|---|"]
    lines += [f"| {label} | {rigid} | {flexible} |" for label, rigid, flexible, _ in tracking_rows(summary)]
    differences = [(k[len("tracking_"):-len("_difference")], v) for k, v in summary.items()
                   if k.startswith("tracking_") and k.endswith("_difference")]
    lines += [f"| {name.replace('_', ' ')}: rigid − flexible (mm) | {1e3 * v:+.4f} | |" for name, v in differences]
    contacts = contact_rows(tracking)
    if contacts:
        lines += ["", "| " + " | ".join(CONTACT_HEADER) + " |", "|" + "---|" * len(CONTACT_HEADER)]
        lines += ["| " + " | ".join(row) + " |" for row in contacts]
    return "\n".join(lines) + "\n"


def _figure(title, columns=2):
    """A titled figure of ``columns`` panels side by side."""
    fig = Figure(figsize=(10, 4.0), layout="constrained")
    fig.suptitle(title, fontsize=10)
    return fig, fig.subplots(1, columns)


def _dress(axes, *labels):
    """Axis labels (x, y) per panel, a grid and a legend."""
    for ax, (x, y) in zip(axes, labels):
        ax.set(xlabel=x, ylabel=y)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6, ncol=2)


def path_figure(study):
    """Left: each track's radial deviation from its fitted circle (or the target's path); right: the platform's
    deviation from the task in time, both feedforwards."""
    tracking, name = study["tracking"], study["summary"]["robot"]
    fig, (ax, ax2) = _figure(f"{name}: tracking experiment, tracked paths")
    for run, points in tracking["tracks"].items():
        fit = tracking["fits"][run]
        if fit is not None:
            d = points - fit.centre
            e1 = d[0] - (d[0] @ fit.normal) * fit.normal
            e1 /= np.linalg.norm(e1)
            angle = np.degrees(np.unwrap(np.arctan2(d @ np.cross(fit.normal, e1), d @ e1)))
            ax.plot(np.abs(angle - angle[0]), 1e3 * fit.deviations, lw=0.8,
                    label=f"{run} feedforward (roundness {1e3 * fit.roundness:.3f} mm)")
        else:
            ax.plot(1e3 * points[:, 0], 1e3 * points[:, 2], lw=0.8, label=f"{run} feedforward")
        res = tracking["runs"][run]
        deviation = np.linalg.norm(platform_deviation(res, study["motion"], study["robot"]), axis=1)
        ax2.plot(res.t, 1e3 * deviation, lw=1.0, label=f"{run} feedforward")
    circle = any(f is not None for f in tracking["fits"].values())
    _dress((ax, ax2), ("angle on the circle (deg)", "radial deviation (mm)") if circle else
           ("target x (mm)", "target z (mm)"), ("time t (s)", "|platform − task| (mm)"))
    return fig


def drive_figure(study):
    """Left: every drive's error r − θ in time, both feedforwards; right: its command beside its feedforward
    (flexible feedforward where it ran)."""
    tracking, summary = study["tracking"], study["summary"]
    fig, (ax, ax2) = _figure(f"{summary['robot']}: tracking experiment, servo drives")
    last = list(tracking["runs"])[-1]
    for run, style in zip(tracking["runs"], ("-", "--")):
        res = tracking["runs"][run]
        for k, joint in enumerate(summary["actuators"]):
            ax.plot(res.t, res[f"{joint} drive.error"], style, lw=0.8, color=f"C{k % 10}", label=f"{joint}, {run}")
            if run == last:
                column = [c for c in res.sensor_columns if c in (f"{joint} drive.torque", f"{joint} drive.force")][0]
                ax2.plot(res.t, res[column], lw=0.8, color=f"C{k % 10}", label=f"{joint} command")
                t, _, efforts = tracking["solutions"][run]
                ax2.plot(t, efforts[:, k], ":", lw=1.2, color=f"C{k % 10}", label=f"{joint} feedforward")
    _dress((ax, ax2), ("time t (s)", "drive error r − θ (rad or m)"),
           ("time t (s)", f"command (N·m or N), {last} feedforward"))
    return fig


def gauge_figure(study):
    """Zero-balanced strain at every gauge (µε) in time, the last run (flexible feedforward where it ran)."""
    tracking = study["tracking"]
    run = list(tracking["runs"])[-1]
    res = tracking["runs"][run]
    fig, ax = _figure(f"{study['summary']['robot']}: tracking experiment, gauges zero-balanced ({run} feedforward)",
                      columns=1)
    for k, gauge in enumerate(tracking["gauges"][run]):
        strain = res[f"{gauge}.strain"]
        ax.plot(res.t, 1e6 * (strain - strain[0]), lw=0.9, color=f"C{k % 10}", label=gauge)
    _dress((ax,), ("time t (s)", "axial strain, zero-balanced (µε)"))
    return fig


def tracking_figures(study):
    """Name → Figure of the experiment (none when it did not run)."""
    tracking = study.get("tracking")
    if not isinstance(tracking, dict):
        return {}
    figures = {"tracking_paths.png": path_figure(study), "tracking_drives.png": drive_figure(study)}
    if any(tracking["gauges"].values()):
        figures["tracking_gauges.png"] = gauge_figure(study)
    return figures


def write_tracking(folder, study):
    """Write ``tracking.md`` and ``track_<run>.csv`` (the tracker's samples, mm); returns the file names."""
    tracking = study.get("tracking")
    if not isinstance(tracking, dict):
        return []
    files = ["tracking.md"]
    with open(os.path.join(folder, "tracking.md"), "w", encoding="utf-8") as f:
        f.write(tracking_markdown(study["summary"], tracking))
    for run, points in tracking["tracks"].items():
        np.savetxt(os.path.join(folder, f"track_{run}.csv"), 1e3 * points, delimiter=",", header="x_mm,y_mm,z_mm",
                   comments="")
        files.append(f"track_{run}.csv")
    return files
