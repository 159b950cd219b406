"""Input files in TOML: reading them and checking their tables against a declared schema.

Every file femdyn reads as TOML (study configurations, sweep and fit files,
identification studies, gauge maps) is checked here, by one checker with one error:
:class:`~femdyn.errors.SchemaError`, whose message names the file, the dotted key
(``table.key``) and what to write instead. The CLI turns it into exit code 2.

A schema is a dict ``key → kind`` (or ``key →`` :class:`Key` for a required key, a
range or a unit). Kinds: ``bool``; ``float`` (any number, returned as float); ``int``
(a whole number); ``str``; ``list``; ``dict`` (a table); an int ``n`` (a list of n
numbers, returned as a tuple of floats); ``None`` (anything).

A study configuration is a dataclass whose fields have defaults: its schema is read off
the defaults (a field whose default is a dataclass is a table), see :func:`read_config`.
Sweeps change a plain configuration dict by *dotted* keys (``"geometry.E"`` is the key
``E`` of the table ``geometry``): :func:`field_default` checks such a key against the
dataclass and :func:`with_overrides` applies them.
"""
import copy
import dataclasses
try:
    import tomllib
except ModuleNotFoundError:      # Python 3.10: the same parser, published as tomli
    import tomli as tomllib

from .errors import SchemaError

_KIND_TEXT = {bool: "true or false", float: "a number", int: "a whole number", str: "a string", list: "a list",
              dict: "a table"}


@dataclasses.dataclass(frozen=True)
class Key:
    """A key of a schema: its kind, whether it is required, bounds (units in ``unit``) and a hint.

    ``above`` is an exclusive lower bound (``Key(float, above=0)``: positive), ``at_least``
    an inclusive one; ``hint`` says what the key is, for the message when it is missing.
    """

    kind: object = None
    required: bool = False
    above: float = None
    at_least: float = None
    unit: str = ""
    hint: str = ""


def read_toml(path, what="configuration"):
    """The tables of the TOML file ``path`` as a dict; SchemaError naming the file (``what``) if
    it cannot be read or is not valid TOML."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as err:
        raise SchemaError(f"cannot read the {what} '{path}': {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise SchemaError(f"{what} '{path}' is not valid TOML: {err}") from None


def check_table(table, schema, where, prefix=""):
    """The settings of ``table`` checked against ``schema`` and converted to their kinds.

    Parameters
    ----------
    table : dict
        A TOML table (keys → values).
    schema : dict
        Key → kind or :class:`Key` (see the module docstring).
    where : str
        The file (or other source), first in every message.
    prefix : str, optional
        Dotted name of the table (``"experiment."``), put before the keys in messages.

    Returns
    -------
    dict
        The given keys, values converted (absent keys stay absent).

    Raises
    ------
    SchemaError
        ``table`` is not a table; an unknown key (the message lists the known ones); a
        value of the wrong kind or out of range; a missing required key.

    Examples
    --------
    >>> check_table({"duration": 2, "plots": True}, {"duration": Key(float, above=0, unit="s"), "plots": bool},
    ...             "study.toml", "output.")
    {'duration': 2.0, 'plots': True}
    >>> check_table({"duratoin": 2}, {"duration": float}, "study.toml", "output.")
    Traceback (most recent call last):
    ...
    femdyn.errors.SchemaError: study.toml: unknown key output.duratoin; known keys: ['output.duration']
    """
    if not isinstance(table, dict):
        raise SchemaError(f"{where}: {prefix[:-1] or 'the file'} must be a table of settings, got {table!r}")
    unknown = sorted(set(table) - set(schema))
    if unknown:
        raise SchemaError(f"{where}: unknown key {prefix}{unknown[0]}; known keys: {sorted(prefix + k for k in schema)}")
    out = {}
    for key, value in table.items():
        spec = schema[key] if isinstance(schema[key], Key) else Key(schema[key])
        out[key] = _checked(value, spec, prefix + key, where)
    for key, spec in schema.items():
        if isinstance(spec, Key) and spec.required and key not in table:
            raise SchemaError(f"{where}: missing key {prefix}{key}" + (f" ({spec.hint})" if spec.hint else "")
                              + f"; add it to {'[' + prefix[:-1] + ']' if prefix else 'the file'}")
    return out


def _checked(value, spec, name, where):
    """``value`` converted to ``spec.kind`` and checked against its bounds."""
    value = convert(value, spec.kind, name, where)
    unit = f" {spec.unit}" if spec.unit else ""
    if spec.above is not None and not value > spec.above:
        bound = "positive" if spec.above == 0 else f"> {spec.above}{unit}"
        raise SchemaError(f"{where}: {name} must be {bound}, got {value!r}{unit}")
    if spec.at_least is not None and not value >= spec.at_least:
        raise SchemaError(f"{where}: {name} must be ≥ {spec.at_least}{unit}, got {value!r}{unit}")
    return value


def convert(value, kind, name, where="configuration"):
    """``value`` as ``kind`` (see the module docstring), or SchemaError naming ``name``.

    An int where a float is expected is accepted, a float where an int is expected only
    if it is whole.

    >>> convert(3, float, "duration"), convert([1, 2], 2, "window")
    (3.0, (1.0, 2.0))
    """
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is None:
        return value
    if isinstance(kind, int) and not isinstance(kind, bool):
        if isinstance(value, (list, tuple)) and len(value) == kind and \
                all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return tuple(float(v) for v in value)
        raise SchemaError(f"{where}: {name} must be a list of {kind} numbers, got {value!r}")
    if kind in (int, float):
        if number and kind is float:
            return float(value)
        if number and float(value).is_integer():
            return int(value)
        if number:
            raise SchemaError(f"{where}: {name} must be a whole number, got {value!r}")
        raise SchemaError(f"{where}: {name} must be a number, got {value!r}")
    if not isinstance(value, kind):
        raise SchemaError(f"{where}: {name} must be {_KIND_TEXT[kind]}" + (" of settings" if kind is dict else "")
                          + f", got {value!r}")
    return value


def _kind_of(default):
    """The schema kind of a dataclass field's default."""
    if isinstance(default, bool):
        return bool
    if isinstance(default, (int, float)):
        return float if isinstance(default, float) else int
    if isinstance(default, (tuple, list)):
        return len(default)
    if isinstance(default, str) or default is None:
        return str
    return None


