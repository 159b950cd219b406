"""What the parallel-robot study writes: summary (JSON, Markdown), channels (CSV), figures, the ParaView
series of the flexible inverse and the report page, for any robot."""
import json
import os
from dataclasses import asdict

import numpy as np
from matplotlib.figure import Figure

from ..reports.pages import plain
from .reference import verdict_class
from .parallel_task import platform_deviation
from .parallel_tracking_outputs import CONTACT_HEADER, contact_rows, tracking_figures, tracking_rows, write_tracking

# summary key → (label with unit, scale to that unit, what it means)
ROWS = (
    ("rigid_effort_min", "rigid efforts, smallest (N·m or N)", 1.0, "virtual work on the closure"),
    ("rigid_effort_max", "rigid efforts, largest (N·m or N)", 1.0, "virtual work on the closure"),
    ("rigid_actuator_min", "rigid actuator coordinates, smallest (rad or m)", 1.0, "inverse kinematics along the task"),
    ("rigid_actuator_max", "rigid actuator coordinates, largest (rad or m)", 1.0, "inverse kinematics along the task"),
    ("rigid_paths_difference", "rigid efforts: DAE servo vs virtual work (relative)", 1.0,
     "two independent computations; step-size error of generalized-α"),
    ("forward_deviation_at_rest", "flexible robot under rigid efforts: static sag (mm)", 1e3,
     "the static equilibrium's distance from the task's start"),
    ("forward_deviation", "flexible robot under rigid efforts: largest deviation (mm)", 1e3,
     "how far the platform strays when fed the rigid model's efforts"),
    *((f"forward_deviation_{c}", f"flexible robot under rigid efforts: largest deviation in {c} (mm)", 1e3,
       f"the platform's {c} minus the task's") for c in "xyz"),
    ("forward_tilt_deg", "flexible robot under rigid efforts: largest platform tilt (deg)", 1.0,
     "angle of the platform's normal from the task's"),
    ("inverse_effort_min", "flexible inverse efforts, smallest (N·m or N)", 1.0, "stable causal inverse"),
    ("inverse_effort_max", "flexible inverse efforts, largest (N·m or N)", 1.0, "stable causal inverse"),
    ("effort_difference", "flexible − rigid efforts, largest (N·m or N)", 1.0, "what the links' flexibility costs"),
    ("effort_difference_at_rest", "flexible − rigid efforts at the start (N·m or N)", 1.0,
     "the static sag's share"),
    ("inverse_actuator_max", "flexible inverse: largest actuator angle (rad)", 1.0, "revolute actuators"),
    ("actuator_difference", "flexible − rigid actuator angles, largest (rad)", 1.0,
     "the actuators follow the links' deformation"),
    ("static_tilt_deg", "flexible inverse: platform tilt at the static start (deg)", 1.0,
     "the platform's normal from the task's, under gravity"),
    ("inverse_tilt_speed_change_deg", "flexible inverse: tilt from rest while the speed changes (deg)", 1.0,
     "outside the task's constant-speed phases"),
    ("inverse_tilt_cruise_deg", "flexible inverse: tilt from rest at constant speed (deg)", 1.0,
     "the task's constant-speed phases"),
    ("mid_link_deformation", "flexible inverse: mid-link deformation, largest (mm)", 1e3,
     "middle node from the chord of a flexible link"),
    ("shear_angle_deg", "flexible inverse: shear angle at mid-link, largest (deg)", 1.0, "flexible links"),
    ("inverse_tracking_error", "flexible inverse: largest tracking error (mm)", 1e3,
     "servo constraints met by the inverse"),
    ("inverse_dynamics_residual", "flexible inverse: unresolved inertia (relative)", 1.0,
     "stable inverse's remaining residual"),
)


def summary_rows(summary):
    """(label, value text, meaning) of every number the summary holds, in :data:`ROWS` order."""
    return [(label, f"{summary[key] * scale:.4g}", meaning) for key, label, scale, meaning in ROWS
            if summary.get(key) is not None]


def _figure(title, rows=1):
    """A figure of ``rows`` stacked axes sharing time."""
    fig = Figure(figsize=(8.0, 2.6 * rows + 0.8), layout="constrained")
    axes = fig.subplots(rows, 1, sharex=True, squeeze=False)[:, 0]
    fig.suptitle(title)
    return fig, axes


def effort_figure(study):
    """The efforts per actuator: rigid (virtual work and DAE) and flexible inverse."""
    rigid, inverse, names = study["rigid"], study["inverse"], study["summary"]["actuators"]
    fig, axes = _figure(f"{study['summary']['robot']}: actuator efforts along the {study['summary']['task']} task "
                        "(torque or force on the distal link)", len(names))
    for k, (ax, name) in enumerate(zip(axes, names)):
        ax.plot(rigid["t"], rigid["efforts"][:, k], label="rigid, virtual work")
        if rigid["dae"] is not None:
            n = min(len(rigid["t"]), len(rigid["dae"]))
            ax.plot(rigid["t"][:n], rigid["dae"][:n, k], "--", label="rigid, servo DAE")
        if inverse is not None:
            column = [c for c in inverse.sensor_columns if c.startswith(f"{name}.")]
            if column:
                ax.plot(inverse.t, inverse[column[0]], label="flexible, stable inverse")
        ax.set_ylabel(f"{name}\n({study['summary']['effort_units'][k]})")
        ax.grid(alpha=0.3)
    axes[0].legend(loc="best", fontsize="small")
    axes[-1].set_xlabel("time t (s)")
    return fig


