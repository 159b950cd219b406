"""A complete momentum identification of a free-floating robot with a reaction wheel (the space-robot identification study).

:func:`run` takes a checked configuration (:mod:`.config`) and

1. simulates one experiment per plan with the forward (hybrid) solver
   (:func:`~.experiment.wheel_experiment`) and adds the configured noise;
2. **linear form** (base pose measured): stacks the momentum regressor of the chosen
   channels, finds the base parameters of these data (:mod:`.base_parameters`) and
   estimates them by least squares with their covariance;
3. **nonlinear form** (the space-robot identification study: base attitude and joints only, momentum about the
   system centre of mass, :class:`~.regression.CentroidalMomentum`): estimates the
   selected physical parameters θ by the study's single linearized step, by that step
   iterated to convergence, and globally by differential evolution within bounds with
   physical consistency enforced (pseudo-inertia ≻ 0 for every body);
4. reports the estimates, their consistency, the identifiability, and plots.
"""
import os
from dataclasses import dataclass, field

import numpy as np

from femdyn.errors import ModelError
from femdyn.robots.planar_space_robot import planar_space_robot
from femdyn.solvers.recursive.floating import base_index
from femdyn.solvers.recursive.regressor import inertial_parameters

from . import report
from .base_parameters import base_parameters
from .estimators import global_fit, jacobian, least_squares, linearized_iteration
from .excitation import Cubic
from .experiment import Measurements, add_noise, wheel_experiment
from .parameters import Selection, consistency, parameter_names, pseudo_inertia
from .regression import CentroidalMomentum, momentum_rows

ROBOTS = {"planar_space_robot": planar_space_robot}
ORIGINAL_METHOD, ITERATED, GLOBAL = "linearized, 1 step (original)", "linearized, iterated", "differential evolution"


@dataclass
class StudyResult:
    """Everything :func:`run` computed: the nonlinear estimates per method (θ), the linear
    base-parameter estimate, the texts of the report and the files written.

    ``names`` (list of str): selected physical parameters θ (``body.quantity``); ``truth, nominal`` (ndarray
    (p,)): true and nominal θ (kg, m, kg·m²); ``estimates`` (dict): method label →
    :class:`~.estimators.Estimate` of θ; ``base`` (BaseParameters): base parameters of the linear form;
    ``beta_true`` (ndarray (r,)): their true values; ``linear`` (Estimate): least-squares estimate of the base
    parameters; ``text`` (str): the Markdown report; ``files`` (list of str, optional): files written.
    """
    names: list
    truth: np.ndarray
    nominal: np.ndarray
    estimates: dict
    base: object
    beta_true: np.ndarray
    linear: object
    text: str
    files: list = field(default_factory=list)


def robot(config):
    """The configured robot (a TreeModel) and its wheel's name.

    ``config`` (dict): checked configuration (:func:`~.config.parse`). Returns (TreeModel, str). Raises
    ModelError: if the built-in robot is unknown.
    """
    name = config["robot"]["builtin"]
    if name not in ROBOTS:
        raise ModelError(f"[robot] builtin = '{name}' is unknown; available: {sorted(ROBOTS)}")
    return ROBOTS[name](), config["robot"].get("wheel", "wheel")


def plan_columns(model, wheel):
    """Names of the planned coordinates: the base (attitude about z) and the arm joints, in model order.

    ``model`` (TreeModel): free-floating robot; ``wheel`` (str): the reaction wheel (not planned). Returns list
    of str.
    """
    base, w = base_index(model), model.index(wheel)
    return [model.names[base]] + [model.names[i] for i in range(model.n)
                                  if i not in (base, w) and model.joint_nv[i] == 1]


def cubic_plan(columns, final_deg, duration):
    """:class:`~.excitation.Cubic` from rest at zero to ``final_deg`` (others stay at 0).

    ``columns`` (sequence of str): planned coordinates (:func:`plan_columns`); ``final_deg`` (dict): coordinate
    → final value, degrees; ``duration`` (float): plan time, s. Returns Cubic. Raises ModelError: if a
    coordinate is not planned.
    """
    unknown = sorted(set(final_deg) - set(columns))
    if unknown:
        raise ModelError(f"plan: coordinates {unknown} are not planned coordinates {columns}")
    final = np.radians([float(final_deg.get(c, 0.0)) for c in columns])
    return Cubic(np.zeros(len(columns)), final, duration)


