"""Command line ``femdyn <command>``: each command is a module of this package with
``add_parser(sub)`` (registering its arguments and ``func``) and the function it runs."""
import argparse
import errno
import importlib
import os
import sys
import warnings

from ..errors import FemdynError
from .hints import add_warning_flags, cli_words, shown_as, warning_filters

COMMANDS = ("demo", "study", "sweep", "fit", "report", "mesh", "reduce", "show", "identify",
            "statics", "robot")   # modules of femdyn.cli, in --help order

EXIT_CODES = """exit codes (all commands):
  0  everything asked for succeeded
  1  a run or a tolerance failed (e.g. a sweep case, a report outside its tolerance)
  2  bad input: a missing or invalid file or option, an unwritable output folder, an unreachable
     Dask scheduler; a one-line "femdyn: error: ..." on standard error says which
output piped into a command that stops reading (femdyn ... | head) ends quietly."""


class PeerError(FemdynError, ConnectionError):
    """A peer (the Dask scheduler) that cannot be reached; the message names it."""


def _os_message(err, outputs):
    """The one-line message of an OSError: input not found or not readable, or output (under ``outputs``) not writable."""
    name, reason = err.filename, err.strerror or str(err)
    path = os.path.abspath(str(name)) if name else ""
    output = any(path == o or path.startswith(o + os.sep) for o in outputs)
    if not name:
        return f"{reason} ({type(err).__name__})"
    if err.errno == errno.ENOTDIR:
        part = str(name)
        while part and not os.path.exists(part):
            part = os.path.dirname(part)
        return (f"'{name}': '{part or name}' is a file, not a folder; give a folder there "
                f"({'the output folder, -o/--out' if output else 'check the order of the arguments'})")
    if output:
        return f"cannot write '{name}': {reason}; choose a writable output folder (not '{os.path.dirname(path)}')"
    if err.errno == errno.ENOENT:
        return f"cannot read '{name}': no such file or folder; check the input path"
    return f"cannot read '{name}': {reason}; check the input's permissions"


def main(argv=None):
    """Run the ``femdyn`` command line.

    Parses ``argv``, runs the command's ``func`` and turns femdyn errors, missing inputs, unwritable
    outputs and an unreachable scheduler into a one-line ``femdyn: error: …`` on standard error; a
    closed output pipe (``femdyn … | head``) ends quietly.

    Parameters
    ----------
    argv : list of str, optional
        Arguments after the program name (default: the process arguments).

    Returns
    -------
    int
        Exit code: the command's (0 on success, 1 when a run or a tolerance failed), 2 on bad input
        (a femdyn error, a missing input, an unwritable output, an unreachable peer).

    Examples
    --------
    >>> main(["sweep", "no-such-sweep.toml"])      # prints "femdyn: error: cannot read ..." to stderr
    2
    """
    parser = argparse.ArgumentParser(prog="femdyn", description="rigid-flexible multibody dynamics",
                                     epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"{__package__}.{name}").add_parser(sub)
    for command in _leaves(parser):
        add_warning_flags(command)
    args, extra = parser.parse_known_args(argv)
    if len(extra) == 1 and not extra[0].startswith("-") and getattr(args, "config", "") is None:
        args.config = extra[0]    # a configuration file after the options: argparse reads positionals in one run
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        with warnings.catch_warnings():
            warnings.showwarning = shown_as(args.cli_flags)  # femdyn's warnings in the command line's words
            for kind in warning_filters(args):
                warnings.simplefilter("ignore", kind)
            return args.func(args)
    except BrokenPipeError:
        _quiet_pipe()
        return 0
    except FemdynError as err:
        print(f"femdyn: error: {cli_words(str(err), args.cli_flags)}", file=sys.stderr)
        return 2
    except OSError as err:
        outputs = [os.path.abspath(getattr(args, a)) for a in ("out", "output") if getattr(args, a, None)]
        print(f"femdyn: error: {_os_message(err, outputs)}", file=sys.stderr)
        return 2


def _leaves(parser):
    """The parsers that run a command (``femdyn report strain``'s, not ``femdyn report``'s)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        return [parser]
    return [leaf for a in subs for p in dict.fromkeys(a.choices.values()) for leaf in _leaves(p)]


def _quiet_pipe():
    """Point standard output at /dev/null so that the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
