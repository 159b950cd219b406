"""Every option a library message suggests is reachable from the command line: the Python
option (``Options(...)``, ``check_units=False``, ``warnings.filterwarnings``) is named by the
flag of the command that prints the message, and the flags exist with the same names on the
commands where they apply; ``--ignore-warning`` and ``--no-step-check`` silence warnings on
every command."""
import argparse
import ast
import importlib
import re
import warnings

import pytest

from femdyn.cli import hints
from femdyn.cli.hints import cli_words
from femdyn.errors import StepSizeWarning, UnitsWarning
from support import ROOT

PYTHON_OPTION = re.compile(r"Options\(|check_units=|strict=False|filterwarnings\(|step_check=|unit='|on_failure=|"
                           r"rho_inf=|formulation='")
# statements of what the caller did, printed only when the caller passed the option (the CLI cannot)
NOT_SUGGESTIONS = {"; accepted because strict=False"}
cli_main = importlib.import_module("femdyn.cli.main")      # the module (femdyn.cli.main is also the function)


def library_messages():
    """The string literals (not docstrings) of femdyn's library that name a Python option."""
    found = []
    for folder in ("femdyn", "elements", "mesh", "solvers"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.is_symlink() or "cli" in path.relative_to(ROOT).parts or any(p.is_symlink() for p in path.parents):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                          if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                          and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
            pieces = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
            for n in ast.walk(tree):
                if isinstance(n, ast.JoinedStr):                          # an f-string, each {…} read as 0
                    text = "".join(v.value if isinstance(v, ast.Constant) else "0" for v in n.values)
                elif isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings | pieces:
                    text = n.value
                else:
                    continue
                if PYTHON_OPTION.search(text) and text not in NOT_SUGGESTIONS:
                    found.append((f"{path.relative_to(ROOT)}:{n.lineno}", text))
    return found


def parsers():
    """Command name → the parser that runs it, as ``femdyn`` builds them."""
    captured = {}
    original = argparse.ArgumentParser.parse_known_args

    def capture(self, *args, **kwargs):
        captured.update({" ".join(p.prog.split()[1:]): p for p in cli_main._leaves(self)})
        raise SystemExit(0)

    argparse.ArgumentParser.parse_known_args = capture
    try:
        with pytest.raises(SystemExit):
            cli_main.main(["--help"])
    finally:
        argparse.ArgumentParser.parse_known_args = original
    return captured


def test_every_python_option_in_a_library_message_is_named_by_a_flag():
    messages = library_messages()
    assert len(messages) >= 8                                            # the scan finds the known hints
    flags = set().union(*(p._option_string_actions for p in parsers().values()))
    left = [(where, text) for where, text in messages if PYTHON_OPTION.search(cli_words(text, flags))]
    assert left == []
    for python, flag in hints.CLI_HINTS:                                 # each replacement is a real flag
        assert not flag or flag.split()[0] in flags, flag


def test_solver_flags_have_the_same_names_where_they_apply():
    commands = parsers()
    printing = {"robot list", "robot ik", "robot fk"}                 # they only print: no output file
    assert set(commands) == {"demo", "study", "sweep", "fit", "report strain", "mesh", "reduce", "show", "identify",
                             "statics", "robot show"} | printing
    for name, parser in commands.items():
        flags = {"--ignore-warning", "--no-step-check"} | (set() if name in printing else {"-o"})
        assert flags <= set(parser._option_string_actions), name
    for name in ("demo", "study"):                                       # the commands that take solver options
        assert {"--rho-inf", "--formulation", "--halvings"} <= set(commands[name]._option_string_actions)
    assert {"--unit", "--no-unit-check"} <= set(commands["reduce"]._option_string_actions)


@pytest.mark.parametrize("python, cli", [
    ("Try a smaller ρ∞, Options(formulation='stabilized') (fast-spinning ...), Options(on_failure='retry'), or",
     "Try a smaller ρ∞, --formulation stabilized (fast-spinning ...), --halvings 8 (retry a failed step with halved "
     "steps), or"),
    ("use Options(rho_inf=0.0) (ρ∞ ≤ 0.3)", "use --rho-inf 0.0 (ρ∞ ≤ 0.3)"),
    ("or Options(step_check=False) to silence this check", "or --no-step-check to silence this check"),
    ("(silence: warnings.filterwarnings('ignore', category=femdyn.UnitsWarning))", "(silence: --ignore-warning "
                                                                                    "UnitsWarning)"),
    ("kg/m³) or pass check_units=False", "kg/m³) or pass --no-unit-check"),
    ("probably in mm: pass unit='mm'", "probably in mm: pass --unit mm"),
    ("use formulation='index3' (ρ∞ ≤ 0.95)", "use --formulation index3 (ρ∞ ≤ 0.95)"),
    ("check the values and their axes (or pass strict=False to accept it with a warning)",
     "check the values and their axes"),
])
def test_library_hints_in_the_command_lines_words(python, cli):
    assert cli_words(python) == cli
    assert cli_words(python, {"--other"}) == python or "strict" in python   # a command without the flag keeps it


def warn_twice(args):
    """A command that meets the library's two warnings, with their own hints."""
    from femdyn.model.checks import check_density
    check_density("link", 7.85)
    warnings.warn("h = 0.01 s exceeds half the shortest period ..., or Options(step_check=False) to silence this "
                  "check", StepSizeWarning)
    return 0


@pytest.fixture
def command(monkeypatch):
    """``femdyn show`` running :func:`warn_twice`."""
    from femdyn.cli import show
    monkeypatch.setattr(show, "run", warn_twice)
    return lambda *flags: cli_main.main(["show", "part.fdc", *flags])


def test_warnings_print_in_the_command_lines_words(command, capsys):
    assert command() == 0
    err = capsys.readouterr().err
    assert "femdyn: warning (UnitsWarning): link: density = 7.85 kg/m³ lies outside" in err
    assert "(silence: --ignore-warning UnitsWarning)" in err and "filterwarnings" not in err
    assert "femdyn: warning (StepSizeWarning): " in err and "--no-step-check to silence" in err


def test_ignore_warning_and_no_step_check_silence_them(command, capsys):
    assert command("--ignore-warning", "UnitsWarning") == 0
    err = capsys.readouterr().err
    assert "UnitsWarning" not in err and "StepSizeWarning" in err
    assert command("--ignore-warning", "femdyn.UnitsWarning", "--no-step-check") == 0
    assert capsys.readouterr().err == ""


def test_an_unknown_warning_kind_is_bad_input(command, capsys):
    assert command("--ignore-warning", "UnitWarning") == 2
    assert ("femdyn: error: --ignore-warning UnitWarning: no such femdyn warning; choose one of UnitsWarning, "
            in capsys.readouterr().err)
