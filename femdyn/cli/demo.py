"""``femdyn demo``: the 3-RRRU study of Liu et al. (2018) in a short form (coarse links,
part of the circle), its summary beside the paper's and a picture of the deformed robot."""
import os

import numpy as np

from ..errors import ModelError, SolverError
from ..studies import rrru_study
from ..studies.registry import get
from ..studies.rrru_command import add_solver_options, solver_options
from .study import run_study, written


def add_parser(sub):
    """Register ``demo`` and its arguments on the sub-command parsers."""
    d = sub.add_parser("demo", help="run the built-in example: a short form of the 3-RRRU study (femdyn study rrru), "
                                    "its summary and a picture of the deformed robot")
    d.add_argument("-o", "--out", default="femdyn-out", help="output folder (default: ./femdyn-out)")
    d.add_argument("--t-end", type=float, default=0.8,
                   help="simulated time in s (default 0.8: start and cruise, about half of the 1.51 s circle)")
    d.add_argument("--elements", type=int, default=4, help="ANCF beam elements per flexible link (default 4)")
    d.add_argument("--step", type=float, default=1e-3, help="time step in s (default 1e-3)")
    d.add_argument("--magnify", type=float, default=10.0,
                   help="factor on the links' deflection in demo.png (default 10)")
    d.add_argument("--quiet", action="store_true", help="no progress bars")
    add_solver_options(d, elements=False)
    d.set_defaults(func=run)


def run(args):
    """Run the short 3-RRRU study, write ``args.out`` (the study's outputs and ``demo.png``) and print the
    model summary and the table beside the paper's; a bad option is a ModelError, a failed run a SolverError
    with the study's hint."""
    for name, value in (("--t-end", args.t_end), ("--step", args.step), ("--magnify", args.magnify)):
        if not value > 0:
            raise ModelError(f"{name} must be > 0, got {value}")
    config = solver_options(rrru_study.StudyConfig(duration=args.t_end, h=args.step, validate_inverse=False,
                                                   zero_dynamics_samples=1), args)          # the short form
    print(f"3-RRRU parallel robot of Liu et al. (2018), links 3 flexible ({config.n_elements} ANCF beam elements "
          f"each, E = {config.geometry.E:.3g} Pa): the platform centre on a circle of {config.radius} m at "
          f"{config.speed} m/s for {args.t_end:g} s; rigid inverse, flexible forward and flexible inverse dynamics")
    out = os.path.abspath(args.out)
    try:
        study = run_study(get("rrru"), config, out, args.quiet)
    except SolverError as err:
        if getattr(err, "study", {}).get("inverse") is not None:
            _picture(err.study, config, out, args.magnify)     # the picture of the steps computed
        raise
    print(study["system"].summary())
    print(get("rrru").report(study["summary"]))
    _picture(study, config, out, args.magnify)
    print(written(out) + " (the full study: femdyn study rrru)")
    return 0


def _picture(study, config, out, magnify):
    """demo.png: the flexible inverse run at its largest link deflection, deflection magnified,
    the base and the platform labelled."""
    from femdyn.results.render import largest_deflection, render_configuration
    system, inverse = study["system"], study["inverse"]
    k = int(largest_deflection(system, inverse.q).argmax())
    base = [limb.A1 for limb in _base(config)]
    labels = {"base (static platform, motors)": np.mean(base, axis=0),
              "moving platform": [inverse[f"P.{c}"][k] for c in "xyz"]}
    render_configuration(system, inverse.q[k], os.path.join(out, "demo.png"), magnify=magnify, polygons=[base],
                         title=f"3-RRRU, flexible inverse dynamics at t = {inverse.t[k]:.3f} s", labels=labels)
    print(f"demo.png: the robot at t = {inverse.t[k]:.3f} s (largest deflection), links 3 deflection × {magnify:g}")


def _base(config):
    """The limbs' inverse kinematics at the start of the circle (for the base joints A1)."""
    from femdyn.robots.rrru import inverse_kinematics
    from femdyn.studies.rrru import circle_motion
    motion = circle_motion(config)
    return inverse_kinematics(motion.position(motion.start), config.geometry).limbs
