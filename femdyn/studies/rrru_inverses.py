"""The flexible 3-RRRU inverse four ways: stable causal, plain causal, non-causal and optimal control.

The stable causal path (:func:`~femdyn.solvers.stable_inverse.stable_causal_inverse`) leaves a residual
r(t) = M q̈_s + Gᵀλ_s − Q in the exact equations; the deviation δ restoring it, from the servo DAE
linearized at the static start (M δ̈ + C δ̇ + K_t δ + Gᵀδλ = −r, platform held), is solved by each linear
inverse of :mod:`femdyn.solvers.inversion`: causal, non-causal (Devasia, Chen & Paden 1996) and optimal
control (Bastos, Seifried & Brüls 2013); the plain causal inverse (generalized-α, ρ∞ = 0) for reference.
Comparison and results: docs/rrru.md.
"""
import os
import time

import numpy as np

from ..errors import FemdynError
from .parallel_study import load_robot
from .parallel_task import task_motion
from .rrru_preset import RRRUStudyConfig

__all__ = ["compare_inverses", "inverses_figure"]


def compare_inverses(config=None, duration=0.6, input_weight=1e-6, rate_weight=1e-8, output=None):
    """Stable causal, plain causal, non-causal and optimal-control inverses of the flexible robot.

    Parameters
    ----------
    config : RRRUStudyConfig, optional
        The robot, circle and stable-inverse settings of ``femdyn study rrru`` (default: its preset); the
        model is the description's (:meth:`~femdyn.robots.parallel.ParallelRobot.model`).
    duration : float, optional
        Length of the inverted motion from its start, s.
    input_weight, rate_weight : float, optional
        Weights of the motor torques [1/(N·m)²] and of their rates [s²/(N·m)²] in the
        optimal-control inverse's cost.
    output : str, optional
        Folder for the figure ``inverses.png`` (None: nothing written).

    Returns
    -------
    dict
        ``t`` (s), ``torques`` {inverse: (N, 3) N·m}, ``rigid`` (N, 3) N·m, the nonlinear DAE's
        ``t_dae`` and ``torques_dae`` (or None), ``residual`` (relative, of the stable inverse's path),
        ``pre_actuation`` (s, non-causal), ``summary`` {inverse: figures} and ``status`` {inverse: text}.
    """
    from femdyn.solvers.generalized_alpha import Options, integrate
    from femdyn.solvers.inversion import causal_inverse, linearize, noncausal_inverse, optimal_control_inverse
    from femdyn.solvers.stable_inverse import StableInverseOptions, path_residual, stable_causal_inverse
    config = config or RRRUStudyConfig()
    robot = load_robot(config)
    motion = task_motion(robot, config.task)
    built = robot.model(motion.sampled([0.0])[0][0], flexible=True, servo=motion)
    system = built.model.assemble()
    columns = [f"{a}.torque" for a in built.actuators]
    options = StableInverseOptions(config.stable_iterations, config.stable_window, config.stable_elastic_window,
                                   rest_after=duration >= motion.end)
    stable = stable_causal_inverse(system, duration, config.stable_h, options)
    t, u_s = stable.t, stable.lam[:, system.input_rows]
    residual, inertia = path_residual(system, stable, config.stable_window, options.rest_after)
    linear = linearize(system, stable.q[0], stable.lam[0])
    corrections, clock, status = {}, {}, {}
    for name, solve in (("causal", lambda: causal_inverse(linear, t, forcing=-residual)),
                        ("non-causal", lambda: noncausal_inverse(linear, t, forcing=-residual)),
                        ("optimal control", lambda: optimal_control_inverse(
                            linear, t, forcing=-residual, input_weight=input_weight, rate_weight=rate_weight))):
        start = time.perf_counter()
        try:
            corrections[name] = solve()
            status[name] = "completed"
        except FemdynError as err:          # the exact causal inverse overflows on non-minimum-phase zeros
            status[name] = f"failed: {err}"
        clock[name] = time.perf_counter() - start
    torques = {"stable causal": u_s}
    for name, inv in corrections.items():
        inside = (inv.t >= t[0] - 1e-12) & (inv.t <= t[-1] + 1e-12)
        torques[name] = u_s + inv.u[inside][:len(t)]
    rigid = robot.efforts(*motion.sampled(t))
    t_dae, u_dae = None, None
    try:
        dae = integrate(system, duration, config.h, Options(rho_inf=config.flexible_rho_inf,
                                                            tol_dynamic=config.tol_flexible, tol_constraint=1e-12),
                        q0=stable.q[0])
        status["causal (nonlinear DAE)"] = "completed"
    except FemdynError as err:
        dae = getattr(err, "results", None)
        status["causal (nonlinear DAE)"] = f"failed: {err}"
    if dae is not None and len(dae.t):
        t_dae, u_dae = dae.t, np.column_stack([dae[c] for c in columns])
    summary = {}
    for name, u in torques.items():
        summary[name] = {"torque_difference": float(np.abs(u - rigid).max()),
                         "variation_per_second": float(np.abs(np.diff(u, axis=0)).sum(axis=0).max() / t[-1]),
                         "output_deviation": float(np.abs(corrections[name].y).max()) if name in corrections
                         else 0.0,
                         "runtime": clock.get(name)}
    if u_dae is not None:
        r_dae = robot.efforts(*motion.sampled(t_dae))
        summary["causal (nonlinear DAE)"] = {
            "torque_difference": float(np.abs(u_dae - r_dae).max()),
            "variation_per_second": float(np.abs(np.diff(u_dae, axis=0)).sum(axis=0).max() / t_dae[-1]),
            "output_deviation": 0.0, "runtime": None}
    out = {"t": t, "torques": torques, "rigid": rigid, "t_dae": t_dae, "torques_dae": u_dae,
           "residual": float(np.abs(residual).max() / max(inertia, 1e-300)),
           "pre_actuation": corrections["non-causal"].pre_actuation if "non-causal" in corrections else None,
           "summary": summary, "status": status}
    if output:
        os.makedirs(output, exist_ok=True)
        inverses_figure(out).savefig(os.path.join(output, "inverses.png"), dpi=120)
    return out


