"""The library's messages in the command line's words: an error or warning printed by ``femdyn``
names the flag that does what its Python hint (``Options(...)``, ``check_units=False``,
``warnings.filterwarnings``) does; the flags shared by every command that silence warnings."""
import re
import warnings

from .. import errors

# Python option in a library message → the flag that sets it (the same name on every command that has it)
CLI_HINTS = (
    (r"Options\(formulation='stabilized'\)", "--formulation stabilized"),
    (r"Options\(on_failure='retry'\)", "--halvings 8 (retry a failed step with halved steps)"),
    (r"Options\(max_halvings=(\d+)\)", r"--halvings \1 (retry a failed step with halved steps)"),
    (r"Options\(rho_inf=([0-9.]+)\)", r"--rho-inf \1"),
    (r"Options\(step_check=False\)", "--no-step-check"),
    (r"Options\(tolerance(=[^)]*)?\)", "--tolerance (an error-controlled step)"),
    (r"\bformulation='(\w+)'", r"--formulation \1"),
    (r"warnings\.filterwarnings\('ignore', category=femdyn\.(\w+)\)", r"--ignore-warning \1"),
    (r"\bcheck_units=False\b", "--no-unit-check"),
    (r"\bunit='(\w+)'", r"--unit \1"),
    (r" \(or pass strict=False to accept it with a warning\)", ""),   # no such option for a configured model
)

WARNINGS = {name: cls for name, cls in vars(errors).items()
            if isinstance(cls, type) and issubclass(cls, errors.FemdynWarning) and cls is not errors.FemdynWarning}


def cli_words(text, flags=None):
    """``text`` with every Python option it suggests replaced by the command line's flag, where the command
    has that flag (``flags``: its option strings; None: every flag)."""
    for python, flag in CLI_HINTS:
        if flags is None or not flag or flag.split()[0] in flags:
            text = re.sub(python, flag, text)
    return text


def add_warning_flags(parser):
    """Register ``--no-step-check`` and ``--ignore-warning KIND`` on a command's parser."""
    group = parser.add_argument_group("warnings")
    group.add_argument("--no-step-check", action="store_true",
                       help="silence the step-size checks (StepSizeWarning: a step too long for the model's "
                            "shortest period, an unstable servo zero)")
    group.add_argument("--ignore-warning", action="append", default=[], metavar="KIND",
                       help=f"silence one kind of femdyn warning: {', '.join(WARNINGS)} (repeatable)")
    parser.set_defaults(cli_flags=frozenset(parser._option_string_actions))


def warning_filters(args):
    """The warning classes ``args`` silences; a ModelError names an unknown kind and the known ones."""
    kinds = list(getattr(args, "ignore_warning", None) or [])
    unknown = [k for k in kinds if k.removeprefix("femdyn.") not in WARNINGS]
    if unknown:
        raise errors.ModelError(f"--ignore-warning {unknown[0]}: no such femdyn warning; choose one of "
                                f"{', '.join(WARNINGS)}")
    silenced = [WARNINGS[k.removeprefix("femdyn.")] for k in kinds]
    return silenced + [errors.StepSizeWarning] * bool(getattr(args, "no_step_check", False))


def shown_as(flags):
    """A ``warnings.showwarning`` printing femdyn's warnings as ``femdyn: warning (KIND): …`` in the words of
    the command whose option strings are ``flags``."""
    return lambda *a, **k: _show_warning(flags, *a, **k)


def _show_warning(flags, message, category, filename, lineno, file=None, line=None):
    """Print one warning (see :func:`shown_as`)."""
    import sys
    if issubclass(category, errors.FemdynWarning):
        text = f"femdyn: warning ({category.__name__}): {cli_words(str(message), flags)}\n"
    else:
        text = warnings.formatwarning(message, category, filename, lineno, line)
    (file or sys.stderr).write(text)
