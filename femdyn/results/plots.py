"""Pictures with matplotlib (off-screen, Agg backend): the configuration of a model and
time histories of result channels. matplotlib is a dependency because hand-written
plotting would be worse and longer."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def plot_configuration(system, q=None, path="configuration.png", title=None):
    """3-D line picture of every body (and element chain) at q, equal axes in m.

    Parameters
    ----------
    system : femdyn.model.system.System
        The assembled model.
    q : ndarray (n,), optional
        Coordinates (default the initial ones).
    path : str or os.PathLike, optional
        PNG file to write.
    title : str, optional
        Figure title (default the model name).

    Returns
    -------
    str or os.PathLike
        ``path``.
    """
    q = system.q0 if q is None else q
    fig = plt.figure(figsize=(6, 5))
    ax = fig.add_subplot(projection="3d")
    every = []
    for body in system.bodies.values():
        xyz = body.outline(q)
        ax.plot(*xyz.T, "-o", lw=2, ms=4, label=body.name)
        every.append(xyz)
    for element in system.elements:
        xyz = element.centreline(q)
        ax.plot(*xyz.T, "-", lw=2, label=element.name)
        every.append(xyz)
    allp = np.vstack(every) if every else np.zeros((1, 3))
    centre, half = 0.5 * (allp.min(0) + allp.max(0)), max(np.ptp(allp, axis=0).max() / 2, 1e-3)
    for setter, c in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), centre):
        setter(c - half, c + half)
    ax.set_xlabel("x [m]"), ax.set_ylabel("y [m]"), ax.set_zlabel("z [m]")
    ax.set_title(title or system.name)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_channels(results, channels, path="channels.png", units=None):
    """One subplot per channel against time.

    Parameters
    ----------
    results : Results
        A run's results.
    channels : sequence of str
        Names accepted by ``results[name]``.
    path : str or os.PathLike, optional
        PNG file to write.
    units : dict, optional
        {channel: unit} shown in the y labels.

    Returns
    -------
    str or os.PathLike
        ``path``.

    Raises
    ------
    FemdynError
        If a channel is unknown.
    """
    fig, axes = plt.subplots(len(channels), 1, figsize=(7, 2.2 * len(channels)), sharex=True, squeeze=False)
    for ax, name in zip(axes[:, 0], channels):
        ax.plot(results.t, results[name], lw=1.2)
        ax.set_ylabel(f"{name}" + (f" [{units[name]}]" if units and name in units else ""), fontsize=8)
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("t [s]")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
