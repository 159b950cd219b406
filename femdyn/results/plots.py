"""Off-screen matplotlib figures: time histories (all drawn by :func:`time_histories`) and a configuration."""
import argparse
import os

import numpy as np

from femdyn.mesh.configuration import configuration_geometry


def time_histories(path, t, panels, title=None, xlabel="t [s]", size=(8, 2.6), dpi=110, styles=None):
    """Save a PNG of time histories, one panel per (y label, {curve label: series}); returns ``path``.

    Parameters
    ----------
    path : str or os.PathLike
        PNG file to write.
    t : array_like (k,)
        Abscissa, s (or what ``xlabel`` says).
    panels : sequence of (str, dict)
        (y label with unit, {curve label: series (k,)}) top to bottom; several curves get a legend.
    title, xlabel : str, optional
        Title of the top panel; label of the shared x axis.
    size, dpi : (float, float), int, optional
        Width and height of one panel, inches; resolution of the PNG.
    styles : dict, optional
        Curve label → matplotlib line keywords.
    """
    from matplotlib.figure import Figure
    figure = Figure(figsize=(size[0], size[1] * len(panels)))
    draw_time_histories(figure, t, panels, title, xlabel, styles)
    figure.tight_layout()
    figure.savefig(path, dpi=dpi)
    return path


def draw_time_histories(figure, t, panels, title=None, xlabel="t [s]", styles=None, height_ratios=None):
    """Draw time histories into a figure (:func:`time_histories` without the file); returns the Axes, top to bottom.

    Parameters
    ----------
    figure : matplotlib.figure.Figure or SubFigure
        Where to draw.
    t, panels, title, xlabel, styles
        As in :func:`time_histories`.
    height_ratios : sequence of float, optional
        Relative heights of the panels (default equal).
    """
    styles = styles or {}
    axes = figure.subplots(len(panels), 1, sharex=True, squeeze=False, height_ratios=height_ratios)[:, 0]
    for ax, (ylabel, series) in zip(axes, panels):
        for label, y in series.items():
            ax.plot(t, y, label=label, **styles.get(label, {}))
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
        if len(series) > 1:
            ax.legend(fontsize=7, ncol=min(len(series), 4))
    axes[-1].set_xlabel(xlabel)
    if title:
        axes[0].set_title(title)
    return axes


def plot_channels(results, channels, path="channels.png", units=None):
    """One panel per result channel against time; returns ``path``.

    Parameters
    ----------
    results, channels : Results, sequence of str
        A run's results; names accepted by ``results[name]`` (FemdynError if one is unknown).
    path, units : str and dict, optional
        PNG file to write; {channel: unit} shown in the y labels.
    """
    panels = [(name + (f" [{units[name]}]" if units and name in units else ""), {name: results[name]})
              for name in channels]
    return time_histories(path, results.t, panels, size=(7, 2.2), dpi=120,
                          styles={name: {"lw": 1.2} for name in channels})


def plot_configuration(system, q=None, path="configuration.png", title=None):
    """3-D line picture of every body and element chain at q (equal axes, m); returns ``path``.

    Parameters
    ----------
    system, q : femdyn.model.System, (system.n,) ndarray
        The assembled model; coordinates (default the initial ones).
    path, title : str, optional
        PNG file to write; figure title (default the model name).
    """
    from matplotlib.figure import Figure
    geometry = configuration_geometry(system, system.q0 if q is None else q, meshes=False)
    fig = Figure(figsize=(6, 5))
    ax = fig.add_subplot(projection="3d")
    for name, xyz in geometry.bodies:
        ax.plot(*xyz.T, "-o", lw=2, ms=4, label=name)
    for name, xyz in geometry.beams:
        ax.plot(*xyz.T, "-", lw=2, label=name)
    allp = geometry.points() if geometry.polylines() else np.zeros((1, 3))
    centre, half = 0.5 * (allp.min(0) + allp.max(0)), max(np.ptp(allp, axis=0).max() / 2, 1e-3)
    for setter, c in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), centre):
        setter(c - half, c + half)
    ax.set_xlabel("x [m]"), ax.set_ylabel("y [m]"), ax.set_zlabel("z [m]")
    ax.set_title(title or system.name)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return path


def output_folder(description, default="femdyn-out"):
    """The output folder named on an example script's command line (created), default ./femdyn-out."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("out", nargs="?", default=default, help="folder for the figures (default ./femdyn-out)")
    folder = parser.parse_args().out
    os.makedirs(folder, exist_ok=True)
    return folder
