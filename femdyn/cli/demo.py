"""``femdyn demo``: the 3-RRRU study of Liu et al. (2018) (``femdyn study rrru``, the parallel-robot study on
its preset) in a short form (coarse links, part of the circle), its summary beside the paper's and a picture
of the deformed robot."""
import os
from dataclasses import replace

import numpy as np

from ..errors import ModelError, SolverError
from ..studies.parallel_study import load_robot
from ..studies.registry import get
from ..studies.rrru_command import add_solver_options
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
    study_record = get("rrru")
    config = study_record.apply_options(replace(study_record.config(), duration=args.t_end, h=args.step),
                                        args)                                     # the short form
    robot = load_robot(config)
    beam = next(iter(robot.description.limbs[0].links[-1:]), None)
    print(f"{robot.description.title}, {len(robot.description.limbs)} limbs, flexible links of "
          f"{config.parameters.get('elements')} ANCF beam elements each"
          + (f" (E = {beam.flexible.E:.3g} Pa)" if beam is not None and beam.flexible is not None else "")
          + f": the platform on a {config.task.kind} of {config.task.radius} m at {config.task.speed} m/s for "
          f"{args.t_end:g} s; rigid inverse, flexible forward and flexible inverse dynamics")
    out = os.path.abspath(args.out)
    try:
        study = run_study(study_record, config, out, args.quiet)
    except SolverError as err:
        partial = getattr(err, "study", None) or {}
        if partial.get("inverse") is not None and "inverse" in partial.get("systems", {}):
            _picture(partial, out, args.magnify)     # the picture of the steps computed
        raise
    print(study["systems"]["inverse"].summary())
    print(study_record.report(study["summary"]))
    _picture(study, out, args.magnify)
    print(written(out) + " (the full study: femdyn study rrru)")
    return 0


def _picture(study, out, magnify):
    """demo.png: the flexible inverse run at its largest link deflection, deflection magnified,
    the base (the actuated joints) and the platform labelled."""
    from femdyn.results.render import largest_deflection, render_configuration
    system, inverse = study["systems"]["inverse"], study["inverse"]
    k = int(largest_deflection(system, inverse.q).argmax())
    d = study["robot"].description
    base = [np.array(d.limbs[i].joints[j].point) for i, j in d.actuated]
    labels = {"base (motors)": np.mean(base, axis=0),
              "moving platform": [inverse[f"platform.{c}"][k] for c in "xyz"]}
    render_configuration(system, inverse.q[k], os.path.join(out, "demo.png"), magnify=magnify, polygons=[base],
                         title=f"{d.name}, flexible inverse dynamics at t = {inverse.t[k]:.3f} s", labels=labels)
    print(f"demo.png: the robot at t = {inverse.t[k]:.3f} s (largest deflection), flexible links' deflection "
          f"× {magnify:g}")
