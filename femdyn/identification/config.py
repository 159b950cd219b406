"""Identification studies described in TOML: keys and kinds in docs/identification.md §6.

Every key is checked against ``SCHEMA``: an unknown section or key, or a value of the wrong kind,
raises ModelError naming it; ``DEFAULTS`` fill what is not given.
"""
from femdyn.errors import ModelError
from femdyn.formats.config import read_toml

SCHEMA = {
    "": {"title": str, "robot": dict, "experiment": dict, "identify": dict, "output": dict},
    "robot": {"builtin": str, "wheel": str},
    "experiment": {"kind": str, "duration": float, "sample_interval": float, "step": float, "noise_std": float,
                   "seed": int, "channels": list, "plan": list, "kp": float, "kd": float, "period": float,
                   "harmonics": int, "q_limit": float, "v_limit": float, "optimize_iterations": int},
    "plan": {"final_deg": dict},
    "identify": {"parameters": list, "nominal": list, "lower": list, "upper": list, "linearized_iterations": int,
                 "seed": int, "popsize": int, "maxiter": int},
    "output": {"folder": str, "plots": bool},
}
KINDS = ("wheel_momentum", "joint_torque")
REQUIRED = {"": ("robot", "experiment"), "robot": ("builtin",), "plan": ("final_deg",)}
REQUIRED_BY_KIND = {"wheel_momentum": {"": ("identify",), "experiment": ("plan",),
                                       "identify": ("parameters", "nominal")},
                    "joint_torque": {}}
DEFAULTS = {"experiment": dict(kind="wheel_momentum", duration=10.0, sample_interval=0.5, step=0.01, noise_std=0.0,
                               seed=0, channels=["Lz", "px", "py"], kp=100.0, kd=20.0, period=10.0, harmonics=3,
                               q_limit=1.0, v_limit=1.5, optimize_iterations=200, plan=[]),
            "identify": dict(linearized_iterations=50, seed=0, popsize=15, maxiter=300),
            "output": dict(folder="identify-out", plots=True)}


def _check(section, table, where, kind=None):
    """Check one table against its SCHEMA section: known keys, values of the right type."""
    schema = SCHEMA[section]
    for key, value in table.items():
        if key not in schema:
            raise ModelError(f"{where}: unknown key '{key}'; allowed keys are {sorted(schema)}")
        kind = schema[key]
        ok = isinstance(value, kind) and not (kind in (int, float) and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            raise ModelError(f"{where}.{key}: expected {kind.__name__}, got {value!r}")
    for key in REQUIRED.get(section, ()) + REQUIRED_BY_KIND.get(kind, {}).get(section, ()):
        if key not in table:
            raise ModelError(f"{where}: missing key '{key}'" + (f" (needed for kind = '{kind}')" if kind else ""))


def _numbers(values, where):
    """A list of floats, or a ModelError naming ``where``."""
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values):
        raise ModelError(f"{where}: expected a list of numbers, got {values!r}")
    return [float(x) for x in values]


def parse(config, source="config"):
    """Checked configuration (dict) with defaults filled in, from a parsed TOML dict."""
    _check("", config, source)
    kind = config.get("experiment", {}).get("kind", "wheel_momentum") if isinstance(config.get("experiment"),
                                                                                     dict) else None
    if kind not in KINDS:
        raise ModelError(f"{source} [experiment].kind: '{kind}' is not one of {KINDS}")
    _check("", config, source, kind)
    out = {"title": config.get("title", "identification")}
    for section in ("robot", "experiment", "identify", "output"):
        table = dict(config.get(section, {}))
        _check(section, table, f"{source} [{section}]", kind)
        out[section] = {**DEFAULTS.get(section, {}), **table}
    plans = out["experiment"]["plan"]
    if kind == "wheel_momentum" and not plans:
        raise ModelError(f"{source} [experiment]: 'plan' needs at least one [[experiment.plan]] table")
    for k, plan in enumerate(plans):
        where = f"{source} [[experiment.plan]] #{k + 1}"
        if not isinstance(plan, dict):
            raise ModelError(f"{where}: expected a table with 'final_deg'")
        _check("plan", plan, where)
        _numbers(plan["final_deg"].values(), f"{where}.final_deg")
    ident = out["identify"]
    n = len(ident.get("parameters", []))
    for key in ("nominal", "lower", "upper"):
        if key in ident:
            ident[key] = _numbers(ident[key], f"{source} [identify].{key}")
            if len(ident[key]) != n:
                raise ModelError(f"{source} [identify].{key}: {len(ident[key])} values for {n} parameters")
    for name in ident.get("parameters", []):
        if not (isinstance(name, str) and name.count(".") == 1):
            raise ModelError(f"{source} [identify].parameters: '{name}' is not 'body.quantity' (e.g. 'link1.mass')")
    for key in ("duration", "sample_interval", "step", "period", "q_limit", "v_limit", "harmonics"):
        if not out["experiment"][key] > 0:
            raise ModelError(f"{source} [experiment].{key}: must be positive, got {out['experiment'][key]}")
    if out["experiment"]["noise_std"] < 0:
        raise ModelError(f"{source} [experiment].noise_std: must be ≥ 0")
    return out


def load(path):
    """Read and check a TOML study file."""
    return parse(read_toml(path, "identification study"), str(path))
