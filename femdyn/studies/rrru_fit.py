"""Reconstructing the 3-RRRU robot's lost data (Liu et al. 2018, their Table 1) from the
figures the paper reports: a seeded global fit by differential evolution.

The unknowns are dotted settings of the study (by default the lengths and masses of links
1 and 2 and the platform's mass, :data:`BOUNDS`), searched within physically plausible
bounds; the misfit is :func:`~femdyn.studies.rrru_figures.misfit` (log-ratio to each
figure of the paper, or the excess over a reported bound) over the chosen figures, plus
an optional weak pull ``prior_weight · ln(p / p_default)`` towards the documented defaults
(:class:`~femdyn.robots.rrru.RRRUGeometry`): the paper's three rigid figures cannot fix five
unknowns, and the pull picks, among the settings that match, the one nearest the
documented choice. A setting whose circle is out of reach or too near a singularity
(:func:`~femdyn.studies.rrru_figures.check_reachable`), or whose run fails, is a case that
failed: its residuals are all :data:`PENALTY` (a large cost, never a crash).

Every evaluation is a sweep case (:func:`femdyn.studies.sweep.run_case`: plain settings,
one BLAS thread), and a generation's members are evaluated together through
:class:`femdyn.studies.sweep.ExecutorMap` on Dask or any ``concurrent.futures`` executor,
so a cluster makes the fit faster and the same seed gives the same result, bit for bit,
on any executor. The optimizer is :func:`femdyn.identification.global_fit` (scipy's
``differential_evolution``, Storn & Price 1997, in unit-box coordinates).
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
    "geometry.link1_length": (0.05, 0.6, "0.05 m holds the motor flange and the elbow bearing; above 0.6 m the "
                                         "motor link would be 3.4 times the base circumradius (0.175 m) and 3/4 of "
                                         "the 0.815 m flexible link, no longer the bench-top machine of the paper"),
    "geometry.link2_length": (0.05, 0.6, "the same hardware limits as link 1: a short connector carrying two "
                                         "bearings, at most 3/4 of the flexible link"),
    "geometry.link1_mass": (0.1, 5.0, "0.1 kg: a 20 × 2 mm aluminium tube of 0.3 m with its bearings; 5 kg: a "
                                      "40 mm steel bar of 0.5 m, seven times the 0.69 kg flexible link"),
    "geometry.link2_mass": (0.1, 5.0, "as link 1"),
    "geometry.platform_mass": (0.1, 5.0, "0.1 kg: about the bare 10 mm aluminium triangle (0.13 kg); 5 kg: three "
                                         "times the test rig's 1.6 kg payload"),
}
STUDIES = {"rigid": rigid_case}


@dataclass
class FitConfig:
    """Settings of the fit (SI units; TOML: :func:`fit_config`).

    Parameters
    ----------
    study : {"rigid"}
        The case function computing the figures (``"rigid"``:
        :func:`~femdyn.studies.rrru_figures.rigid_case`).
    base : dict
        Settings of the study shared by all cases (``h = 0.01``: the rigid figures move by
        less than 2e-4 N·m and 0.002° from h = 1 ms).
    bounds : dict
        Dotted key → (low, high) [SI]: the unknowns and their search ranges.
    figures : tuple of str
        The paper's figures to match; ``angle_max_deg`` stands for the angle maximum in
        the chosen ``angle_convention``.
    angle_convention : {"down", "up", "start"}
        Reading of the paper's active joint angle
        (:mod:`~femdyn.studies.rrru_figures`): femdyn's horizontal zero positive
        downwards, positive upwards, or zero at the start pose.
    weights : dict
        Figure name → weight of its residual (default 1).
    prior_weight : float
        Weight of the pull ``ln(p / p_default)`` towards the defaults (0: none).
    seed : int
        Seed of the optimizer.
    popsize, maxiter : int
        Population size multiplier and generations of ``differential_evolution``.
    tol : float
        Its relative convergence tolerance on the population's costs.
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
    """A checked :class:`FitConfig` from a dict (a TOML file's tables) or None.

    ``data`` (dict, optional): top-level keys of :class:`FitConfig`; ``[base]`` settings of the study,
    ``[bounds]`` dotted key → [low, high], ``[weights]`` figure → weight; ``where`` (str, optional): where the
    settings come from, for the messages. Returns FitConfig. Raises SchemaError: an unknown key, study, figure,
    setting or convention, a bound with low ≥ high or low ≤ 0, a bad number (each named).

    Example
    -------
    >>> fit_config({"bounds": {"geometry.link1_mass": [0.5, 3.0]}, "maxiter": 5}).bounds
    {'geometry.link1_mass': (0.5, 3.0)}
    """
    from ..schema import check_table, checked_value, config_from_dict, field_default
    from .rrru import RigidStudyConfig
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
        config_from_dict(data["base"], RigidStudyConfig, where=f"{where} [base]")
        values["base"] = data["base"]
    if "bounds" in data:
        bounds = data["bounds"]
        if not isinstance(bounds, dict) or not bounds:
            raise SchemaError(f"{where}: bounds must be a table of dotted key = [low, high], got {bounds!r}")
        values["bounds"] = {}
        for key, pair in bounds.items():
            field_default(RigidStudyConfig, key, where=f"{where} bounds")
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
    """The figures a fit compares, the angle maximum in the configured convention.

    ``config`` (FitConfig). Returns list of str.

    Example
    -------
    >>> figure_names(FitConfig(angle_convention="up"))
    ['torque_peak_largest', 'torque_peak_smallest', 'angle_max_up_deg']
    """
    angle = ANGLE_CONVENTIONS[config.angle_convention]
    return [angle if name == "angle_max_deg" else name for name in config.figures]


