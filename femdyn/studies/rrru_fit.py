"""Reconstructing the 3-RRRU robot's lost data (Liu et al. 2018, Table 1) from the figures the paper
reports: a seeded global fit by differential evolution (docs/rrru.md).

The unknowns (:data:`BOUNDS`) are searched within plausible bounds; the cost is
:func:`~femdyn.studies.rrru_figures.misfit` plus an optional pull ``prior_weight · ln(p / p_default)``
towards the documented defaults; a failed or unreachable case costs :data:`PENALTY`. Each evaluation is a
sweep case, a generation runs through :class:`~femdyn.studies.sweep.ExecutorMap`, so the same seed gives
the same result on any executor; the optimizer is :func:`femdyn.identification.global_fit`
(Storn & Price 1997).
"""
import json
import math
import os
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from ..errors import SchemaError
from .rrru_figures import ANGLE_CONVENTIONS, RIGID_FIGURES, figure_label, misfit, paper_target, rigid_case, within
from .sweep import ExecutorMap, run_case

PENALTY = 10.0       # residual of every figure of a failed case (a factor e¹⁰ off)

BOUNDS = {   # dotted key: (low, high, why)
    "parameters.link1_length": (0.05, 0.6, "0.05 m holds the motor flange and the elbow bearing; above 0.6 m the "
                                         "motor link would be 3.4 times the base circumradius (0.175 m) and 3/4 of "
                                         "the 0.815 m flexible link, no longer the bench-top machine of the paper"),
    "parameters.link2_length": (0.05, 0.6, "the same hardware limits as link 1: a short connector carrying two "
                                         "bearings, at most 3/4 of the flexible link"),
    "parameters.link1_mass": (0.1, 5.0, "0.1 kg: a 20 × 2 mm aluminium tube of 0.3 m with its bearings; 5 kg: a "
                                      "40 mm steel bar of 0.5 m, seven times the 0.69 kg flexible link"),
    "parameters.link2_mass": (0.1, 5.0, "as link 1"),
    "parameters.platform_mass": (0.1, 5.0, "0.1 kg: about the bare 10 mm aluminium triangle (0.13 kg); 5 kg: three "
                                         "times the test rig's 1.6 kg payload"),
}
STUDIES = {"rigid": rigid_case}


@dataclass
class FitConfig:
    """Settings of the fit (SI units; TOML: :func:`fit_config`).

    - ``study``: the case function, "rigid" (:func:`~femdyn.studies.rrru_figures.rigid_case`);
    - ``base``: study settings shared by all cases (``h = 0.01`` moves the figures by < 2e-4 N·m, 0.002°);
    - ``bounds``: dotted key → (low, high): the unknowns and their search ranges;
    - ``figures``: the paper's figures to match (``angle_max_deg`` in the chosen ``angle_convention``);
    - ``angle_convention``: "down", "up" or "start": reading of the paper's active joint angle;
    - ``weights``: figure name → weight of its residual (default 1);
    - ``prior_weight``: weight of the pull ``ln(p / p_default)`` towards the defaults (0: none);
    - ``seed``: seed of the optimizer;
    - ``popsize``, ``maxiter``, ``tol``: ``differential_evolution`` settings.
    """

    study: str = "rigid"
    base: dict = field(default_factory=lambda: {"h": 0.01})
    bounds: dict = field(default_factory=lambda: {k: (lo, hi) for k, (lo, hi, _) in BOUNDS.items()})
    figures: tuple = RIGID_FIGURES
    angle_convention: str = "down"
    weights: dict = field(default_factory=dict)
    prior_weight: float = 0.05
    seed: int = 1
    popsize: int = 8
    maxiter: int = 30
    tol: float = 0.01


