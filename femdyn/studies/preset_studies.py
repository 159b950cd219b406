"""Studies that are the parallel-robot study with packaged settings: a preset TOML file in ``presets/`` is
a robot, a task, a rig and published values as data (docs/parallel-robots.md, "Presets").

``femdyn study rrru-tracking [config.toml]`` is Liu et al.'s (2018) tracking experiment: the study's
tracking experiment on the ``3rrru`` robot with the paper's rig (``presets/rrru_tracking.toml``); a
configuration file changes any of its settings, tables keeping the preset's other values.
"""
import copy
import dataclasses
import functools
import os
from dataclasses import replace

from ..schema import config_from_dict, read_toml
from .parallel_study import ParallelStudyConfig, run_parallel_study, study_report
from .record import Study

PRESETS = os.path.join(os.path.dirname(__file__), "presets")


def _with_defaults(name, instance):
    """A subclass of ``instance``'s dataclass whose defaults are its values (nested dataclasses likewise)."""
    fields = []
    for f in dataclasses.fields(instance):
        value = getattr(instance, f.name)
        if dataclasses.is_dataclass(value):
            value = _with_defaults(f"{name}_{f.name}", value)()
        fields.append((f.name, f.type, dataclasses.field(default_factory=functools.partial(copy.deepcopy, value),
                                                           metadata=f.metadata)))
    cls = dataclasses.make_dataclass(name, fields, bases=(type(instance),))
    cls.__doc__ = f"{type(instance).__doc__}\n\n    Defaults: the packaged preset ({name})."
    return cls


def preset_config(name):
    """The configuration dataclass of the preset ``presets/<name>.toml``: :class:`ParallelStudyConfig` with
    the preset's values as its defaults.

    Parameters
    ----------
    name : str
        The preset's file name without ``.toml``.

    Returns
    -------
    type
        A dataclass; ``cls()`` is the preset, ``config_from_dict(data, cls)`` the preset changed by ``data``.

    Raises
    ------
    SchemaError
        The preset file is not a valid study configuration.

    Examples
    --------
    >>> preset_config("rrru_tracking")().robot
    '3rrru'
    """
    path = os.path.join(PRESETS, f"{name}.toml")
    values = config_from_dict(read_toml(path, f"preset {name}"), ParallelStudyConfig, where=f"preset {path}")
    return _with_defaults(f"Preset_{name}", values)


RRRUTrackingConfig = preset_config("rrru_tracking")


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
