"""Plot helpers for the recursive-dynamics examples: an output folder and time-history figures."""
import argparse
import os


def output_folder(description, default="femdyn-out"):
    """Folder named on the command line (created), default ./femdyn-out.

    Parameters
    ----------
    description : str
        The script's description for ``--help``.
    default : str, optional
        Folder when none is given.

    Returns
    -------
    str
        The folder, created if missing.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("out", nargs="?", default=default, help="folder for the figures (default ./femdyn-out)")
    folder = parser.parse_args().out
    os.makedirs(folder, exist_ok=True)
    return folder


def time_histories(path, t, panels, title):
    """Save a figure with one panel per (ylabel, {label: series}) item.

    Parameters
    ----------
    path : str or os.PathLike
        PNG file to write.
    t : array_like (k,)
        Time, s.
    panels : sequence of (str, dict)
        (y-axis label with unit, {curve label: series (k,)}) per panel.
    title : str
        Title of the top panel.

    Returns
    -------
    str or os.PathLike
        ``path``.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 2.6 * len(panels)), sharex=True, squeeze=False)
    for ax, (ylabel, series) in zip(axes[:, 0], panels):
        for label, y in series.items():
            ax.plot(t, y, label=label)
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
        if len(series) > 1:
            ax.legend(fontsize=7, ncol=min(len(series), 4))
    axes[-1, 0].set_xlabel("t [s]")
    axes[0, 0].set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
