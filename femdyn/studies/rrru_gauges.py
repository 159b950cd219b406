"""Liu et al. (2018)'s strain-gauge experiment, built in: the test rig's 3-RRRU robot (links 3
of E = 6.9e10 Pa, 1.6 kg payload) driven along the study's circle by flexible inverse
dynamics, three axial gauges on limb 1's flexible link (outer wall, 200, 407.5 and 600 mm
from its upper joint), and the report against the paper's measured peaks.

:func:`gauge_map` writes the gauge map (TOML) and the peaks file (CSV) of the paper's
measurement; :func:`run_test_rig` runs the robot with those gauges declared on its model
and writes a results folder that ``femdyn report strain`` compares with the peaks.
"""
import math
import os

import numpy as np

from ..reports.measurements import read_gauge_map
from ..robots.rrru import RRRUGeometry
from .rrru import circle_motion, servo_robot
from .rrru_study import StudyConfig

PEAKS = {"SG200": (9.655, -12.739), "SG407": (4.692, -5.4250), "SG600": (7.612, -10.965)}   # µε, Liu et al. 2018
DISTANCES = {"SG200": 0.2, "SG407": 0.4075, "SG600": 0.6}                                 # m from the upper joint


def rig_config(duration=0.0, n_elements=8):
    """The study configuration of the paper's experiment: E = 6.9e10 Pa, 1.6 kg payload."""
    return StudyConfig(duration=duration, n_elements=n_elements, payload=1.6, geometry=RRRUGeometry(E=6.9e10),
                       paraview_every=0)


def outer_wall_angle(robot, limb=0):
    """Wall angle of the side of a limb's link 3 facing away from the robot's axis."""
    pose, g = robot.pose.limbs[limb], robot.geometry
    d = (pose.A4 - pose.A2) / np.linalg.norm(pose.A4 - pose.A2)
    e_y = pose.b - d * (d @ pose.b)
    e_y /= np.linalg.norm(e_y)
    e_z = np.cross(d, e_y)
    _, e_r, _, _ = g.limb_frame(limb)
    return math.degrees(math.atan2(e_r @ e_z, e_r @ e_y))


def gauge_map(folder, wall_angle_deg, balance_time=0.0):
    """Write the gauge map (TOML) and the paper's measured peaks (CSV) of the experiment."""
    os.makedirs(folder, exist_ok=True)
    lines = ['[comparison]', 'title = "3-RRRU test rig: limb 1 flexible link, axial gauges (Liu et al. 2018)"',
             f"balance_time = {balance_time}", "link_length = 0.815", "", "[tolerances]",
             "peak_pos_error = 1.0", "peak_neg_error = 1.0", ""]
    for channel, distance in DISTANCES.items():
        lines += [f"[gauges.{channel}]", 'beam = "link3_0"', 'node = "link3_0.0"', f"distance = {distance}",
                  f"wall_angle_deg = {wall_angle_deg:.6f}", f'channel = "{channel}"', ""]
    map_path, peaks_path = os.path.join(folder, "gauges.toml"), os.path.join(folder, "peaks.csv")
    with open(map_path, "w") as f:
        f.write("\n".join(lines))
    with open(peaks_path, "w") as f:
        f.write("channel,positive,negative,unit\n")
        f.writelines(f"{c},{p},{n},µε\n" for c, (p, n) in PEAKS.items())
    return map_path, peaks_path


def run_test_rig(folder, config=None, progress=False):
    """Flexible inverse dynamics of the test rig with the paper's gauges."""
    from femdyn.solvers.generalized_alpha import Options, integrate
    from femdyn.solvers.static import static_equilibrium
    config = config or rig_config()
    motion = circle_motion(config)
    robot = servo_robot(config, motion, flexible=True, n_elements=config.n_elements)
    map_path, peaks_path = gauge_map(folder, outer_wall_angle(robot))
    for gauge in read_gauge_map(map_path).gauges():
        robot.model.sensor_gauge(gauge)
    system = robot.model.assemble()
    q0, _ = static_equilibrium(system)
    results = os.path.join(folder, "results")
    t_end = config.duration if config.duration > 0 else motion.end
    integrate(system, t_end, config.h, Options(rho_inf=config.flexible_rho_inf, tol_dynamic=config.tol_flexible,
                                               tol_constraint=1e-12), q0=q0, output=results, progress=progress)
    return results, map_path, peaks_path
