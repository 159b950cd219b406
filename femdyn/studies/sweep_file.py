"""Sweep files: a TOML with the base configuration of a study and the cases to run (docs/sweeps.md).

``study`` (optional) names a registered study's sweep; ``[base]`` holds settings of its configuration;
``[sweep]`` holds one of ``grid = {key = [values]}``, ``random = {count, seed, key = {distribution}}``
(:func:`femdyn.studies.sweep.random_cases`) or ``sensitivity = {step, keys, figures}``
(:func:`femdyn.studies.sensitivity.central_cases`). Keys are dotted paths to single settings; every key
and value is checked before a case runs (a SchemaError names the bad one).
"""
from dataclasses import dataclass

from ..errors import ModelError, SchemaError
from ..schema import (check_table, checked_value, config_from_dict, field_default, read_toml, setting_value,
                      with_overrides)
from .sensitivity import central_cases
from .sweep import grid_cases, random_cases


@dataclass
class Sweep:
    """A sweep read from a file.

    ``study`` (str or None): the ``study`` key of the file (None when absent); ``base`` (dict): the ``[base]``
    table (plain settings); ``cases`` (list of dict): dotted overrides of each case, in case order; ``kind``
    (str): "grid", "random" or "sensitivity"; ``seed`` (int or None, optional): seed of a random sample;
    ``parameters`` (dict or None, optional): a sensitivity's keys → their base values; ``figures`` (list or
    None, optional): a sensitivity's summary names; ``step`` (float or None, optional): a sensitivity's relative
    step.
    """

    study: str
    base: dict
    cases: list
    kind: str
    seed: int = None
    parameters: dict = None
    figures: list = None
    step: float = None


def read_sweep(path, config_class):
    r"""The sweep in a TOML file for a study configured by a dataclass."""
    return sweep_from_dict(read_toml(path, "sweep file"), config_class, where=path)


def sweep_from_dict(data, config_class, where="sweep"):
    """A :class:`Sweep` from the tables of a sweep file (see :func:`read_sweep`)."""
    check_table(data, {"study": str, "base": dict, "sweep": dict}, where)
    study, base = data.get("study"), data.get("base", {})
    config_from_dict(base, config_class, where=f"{where} [base]")
    spec = data.get("sweep")
    if spec is None:
        raise SchemaError(f"{where}: a [sweep] table with 'grid' or 'random' is needed")
    check_table(spec, dict.fromkeys(("grid", "random", "sensitivity"), dict), where, "sweep.")
    kinds = sorted(spec)
    if len(kinds) != 1:
        raise SchemaError(f"{where}: [sweep] holds exactly one of 'grid' and 'random' (or 'sensitivity'), "
                          f"got {kinds or 'neither'}")
    kind = kinds[0]
    table = spec[kind]
    if not table:
        raise SchemaError(f"{where}: sweep.{kind} must be a table of settings to vary, got {table!r}")
    extras = {}
    if kind == "grid":
        cases, seed = _grid(table, config_class, where), None
    elif kind == "sensitivity":
        cases, seed = _sensitivity(table, base, config_class, where), None
        extras = {"parameters": _base_values(table["keys"], base, config_class, where),
                  "figures": list(table["figures"]), "step": float(table.get("step", 0.05))}
    else:
        cases, seed = _random(table, config_class, where), table.get("seed")
    for k, case in enumerate(cases):       # whole configurations, as the workers will build them
        config_from_dict(with_overrides(base, case), config_class, where=f"{where} case {k}")
    return Sweep(study, base, cases, kind, seed, **extras)


def _grid(table, config_class, where):
    """The cases of a ``[sweep] grid`` table, every value checked against the configuration."""
    for key, values in table.items():
        default = field_default(config_class, key, where=f"{where} sweep.grid")
        if not isinstance(values, list) or not values:
            raise SchemaError(f"{where}: sweep.grid.{key} needs a non-empty list of values, got {values!r}")
        table[key] = [checked_value(v, default, f"sweep.grid.{key}", where) for v in values]
    return grid_cases(table)


def _random(table, config_class, where):
    """The cases of a ``[sweep] random`` table, every distribution checked against the configuration."""
    parameters = {k: v for k, v in table.items() if k not in ("count", "seed")}
    if "count" not in table or "seed" not in table:
        raise SchemaError(f"{where}: sweep.random needs count (number of cases) and seed")
    if not parameters:
        raise SchemaError(f"{where}: sweep.random names no setting to vary")
    for key, spec in parameters.items():
        default = field_default(config_class, key, where=f"{where} sweep.random")
        kind = next(iter(spec)) if isinstance(spec, dict) and len(spec) == 1 else None
        if isinstance(default, int) and not isinstance(default, bool) and kind in ("uniform", "log_uniform"):
            raise SchemaError(f"{where}: sweep.random.{key} is a whole number: draw it with integers or choice")
        if kind == "choice" and isinstance(spec["choice"], list):
            spec["choice"] = [checked_value(v, default, f"sweep.random.{key}.choice", where) for v in spec["choice"]]
        elif kind in ("uniform", "log_uniform", "integers") and \
                (isinstance(default, bool) or not isinstance(default, (int, float))):
            raise SchemaError(f"{where}: sweep.random.{key} is not a number: draw it with choice")
    try:
        return random_cases(parameters, table["count"], table["seed"])
    except ModelError as err:
        raise SchemaError(f"{where}: {err}") from None


def _base_values(keys, base, config_class, where):
    """Dotted key → its value in the base configuration."""
    config = config_from_dict(base, config_class, where=f"{where} [base]")
    for key in keys:
        field_default(config_class, key, where=f"{where} sweep.sensitivity")
    return {key: setting_value(config, key) for key in keys}


def _sensitivity(table, base, config_class, where):
    """The central cases of ``sweep.sensitivity = {step, keys, figures}``."""
    check_table(table, {"step": float, "keys": list, "figures": list}, where, "sweep.sensitivity.")
    for name in ("keys", "figures"):
        if not isinstance(table.get(name), list) or not table[name] or \
                not all(isinstance(k, str) for k in table[name]):
            raise SchemaError(f"{where}: sweep.sensitivity.{name} needs a non-empty list of names, "
                             f"got {table.get(name)!r}")
    step = table.get("step", 0.05)
    try:
        return central_cases(_base_values(table["keys"], base, config_class, where), float(step))
    except ModelError as err:
        raise SchemaError(f"{where}: {err}") from None