def concatenate(parts):
    """One :class:`~.experiment.Measurements` from several (samples one after the other).

    ``parts`` (sequence of Measurements): same channels and kind; channels, kind and noise level are taken from
    the first. Returns Measurements.
    """
    first = parts[0]
    return Measurements(np.concatenate([m.t for m in parts]), np.vstack([m.q for m in parts]),
                        np.vstack([m.v for m in parts]), np.vstack([m.qdd for m in parts]),
                        np.vstack([m.y for m in parts]), first.channels, first.kind, first.std)


def simulate_experiments(config, log=print):
    """(Measurements of all plans, identified model): step 1 of :func:`run`.

    ``config`` (dict): checked configuration; ``log`` (callable, optional): receives progress lines. Returns
    (Measurements, TreeModel): noisy samples of all plans, and the robot with the wheel merged into the base.
    """
    model, wheel = robot(config)
    ex = config["experiment"]
    columns = plan_columns(model, wheel)
    plans = [cubic_plan(columns, plan["final_deg"], ex["duration"]) for plan in ex["plan"]]     # all checked first
    parts = []
    for k, (plan, traj) in enumerate(zip(ex["plan"], plans)):
        meas, merged = wheel_experiment(model, wheel, traj, ex["duration"], ex["sample_interval"], ex["step"],
                                        ex["kp"], ex["kd"])
        parts.append(add_noise(meas, ex["noise_std"], seed=ex["seed"] + k))
        log(f"experiment {k + 1}: {plan['final_deg']} deg over {ex['duration']:g} s, {len(meas.t)} samples")
    return concatenate(parts), merged


def _selection(model, names):
    """The Selection of dotted parameter names (``body.parameter``)."""
    entries = [tuple(n.split(".")) for n in names]
    return Selection(model, entries)


def physical_margin(selection):
    """g(θ) = smallest eigenvalue of every body's pseudo-inertia divided by its mass (m²): ≥ 0 when physical.

    ``selection`` (Selection): maps θ to π. Returns callable: θ ↦ ndarray (n,), one margin per body.
    """
    def g(theta):
        pi = selection.parameters(theta).reshape(-1, 10)
        J = np.array([pseudo_inertia(p) for p in pi])
        return np.linalg.eigvalsh(J)[:, 0] / np.maximum(np.abs(pi[:, 0]), 1e-300)
    return g


def linear_form(model, meas, channels, sigma):
    """(BaseParameters, true β, Estimate) of the linear momentum regression (step 2 of :func:`run`).

    ``model`` (TreeModel): the identified model (true parameters); ``meas`` (Measurements): momentum samples;
    ``channels`` (sequence of str): momentum channels to use; ``sigma`` (float): noise standard deviation, N·m·s
    (0: unweighted). Returns (BaseParameters, ndarray, Estimate).
    """
    W, y = momentum_rows(model, meas, channels)
    base = base_parameters(W, parameter_names(model))
    estimate = least_squares(base.regressor(W), y, sigma=sigma if sigma > 0 else None, names=base.names)
    return base, base.project(inertial_parameters(model)), estimate


def nonlinear_form(model, meas, ident, sigma, log=print):
    """(Selection, f, y, {method: Estimate}) of the centroidal-momentum fits (step 3 of :func:`run`).

    ``model`` (TreeModel): the identified model (values of the quantities not selected); ``meas``
    (Measurements): momentum samples (``Lz`` is used); ``ident`` (dict): the [identify] section: parameters,
    nominal, bounds, iterations, optimizer settings; ``sigma`` (float): noise standard deviation, N·m·s (0:
    unweighted); ``log`` (callable, optional): receives progress lines. Returns (Selection, callable, ndarray,
    dict).
    """
    sel = _selection(model, ident["parameters"])
    centroidal = CentroidalMomentum(model, meas.q, meas.v, axes=(2,))
    y = meas.select(["Lz"]).y.ravel()

    def f(theta):
        return centroidal(sel.parameters(theta)).ravel()

    nominal = np.array(ident["nominal"])
    lower = np.array(ident.get("lower", 0.25 * nominal))
    upper = np.array(ident.get("upper", 4.0 * nominal))
    s = sigma if sigma > 0 else None
    out = {ORIGINAL_METHOD: linearized_iteration(f, y, nominal, 1, sigma=s, names=sel.names),
           ITERATED: linearized_iteration(f, y, nominal, ident["linearized_iterations"], sigma=s, names=sel.names)}
    log("differential evolution ...")
    out[GLOBAL] = global_fit(f, y, list(zip(lower, upper)), sigma=s, names=sel.names, seed=ident["seed"],
                             constraint=physical_margin(sel), maxiter=ident["maxiter"], popsize=ident["popsize"])
    return sel, f, y, out


