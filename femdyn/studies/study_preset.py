"""A study preset: a packaged TOML file of a study's settings that becomes the defaults of a study of its own.

``femdyn study NAME [config.toml]`` then runs the study with the preset's settings, the file's changing any of
them (a table changes only the keys it gives). The rrru study is the parallel-robot study on
``presets/rrru.toml`` (docs/rrru.md).
"""
import copy
import dataclasses
import functools
import os

from ..schema import config_from_dict, read_toml

FOLDER = os.path.join(os.path.dirname(__file__), "presets")


def preset_path(name):
    """The packaged preset ``presets/<name>.toml``."""
    return os.path.join(FOLDER, f"{name}.toml")


def preset_config(path, base, name):
    """A subclass of the configuration dataclass ``base`` named ``name`` whose defaults are the settings of the
    TOML file ``path`` (checked as ``base``'s; a SchemaError names the file and key)."""
    preset = config_from_dict(read_toml(path, "study preset"), base, where=path)
    fields = [(f.name, f.type, dataclasses.field(default_factory=functools.partial(copy.deepcopy, getattr(preset, f.name)),
                                                 metadata=f.metadata))
              for f in dataclasses.fields(base)]
    cls = dataclasses.make_dataclass(name, fields, bases=(base,))
    cls.__doc__ = f"{base.__doc__}\n    Defaults: the preset {os.path.basename(path)}.\n"
    return cls


def preset_study(study, name, description, preset, **changes):
    """The :class:`~.record.Study` ``study`` under another name, its configuration's defaults the preset's.

    Parameters
    ----------
    study : Study
        The study the preset configures (its run, report and hint are kept).
    name, description : str
        The new study's name on the command line and its line of help.
    preset : str
        The preset file (:func:`preset_path` for a packaged one).
    **changes
        Other fields of the record (sweeps, fit, options).

    Returns
    -------
    Study

    Example
    -------
    >>> from femdyn.studies.parallel_study import STUDY
    >>> rrru = preset_study(STUDY, "rrru", "the paper's robot", preset_path("rrru"))
    >>> rrru.config().robot, rrru.config().task.radius
    ('3rrru', 0.1)
    """
    config = preset_config(preset, study.config, f"{name.replace('-', '_').title()}Config")
    return dataclasses.replace(study, name=name, description=description, config=config, **changes)
