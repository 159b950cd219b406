"""Liu et al. (2018)'s strain-gauge case: the test-rig robot with the paper's gauges, through
`femdyn report strain` against the paper's peaks (a short stretch of the circle)."""
import json
import math
import subprocess
import sys

import numpy as np

from femdyn.studies.rrru_gauges import DISTANCES, LINK, outer_wall_angle, rig_config, rig_model
from support import ROOT

EXAMPLES = ROOT / "examples"


def test_outer_wall_faces_away_from_the_robot_axis(tmp_path):
    """The gauge angle puts the gauges on the side of limb 1's link 3 facing away from the z axis: at the link's
    upper node (r, r_x, r_y, r_z) the wall direction cos a r_y + sin a r_z has a positive component along the
    limb's radial unit vector, at least 0.9 of the radial vector's part normal to the link."""
    config = rig_config(0.0, 2)
    built, *_ = rig_model(tmp_path, config)
    node = built.model.nodes[f"{LINK}.0"]
    r, rx, ry, rz = np.reshape(node.initial, (4, 3))
    angle = math.radians(outer_wall_angle(config))
    wall = math.cos(angle) * ry + math.sin(angle) * rz
    e_r = np.array([r[0], r[1], 0.0]) / np.hypot(r[0], r[1])
    d = rx / np.linalg.norm(rx)
    assert wall @ e_r > 0.9 * np.linalg.norm(e_r - d * (d @ e_r))


def test_rig_gauges_read_the_study_gauges(tmp_path):
    """The gauge map's three gauges (wall angle from the preset's y, z) read the same strain as the study's
    section-point sensors at the same places (``gauge k limb 0.link2``) over 2 ms of the rig's inverse run
    (E = 6.9e10 Pa, 1.6 kg payload); to 1e-9 relative: the two sensors evaluate the same strain field."""
    from femdyn.solvers.generalized_alpha import Options, integrate
    from femdyn.solvers.static import static_equilibrium
    config = rig_config(0.0, 2)
    assert config.parameters["E"] == 6.9e10 and config.payload == 1.6
    assert [g["s"] for g in config.gauges] == list(DISTANCES.values())
    built, *_ = rig_model(tmp_path, config)
    system = built.model.assemble()
    q0, _ = static_equilibrium(system)
    res = integrate(system, 2e-3, 1e-3, Options(rho_inf=0.0, tol_dynamic=1e-8, tol_constraint=1e-12), q0=q0)
    for k, channel in enumerate(DISTANCES):
        a, b = res[f"{channel}.strain"], res[f"gauge {k} {LINK}.strain"]
        assert np.abs(b).min() > 1e-6 and np.abs(a - b).max() <= 1e-9 * np.abs(b).max()


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