def estimates_table(names, truth, nominal, estimates):
    """Markdown table: true, nominal and each method's estimate, the errors in %, and the
    standard deviation reported with the last method's estimate.

    ``names`` (sequence of str): parameter names; ``truth, nominal`` (array_like (p,)): true and nominal values;
    ``estimates`` (dict): method label → Estimate. Returns str.
    """
    last = list(estimates.values())[-1]
    headers = (["parameter", "true", "nominal"] + list(estimates) + [f"error % ({m})" for m in estimates]
               + [f"std ({list(estimates)[-1]})"])
    rows = [[n, truth[k], nominal[k]] + [e.x[k] for e in estimates.values()]
            + [100 * (e.x[k] / truth[k] - 1) for e in estimates.values()] + [last.std[k]]
            for k, n in enumerate(names)]
    rows.append(["cost ½Σr²", float("nan"), float("nan")] + [e.cost for e in estimates.values()]
                + [float("nan")] * (len(estimates) + 1))
    return report.table(headers, rows, 5)


def run(config, out=None, log=print, experiments=None):
    """Run the study of ``config`` (see :mod:`.config`); write tables and plots to ``out``
    (default: the configured folder; an empty string: write nothing).

    ``config`` (dict): checked configuration (:func:`~.config.load`); ``out`` (str, optional): output folder
    (default the configured one; "" writes nothing); ``log`` (callable, optional): receives progress lines;
    ``experiments`` ((Measurements, TreeModel), optional): replaces the simulation of step 1 (e.g. real data, or
    earlier runs plus a new plan). Returns StudyResult. Raises ModelError: if a selected parameter name is
    unknown (checked before simulating).
    """
    _selection(robot(config)[0], config["identify"]["parameters"])          # bad names fail before simulating
    meas, model = experiments if experiments is not None else simulate_experiments(config, log)
    sigma = config["experiment"]["noise_std"]
    base, beta_true, linear = linear_form(model, meas, config["experiment"]["channels"], sigma)
    sel, f, y, estimates = nonlinear_form(model, meas, config["identify"], sigma, log)
    truth, nominal = sel.values(), np.array(config["identify"]["nominal"])
    J = jacobian(f, estimates[GLOBAL].x)
    ident_text, _ = report.identifiability(J, estimates[GLOBAL].x, sel.names, sigma)
    lin_rows = [[n, b, e, s, (e - b) / s if s > 0 else float("nan")]
                for n, b, e, s in zip(base.names, beta_true, linear.x, linear.std)]
    checks = [f"- {m}: " + "; ".join(c.describe() for c in consistency(sel.parameters(e.x), model.names))
              for m, e in estimates.items()]
    text = "\n".join([
        f"# {config['title']}", "",
        f"{len(meas.t)} samples; noise σ = {sigma:g} N·m·s on every momentum channel.", "",
        "## Nonlinear form (the space-robot identification study: attitude and joints measured, momentum about the system CoM)", "",
        estimates_table(sel.names, truth, nominal, estimates), "",
        "Physical consistency of the estimates:", *checks, "",
        "## Identifiability of the nonlinear form (at the global estimate)", "", ident_text, "",
        f"## Linear form (base pose measured; channels {', '.join(config['experiment']['channels'])})", "",
        f"{base.rank} base parameters out of {len(parameter_names(model))}; condition number of the weighted "
        f"base regressor {linear.condition:.4g}.", "",
        "Not seen at all by these data: " + (", ".join(base.unseen) or "none") + ".", "",
        report.table(["base parameter", "true", "least squares", "std", "error/std"], lin_rows, 6)])
    result = StudyResult(sel.names, truth, nominal, estimates, base, beta_true, linear, text)
    folder = out if out is not None else config["output"]["folder"]
    if folder:
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "identification.md")
        with open(path, "w") as fh:
            fh.write(text + "\n")
        result.files.append(path)
        if config["output"]["plots"]:
            series = {"measured L_z": y, "nominal": f(nominal)}
            series.update({m: f(e.x) for m, e in estimates.items()})
            samples = np.arange(1, len(y) + 1)
            result.files.append(report.plot_fit(os.path.join(folder, "momentum_fit.png"), samples, series,
                                                "wheel momentum [N·m·s]", config["title"]))
            result.files.append(report.plot_estimates(os.path.join(folder, "estimates.png"), sel.names, truth,
                                                      {m: e.x for m, e in estimates.items()},
                                                      "estimate / true − 1"))
    return result
