"""Liu et al.'s (2018) tracking experiment as a preset of the parallel-robot study (:mod:`.study_preset`):
``femdyn study rrru-tracking [config.toml]`` runs the study's tracking experiment on the ``3rrru`` robot with the paper's rig (``presets/rrru_tracking.toml``); a
configuration file changes any of its settings, tables keeping the preset's other values.
"""
from dataclasses import replace

from ..schema import config_from_dict
from .parallel_study import ParallelStudyConfig, run_parallel_study, study_report
from .record import Study
from .study_preset import preset_config, preset_path

RRRUTrackingConfig = preset_config(preset_path("rrru_tracking"), ParallelStudyConfig, "RRRUTrackingConfig")


def _run(config, output, progress):
    """The preset study's run: the parallel-robot study."""
    return run_parallel_study(config, output, progress)


def sweep_case(config, output):
    """The tracking preset as a sweep case: its ``tracking_*`` figures (``femdyn sweep``, docs/sweeps.md)."""
    summary = run_parallel_study(config_from_dict(config, RRRUTrackingConfig, where="rrru-tracking sweep case"),
                                 output)["summary"]
    return {k: v for k, v in summary.items() if k.startswith("tracking_") and not k.endswith("_runtime")}


def _add_options(parser):
    """Register the clearance options of the tracking preset (each overrides the configuration's ``[tracking]``)."""
    parser.add_argument("--clearance", type=float, help="radial clearance of the chosen joints, m (e.g. 30e-6; "
                                                        "default 0: ideal joints)")
    parser.add_argument("--clearance-joints", help="comma-separated joints given clearance (default "
                                                   "'limb 0.joint0,limb 0.joint1': limb 1's motor and knee)")
    parser.add_argument("--clearance-h", type=float, help="largest step of runs with clearance, s (default 1e-5)")


def _apply_options(config, args):
    """The configuration with the command line's clearance options, checked as a configuration file's."""
    names = {"clearance": "clearance", "clearance_h": "clearance_h", "clearance_joints": "joints"}
    changes = {names[k]: getattr(args, k) for k in names if getattr(args, k) is not None}
    if not changes:
        return config
    checked = config_from_dict({"tracking": changes}, type(config), where="femdyn study rrru-tracking")
    return replace(config, tracking=replace(config.tracking, **{k: getattr(checked.tracking, k) for k in changes}))


STUDY = Study(name="rrru-tracking",
              description="Liu et al. 2018's tracking experiment as a preset of the parallel study: rigid vs flexible "
                          "feedforward under joint servo loops, tracker, circle fit (Table 2), gauges (Table 3)",
              config=RRRUTrackingConfig, run=_run, report=study_report,
              sweeps={"rrru_tracking": (RRRUTrackingConfig, sweep_case)}, add_options=_add_options,
              apply_options=_apply_options,
              hint="try a smaller tracking.clearance_h, a shorter duration or fewer elements (parameters.elements)")
