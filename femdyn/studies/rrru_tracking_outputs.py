"""Outputs of the tracking experiment (:mod:`.rrru_tracking`): figures, the report page, the summary and the tracks."""
import json
import os
from dataclasses import asdict

import numpy as np

from ..reports.pages import plain
from .rrru_channels import tracking_error
from .rrru_gauges import PEAKS

NOTE = ("The paper's differences come from the rig; femdyn's from link flexibility alone (E = 6.9e10 Pa, 1.6 kg "
        "payload) under assumed drives and gains. Agreement would need what the model leaves out and the paper "
        "names or implies: joint assembly clearance, the reducers' compliance and backlash, friction, the real "
        "gains and the target's offset seen under the platform's rotation (a single tracker cannot measure it).")
CAPTIONS = {
    "tracks": "radial deviation of each tracked target path from its least-squares circle (mm) against the angle "
              "on the circle (deg); right: end-effector distance from its commanded position (mm) against time (s)",
    "joints": "joint tracking error r − θ (deg) of each limb's servo against time (s), both feedforwards; "
              "right: the joint torque command and its feedforward (N·m)",
    "gauges": "zero-balanced axial strain at limb 1's three gauges (µε) against time (s), flexible feedforward; "
              "dashed: the paper's measured peaks (Table 3)",
}


def _figure(title, columns=2):
    """A titled two-panel figure."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(10, 4.0), layout="constrained")
    fig.suptitle(title, fontsize=10)
    return fig, fig.subplots(1, columns)


def figures(study):
    """The experiment's figures by name (matplotlib Figures)."""
    out = {}
    fig, (ax, ax2) = _figure("3-RRRU tracking experiment: tracked paths against their fitted circles")
    for name, fit in study["fits"].items():
        d = study["tracks"][name] - fit.centre
        e1 = d[0] - (d[0] @ fit.normal) * fit.normal
        e1 /= np.linalg.norm(e1)
        angle = np.degrees(np.unwrap(np.arctan2(d @ np.cross(fit.normal, e1), d @ e1)))
        ax.plot(np.abs(angle - angle[0]), 1e3 * fit.deviations, lw=0.8,
                label=f"{name} feedforward (roundness {1e3 * fit.roundness:.3f} mm)")
        run = study["runs"][name]
        ax2.plot(run.t, 1e3 * tracking_error(run, study["motion"]), lw=1.0, label=f"{name} feedforward")
    _dress((ax, ax2), ("angle on the circle (deg)", "radial deviation (mm)"), ("time t (s)", "|P − P_commanded| (mm)"))
    out["tracks"] = fig
    fig, (ax, ax2) = _figure("3-RRRU tracking experiment: joint servo loops")
    for name, style in zip(study["runs"], ("-", "--")):
        run = study["runs"][name]
        for i in range(3):
            ax.plot(run.t, np.degrees(run[f"servo {i}.error"]), style, lw=0.8, color=f"C{i}",
                    label=f"limb {i + 1}, {name}")
            if name == "flexible":
                ax2.plot(run.t, run[f"servo {i}.torque"], lw=0.8, color=f"C{i}", label=f"limb {i + 1} command")
                t, _, torques = study["solutions"][name]
                ax2.plot(t, torques[:, i], ":", lw=1.2, color=f"C{i}", label=f"limb {i + 1} feedforward")
    _dress((ax, ax2), ("time t (s)", "joint error r − θ (deg)"), ("time t (s)", "joint torque (N·m), flexible feedforward"))
    out["joints"] = fig
    fig, (ax, ax2) = _figure("3-RRRU tracking experiment: limb 1 gauges, zero-balanced (flexible feedforward)")
    run = study["runs"]["flexible"]
    for k, (name, (high, low)) in enumerate(PEAKS.items()):
        strain = 1e6 * (run[f"gauge 0.{k}.strain"] - run[f"gauge 0.{k}.strain"][0])
        ax.plot(run.t, strain, lw=0.9, color=f"C{k}", label=f"{name} femdyn")
        for peak in (high, low):
            ax.axhline(peak, ls="--", lw=0.8, color=f"C{k}")
    rows = study["table3"]
    x = np.arange(len(rows))
    for shift, key, label in ((-0.2, "femdyn", "femdyn"), (0.2, "paper", "Liu et al. 2018")):
        for sign, hatch in ((0, None), (1, "//")):
            ax2.bar(x + shift, [r[key][sign] for r in rows], 0.4, hatch=hatch, color="C0" if key == "femdyn" else "C1",
                    label=f"{label} {'positive' if sign == 0 else 'negative'} peak")
    ax2.set_xticks(x, [r["gauge"] for r in rows])
    _dress((ax, ax2), ("time t (s)", "axial strain, zero-balanced (µε)"),
           ("gauge (distance from link 3's upper joint)", "peak strain (µε)"))
    out["gauges"] = fig
    return out


