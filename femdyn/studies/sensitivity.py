"""Normalized sensitivities of a study's figures to its settings, by central differences,
run as the cases of a sweep (:mod:`femdyn.studies.sweep`: Dask or any executor).

For a setting p (a dotted key such as ``"geometry.link1_mass"``) and a figure f, the
normalized (logarithmic) sensitivity is ::

    S = d ln|f| / d ln p ≈ (ln|f(p₊)| − ln|f(p₋)|) / (ln p₊ − ln p₋),   p± = p (1 ± δ),

the central difference in logarithms (second-order accurate in δ; Saltelli et al. 2008,
*Global Sensitivity Analysis: The Primer*, §1.2.3, "sigma-normalized/elasticity"
derivatives): S = 1 means the figure moves in proportion to the setting, S = 0 not at all.
A whole-number setting (elements per link) steps by the nearest different integers. Two
cases per setting, the base configuration's other settings unchanged.
"""
import math
import os

import numpy as np

from ..errors import ModelError
from .sweep import run_sweep


def central_cases(parameters, step=0.05):
    """The two cases of each setting: p (1 + δ) and p (1 − δ)."""
    if not 0.0 < step < 1.0:
        raise ModelError(f"sensitivity: the relative step must lie in (0, 1), got {step!r}")
    cases = []
    for key, value in parameters.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or not math.isfinite(value):
            raise ModelError(f"sensitivity: {key} = {value!r} has no logarithm; give it a positive base value "
                             "(e.g. in the sweep's [base] settings)")
        if isinstance(value, int):
            up, down = max(round(value * (1 + step)), value + 1), min(round(value * (1 - step)), value - 1)
            if down < 1:
                raise ModelError(f"sensitivity: {key} = {value} cannot step down to a whole number ≥ 1; "
                                 "give it a base value ≥ 2")
        else:
            up, down = value * (1 + step), value * (1 - step)
        cases += [{key: up}, {key: down}]
    return cases


def normalized_sensitivities(records, parameters, figures):
    """The matrix ``S[i, j] = d ln|figure i| / d ln parameter j`` from the central cases' records."""
    S = np.full((len(figures), len(parameters)), np.nan)
    for j, key in enumerate(parameters):
        up, down = records[2 * j], records[2 * j + 1]
        if up["status"] != "completed" or down["status"] != "completed":
            continue
        dlnp = math.log(up["parameters"][key] / down["parameters"][key])
        for i, name in enumerate(figures):
            fu, fd = up["summary"].get(name), down["summary"].get(name)
            if isinstance(fu, (int, float)) and isinstance(fd, (int, float)) and fu * fd > 0:
                S[i, j] = math.log(fu / fd) / dlnp
    return S


def sensitivity_table(S, parameters, figures, digits=3):
    """The sensitivities as a Markdown table (figures down, settings across; "n/a" where
    a case failed or the figure crosses 0)."""
    out = ["| d ln f / d ln p | " + " | ".join(parameters) + " |", "|---|" + "---|" * len(parameters)]
    for name, row in zip(figures, S):
        out.append(f"| {name} | " + " | ".join("n/a" if np.isnan(v) else f"{v:.{digits}f}" for v in row) + " |")
    return "\n".join(out) + "\n"


def sensitivity_figure(path, S, parameters, figures, title, step):
    """A heat map of the sensitivities, each cell annotated."""
    from matplotlib.figure import Figure
    largest = float(np.nanmax(np.abs(S))) if np.isfinite(S).any() else 1.0
    limit = min(max(largest, 1e-12), 3.0)          # colours saturate at ±3: a few huge entries keep the rest readable
    fig = Figure(figsize=(1.1 * len(parameters) + 3.5, 0.55 * len(figures) + 2.2))
    ax = fig.subplots()
    image = ax.imshow(np.ma.masked_invalid(S), cmap="RdBu_r", vmin=-limit, vmax=limit, aspect="auto")
    for i in range(len(figures)):
        for j in range(len(parameters)):
            text = "n/a" if np.isnan(S[i, j]) else f"{S[i, j]:.2f}"
            dark = np.isfinite(S[i, j]) and abs(S[i, j]) > 0.6 * limit
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(len(parameters)), parameters, rotation=35, ha="right", fontsize=8)
    ax.set_yticks(range(len(figures)), figures, fontsize=8)
    ax.set_title(f"{title}\nd ln|figure| / d ln setting, central differences at ±{step:.0%} "
                 "(n/a: a case failed or the figure crosses 0)", fontsize=10)
    fig.colorbar(image, ax=ax, label=f"normalized sensitivity [–] (colours saturate at ±{limit:.3g})")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path


def run_sensitivities(study, base, parameters, figures, output, executor=None, step=0.05, title="sensitivities",
                      labels=None, progress=False):
    """Run the central cases of every setting as a sweep and write the sensitivities."""
    keys = list(parameters)
    records = run_sweep(study, base, central_cases(parameters, step), output, executor=executor, progress=progress)
    S = normalized_sensitivities(records, keys, list(figures))
    table = sensitivity_table(S, keys, list(figures))
    with open(os.path.join(output, "sensitivities.md"), "w") as f:
        f.write(table)
    with open(os.path.join(output, "sensitivities.csv"), "w") as f:
        f.write("figure," + ",".join(keys) + "\n")
        f.writelines(f"{name}," + ",".join(repr(float(v)) for v in row) + "\n" for name, row in zip(figures, S))
    rows = [(labels or {}).get(name, name) for name in figures]
    path = sensitivity_figure(os.path.join(output, "sensitivities.png"), S, keys, rows, title, step)
    return {"S": S, "parameters": keys, "figures": list(figures), "records": records, "table": table, "figure": path}
