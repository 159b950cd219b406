"""Study configurations from TOML files: dataclasses filled from tables, every bad key
or value named.

A configuration class is a dataclass whose fields have defaults; a field whose default
is itself a dataclass (e.g. the robot geometry) is read from a TOML table of that name.
Values are checked against the type of the default: numbers (an int where a float is
expected is accepted, a float where an int is expected only if it is whole), booleans,
strings, and tuples/lists of numbers of the default's length.

Sweeps and other programs change a plain configuration dict by *dotted* keys
(``"geometry.E"`` is the key ``E`` of the table ``geometry``): :func:`field_default` checks
such a key against the dataclass and :func:`with_overrides` applies them.
"""
import copy
import dataclasses
try:
    import tomllib
except ModuleNotFoundError:      # Python 3.10: the same parser, published as tomli
    import tomli as tomllib

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
    return config_from_dict(read_toml(path), cls, where=path)


def read_toml(path, what="configuration"):
    """The tables of a TOML file as a dict.

    Parameters
    ----------
    path : str or path-like
        The file.
    what : str, optional
        What the file is, for the messages (e.g. "sweep file").

    Returns
    -------
    dict

    Raises
    ------
    ModelError
        Unreadable file or invalid TOML (the message names the file).
    """
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as err:
        raise ModelError(f"cannot read the {what} '{path}': {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise ModelError(f"{what} '{path}' is not valid TOML: {err}") from None


def config_from_dict(data, cls, where="configuration", prefix=""):
    """An instance of a configuration dataclass from a dict of settings (see :func:`read_config`).

    Parameters
    ----------
    data : dict
        Settings; nested dicts for fields whose default is a dataclass (TOML tables).
    cls : type
        A dataclass with defaults for all fields.
    where : str, optional
        Where the settings come from, for the messages.
    prefix : str, optional
        Dotted prefix of the keys (for nested tables).

    Returns
    -------
    cls instance
        The defaults with the given settings replaced.

    Raises
    ------
    ModelError
        Unknown key or wrongly typed value (the message names ``table.key``).

    Examples
    --------
    >>> from femdyn.studies.rrru_study import StudyConfig
    >>> config = config_from_dict({"payload": 1, "geometry": {"E": 6.9e9}}, StudyConfig)
    >>> config.payload, config.geometry.E
    (1.0, 6900000000.0)
    """
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
            values[key] = checked_value(value, default, name, where)
    return dataclasses.replace(defaults, **values)


def checked_value(value, default, name, where="configuration"):
    """A setting converted to the kind of its default.

    Numbers (an int where a float is expected is accepted, a float where an int is expected
    only if it is whole), booleans, strings, and lists of numbers of the default's length
    (returned as tuples of float).

    Parameters
    ----------
    value : object
        The given value.
    default : object
        The default of the setting (its type decides).
    name : str
        Dotted key, for the message.
    where : str, optional
        Where the value comes from, for the message.

    Returns
    -------
    object

    Raises
    ------
    ModelError
        A value of the wrong kind; the message names the key.

    Examples
    --------
    >>> checked_value(3, 0.5, "duration"), checked_value([1, 2], (0.0, 0.0), "window")
    (3.0, (1.0, 2.0))
    """
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        raise ModelError(f"{where}: {name} must be true or false, got {value!r}")
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if isinstance(default, float):
                return float(value)
            if float(value).is_integer():
                return int(value)
            raise ModelError(f"{where}: {name} must be a whole number, got {value!r}")
        raise ModelError(f"{where}: {name} must be a number, got {value!r}")
    if isinstance(default, (tuple, list)):
        ok = isinstance(value, (list, tuple)) and len(value) == len(default) and \
            all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        if ok:
            return tuple(float(v) for v in value)
        raise ModelError(f"{where}: {name} must be a list of {len(default)} numbers, got {value!r}")
    if isinstance(default, str) or default is None:
        if isinstance(value, str):
            return value
        raise ModelError(f"{where}: {name} must be a string, got {value!r}")
    return value


def field_default(cls, key, where="configuration"):
    """The default value of the dotted ``key`` of the dataclass ``cls``.

    Parameters
    ----------
    cls : type
        A dataclass with defaults for all fields (fields may be dataclasses themselves).
    key : str
        Dotted path to a setting, e.g. ``"payload"`` or ``"geometry.E"``.
    where : str
        Where the key comes from, for the message.

    Returns
    -------
    object
        The default (never a dataclass: a key must name a single setting).

    Raises
    ------
    ModelError
        Unknown key, or a key naming a whole table (the message names it and lists the
        known keys).

    Example
    -------
    >>> from femdyn.studies.rrru_study import StudyConfig
    >>> field_default(StudyConfig, "geometry.E")
    690000000.0
    """
    value, prefix = cls(), ""
    for part in str(key).split("."):
        known = {f.name for f in dataclasses.fields(value)}
        if part not in known:
            raise ModelError(f"{where}: unknown key {prefix}{part}; known keys: {sorted(prefix + k for k in known)}")
        value, prefix = getattr(value, part), prefix + part + "."
        if not dataclasses.is_dataclass(value):
            if prefix[:-1] != key:
                raise ModelError(f"{where}: {prefix[:-1]} is a single setting, not a table, in the key {key}")
            return value
    raise ModelError(f"{where}: {key} is a table of settings; name one of them: "
                     f"{sorted(prefix + f.name for f in dataclasses.fields(value))}")


def setting_value(config, key):
    """The value of the dotted ``key`` in a configuration dataclass instance.

    Parameters
    ----------
    config : dataclass instance
        E.g. a :class:`~femdyn.studies.rrru_study.StudyConfig`.
    key : str
        Dotted path to a setting (checked first with :func:`field_default`).

    Returns
    -------
    object

    Example
    -------
    >>> from femdyn.studies.rrru_study import StudyConfig
    >>> setting_value(StudyConfig(), "geometry.link1_length")
    0.35
    """
    for part in str(key).split("."):
        config = getattr(config, part)
    return config


def with_overrides(data, overrides):
    """A copy of the configuration dict ``data`` with the dotted keys of ``overrides`` set.

    Parameters
    ----------
    data : dict
        Plain configuration (nested dicts for tables), left unchanged.
    overrides : dict
        ``{"payload": 1.6, "geometry.E": 6.9e9}``: each dotted key sets one value, creating
        the tables on its way.

    Returns
    -------
    dict

    Raises
    ------
    ModelError
        A dotted key running through a value that is not a table.

    Example
    -------
    >>> with_overrides({"payload": 0.0}, {"geometry.E": 6.9e9})
    {'payload': 0.0, 'geometry': {'E': 6900000000.0}}
    """
    out = copy.deepcopy(data)
    for key, value in overrides.items():
        *tables, name = key.split(".")
        node = out
        for table in tables:
            node = node.setdefault(table, {})
            if not isinstance(node, dict):
                raise ModelError(f"configuration: cannot set {key}: {table} is not a table")
        node[name] = copy.deepcopy(value)
    return out