def inverses_figure(comparison):
    """Motor torques of each inverse beside the rigid robot's, one panel per limb.

    Parameters
    ----------
    comparison : dict
        What :func:`compare_inverses` returns.

    Returns
    -------
    matplotlib.figure.Figure
        Three panels (limbs 1–3), torques in N·m against t in s.
    """
    from matplotlib.figure import Figure
    fig = Figure(figsize=(8, 7.5), layout="constrained")
    axes = fig.subplots(3, 1, sharex=True)
    fig.suptitle("3-RRRU flexible inverse dynamics: motor torques of four inverses beside the rigid robot", fontsize=10)
    t, rigid = comparison["t"], comparison["rigid"]
    styles = {"stable causal": ("C0", 1.8), "non-causal": ("C2", 1.2), "optimal control": ("C1", 1.2),
              "causal": ("C3", 0.7)}
    low, high = rigid.min() - 3.0, rigid.max() + 3.0
    for i, ax in enumerate(axes):
        if comparison["torques_dae"] is not None:
            ax.plot(comparison["t_dae"], comparison["torques_dae"][:, i], color="0.6", lw=0.6,
                    label="causal, nonlinear DAE")
        for name, (color, width) in styles.items():
            if name not in comparison["torques"]:
                continue
            label = "causal (linearized correction)" if name == "causal" else name
            ax.plot(t, comparison["torques"][name][:, i], color=color, lw=width, label=label)
        ax.plot(t, rigid[:, i], "k--", lw=1.0, label="rigid robot")
        ax.set_ylim(low, high)
        ax.set_ylabel(f"limb {i + 1}\ntorque (N·m)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7, ncol=3, loc="upper right")
    axes[-1].set_xlabel("time t (s)")
    return fig
