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
    """The two cases of each setting: p (1 + δ) and p (1 − δ).

    ``parameters`` (dict): dotted key → base value (> 0; whole numbers step to the nearest different integers);
    ``step`` (float, optional): relative step δ (0 < δ < 1). Returns list of dict: overrides, in the order key 1
    (+), key 1 (−), key 2 (+), …. Raises ModelError: a step outside (0, 1) or a base value that is not a
    positive number (named; a setting at 0, e.g. ``geometry.damping``, needs a positive base value in the
    sweep's base settings).

    Example
    -------
    >>> central_cases({"payload": 2.0, "n_elements": 4}, 0.1)
    [{'payload': 2.2}, {'payload': 1.8}, {'n_elements': 5}, {'n_elements': 3}]
    """
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
    """The matrix ``S[i, j] = d ln|figure i| / d ln parameter j`` from the central cases' records.

    ``records`` (list of dict): the records of :func:`~femdyn.studies.sweep.run_sweep` for
    :func:`central_cases`, in their order (``parameters`` and ``summary`` of each); ``parameters`` (sequence of
    str): the dotted keys, in the order given to :func:`central_cases`; ``figures`` (sequence of str): summary
    names. Returns ndarray (len(figures), len(parameters)): NaN where a case failed, a figure is missing or
    changes sign or is 0.

    Example
    -------
    >>> records = [{"status": "completed", "parameters": {"m": 1.1}, "summary": {"tau": -2.2}},
    ...            {"status": "completed", "parameters": {"m": 0.9}, "summary": {"tau": -1.8}}]
    >>> normalized_sensitivities(records, ["m"], ["tau"]).round(6).tolist()
    [[1.0]]
    """
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
    a case failed or the figure crosses 0).

    ``S`` (ndarray (len(figures), len(parameters))): from :func:`normalized_sensitivities`; ``parameters,
    figures`` (sequence of str): column and row names; ``digits`` (int, optional): decimals. Returns str.

    Example
    -------
    >>> print(sensitivity_table(np.array([[1.0, np.nan]]), ["a", "b"], ["f"]), end="")
    | d ln f / d ln p | a | b |
    |---|---|---|
    | f | 1.000 | n/a |
    """
    out = ["| d ln f / d ln p | " + " | ".join(parameters) + " |", "|---|" + "---|" * len(parameters)]
    for name, row in zip(figures, S):
        out.append(f"| {name} | " + " | ".join("n/a" if np.isnan(v) else f"{v:.{digits}f}" for v in row) + " |")
    return "\n".join(out) + "\n"


def sensitivity_figure(path, S, parameters, figures, title, step):
    """A heat map of the sensitivities, each cell annotated.

    ``path`` (str): the PNG to write; ``S`` (ndarray (len(figures), len(parameters))): from
    :func:`normalized_sensitivities`; ``parameters, figures`` (sequence of str): column and row labels
    (settings, figures with their units); ``title`` (str): the figure's title; ``step`` (float): the relative
    step δ, stated under the title. Returns str: ``path``.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    largest = float(np.nanmax(np.abs(S))) if np.isfinite(S).any() else 1.0
    limit = min(max(largest, 1e-12), 3.0)          # colours saturate at ±3: a few huge entries keep the rest readable
    fig, ax = plt.subplots(figsize=(1.1 * len(parameters) + 3.5, 0.55 * len(figures) + 2.2))
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
    plt.close(fig)
    return path


def run_sensitivities(study, base, parameters, figures, output, executor=None, step=0.05, title="sensitivities",
                      labels=None, progress=False):
    """Run the central cases of every setting as a sweep and write the sensitivities.

    ``study`` (callable): the sweep's case function ``study(config: dict, output: str) -> dict``; ``base``
    (dict): plain base configuration; ``parameters`` (dict): dotted key → base value (the value the base
    configuration has); ``figures`` (sequence of str): summary names to differentiate; ``output`` (str): folder:
    the sweep's outputs plus ``sensitivities.csv``, ``sensitivities.md`` and ``sensitivities.png``; ``executor``
    (concurrent.futures.Executor, optional): as in :func:`~femdyn.studies.sweep.run_sweep` (default a local Dask
    cluster); ``step`` (float, optional): relative step δ; ``title`` (str, optional): title of the heat map;
    ``labels`` (dict, optional): figure name → row label of the heat map (e.g. with its unit); ``progress``
    (bool, optional): a progress bar. Returns dict: ``S`` (ndarray, figures × settings), ``parameters``,
    ``figures``, ``records``, ``table`` (Markdown) and ``figure`` (the PNG's path).

    Example
    -------
    >>> from femdyn.studies.rrru_figures import rigid_case
    >>> out = run_sensitivities(rigid_case, {"h": 0.01}, {"geometry.link1_mass": 2.0},
    ...                         ["torque_peak_largest"], "sens")                          # doctest: +SKIP
    """
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
