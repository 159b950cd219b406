"""The report's figures (matplotlib, no display needed): per-gauge overlay with the error
over time, the peak bar chart and the picture of the link with its gauges. Strains are
shown in µε."""
import numpy as np
from matplotlib.figure import Figure

from ..results import draw_time_histories

MICRO = 1e6


def gauge_figure(gauge, fig=None):
    """Simulated and measured strain of one gauge (top) and their difference (bottom); for
    peaks-only data the simulated history with the measured peaks as lines.
    """
    fig = fig or Figure(figsize=(8, 4.4), layout="constrained")
    simulated = {"simulated": gauge.simulated * MICRO}
    styles = {"simulated": dict(color="C0", lw=1.4, zorder=3), "difference": dict(color="C2", lw=1.0)}
    if gauge.measured is None:
        axes = draw_time_histories(fig, gauge.t, [("strain (µε)", simulated)], xlabel="time (s)", styles=styles)
        for key, style in (("pos", "--"), ("neg", ":")):
            axes[0].axhline(gauge.metrics[f"peak_{key}_meas"] * MICRO, color="C3", ls=style,
                            label=f"measured {'positive' if key == 'pos' else 'negative'} peak")
    else:
        measured = f"measured ({gauge.channel})"
        styles[measured] = dict(color="C3", lw=1.0)
        axes = draw_time_histories(fig, gauge.t, [("strain (µε)", {measured: gauge.measured * MICRO, **simulated}),
                                                  ("sim − meas (µε)", {"difference": (gauge.simulated - gauge.measured)
                                                                       * MICRO})],
                                   xlabel="time (s)", styles=styles, height_ratios=(2, 1))
    axes[0].set_title(f"gauge {gauge.name}: {('pass' if gauge.passed else 'FAIL') if gauge.judged else 'no verdict'}")
    axes[0].legend(loc="best", fontsize=8)
    return fig


def peaks_figure(gauges):
    """Grouped bars of the positive and negative peaks, simulated against measured."""
    fig = Figure(figsize=(8, 3.6), layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(gauges))
    width = 0.2
    for k, (key, side) in enumerate((("pos", "positive"), ("neg", "negative"))):
        for j, (src, color) in enumerate((("sim", "C0"), ("meas", "C3"))):
            values = [g.metrics[f"peak_{key}_{src}"] * MICRO for g in gauges]
            ax.bar(x + (2 * k + j - 1.5) * width, values, width, color=color, alpha=1.0 if k == 0 else 0.55,
                   label=f"{side} peak, {'simulated' if src == 'sim' else 'measured'}")
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xticks(x, [g.name for g in gauges])
    ax.set_ylabel("peak strain (µε)")
    ax.legend(fontsize=8, ncol=2)
    ax.grid(alpha=0.3, axis="y")
    return fig


def link_figure(link):
    """Side view of the link (its first node on the left) with each gauge's grid, and the
    section with the gauges' wall angles.
    """
    marks = link["marks"]
    length = link["length"] or max([m["position"] + m["grid_length"] for m in marks] + [1.0])
    fig = Figure(figsize=(8, 2.6), layout="constrained")
    side, section = fig.subplots(1, 2, width_ratios=(4, 1))
    side.add_patch(_bar(length))
    side.plot([0], [0], "ko", ms=8)
    side.annotate("first node", (0, 0), (0, -0.5), ha="center", fontsize=8)
    for k, m in enumerate(marks):
        half = max(m["grid_length"] / 2, length / 300)
        side.fill_between([m["position"] - half, m["position"] + half], 0.18, 0.32, color=f"C{k % 10}")
        side.annotate(f"{m['name']}\n{m['position']:.4g} m", (m["position"], 0.32), (m["position"], 0.6 + 0.35 * (k % 2)),
                      ha="center", fontsize=8, arrowprops={"arrowstyle": "-", "lw": 0.6})
    side.set_xlim(-0.05 * length, 1.05 * length)
    side.set_ylim(-0.8, 1.4)
    side.set_yticks([])
    side.set_xlabel("position along the link (m)")
    side.set_title(f"link, {length:.4g} m" + ("" if link["length"] else " (length not known: schematic)"), fontsize=9)
    phi = np.linspace(0, 2 * np.pi, 100)
    section.plot(np.cos(phi), np.sin(phi), "k-")
    for k, m in enumerate(marks):
        a = np.radians(m["wall_angle_deg"])
        section.plot([np.cos(a)], [np.sin(a)], "s", color=f"C{k % 10}", ms=7)
    by_angle = {}
    for m in marks:
        by_angle.setdefault(round(m["wall_angle_deg"] % 360, 6), []).append(m["name"])
    for angle, names in by_angle.items():
        a = np.radians(angle)
        section.annotate(", ".join(names), (np.cos(a), np.sin(a)), (1.5 * np.cos(a), 1.5 * np.sin(a)),
                         ha="center", va="center", fontsize=7)
    section.set_aspect("equal")
    section.set_xlim(-2.4, 2.4)
    section.set_ylim(-2.4, 2.4)
    section.set_xlabel("section y")
    section.set_ylabel("section z")
    section.set_xticks([])
    section.set_yticks([])
    return fig


def _bar(length):
    """The grey rectangle that draws a link of the given length."""
    from matplotlib.patches import Rectangle
    return Rectangle((0, -0.15), length, 0.3, facecolor="0.85", edgecolor="k")
