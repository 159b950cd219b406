"""``python -m femdyn <command>``: the ``femdyn`` command line (:func:`femdyn.cli.main.main`)."""
import sys

from femdyn.cli.main import main

sys.exit(main())