def _dress(axes, *labels):
    """Axis labels (x, y) per panel, a grid and a legend."""
    for ax, (x, y) in zip(axes, labels):
        ax.set(xlabel=x, ylabel=y)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6, ncol=2)


def write_outputs(folder, study):
    """Write summary.json, table2.md, tracks.csv, the figures (PNG) and report.html; returns the file names."""
    from femdyn.reports.pages import png, render_page
    os.makedirs(folder, exist_ok=True)
    figs = figures(study)
    files = []
    for name, fig in figs.items():
        fig.savefig(os.path.join(folder, f"{name}.png"), dpi=110)
        files.append(f"{name}.png")
    with open(os.path.join(folder, "summary.json"), "w") as f:
        json.dump({"summary": study["summary"], "table2": study["table2"], "table3": study["table3"]}, f, indent=1,
                  default=plain)
    with open(os.path.join(folder, "table2.md"), "w") as f:
        f.write(table2_markdown(study["table2"]) + contacts_markdown(study))
    for name, points in study["tracks"].items():
        np.savetxt(os.path.join(folder, f"track_{name}.csv"), 1e3 * points, delimiter=",", header="x_mm,y_mm,z_mm",
                   comments="")
        files.append(f"track_{name}.csv")
    files += ["summary.json", "table2.md", "report.html"]
    table2 = [[(r["quantity"], ""), (f"{r['rigid']:.4f}", ""), (f"{r['flexible']:.4f}", ""),
               (f"{r['difference']:+.4f}", ""), (f"{r['paper']:.3f}", ""), (r["verdict"], _css(r["verdict"]))]
              for r in study["table2"]]
    table3 = [[(r["gauge"], ""), (f"{r['femdyn'][0]:.3f}", ""), (f"{r['femdyn'][1]:.3f}", ""),
               (f"{r['paper'][0]:.3f}", ""), (f"{r['paper'][1]:.3f}", ""),
               (f"{r['peak_pos_error']:+.0%}", ""), (f"{r['peak_neg_error']:+.0%}", "")] for r in study["table3"]]
    render_page("tracking.html", os.path.join(folder, "report.html"),
                title="3-RRRU tracking experiment: femdyn beside Liu et al. (2018), Tables 2 and 3",
                lead=f"Over {study['summary']['duration']:.3g} s, two closed-loop runs of the flexible robot"
                     + _clearance_lead(study),
                table2=table2, table3=table3, note=NOTE,
                figures=[{"uri": png(fig), "alt": name, "caption": f"{name}: {CAPTIONS[name]}"}
                         for name, fig in figs.items()],
                summary=[(k, f"{v:.6g}" if isinstance(v, float) else str(v)) for k, v in study["summary"].items()],
                settings=[(k, f"{v:.6g}" if isinstance(v, float) else str(v))
                          for k, v in asdict(study["config"]).items()], files=files)
    return files


def _clearance_lead(study):
    """The report's lead after the runs: the clearance and each joint's verdict on its impacts, or a full stop."""
    config = study["config"]
    if not study.get("contacts") or not config.clearance:
        return " with ideal joints."
    verdicts = "; ".join(f"{run} feedforward, {joint}: {row['verdict']}" for run, rows in study["contacts"].items()
                         for joint, row in rows.items())
    return f" with {1e6 * config.clearance:g} µm radial clearance in {config.clearance_joints} ({verdicts})."


def contacts_markdown(study):
    """The clearance joints' impacts per run as markdown (empty with ideal joints)."""
    rows = [f"| {run} | {joint} | {r['impacts']} | {r['shortest bounce (steps)']} | {r['force max (N)']:.1f} | "
            f"{1e6 * r['eccentricity max (m)']:.2f} | {r['verdict']} |"
            for run, rows in study.get("contacts", {}).items() for joint, r in rows.items()]
    if not rows:
        return ""
    return ("\n| feedforward | joint | impacts | shortest bounce (steps) | largest force (N) | largest eccentricity (µm) "
            "| impacts |\n|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")


def table2_markdown(rows):
    """Table 2 as markdown: femdyn's fits (mm) and differences beside the paper's, with verdicts."""
    lines = ["| quantity (mm) | rigid ff | flexible ff | femdyn rigid − flexible | Liu et al. 2018 | verdict |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {r['quantity']} | {r['rigid']:.4f} | {r['flexible']:.4f} | {r['difference']:+.4f} | {r['paper']:.3f} "
              f"| {r['verdict']} |" for r in rows]
    return "\n".join(lines) + "\n"


def _css(verdict):
    """The CSS class of a verdict."""
    return "pass" if verdict.startswith("agrees") else "fail" if verdict.startswith("opposite") else "warn"