def fit_config(data=None, where="fit configuration"):
    """A checked :class:`FitConfig` from a dict (a TOML file's tables) or None."""
    from ..schema import check_table, checked_value, config_from_dict, field_default
    from .rrru_preset import RRRUStudyConfig
    data = dict(data or {})
    defaults = FitConfig()
    check_table(data, dict.fromkeys(asdict(defaults)), where)
    values = {}
    for key in ("seed", "popsize", "maxiter", "tol", "prior_weight", "angle_convention", "study"):
        if key in data:
            values[key] = checked_value(data[key], getattr(defaults, key), key, where)
    if values.get("study", defaults.study) not in STUDIES:
        raise SchemaError(f"{where}: unknown study {values['study']!r}; known: {sorted(STUDIES)}")
    if values.get("angle_convention", defaults.angle_convention) not in ANGLE_CONVENTIONS:
        raise SchemaError(f"{where}: angle_convention must be one of {sorted(ANGLE_CONVENTIONS)}, "
                         f"got {values['angle_convention']!r}")
    for key in ("seed", "popsize", "maxiter"):
        if values.get(key, 1) < (0 if key == "seed" else 1):
            raise SchemaError(f"{where}: {key} must be ≥ {0 if key == 'seed' else 1}, got {values[key]}")
    if "base" in data:
        if not isinstance(data["base"], dict):
            raise SchemaError(f"{where}: base must be a table of study settings, got {data['base']!r}")
        config_from_dict(data["base"], RRRUStudyConfig, where=f"{where} [base]")
        values["base"] = data["base"]
    if "bounds" in data:
        bounds = data["bounds"]
        if not isinstance(bounds, dict) or not bounds:
            raise SchemaError(f"{where}: bounds must be a table of dotted key = [low, high], got {bounds!r}")
        values["bounds"] = {}
        for key, pair in bounds.items():
            field_default(RRRUStudyConfig, key, where=f"{where} bounds")
            low, high = checked_value(pair, (0.0, 0.0), f"bounds.{key}", where)
            if not 0 < low < high:
                raise SchemaError(f"{where}: bounds.{key} needs 0 < low < high, got {list(pair)}")
            values["bounds"][key] = (low, high)
    if "figures" in data:
        if not isinstance(data["figures"], list) or not data["figures"]:
            raise SchemaError(f"{where}: figures must be a non-empty list of names, got {data['figures']!r}")
        for name in data["figures"]:
            paper_target(name)
        values["figures"] = tuple(data["figures"])
    if "weights" in data:
        weights = data["weights"]
        if not isinstance(weights, dict):
            raise SchemaError(f"{where}: weights must be a table of figure = weight, got {weights!r}")
        values["weights"] = {name: checked_value(w, 1.0, f"weights.{name}", where) for name, w in weights.items()}
        for name in weights:
            paper_target(name)
    return FitConfig(**{**asdict(defaults), **values})


def figure_names(config):
    """The figures a fit compares, the angle maximum in the configured convention."""
    angle = ANGLE_CONVENTIONS[config.angle_convention]
    return [angle if name == "angle_max_deg" else name for name in config.figures]


class FitResiduals:
    """θ ↦ residuals of one setting: the figures' misfit and the pull towards the defaults."""

    def __init__(self, study, base, keys, figures, weights, prior_weight, reference):
        self.study, self.base, self.keys, self.figures = study, base, list(keys), list(figures)
        self.weights, self.prior_weight, self.reference = dict(weights), float(prior_weight), np.asarray(reference)

    def __len__(self):
        return len(self.figures) + (len(self.keys) if self.prior_weight else 0)

    def __call__(self, theta):
        record = run_case(self.study, self.base, dict(zip(self.keys, map(float, theta))), None)
        if record["status"] != "completed":
            return np.full(len(self), PENALTY)
        r = misfit(record["summary"], self.figures, self.weights)
        if self.prior_weight:
            r = np.concatenate([r, self.prior_weight * np.log(np.asarray(theta, float) / self.reference)])
        return r


@dataclass
class FitResult:
    """The outcome of :func:`fit`."""

    config: FitConfig
    keys: list
    best: dict
    default: dict
    figures_best: dict
    figures_default: dict
    figures: list
    cost: float
    history: list
    evaluations: int
    wall: float
    error: str = ""


def base_values(config):
    """The values the fitted settings have in the base configuration (the defaults)."""
    from ..schema import config_from_dict, setting_value
    from .rrru_preset import RRRUStudyConfig
    study = config_from_dict(config.base, RRRUStudyConfig)
    return {key: setting_value(study, key) for key in config.bounds}


def fit(config=None, executor=None, progress=False):
    """Fit the lost settings to the paper's figures by seeded differential evolution."""
    from ..identification.estimators import global_fit
    config = config if isinstance(config, FitConfig) else fit_config(config)
    study, keys, names = STUDIES[config.study], list(config.bounds), figure_names(config)
    default = base_values(config)
    f = FitResiduals(study, config.base, keys, names, config.weights, config.prior_weight,
                     [default[k] for k in keys])
    workers = ExecutorMap(executor, progress) if executor is not None else None
    clock = time.perf_counter()
    estimate = global_fit(f, np.zeros(len(f)), [config.bounds[k] for k in keys], names=keys, seed=config.seed,
                          maxiter=config.maxiter, popsize=config.popsize, tol=config.tol, polish=False,
                          workers=workers)
    wall = time.perf_counter() - clock
    if workers:
        workers.bar.close()
    best = dict(zip(keys, map(float, estimate.x)))
    at_best, at_default = run_case(study, config.base, best, None), run_case(study, config.base, {}, None)
    return FitResult(config, keys, best, default, at_best["summary"], at_default["summary"], names,
                     float(estimate.cost), list(estimate.history), workers.evaluations if workers else 0, wall,
                     at_best["error"])


