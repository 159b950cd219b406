"""The 3-RRRU study of Liu et al. (2018) on the command line: its :class:`~.record.Study`
record ``STUDY`` — ``femdyn study rrru``, the parallel-robot study (:mod:`.parallel_study`) on the
packaged preset ``presets/rrru.toml`` (the paper's robot, circle, solver settings and table) —, the
sweep cases ``rrru`` (that study), ``rrru_rigid`` and ``rrru_flexible``, ``femdyn fit rrru``, and the
solver options."""
from dataclasses import replace

from ..errors import ModelError
from .parallel_study import STUDY as PARALLEL
from .record import Fit
from .rrru_figures import figure_label, flexible_case, rigid_case
from .rrru_fit import figure_names, fit, fit_config, parameter_table, residual_table, write_fit
from .rrru_preset import RRRUStudyConfig, preset_case

HINT = ("from the command line try --halvings 8 (more step halvings), --rho-inf 0 (more damping), --step (a "
        "smaller step) or --elements (a finer mesh: docs/rrru.md, 'Elements "
        "per link')")


def add_solver_options(parser, elements=True):
    """Register the solver options of the 3-RRRU study (each overrides the configuration)."""
    if elements:
        parser.add_argument("--elements", type=int, help="ANCF beam elements per flexible link (≥ 1; 2 is the "
                                                         "coarsest that runs the whole circle)")
    parser.add_argument("--rho-inf", type=float,
                        help="generalized-α ρ∞ of the flexible runs, 0 … 0.95 (default 0)")
    parser.add_argument("--formulation", choices=["index3", "stabilized"],
                        help="formulation of the flexible forward run (default index3; the inverse runs are index 3)")
    parser.add_argument("--halvings", type=int, help="step halvings a run may use to get past a failed step, 0 … 20 "
                                                     "(default 4; 0 stops at the first failure)")


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


def preset_options(config, args):
    """The rrru study's configuration (a :class:`~.parallel_study.ParallelStudyConfig`) with the command
    line's solver options applied: ``--elements`` sets the robot's parameter ``elements``."""
    if args.formulation not in (None, "index3"):
        raise ModelError("--formulation stabilized: the rrru study's forward run is index 3 (the parallel-robot "
                         "study); drop the option")
    checks = (("--elements", args.elements, lambda v: v >= 1, "≥ 1"),
              ("--rho-inf", args.rho_inf, lambda v: 0.0 <= v <= 0.95, "in [0, 0.95] (the inverse runs are "
               "index 3, unstable above 0.95)"),
              ("--halvings", args.halvings, lambda v: 0 <= v <= 20, "in 0 … 20"))
    for option, value, ok, rule in checks:
        if value is not None and not ok(value):
            raise ModelError(f"{option} must be {rule}, got {value}")
    changes = {key: value for key, value in (("flexible_rho_inf", args.rho_inf), ("max_halvings", args.halvings))
               if value is not None}
    if args.elements is not None:
        changes["parameters"] = {**config.parameters, "elements": args.elements}
    return replace(config, **changes)


STUDY = replace(
    PARALLEL, name="rrru",
    description="the 3-RRRU robot of Liu et al. 2018 beside the paper's table: the parallel-robot study on its preset",
    config=RRRUStudyConfig, add_options=add_solver_options, apply_options=preset_options, hint=HINT,
    sweeps={"rrru": (RRRUStudyConfig, preset_case), "rrru_rigid": (RRRUStudyConfig, rigid_case),
            "rrru_flexible": (RRRUStudyConfig, flexible_case)},
    figure_label=figure_label, fit=Fit(read=fit_config, describe=_describe_fit, run=fit, write=_write_fit))
