"""Tables, the identifiability report and plots of an identification.

The identifiability report works on the Jacobian J = ∂f/∂θ of the measurement equation
at the estimate, with the parameters scaled to relative changes (columns J_k θ_k), so
parameters of different units compare:

* relative sensitivity ‖J_k θ_k‖ / √N — how much a 100 % change of θ_k moves the
  measurements (rms, units of y);
* relative standard deviation σ_k / \\|θ_k\\| from the covariance σ² (JᵀJ)⁻¹ — what the
  noise level σ leaves of the parameter (Swevers et al. 1997, §III);
* the weakest direction: the right singular vector of the scaled J with the smallest
  singular value, i.e. the combination of parameters the data see least.
"""
import numpy as np

from ..results import time_histories


def table(headers, rows, digits=6):
    """A Markdown table (str): numbers with ``digits`` significant digits, strings as they are.

    ``headers`` (sequence of str): column titles; ``rows`` (sequence of sequences): cells: floats (∞ for +inf, —
    for NaN) or anything printed with ``str``; ``digits`` (int, optional): significant digits of floats. Returns
    str.

    Example
    -------
    >>> print(table(["a", "b"], [["x", 1.0]]))
    | a | b |
    |---|---|
    | x | 1 |
    """
    def cell(x):
        if isinstance(x, (float, np.floating)):
            return "∞" if np.isposinf(x) else "—" if not np.isfinite(x) else f"{x:.{digits}g}"
        return str(x)

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def identifiability(J, theta, names, sigma):
    """(text, relative std (p,)) of the identifiability analysis described in the module doc.

    Directions the data cannot see (singular value ≤ 1e-10 of the largest) are named,
    and parameters involved in them get an infinite relative std.

    ``J`` (ndarray (N, p)): Jacobian of the measurements at θ; ``theta`` (array_like (p,)): the estimate;
    ``names`` (sequence of str): parameter names; ``sigma`` (float): noise standard deviation, units of the
    measurements (0: the relative std column is left out). Returns ``text`` (str): Markdown table and findings;
    ``rel_std`` (ndarray (p,)): σ_k / \\|θ_k\\| (for σ = 1 when sigma is 0).

    Examples
    --------
    >>> text, rel = identifiability(np.array([[1.0, 1.0], [1.0, 1.0]]), [1.0, 1.0], ["a", "b"], 0.1)
    >>> "NOT IDENTIFIABLE" in text, bool(np.isinf(rel).all())
    (True, True)
    """
    from .estimators import unseen_directions
    theta = np.asarray(theta, float)
    Js = J * theta[None, :]
    sensitivity = np.linalg.norm(Js, axis=0) / np.sqrt(J.shape[0])
    s, null = unseen_directions(Js)
    _, _, Vt = np.linalg.svd(Js, full_matrices=False)
    keep = s > 1e-10 * s[0]
    rel_std = (sigma if sigma > 0 else 1.0) * np.sqrt(np.diag((Vt[keep].T / s[keep] ** 2) @ Vt[keep]))
    if len(null):
        rel_std[np.abs(null).max(axis=0) > 1e-6] = np.inf
    weak = Vt[-1] / np.abs(Vt[-1]).max() if not len(null) else null[0] / np.abs(null[0]).max()
    rows = [[n, float(t), float(sens), float(100 * r) if sigma > 0 else float("nan"), float(w)]
            for n, t, sens, r, w in zip(names, theta, sensitivity, rel_std, weak)]
    least = int(np.argmin(sensitivity))
    text = [table(["parameter", "value", "rel. sensitivity (rms of y per 100 %)",
                   f"rel. std % (σ = {sigma:g})", "weakest direction"], rows, 4), "",
            f"Singular values of the scaled Jacobian: {np.array2string(s, precision=4)}; "
            f"condition number {s[0] / max(s[-1], 1e-300):.4g}.",
            f"Least sensitive: {names[least]} (a 100 % change moves the measurements by {sensitivity[least]:.3g} rms, "
            f"{sensitivity[least] / sensitivity.max():.2%} of the most sensitive parameter): its share of the "
            "measured momentum is small, so noise and model error weigh most on it."]
    for direction in null:
        d = direction / np.abs(direction).max()
        combo = " + ".join(f"{c:.4g}·Δ{n}/{n}" for n, c in zip(names, d) if abs(c) > 1e-3)
        text.append(f"NOT IDENTIFIABLE from these data: the relative changes along ({combo}) leave every "
                    "measurement unchanged (to first order); more varied motions (several joints at once, other "
                    "configurations) or fixing one of these parameters are needed.")
    return "\n".join(text), rel_std


def plot_fit(path, t, series, ylabel, title):
    """Measured and predicted channels against the sample number.

    ``path`` (str or os.PathLike): PNG file to write; ``t`` (array_like (N,)): sample numbers (x axis);
    ``series`` (dict): label → (N,) values; the first is drawn as measured points, the others as lines;
    ``ylabel`` (str): y-axis label with unit; ``title`` (str): figure title. Returns str or os.PathLike:
    ``path``.
    """
    first = next(iter(series))
    return time_histories(path, t, [(ylabel, series)], title, xlabel="sample", size=(8, 3.5),
                          styles={first: dict(marker="o", linestyle="none", color="k")})


def plot_estimates(path, names, truth, estimates, title):
    """Bar chart of estimate/true − 1 (%) per parameter for each estimator.

    ``path`` (str or os.PathLike): PNG file to write; ``names`` (sequence of str): parameter names; ``truth``
    (array_like (p,)): true values; ``estimates`` (dict): estimator label → θ (p,); ``title`` (str): figure
    title. Returns str or os.PathLike: ``path``.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 3.5))
    width = 0.8 / max(len(estimates), 1)
    x = np.arange(len(names))
    for k, (label, theta) in enumerate(estimates.items()):
        ax.bar(x + k * width, 100 * (np.asarray(theta) / truth - 1), width, label=label)
    ax.set_xticks(x + 0.4 - width / 2, names, rotation=20, fontsize=8)
    ax.set_ylabel("error [%]")
    ax.set_title(title, fontsize=9)
    ax.axhline(0, color="k", lw=0.8)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