def deviation_figure(study):
    """The platform's deviation from the task under the rigid efforts (forward) and in the inverse."""
    fig, axes = _figure(f"{study['summary']['robot']}: platform position minus task")
    ax = axes[0]
    for key, label in (("forward", "flexible, driven by rigid efforts"), ("inverse", "flexible, stable inverse")):
        res = study[key]
        if res is not None:
            d = platform_deviation(res, study["motion"], study["robot"])
            ax.plot(res.t, 1e3 * np.linalg.norm(d, axis=1), label=label)
    ax.set_xlabel("time t (s)")
    ax.set_ylabel("|deviation| (mm)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    return fig


def gauge_figure(study):
    """Strain at every gauge in the flexible inverse (or the forward run), µε."""
    res = study["inverse"] if study["inverse"] is not None else study["forward"]
    columns = [c for c in res.sensor_columns if c.startswith("gauge ") and c.endswith(".strain")]
    fig, axes = _figure(f"{study['summary']['robot']}: strain at the gauges")
    for c in columns:
        axes[0].plot(res.t, 1e6 * res[c], label=c[:-len(".strain")])
    axes[0].set_xlabel("time t (s)")
    axes[0].set_ylabel("axial strain (µε)")
    axes[0].grid(alpha=0.3)
    axes[0].legend(loc="best", fontsize="x-small", ncol=2)
    return fig


def study_figures(study):
    """Name → Figure of what the study computed."""
    figures = {"efforts.png": effort_figure(study)}
    if study["forward"] is not None or study["inverse"] is not None:
        figures["deviation.png"] = deviation_figure(study)
        res = study["inverse"] if study["inverse"] is not None else study["forward"]
        if any(c.startswith("gauge ") for c in res.sensor_columns):
            figures["gauges.png"] = gauge_figure(study)
    return figures



def write_outputs(folder, config, study):
    """Write summary.json, summary.md, channels.csv, the figures, the ParaView series and report.html."""
    from femdyn.mesh.vtk import write_series
    os.makedirs(folder, exist_ok=True)
    files = []

    def path(name):
        files.append(name)
        return os.path.join(folder, name)

    summary, rigid = study["summary"], study["rigid"]
    with open(path("summary.json"), "w", encoding="utf-8") as f:
        json.dump({"config": asdict(config), "summary": summary}, f, indent=1, default=plain, ensure_ascii=False)
    with open(path("summary.md"), "w", encoding="utf-8") as f:
        f.write("| quantity | value |\n|---|---|\n" + "".join(f"| {a} | {b} |\n" for a, b, *_ in summary_rows(summary)))
    if rigid is not None:
        header = ["t (s)"] + [f"{n} rigid effort" for n in summary["actuators"]]
        np.savetxt(path("rigid_efforts.csv"), np.column_stack([rigid["t"], rigid["efforts"]]), delimiter=",",
                   header=",".join(header), comments="")
    inverse = study["inverse"]
    if inverse is not None:
        inverse.to_csv(path("channels.csv"), list(inverse.sensor_columns))
        if config.paraview_every and "inverse" in study["systems"]:
            write_series(study["systems"]["inverse"], inverse, os.path.join(folder, "paraview"),
                         every=config.paraview_every)
            files.append("paraview/motion.pvd")
    figures = study_figures(study) if rigid is not None else {}
    figures.update(tracking_figures(study))
    files += write_tracking(folder, study)
    for name, fig in figures.items():
        fig.savefig(path(name), dpi=120)
    write_report(path("report.html"), config, study, figures, files)
    return files


def _flatten(settings, prefix=""):
    """(dotted key, value) of a nested settings dict."""
    for key, value in settings.items():
        if isinstance(value, dict) and value:
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", str(value)


def write_report(path, config, study, figures, files):
    """The study's self-contained report page (figures embedded, print stylesheet)."""
    from femdyn.reports.pages import cells, png, render_page
    summary, robot = study["summary"], study["robot"]
    d = robot.description
    lead = (f"{d.title or d.name}: {len(d.limbs)} limbs, task {', '.join(d.task)}, "
            f"{summary['task']} over {summary['duration']:.3g} s.")
    stopped = summary.get("stopped")
    facts = [("name", d.name), ("source", d.source or "–"), ("limbs", ", ".join(
        f"{limb.name}: {'-'.join(j.kind for j in limb.joints)}" for limb in d.limbs)),
        ("actuators", ", ".join(summary["actuators"])), ("flexible sets", ", ".join(summary.get("flexible", [])) or "–"),
        ("platform mass", f"{d.platform.mass:g} kg, payload {d.platform.payload:g} kg"),
        ("gravity", f"{list(d.gravity)} m/s²")]
    reference = [[(r["label"], "text"), (r["femdyn"], ""), (r["published"], ""),
                  (r["verdict"], verdict_class(r["verdict"])), (r["reason"], "text", r["docs"]), (r["source"], "text")]
                 for r in summary.get("reference", [])]
    return render_page("parallel.html", path, title=f"Parallel-robot study: {d.title or d.name}", lead=lead,
                       reference=reference,
                       table=[cells(row) for row in summary_rows(summary)],
                       zero=summary.get("zero_dynamics", {}).get("statement", ""),
                       tracking=[cells(row) for row in tracking_rows(summary)],
                       contacts=[cells(row) for row in contact_rows(study["tracking"])]
                       if isinstance(study.get("tracking"), dict) else [], contact_header=CONTACT_HEADER,
                       stopped=f"Stopped in {stopped['part']}: {stopped['reason']}" if stopped else "",
                       figures=[{"uri": png(fig), "alt": name, "caption": name} for name, fig in figures.items()],
                       robot=facts, settings=list(_flatten(asdict(config))), files=files)
