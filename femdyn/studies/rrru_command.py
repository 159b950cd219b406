"""The 3-RRRU study of Liu et al. (2018) on the command line: its :class:`~.record.Study`
record ``STUDY`` (``femdyn study rrru``, the sweep cases ``rrru``, ``rrru_rigid`` and
``rrru_flexible``, ``femdyn fit rrru``) and its solver options."""
from dataclasses import replace

from ..errors import ModelError
from .record import Fit, Study
from .rrru import RigidStudyConfig
from .rrru_figures import figure_label, flexible_case, rigid_case
from .rrru_fit import figure_names, fit, fit_config, parameter_table, residual_table, write_fit
from .rrru_study import StudyConfig, run_study, summary_table, sweep_case

HINT = ("from the command line try --halvings 8 (more step halvings), --rho-inf 0 (more damping), --step (a "
        "smaller step), --formulation stabilized (forward run) or --elements (a finer mesh: docs/rrru.md, 'Elements "
        "per link')")


def add_solver_options(parser, elements=True):
    """Register the solver options of the 3-RRRU study (each overrides the configuration).

    ``parser`` (argparse.ArgumentParser): the parser of ``femdyn study`` or ``femdyn demo`` (or an argument
    group of it); ``elements`` (bool, optional): also register ``--elements`` (the demo has its own, with a
    default).

    Example
    -------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_solver_options(p)
    >>> p.parse_args(["--rho-inf", "0.2"]).rho_inf
    0.2
    """
    if elements:
        parser.add_argument("--elements", type=int, help="ANCF beam elements per flexible link (≥ 1; 2 is the "
                                                         "coarsest that runs the whole circle)")
    parser.add_argument("--rho-inf", type=float,
                        help="generalized-α ρ∞ of the flexible runs, 0 … 0.95 (default 0)")
    parser.add_argument("--formulation", choices=["index3", "stabilized"],
                        help="formulation of the flexible forward run (default index3; the inverse runs are index 3)")
    parser.add_argument("--halvings", type=int, help="step halvings a run may use to get past a failed step, 0 … 20 "
                                                     "(default 4; 0 stops at the first failure)")


def solver_options(config, args):
    """The study's configuration with the command line's solver options applied.

    ``config`` (StudyConfig): the configuration (defaults or a TOML file); ``args`` (argparse.Namespace): parsed
    arguments with ``elements``, ``rho_inf``, ``formulation``, ``halvings`` (None: keep the configuration's).
    Returns StudyConfig. Raises ModelError: a bad value, naming its option: ``--elements`` < 1, ``--rho-inf``
    outside [0, 0.95], ``--halvings`` outside 0 … 20.

    Example
    -------
    >>> import argparse
    >>> args = argparse.Namespace(elements=2, rho_inf=None, formulation=None, halvings=0)
    >>> solver_options(StudyConfig(), args).max_halvings
    0
    """
    checks = (("--elements", args.elements, lambda v: v >= 1, "≥ 1", "n_elements"),
              ("--rho-inf", args.rho_inf, lambda v: 0.0 <= v <= 0.95, "in [0, 0.95] (the inverse runs are "
               "index 3, unstable above 0.95)", "flexible_rho_inf"),
              ("--formulation", args.formulation, lambda v: True, "", "formulation"),
              ("--halvings", args.halvings, lambda v: 0 <= v <= 20, "in 0 … 20", "max_halvings"))
    changes = {}
    for option, value, ok, rule, key in checks:
        if value is None:
            continue
        if not ok(value):
            raise ModelError(f"{option} must be {rule}, got {value}")
        changes[key] = value
    return replace(config, **changes)


def _describe_fit(config):
    """What the fit fits to what, with its seed."""
    return f"fitting {sorted(config.bounds)} to {figure_names(config)} (seed {config.seed})"


def _write_fit(result, folder):
    """Write the fit's files; its tables and a closing line to print."""
    write_fit(result, folder)
    return "\n".join([parameter_table(result), residual_table(result),
                      f"{result.evaluations} cases in {result.wall:.1f} s, best cost {result.cost:.4g}"
                      + (f"; best case failed: {result.error}" if result.error else "")
                      + f"; written to {folder}: parameters.md, residuals.md, history.csv, fit.json, fit.png"])


STUDY = Study(
    name="rrru",
    description="the 3-RRRU robot of Liu et al. 2018 (rigid and flexible, inverse and forward dynamics, gauges)",
    config=StudyConfig, run=run_study, report=summary_table,
    add_options=add_solver_options, apply_options=solver_options, hint=HINT,
    sweeps={"rrru": (StudyConfig, sweep_case), "rrru_rigid": (RigidStudyConfig, rigid_case),
            "rrru_flexible": (StudyConfig, flexible_case)},
    figure_label=figure_label,
    fit=Fit(read=fit_config, describe=_describe_fit, run=fit, write=_write_fit))
