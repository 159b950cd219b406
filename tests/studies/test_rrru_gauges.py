"""Liu et al. (2018)'s strain-gauge case: the test-rig robot with the paper's gauges, through
`femdyn report strain` against the paper's peaks (a short stretch of the circle)."""
import json
import math
import subprocess
import sys

import numpy as np

from femdyn.robots.rrru import rrru
from femdyn.studies.rrru_gauges import DISTANCES, outer_wall_angle, rig_config
from support import ROOT

EXAMPLES = ROOT / "examples"


def test_outer_wall_faces_away_from_the_robot_axis():
    """The gauge angle puts the gauge on the side of limb 1's link 3 facing away from the
    z axis: its direction in the section has a positive component along the limb's radial unit vector."""
    robot = rrru(flexible=True, n_elements=2)
    angle = math.radians(outer_wall_angle(robot))
    pose, g = robot.pose.limbs[0], robot.geometry
    d = (pose.A4 - pose.A2) / np.linalg.norm(pose.A4 - pose.A2)
    e_y = pose.b - d * (d @ pose.b)
    e_y /= np.linalg.norm(e_y)
    wall = math.cos(angle) * e_y + math.sin(angle) * np.cross(d, e_y)
    _, e_r, _, _ = g.limb_frame(0)
    assert wall @ e_r > 0.9 * np.linalg.norm(e_r - d * (d @ e_r))


def test_example_writes_the_report_against_the_paper_peaks(tmp_path):
    """examples/rrru_strain_report.py on 20 ms with 2 elements per link: the report's JSON,
    HTML and PDF are written and name the paper's three gauges (exit 0, or 1 when a
    tolerance fails: the report is written either way)."""
    done = subprocess.run([sys.executable, str(EXAMPLES / "rrru_strain_report.py"), str(tmp_path), "--duration",
                           "0.02", "--elements", "2"], capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    metrics = json.loads((tmp_path / "report" / "metrics.json").read_text())
    text = json.dumps(metrics)
    assert all(channel in text for channel in DISTANCES)
    assert (tmp_path / "report" / "report.html").exists() and (tmp_path / "report" / "report.pdf").exists()
    assert rig_config().payload == 1.6
