"""The 3-RRRU study of Liu et al. (2018) as data: the configuration of ``femdyn study rrru``, the
parallel-robot study (:mod:`.parallel_study`) with the preset ``presets/rrru.toml`` as its defaults (the
paper's robot, circle, solver settings, gauges and table), and the study as a sweep case."""
from .parallel_study import ParallelStudyConfig, run_parallel_study
from .study_preset import preset_config, preset_path

RRRUStudyConfig = preset_config(preset_path("rrru"), ParallelStudyConfig, "RRRUStudyConfig")


def preset_case(config, output):
    """The rrru study as a sweep case (:func:`femdyn.studies.sweep.run_sweep`): its summary's numbers.

    Parameters
    ----------
    config : dict
        Settings over the preset's (a sweep's base with the case's dotted keys set).
    output : str or None
        The case's folder.

    Returns
    -------
    dict
        The summary's numbers (run times left out: they vary from run to run).
    """
    from ..schema import config_from_dict
    study = run_parallel_study(config_from_dict(config, RRRUStudyConfig, where="rrru study"), output)
    return {key: value for key, value in study["summary"].items() if isinstance(value, (int, float))
            and not isinstance(value, bool) and not key.endswith("runtime")}
