"""Command line ``femdyn <command>``: each command is a module of this package with
``add_parser(sub)`` (registering its arguments and ``func``) and the function it runs."""
import argparse
import importlib
import sys

from ..errors import FemdynError

COMMANDS = ("demo", "study", "sweep", "fit", "report", "reduce", "show", "identify")   # modules of femdyn.cli, in --help order


def main(argv=None):
    """Run the ``femdyn`` command line.

    Parses ``argv``, runs the command's ``func`` and turns femdyn errors and unwritable output
    paths into a one-line ``femdyn: error: …`` on standard error.

    Parameters
    ----------
    argv : list of str, optional
        Arguments after the program name (default: the process arguments).

    Returns
    -------
    int
        Exit code: the command's (0 on success), 2 on a femdyn error or an unwritable output
        path.

    Examples
    --------
    >>> main(["sweep", "no-such-sweep.toml"])      # prints "femdyn: error: cannot read ..." to stderr
    2
    """
    parser = argparse.ArgumentParser(prog="femdyn", description="rigid-flexible multibody dynamics")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"{__package__}.{name}").add_parser(sub)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except FemdynError as err:
        print(f"femdyn: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"femdyn: error: cannot write '{err.filename}': {err.strerror}; choose a writable output folder",
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
