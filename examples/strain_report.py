"""Strain-gauge report for a flexible link: a clamped aluminium ANCF link 0.815 m long
(radius 0.01 m) carries three gauges on its outer wall at 0.2, 0.4075 and 0.6 m from the
clamp, as on Liu et al.'s (2018) flexible link. A tip force pulse (2 N for 0.1 s) sets it
vibrating. The "measurement" is synthetic: the simulated gauge strain scaled by 0.92,
5 ms late, with a bridge offset and noise, sampled at 2 kHz and written as a quarter
bridge's output in mV/V (gauge factor 2.1) with one NaN sample. The gauge map (TOML)
defines the gauges, declared on the model before the run from the same map, ties them
to the channels and sets filtering, alignment, zero-balancing and tolerances; then

    femdyn report strain OUT/run OUT/measured.csv --map OUT/gauges.toml -o OUT/report

writes report.html, report.pdf and metrics.json.

    python examples/strain_report.py [out_folder]
"""
import os
import sys

import numpy as np

import femdyn
from femdyn.cli.main import main as femdyn_cli
from femdyn.elements import sections
from femdyn.reports.measurements import read_gauge_map
from femdyn.motion.timefunctions import Callable
from femdyn.results.plots import output_folder
from femdyn.solvers.generalized_alpha import Options, integrate

GAUGE_MAP = """\
[comparison]
title = "Flexible link, tip pulse: three axial gauges"
cutoff = 100.0          # Hz, zero-phase low-pass on both sides
max_lag = 0.02          # s, bound of the alignment search
balance_time = 0.0      # s, the bridge is balanced at rest
window = [0.0, 0.6]     # s

[tolerances]
peak_pos_error = 0.15
peak_neg_error = 0.15
nrmse = 0.25
correlation = 0.95
sg_combined = 0.15
russell_combined = 0.15
{gauges}"""
GAUGE = """
[gauges.{name}]
beam = "link"
node = "link.0"
distance = {distance}
wall_angle_deg = 90.0   # top of the section (+z): bending under a z load
grid_length = 0.006
grid_points = 2         # Gauss points over the grid: exact for cubic strain fields
channel = "{channel}"
unit = "mV/V"
gauge_factor = 2.1
bridge = "quarter"
"""
GAUGES = (("G200", 0.2, "SG1"), ("G407", 0.4075, "SG2"), ("G600", 0.6, "SG3"))


def write_map(path):
    """The gauge map of the three gauges (TOML)."""
    text = GAUGE_MAP.format(gauges="".join(GAUGE.format(name=n, distance=d, channel=c) for n, d, c in GAUGES))
    with open(path, "w") as f:
        f.write(text)
    return path


def simulate(folder, gauge_map, t_end=0.6, h=2e-3):
    """Run the clamped link with the map's gauges declared on it; results in ``folder``."""
    m = femdyn.Model("flexible link", gravity=(0, 0, 0))
    m.straight_beam("link", (0, 0, 0), (0.815, 0, 0), 8, E=6.9e10, rho=2700, section=sections.circular(0.01))
    m.clamp("root", "link.0")
    pulse = Callable(lambda t: 1.0 if 0.02 <= t < 0.12 else 0.0)
    m.beam_force("tip", "link", 7, 1.0, (0, 0, -2.0), function=pulse)
    for gauge in gauge_map.gauges():
        m.sensor_gauge(gauge)
    return integrate(m.assemble(), t_end, h, Options(rho_inf=0.8), output=folder)


def synthetic_measurement(results, path, rate=2000.0, delay=0.005, scale=0.92, seed=1):
    """Quarter-bridge outputs (mV/V) of the simulated gauges, distorted as described above."""
    rng = np.random.default_rng(seed)
    t = np.arange(-0.05, results.t[-1], 1.0 / rate)
    k = 2.1
    columns = []
    for name, _, _ in GAUGES:
        eps = scale * np.interp(t - delay, results.t, results[f"{name}.strain"]) + 3e-6   # offset: unbalanced part
        eps += rng.normal(0.0, 2e-7, t.size)
        columns.append(1e3 * k * eps / (4 + 2 * k * eps))                                 # quarter bridge, mV/V
    data = np.column_stack([t] + columns)
    data[200, 2] = np.nan
    header = "t [s]," + ",".join(f"{c} [mV/V]" for _, _, c in GAUGES)
    np.savetxt(path, data, delimiter=",", header=header, comments="", fmt="%.9g")
    return path


def main():
    out = output_folder("strain-gauge report of a flexible link", "femdyn-strain-report")
    map_path = write_map(os.path.join(out, "gauges.toml"))
    results = simulate(os.path.join(out, "run"), read_gauge_map(map_path))
    measured = synthetic_measurement(results, os.path.join(out, "measured.csv"))
    return femdyn_cli(["report", "strain", os.path.join(out, "run"), measured, "--map", map_path,
                      "-o", os.path.join(out, "report")])


if __name__ == "__main__":
    sys.exit(main())
