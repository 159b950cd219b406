"""A fixed-base arm identified from its joint forces: excitation, simulation, base parameters, least squares.

:func:`run` takes a checked configuration with ``kind = "joint_torque"`` (:mod:`.config`) and

1. finds the structural base parameters of the arm's joint-force regressor (random states);
2. optimizes a Fourier excitation over one period for the condition number of the base
   regressor (Swevers et al. 1997) within the joint limits;
3. simulates the arm tracking it under computed torque (forward dynamics, RK4) and adds
   noise to the recorded joint forces;
4. estimates the base parameters of these data by least squares, with their standard
   deviations, and writes a table and a plot of measured and predicted forces.
"""
import os
from dataclasses import dataclass, field

import numpy as np

from femdyn.errors import ModelError
from femdyn.robots.serial import puma560, space_arm
from femdyn.solvers.recursive import Data
from femdyn.solvers.recursive.regressor import inertial_parameters, torque_regressor

from . import report
from .base_parameters import base_parameters, structural
from .estimators import least_squares
from .excitation import optimize_fourier
from .experiment import add_noise, torque_experiment
from .parameters import parameter_names
from .regression import torque_rows

ROBOTS = {"puma560": puma560, "space_arm": space_arm}


@dataclass
class TorqueStudyResult:
    """Base parameters, their true values and estimate, the report text and the files written.

    ``base`` (BaseParameters): structural base parameters of the arm; ``beta_true`` (ndarray (r,)): their true
    values; ``estimate`` (Estimate): least-squares estimate from the simulated joint forces; ``text`` (str): the
    Markdown report; ``files`` (list of str, optional): files written.
    """
    base: object
    beta_true: np.ndarray
    estimate: object
    text: str
    files: list = field(default_factory=list)


def run(config, out=None, log=print):
    """Run the joint-force study of ``config`` (steps in the module docstring).

    ``config`` (dict): checked configuration with ``kind = "joint_torque"`` (:func:`~.config.load`); ``out``
    (str, optional): output folder (default the configured one; "" writes nothing); ``log`` (callable,
    optional): receives progress lines. Returns TorqueStudyResult. Raises ModelError: if the built-in robot is
    unknown.
    """
    name = config["robot"]["builtin"]
    if name not in ROBOTS:
        raise ModelError(f"[robot] builtin = '{name}' is unknown for kind 'joint_torque'; available: {sorted(ROBOTS)}")
    model = ROBOTS[name]()
    data, names, ex = Data(model), parameter_names(model), config["experiment"]

    def rows(q, v, a):
        return torque_regressor(model, data, q, v, a)

    times = np.arange(0.0, ex["period"], ex["sample_interval"])
    traj, cond_start, cond_best = optimize_fourier(rows, structural(model, rows, names), model.nv, ex["harmonics"],
                                                   2 * np.pi / ex["period"], times, ex["q_limit"], ex["v_limit"],
                                                   seed=ex["seed"], maxiter=ex["optimize_iterations"])
    log(f"Fourier excitation: condition number {cond_start:.4g} (random start) → {cond_best:.4g}")
    meas = add_noise(torque_experiment(model, traj, ex["duration"], ex["sample_interval"], ex["step"], ex["kp"],
                                       ex["kd"]), ex["noise_std"], seed=ex["seed"])
    W, y = torque_rows(model, meas)
    base = base_parameters(W, names)
    sigma = ex["noise_std"]
    est = least_squares(base.regressor(W), y, sigma=sigma if sigma > 0 else None, names=base.names)
    beta = base.project(inertial_parameters(model))
    table = report.table(["base parameter", "true", "least squares", "std", "error/std"],
                         [[n, b, e, s, (e - b) / s if s > 0 else float("nan")]
                          for n, b, e, s in zip(base.names, beta, est.x, est.std)], 6)
    text = "\n".join([
        f"# {config['title']}", "",
        f"{name}: {len(meas.t)} samples of {model.nv} joint forces; noise σ = {sigma:g} N·m; Fourier excitation "
        f"({ex['harmonics']} harmonics, period {ex['period']:g} s), condition number of the base regressor "
        f"{cond_start:.4g} → {cond_best:.4g} after optimization; {est.condition:.4g} on the recorded data.", "",
        f"{base.rank} base parameters out of {len(names)}. Not seen at all: {', '.join(base.unseen) or 'none'}.", "",
        table])
    result = TorqueStudyResult(base, beta, est, text)
    folder = out if out is not None else config["output"]["folder"]
    if folder:
        os.makedirs(folder, exist_ok=True)
        result.files.append(os.path.join(folder, "identification.md"))
        with open(result.files[-1], "w") as fh:
            fh.write(text + "\n")
        if config["output"]["plots"]:
            predicted = (base.regressor(W) @ est.x).reshape(meas.y.shape)
            series = {f"measured {c}": meas.y[:, k] for k, c in enumerate(meas.channels[:3])}
            series.update({f"fit {c}": predicted[:, k] for k, c in enumerate(meas.channels[:3])})
            result.files.append(report.plot_fit(os.path.join(folder, "torque_fit.png"), np.arange(len(meas.t)),
                                                series, "joint force [N·m]", config["title"]))
    return result
