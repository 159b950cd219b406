"""``femdyn demo``: the built-in example, with results, plots and a ParaView series."""
import os

from ..errors import SolverError


def add_parser(sub):
    """Register ``demo`` on the sub-command parsers ``sub``."""
    d = sub.add_parser("demo", help="run the built-in example (spatial RSSR linkage) and write results and plots")
    d.add_argument("--out", default="femdyn-out", help="output folder (default: ./femdyn-out)")
    d.add_argument("--t-end", type=float, default=2.0, help="end time in s (default 2)")
    d.add_argument("--step", type=float, default=1e-3, help="time step in s (default 1e-3)")
    d.add_argument("--rho-inf", type=float, default=0.9, help="generalized-α spectral radius ρ∞ (default 0.9)")
    d.add_argument("--quiet", action="store_true", help="no progress bar")
    d.set_defaults(func=run)


def run(args):
    """Simulate the RSSR linkage and write ``args.out``; returns the exit code."""
    from femdyn.mesh.vtk import write_series
    from femdyn.results.plots import plot_channels, plot_configuration
    from femdyn.robots.rssr import rssr_model
    from femdyn.solvers.generalized_alpha import Options, integrate

    system = rssr_model().assemble()
    print(system.summary())
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    plot_configuration(system, path=os.path.join(out, "configuration.png"))
    folder = os.path.join(out, "results")
    try:
        results = integrate(system, args.t_end, args.step, Options(rho_inf=args.rho_inf), output=folder,
                            progress=not args.quiet)
    except SolverError as err:
        raise SolverError(f"{err}\nthe steps computed before the failure are in {folder} "
                          "(read them with femdyn.load)", err.results) from None
    channels = ["crank.angle", "rocker.angle", "motor.torque", "energy", "constraint_residual"]
    plot_channels(results, channels, os.path.join(out, "channels.png"),
                  units={"crank.angle": "rad", "rocker.angle": "rad", "motor.torque": "N·m",
                         "energy": "J", "constraint_residual": "m"})
    results.to_csv(os.path.join(out, "channels.csv"), channels)
    write_series(system, results, os.path.join(out, "paraview"), every=20)
    torque = results["motor.torque"]
    print(f"{len(results.t) - 1} steps to t = {results.t[-1]:g} s; status: {results.status}")
    print(f"motor torque between {torque.min():.4g} and {torque.max():.4g} N·m; "
          f"max constraint residual {results['constraint_residual'].max():.2e} m")
    print(f"output written to {out}: configuration.png, channels.png, channels.csv, results/, "
          "paraview/motion.pvd")
    return 0