class FitResiduals:
    """θ ↦ residuals of one setting: the figures' misfit and the pull towards the defaults.

    A module-level class (picklable): the optimizer's workers evaluate it. Each call is a
    sweep case without an output folder (:func:`~femdyn.studies.sweep.run_case`); a
    failed case returns :data:`PENALTY` for every residual.

    ``study`` (callable): case function ``study(config: dict, output) -> dict`` of figures; ``base`` (dict):
    plain base settings; ``keys`` (list of str): dotted keys of θ's entries; ``figures`` (list of str): figure
    names (:func:`~femdyn.studies.rrru_figures.misfit`); ``weights`` (dict): figure → weight; ``prior_weight``
    (float): weight of ``ln(θ / reference)``; ``reference`` ((p,) array_like): the defaults the pull goes
    towards [SI].

    Example
    -------
    >>> f = FitResiduals(rigid_case, {"h": 0.01}, ["geometry.link1_mass"], ["torque_peak_largest"], {}, 0.0, [2.0])
    >>> f([2.0]).round(3).tolist()                                                  # doctest: +SKIP
    [0.014]
    """

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
    """The outcome of :func:`fit`.

    ``config`` (FitConfig); ``keys`` (list of str): the fitted settings; ``best`` (dict): key → fitted value
    [SI]; ``default`` (dict): key → the value the base configuration (with the defaults) has; ``figures_best,
    figures_default`` (dict): every figure of the study at the fitted and at the default settings; ``figures``
    (list of str): the figures fitted; ``cost`` (float): ½ Σ residual² at the best setting; ``history`` (list of
    float): best cost per generation; ``evaluations`` (int): cases run by the optimizer's workers; ``wall``
    (float): wall time of the optimization [s]; ``error`` (str): "" or the error of the best setting's case (no
    feasible setting found).
    """

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
    """The values the fitted settings have in the base configuration (the defaults).

    ``config`` (FitConfig). Returns dict: dotted key → value [SI].

    Example
    -------
    >>> base_values(FitConfig())["geometry.link1_length"]
    0.35
    """
    from ..schema import config_from_dict, setting_value
    from .rrru import RigidStudyConfig
    study = config_from_dict(config.base, RigidStudyConfig)
    return {key: setting_value(study, key) for key in config.bounds}


def fit(config=None, executor=None, progress=False):
    """Fit the lost settings to the paper's figures by seeded differential evolution.

    ``config`` (FitConfig or dict, optional): the fit (a dict goes through :func:`fit_config`); ``executor``
    (concurrent.futures.Executor, optional): where each generation's cases run (a Dask
    ``Client.get_executor()``, ``ThreadPoolExecutor``, …); None evaluates them in this process, one by one;
    ``progress`` (bool, optional): a progress bar counting the cases (with an executor). Returns FitResult.

    Example
    -------
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as pool:                                        # doctest: +SKIP
    ...     result = fit({"maxiter": 2, "popsize": 2}, pool)
    >>> sorted(result.best)                                                         # doctest: +SKIP
    ['geometry.link1_length', 'geometry.link1_mass', ...]
    """
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
    """The fitted settings with their bounds, defaults and the bounds' reasons, in Markdown.

    ``result`` (FitResult). Returns str.
    """
    rows = ["| setting | fitted | default | low | high | why these bounds |", "|---|---|---|---|---|---|"]
    for key in result.keys:
        low, high = result.config.bounds[key]
        why = BOUNDS[key][2] if key in BOUNDS else ""
        rows.append(f"| {key} | {result.best[key]:.4g} | {result.default[key]:.4g} | {low:.4g} | {high:.4g} | {why} |")
    return "\n".join(rows) + "\n"


def residual_table(result):
    """Every figure of the paper the study computes: the paper's value, femdyn's at the
    defaults and at the fitted settings, the residual and whether it is within the
    agreement asked (in Markdown; fitted figures marked).

    ``result`` (FitResult). Returns str.
    """
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
    """Write the fit's tables, convergence history and figure.

    ``parameters.md``, ``residuals.md``, ``history.csv`` (generation, best cost),
    ``fit.json`` (everything) and ``fit.png`` (convergence; figures against the paper's).

    ``result`` (FitResult); ``folder`` (str): output folder (created). Returns list of str: the paths written.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
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
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
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
    plt.close(fig)
    return paths
