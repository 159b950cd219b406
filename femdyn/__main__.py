"""``python -m femdyn <command>``: the ``femdyn`` command line (:func:`femdyn.cli.main.main`)."""
import sys

from femdyn.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
