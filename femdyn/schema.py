"""Input files in TOML: reading them and checking their tables against a declared schema, with one
error, :class:`~femdyn.errors.SchemaError` naming file, dotted key and fix. Schema kinds, ``Key``
bounds and dotted keys: docs/input-checks.md ("TOML input files").
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
    """A schema key: kind, required, bounds (``above`` exclusive, ``at_least`` inclusive; in ``unit``), hint if missing."""

    kind: object = None
    required: bool = False
    above: float = None
    at_least: float = None
    unit: str = ""
    hint: str = ""


def read_toml(path, what="configuration"):
    """The tables of the TOML file ``path`` as a dict; SchemaError naming the file (``what``) otherwise."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as err:
        raise SchemaError(f"cannot read the {what} '{path}': {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise SchemaError(f"{what} '{path}' is not valid TOML: {err}") from None


def check_table(table, schema, where, prefix=""):
    """``table`` checked against ``schema`` (key → kind or :class:`Key`), values converted; SchemaError naming ``where`` and ``prefix + key``."""
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
    """``value`` as ``kind`` (an int for a float; a float for an int only if whole), or SchemaError naming ``name``."""
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
    """The schema kind of a dataclass field's default (an empty list or tuple: any list, e.g. of tables)."""
    if isinstance(default, bool):
        return bool
    if isinstance(default, (int, float)):
        return float if isinstance(default, float) else int
    if isinstance(default, (tuple, list)):
        return len(default) if default else list
    if isinstance(default, str) or default is None:
        return str
    return None


def checked_value(value, default, name, where="configuration"):
    """A setting converted to the kind of its ``default`` (see :func:`convert`)."""
    return convert(value, _kind_of(default), name, where)


def read_config(path, cls):
    """An instance of the dataclass ``cls`` from the TOML file ``path`` (absent keys keep their defaults)."""
    return config_from_dict(read_toml(path), cls, where=path)


def config_from_dict(data, cls, where="configuration", prefix=""):
    """The dataclass ``cls``'s defaults with the checked settings of ``data`` (nested dicts for dataclass fields; a field's ``metadata["schema"]`` holds its :class:`Key` bounds)."""
    return _onto(data, cls(), where, prefix)


def _onto(data, defaults, where, prefix):
    """The dataclass instance ``defaults`` with the checked settings of ``data``; a nested table changes the
    default's nested instance, a table setting the default's table (their other keys keep the default's values)."""
    schema = {f.name: dict if dataclasses.is_dataclass(getattr(defaults, f.name))
              else Key(_kind_of(getattr(defaults, f.name)), **f.metadata.get("schema", {}))
              for f in dataclasses.fields(defaults)}
    values = check_table(data, schema, where, prefix)
    for key, value in values.items():
        default = getattr(defaults, key)
        if schema[key] is dict:
            values[key] = _onto(value, default, where, prefix=prefix + key + ".")
        elif isinstance(default, dict) and isinstance(value, dict):
            values[key] = {**default, **value}
    return dataclasses.replace(defaults, **values)


def field_default(cls, key, where="configuration"):
    """The default of the dotted ``key`` (``"geometry.E"``) of the dataclass ``cls``; SchemaError if unknown or a table.
    A key of a table setting (``"parameters.E"``) is known when the default table holds it."""
    value, prefix = cls(), ""
    for part in str(key).split("."):
        known = {f.name for f in dataclasses.fields(value)}
        if part not in known:
            raise SchemaError(f"{where}: unknown key {prefix}{part}; known keys: {sorted(prefix + k for k in known)}")
        value, prefix = getattr(value, part), prefix + part + "."
        if isinstance(value, dict) and value and prefix[:-1] != key:        # a key of a table setting
            rest = str(key)[len(prefix):]
            if rest not in value:
                raise SchemaError(f"{where}: unknown key {key}; known keys: {sorted(prefix + k for k in value)}")
            return value[rest]
        if not dataclasses.is_dataclass(value):
            if prefix[:-1] != key:
                raise SchemaError(f"{where}: {prefix[:-1]} is a single setting, not a table, in the key {key}")
            return value
    raise SchemaError(f"{where}: {key} is a table of settings; name one of them: "
                      f"{sorted(prefix + f.name for f in dataclasses.fields(value))}")


def setting_value(config, key):
    """The value of the dotted ``key`` in a configuration dataclass instance."""
    for part in str(key).split("."):
        config = config[part] if isinstance(config, dict) else getattr(config, part)
    return config


def with_overrides(data, overrides):
    """A copy of the configuration dict ``data`` with each dotted key of ``overrides`` set (tables created)."""
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
