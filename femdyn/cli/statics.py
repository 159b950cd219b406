"""``femdyn statics``: the static equilibrium, or the load–displacement path, of a model built by a Python file."""
import importlib.util
import os

from ..errors import ModelError
from ..model import Model, System


def add_parser(sub):
    """Register ``statics`` and its arguments on the sub-command parsers.

    ``sub`` (argparse._SubParsersAction): the sub-command parsers of :func:`femdyn.cli.main.main`; the new
    parser's ``func`` is :func:`run`.
    """
    s = sub.add_parser("statics", help="static equilibrium or equilibrium path (arc length) of a model file")
    s.add_argument("model", help="Python file with a function that returns a femdyn Model or an assembled System")
    s.add_argument("--function", default="model", help="that function's name (default: model)")
    s.add_argument("--path", type=float, metavar="ARC", default=None,
                   help="trace the load–displacement path by arc-length continuation, first arc ARC (m)")
    s.add_argument("--channels", nargs="+", default=[],
                   help="coordinate labels or sensor columns to write (the first is the figure's abscissa)")
    s.add_argument("--unit", default="m", help="unit of the first channel, for the figure (default: m)")
    s.add_argument("--load-steps", type=int, default=1, help="initial load levels of the equilibrium (default 1)")
    s.add_argument("--max-points", type=int, default=200, help="points of the path (default 200)")
    s.add_argument("--load-max", type=float, default=1.0, help="end the path when |s| exceeds this (default 1)")
    s.add_argument("-o", "--out", default="femdyn-out/statics", help="folder for the CSV and the figure")
    s.set_defaults(func=run)


def run(args):
    """Solve the statics of the model file and write ``equilibrium.csv`` or ``path.csv`` and ``path.png``.

    ``path.png`` adds the reference curve (label, x, s) of ``<function>_reference()`` when the file
    defines one (docs/howto/statics.md). ``args`` (argparse.Namespace): parsed arguments (see
    :func:`add_parser`). Returns int: exit code 0. Raises ModelError: no such function in the file, a
    result that is not a model, a path without channels, a bad reference curve; ConvergenceError: no
    equilibrium.
    """
    from femdyn.solvers import equilibrium_path, static_equilibrium

    module = _module(args.model)
    system = _system(module, args.model, args.function)
    os.makedirs(args.out, exist_ok=True)
    if args.path is None:
        q, lam = static_equilibrium(system, load_steps=args.load_steps)
        table = os.path.join(args.out, "equilibrium.csv")
        with open(table, "w") as f:
            f.write("coordinate,value\n" + "".join(f"{label},{value!r}\n" for label, value in zip(system.labels, q)))
        print(f"static equilibrium of model '{system.name}': {system.n} coordinates, {system.m} multipliers; "
              f"wrote {table}")
        return 0
    if not args.channels:
        raise ModelError("femdyn statics --path: name the channels to write with --channels (coordinate labels "
                         f"such as {system.labels[0]!r} or sensor columns)")
    path = equilibrium_path(system, args.path, max_points=args.max_points, load_max=args.load_max)
    table = path.to_csv(os.path.join(args.out, "path.csv"), args.channels)
    reference = _reference_curve(module, args.function)
    figure = path.plot(args.channels[0], os.path.join(args.out, "path.png"), unit=args.unit, reference=reference)
    print(f"equilibrium path of model '{system.name}': {len(path)} points, load factor "
          f"{path.load_factors.min():.4g} … {path.load_factors.max():.4g}; wrote {table} and {figure}"
          + (f" (reference: {' '.join(reference[0].split())})" if reference is not None else ""))
    return 0


def _reference_curve(module, function):
    """``<function>_reference()`` of the model file: (label, x, s) for the path figure, None without the hook."""
    hook = getattr(module, f"{function}_reference", None)
    return hook() if callable(hook) else None


def _module(file):
    """The Python file ``file`` loaded as a module."""
    spec = importlib.util.spec_from_file_location("femdyn_statics_model", file)
    if spec is None or not os.path.isfile(file):
        raise ModelError(f"femdyn statics: cannot read the model file '{file}'; give a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _system(module, file, function):
    """The assembled System returned (as a Model or a System) by ``function()`` of the loaded model file."""
    build = getattr(module, function, None)
    if not callable(build):
        raise ModelError(f"femdyn statics: '{file}' has no function {function!r}; name it with --function")
    built = build()
    system = built.assemble() if isinstance(built, Model) else built
    if not isinstance(system, System):
        raise ModelError(f"femdyn statics: {function}() in '{file}' returned {type(built).__name__}, "
                         "not a femdyn Model or System")
    return system
