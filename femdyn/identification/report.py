"""Tables, the identifiability report (relative sensitivities, relative standard deviations, the
weakest direction of the θ-scaled Jacobian; Swevers et al. 1997, §III) and plots of an identification.
"""
import numpy as np

from ..results import time_histories


def table(headers, rows, digits=6):
    """A Markdown table (str): numbers with ``digits`` significant digits, strings as they are."""
    def cell(x):
        if isinstance(x, (float, np.floating)):
            return "∞" if np.isposinf(x) else "—" if not np.isfinite(x) else f"{x:.{digits}g}"
        return str(x)

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def identifiability(J, theta, names, sigma):
    """(text, relative std (p,)) of the identifiability analysis described in the module doc."""
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
    """Measured and predicted channels against the sample number."""
    first = next(iter(series))
    return time_histories(path, t, [(ylabel, series)], title, xlabel="sample", size=(8, 3.5),
                          styles={first: dict(marker="o", linestyle="none", color="k")})


def plot_estimates(path, names, truth, estimates, title):
    """Bar chart of estimate/true − 1 (%) per parameter for each estimator."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(8, 3.5))
    ax = fig.subplots()
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
    return path
