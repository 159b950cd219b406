"""A study preset: a packaged TOML file of a study's settings that becomes the defaults of a study of its own
(a :class:`~.record.Study` record with the preset's configuration class).

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
    """A subclass of a configuration dataclass whose defaults are a preset's settings.

    Parameters
    ----------
    path : str
        The preset, a TOML file of ``base``'s settings (:func:`preset_path` for a packaged one).
    base : type
        The study's configuration dataclass.
    name : str
        The new class's name.

    Returns
    -------
    type
        A dataclass, subclass of ``base``; its instances are independent copies of the preset.

    Raises
    ------
    SchemaError
        A key or value of the preset that ``base`` refuses, naming the file and the key.

    Example
    -------
    >>> from femdyn.studies.parallel_study import ParallelStudyConfig
    >>> Config = preset_config(preset_path("rrru"), ParallelStudyConfig, "RRRUStudyConfig")
    >>> Config().robot, Config().task.radius, ParallelStudyConfig().robot
    ('3rrru', 0.1, '')
    """
    preset = config_from_dict(read_toml(path, "study preset"), base, where=path)
    fields = [(f.name, f.type, dataclasses.field(default_factory=functools.partial(copy.deepcopy, getattr(preset, f.name)),
                                                 metadata=f.metadata))
              for f in dataclasses.fields(base)]
    cls = dataclasses.make_dataclass(name, fields, bases=(base,))
    cls.__doc__ = f"{base.__doc__}\n    Defaults: the preset {os.path.basename(path)}.\n"
    return cls