def checked_value(value, default, name, where="configuration"):
    """A setting converted to the kind of its ``default`` (see :func:`convert`).

    >>> checked_value(3, 0.5, "duration"), checked_value([1, 2], (0.0, 0.0), "window")
    (3.0, (1.0, 2.0))
    """
    return convert(value, _kind_of(default), name, where)


def read_config(path, cls):
    """An instance of the dataclass ``cls`` from the TOML file ``path`` (see :func:`config_from_dict`).

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
    SchemaError
        Unreadable file, unknown key or wrongly typed value: the message names the key
        (``table.key``) and what it expected.
    """
    return config_from_dict(read_toml(path), cls, where=path)


def config_from_dict(data, cls, where="configuration", prefix=""):
    """An instance of the configuration dataclass ``cls``: its defaults with the settings of
    ``data`` (nested dicts for fields whose default is a dataclass), each checked against the
    kind of its default; SchemaError naming ``table.key`` otherwise.

    >>> from femdyn.studies.rrru_study import StudyConfig
    >>> config = config_from_dict({"payload": 1, "geometry": {"E": 6.9e9}}, StudyConfig)
    >>> config.payload, config.geometry.E
    (1.0, 6900000000.0)
    """
    defaults = cls()
    schema = {f.name: dict if dataclasses.is_dataclass(getattr(defaults, f.name))
              else _kind_of(getattr(defaults, f.name)) for f in dataclasses.fields(cls)}
    values = check_table(data, schema, where, prefix)
    for key, value in values.items():
        if schema[key] is dict:
            values[key] = config_from_dict(value, type(getattr(defaults, key)), where, prefix=prefix + key + ".")
    return dataclasses.replace(defaults, **values)


def field_default(cls, key, where="configuration"):
    """The default value of the dotted ``key`` (``"geometry.E"``) of the dataclass ``cls``;
    SchemaError for an unknown key or a key naming a whole table.

    >>> from femdyn.studies.rrru_study import StudyConfig
    >>> field_default(StudyConfig, "geometry.E")
    690000000.0
    """
    value, prefix = cls(), ""
    for part in str(key).split("."):
        known = {f.name for f in dataclasses.fields(value)}
        if part not in known:
            raise SchemaError(f"{where}: unknown key {prefix}{part}; known keys: {sorted(prefix + k for k in known)}")
        value, prefix = getattr(value, part), prefix + part + "."
        if not dataclasses.is_dataclass(value):
            if prefix[:-1] != key:
                raise SchemaError(f"{where}: {prefix[:-1]} is a single setting, not a table, in the key {key}")
            return value
    raise SchemaError(f"{where}: {key} is a table of settings; name one of them: "
                      f"{sorted(prefix + f.name for f in dataclasses.fields(value))}")


def setting_value(config, key):
    """The value of the dotted ``key`` in a configuration dataclass instance.

    >>> from femdyn.studies.rrru_study import StudyConfig
    >>> setting_value(StudyConfig(), "geometry.link1_length")
    0.35
    """
    for part in str(key).split("."):
        config = getattr(config, part)
    return config


def with_overrides(data, overrides):
    """A copy of the configuration dict ``data`` with each dotted key of ``overrides`` set,
    creating the tables on its way.

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
                raise SchemaError(f"configuration: cannot set {key}: {table} is not a table")
        node[name] = copy.deepcopy(value)
    return out
