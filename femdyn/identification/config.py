"""Identification studies described in TOML: keys and kinds in docs/identification.md §6.

Every key is checked against ``SCHEMA``: an unknown section or key, or a value of the wrong kind,
raises SchemaError naming it (femdyn.schema); ``DEFAULTS`` fill what is not given.
"""
from femdyn.schema import Key, SchemaError, check_table, read_toml

KINDS = ("wheel_momentum", "joint_torque")
SCHEMA = {
    "": {"title": str, "robot": Key(dict, required=True), "experiment": Key(dict, required=True), "identify": dict,
         "output": dict},
    "robot": {"builtin": Key(str, required=True), "wheel": str},
    "experiment": {"kind": str, "duration": Key(float, above=0, unit="s"), "sample_interval": Key(float, above=0, unit="s"),
                   "step": Key(float, above=0, unit="s"), "noise_std": Key(float, at_least=0), "seed": int,
                   "channels": list, "plan": list, "kp": float, "kd": float, "period": Key(float, above=0, unit="s"),
                   "harmonics": Key(int, above=0), "q_limit": Key(float, above=0, unit="rad"),
                   "v_limit": Key(float, above=0, unit="rad/s"), "optimize_iterations": int},
    "plan": {"final_deg": Key(dict, required=True)},
    "identify": {"parameters": list, "nominal": list, "lower": list, "upper": list, "linearized_iterations": int,
                 "seed": int, "popsize": int, "maxiter": int},
    "output": {"folder": str, "plots": bool},
}
REQUIRED_BY_KIND = {"wheel_momentum": {"": ("identify",), "experiment": ("plan",),
                                       "identify": ("parameters", "nominal")},
                    "joint_torque": {}}
DEFAULTS = {"experiment": dict(kind="wheel_momentum", duration=10.0, sample_interval=0.5, step=0.01, noise_std=0.0,
                               seed=0, channels=["Lz", "px", "py"], kp=100.0, kd=20.0, period=10.0, harmonics=3,
                               q_limit=1.0, v_limit=1.5, optimize_iterations=200, plan=[]),
            "identify": dict(linearized_iterations=50, seed=0, popsize=15, maxiter=300),
            "output": dict(folder="identify-out", plots=True)}


def _check(section, table, where, kind):
    """``table`` checked against the schema of ``section``, with the keys its kind of study needs."""
    schema = dict(SCHEMA[section])
    for key in REQUIRED_BY_KIND[kind].get(section, ()):
        spec = schema[key] if isinstance(schema[key], Key) else Key(schema[key])
        schema[key] = Key(spec.kind, True, spec.above, spec.at_least, spec.unit, f"needed for kind = '{kind}'")
    return check_table(table, schema, where, f"{section}." if section else "")


def _numbers(values, where):
    """The list ``values`` as floats, or SchemaError naming ``where``."""
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values):
        raise SchemaError(f"{where}: expected a list of numbers, got {values!r}")
    return [float(x) for x in values]


def parse(config, source="config"):
    """Checked configuration (dict) with defaults filled in, from a parsed TOML dict."""
    experiment = config.get("experiment", {}) if isinstance(config, dict) else {}
    kind = experiment.get("kind", "wheel_momentum") if isinstance(experiment, dict) else "wheel_momentum"
    if kind not in KINDS:
        raise SchemaError(f"{source}: experiment.kind: '{kind}' is not one of {KINDS}")
    _check("", config, source, kind)
    out = {"title": config.get("title", "identification")}
    for section in ("robot", "experiment", "identify", "output"):
        out[section] = {**DEFAULTS.get(section, {}), **_check(section, config.get(section, {}), source, kind)}
    plans = out["experiment"]["plan"]
    if kind == "wheel_momentum" and not plans:
        raise SchemaError(f"{source}: experiment.plan needs at least one [[experiment.plan]] table")
    for k, plan in enumerate(plans):
        where = f"{source} [[experiment.plan]] #{k + 1}"
        if not isinstance(plan, dict):
            raise SchemaError(f"{where}: expected a table with 'final_deg'")
        _check("plan", plan, where, kind)
        _numbers(plan["final_deg"].values(), f"{where}.final_deg")
    ident = out["identify"]
    n = len(ident.get("parameters", []))
    for key in ("nominal", "lower", "upper"):
        if key in ident:
            ident[key] = _numbers(ident[key], f"{source} [identify].{key}")
            if len(ident[key]) != n:
                raise SchemaError(f"{source} [identify].{key}: {len(ident[key])} values for {n} parameters")
    for name in ident.get("parameters", []):
        if not (isinstance(name, str) and name.count(".") == 1):
            raise SchemaError(f"{source} [identify].parameters: '{name}' is not 'body.quantity' (e.g. 'link1.mass')")
    return out


def load(path):
    """Read and check a TOML study file."""
    return parse(read_toml(path, "identification study"), str(path))
