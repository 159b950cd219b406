"""Liu et al. (2018)'s strain-gauge experiment, built in: the test rig (the rrru preset's robot with links 3 of
E = 6.9e10 Pa and a 1.6 kg payload) driven along the preset's circle by flexible inverse dynamics, three axial
gauges on limb 1's link 3 (outer wall, 200, 407.5 and 600 mm from its upper joint), and the report against the
paper's measured peaks.

:func:`rig_config` is the rig as a parallel-robot study configuration (:class:`~.rrru_preset.RRRUStudyConfig`);
:func:`gauge_map` writes the gauge map (TOML) and the peaks file (CSV) of the paper's measurement;
:func:`run_test_rig` runs the rig's flexible model (:func:`~.parallel_model.flexible_model`) with those gauges
and writes a results folder that ``femdyn report strain`` compares with the peaks.
"""
import math
import os

from ..reports.measurements import read_gauge_map
from .parallel_model import flexible_model
from .parallel_study import load_robot
from .parallel_task import task_motion
from .rrru_preset import RRRUStudyConfig

PEAKS = {"SG200": (9.655, -12.739), "SG407": (4.692, -5.4250), "SG600": (7.612, -10.965)}   # µε, Liu et al. 2018
DISTANCES = {"SG200": 0.2, "SG407": 0.4075, "SG600": 0.6}                                 # m from the upper joint
LINK = "limb 0.link2"                     # limb 1's link 3, the gauged link


def rig_config(duration=0.0, n_elements=8):
    """The rrru preset with the test rig's settings: E = 6.9e10 Pa, 1.6 kg payload, limb 1's gauges only."""
    config = RRRUStudyConfig(duration=duration, payload=1.6, paraview_every=0, forward=False)
    config.parameters.update(E=6.9e10, elements=n_elements)
    config.gauges = [g for g in config.gauges if g["set"] == LINK]
    return config


def outer_wall_angle(config):
    """Wall angle (degrees, from the section's +y towards +z) of the outer wall of the config's first gauge on LINK."""
    gauge = next(g for g in config.gauges if g["set"] == LINK)
    return math.degrees(math.atan2(gauge.get("z", 0.0), gauge["y"]))


def gauge_map(folder, wall_angle_deg, balance_time=0.0):
    """Write the gauge map (TOML) and the paper's measured peaks (CSV) of the experiment."""
    os.makedirs(folder, exist_ok=True)
    lines = ['[comparison]', 'title = "3-RRRU test rig: limb 1 flexible link, axial gauges (Liu et al. 2018)"',
             f"balance_time = {balance_time}", "link_length = 0.815", "", "[tolerances]",
             "peak_pos_error = 1.0", "peak_neg_error = 1.0", ""]
    for channel, distance in DISTANCES.items():
        lines += [f"[gauges.{channel}]", f'beam = "{LINK}"', f'node = "{LINK}.0"', f"distance = {distance}",
                  f"wall_angle_deg = {wall_angle_deg:.6f}", f'channel = "{channel}"', ""]
    map_path, peaks_path = os.path.join(folder, "gauges.toml"), os.path.join(folder, "peaks.csv")
    with open(map_path, "w") as f:
        f.write("\n".join(lines))
    with open(peaks_path, "w") as f:
        f.write("channel,positive,negative,unit\n")
        f.writelines(f"{c},{p},{n},µε\n" for c, (p, n) in PEAKS.items())
    return map_path, peaks_path


def rig_model(folder, config, servo=True):
    """The rig's flexible model (a :class:`~.parallel_study.ParallelStudyConfig`) with the paper's gauges
    (map written to ``folder``) and its task motion; ``servo`` False: no servo constraint (to be driven)."""
    robot = load_robot(config)
    motion = task_motion(robot, config.task)
    built = flexible_model(robot, motion.sampled([0.0])[0][0], config, servo=motion if servo else None)
    map_path, peaks_path = gauge_map(folder, outer_wall_angle(config))
    for gauge in read_gauge_map(map_path).gauges():
        built.model.sensor_gauge(gauge)
    t_end = config.duration if config.duration > 0 else motion.end
    return built, t_end, map_path, peaks_path


def run_test_rig(folder, config=None, progress=False):
    """Flexible inverse dynamics of the test rig with the paper's gauges: (results folder, map, peaks)."""
    from femdyn.solvers.generalized_alpha import Options, integrate
    from femdyn.solvers.static import static_equilibrium
    config = config or rig_config()
    built, t_end, map_path, peaks_path = rig_model(folder, config)
    system = built.model.assemble()
    q0, _ = static_equilibrium(system)
    results = os.path.join(folder, "results")
    integrate(system, t_end, config.h, Options(rho_inf=config.flexible_rho_inf, tol_dynamic=config.tol_flexible,
                                               tol_constraint=1e-12), q0=q0, output=results, progress=progress)
    return results, map_path, peaks_path
