"""Study configurations from TOML files: dataclasses filled from tables, every bad key
or value named.

A configuration class is a dataclass whose fields have defaults; a field whose default
is itself a dataclass (e.g. the robot geometry) is read from a TOML table of that name.
Values are checked against the type of the default: numbers (an int where a float is
expected is accepted), booleans, strings, and tuples/lists of numbers of the default's
length.
"""
import dataclasses
import tomllib

from ..errors import ModelError


def read_config(path, cls):
    """An instance of the dataclass ``cls`` from the TOML file ``path``.

    Parameters
    ----------
    path : str
        A TOML file; absent keys keep their defaults.
    cls : type
        A dataclass with defaults for all fields.

    Returns
    -------
    cls instance

    Raises
    ------
    ModelError
        Unreadable file, unknown key or wrongly typed value: the message names the key
        (``table.key``) and what it expected.
    """
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as err:
        raise ModelError(f"cannot read the configuration '{path}': {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise ModelError(f"configuration '{path}' is not valid TOML: {err}") from None
    return config_from_dict(data, cls, where=path)


def config_from_dict(data, cls, where="configuration", prefix=""):
    """An instance of the dataclass ``cls`` from a dict (see :func:`read_config`)."""
    defaults = cls()
    known = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ModelError(f"{where}: unknown key {prefix}{unknown[0]}; known keys: "
                         f"{sorted(prefix + k for k in known)}")
    values = {}
    for key, value in data.items():
        default = getattr(defaults, key)
        name = prefix + key
        if dataclasses.is_dataclass(default):
            if not isinstance(value, dict):
                raise ModelError(f"{where}: {name} must be a table of settings, got {value!r}")
            values[key] = config_from_dict(value, type(default), where, prefix=name + ".")
        else:
            values[key] = _checked(value, default, name, where)
    return dataclasses.replace(defaults, **values)


def _checked(value, default, name, where):
    """``value`` converted to the kind of ``default``, or a ModelError naming ``name``."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        raise ModelError(f"{where}: {name} must be true or false, got {value!r}")
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return type(default)(value) if isinstance(default, float) or isinstance(value, int) else value
        raise ModelError(f"{where}: {name} must be a number, got {value!r}")
    if isinstance(default, (tuple, list)):
        ok = isinstance(value, list) and len(value) == len(default) and \
            all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        if ok:
            return tuple(float(v) for v in value)
        raise ModelError(f"{where}: {name} must be a list of {len(default)} numbers, got {value!r}")
    if isinstance(default, str) or default is None:
        if isinstance(value, str):
            return value
        raise ModelError(f"{where}: {name} must be a string, got {value!r}")
    return value