def parameter_table(result):
    """The fitted settings with their bounds, defaults and the bounds' reasons, in Markdown."""
    rows = ["| setting | fitted | default | low | high | why these bounds |", "|---|---|---|---|---|---|"]
    for key in result.keys:
        low, high = result.config.bounds[key]
        why = BOUNDS[key][2] if key in BOUNDS else ""
        rows.append(f"| {key} | {result.best[key]:.4g} | {result.default[key]:.4g} | {low:.4g} | {high:.4g} | {why} |")
    return "\n".join(rows) + "\n"


def residual_table(result):
    """Every figure of the paper the study computes: the paper's value, femdyn's at the
    defaults and at the fitted settings, the residual and whether it is within the
    agreement asked (in Markdown; fitted figures marked)."""
    rows = ["| figure | paper | femdyn, defaults | femdyn, fitted | residual ln(fitted/paper) | asked | met | fitted? |",
            "|---|---|---|---|---|---|---|---|"]
    names = [n for n in (*result.figures, *ANGLE_CONVENTIONS.values(), "torque_max") if n in result.figures_best]
    for name in dict.fromkeys(names):
        target = paper_target(name) if name != "torque_max" else paper_target("torque_peak_smallest")
        best, default = result.figures_best[name], result.figures_default.get(name, math.nan)
        residual = float(misfit({name: best}, [name])[0]) if name != "torque_max" else \
            math.log(best / target.value)
        asked = (f"± {target.tolerance:g} {target.unit}" if target.absolute else f"factor {target.tolerance:g}") + \
            (" (bound)" if target.kind == "below" else "")
        met = within(name, best) if name != "torque_max" else abs(best - target.value) <= target.tolerance
        label = name if name != "torque_max" else "torque_max (the other reading of −8.3 N·m)"
        rows.append(f"| {label} | {target.value:g} {target.unit} | {default:.4g} | {best:.4g} | {residual:+.4f} | "
                    f"{asked} | {'yes' if met else 'no'} | {'yes' if name in result.figures else 'no'} |")
    return "\n".join(rows) + "\n"


def write_fit(result, folder):
    """Write the fit's tables, convergence history and figure."""
    from matplotlib.figure import Figure
    os.makedirs(folder, exist_ok=True)
    paths = [os.path.join(folder, name) for name in ("parameters.md", "residuals.md", "history.csv", "fit.json",
                                                     "fit.png")]
    with open(paths[0], "w") as f:
        f.write(parameter_table(result))
    with open(paths[1], "w") as f:
        f.write(residual_table(result))
    with open(paths[2], "w") as f:
        f.write("generation,best_cost\n" + "".join(f"{k + 1},{c!r}\n" for k, c in enumerate(result.history)))
    with open(paths[3], "w") as f:
        json.dump({**asdict(result), "config": asdict(result.config)}, f, indent=1, default=float)
    fig = Figure(figsize=(11, 4.2))
    ax, ax2 = fig.subplots(1, 2)
    ax.semilogy(range(1, len(result.history) + 1), np.maximum(result.history, 1e-16), "o-", ms=3)
    ax.set_xlabel("generation")
    ax.set_ylabel("best cost ½Σr² [–]")
    ax.set_title(f"Differential evolution, seed {result.config.seed}: {result.evaluations} cases")
    ax.grid(True, alpha=0.3)
    names = result.figures
    x = np.arange(len(names))
    for shift, figures, label in ((-0.2, result.figures_default, "defaults"), (0.2, result.figures_best, "fitted")):
        ratios = [figures.get(n, math.nan) / paper_target(n).value for n in names]
        ax2.bar(x + shift, ratios, 0.4, label=label)
    for k, n in enumerate(names):
        t = paper_target(n)
        low, high = ((t.value - t.tolerance) / t.value, (t.value + t.tolerance) / t.value) if t.absolute else \
            (1 / t.tolerance, t.tolerance)
        ax2.plot([k - 0.45, k + 0.45], [min(low, high)] * 2, "k:", lw=1)
        ax2.plot([k - 0.45, k + 0.45], [max(low, high)] * 2, "k:", lw=1)
    ax2.axhline(1.0, color="k", lw=0.8)
    ax2.set_xticks(x, [figure_label(n) for n in names], rotation=20, ha="right", fontsize=8)
    ax2.set_ylabel("femdyn / paper [–]")
    ax2.set_title("Figures against Liu et al. (2018)\n(dotted: the agreement asked)", fontsize=10)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(paths[4], dpi=110)
    return paths
