"""Strain-gauge report on a mesh-imported link: the flexible link of ``strain_report.py``
(aluminium, 0.815 m, radius 0.01 m, clamped, a 2 N tip pulse) meshed with Tet10 elements by
Gmsh, reduced by ``femdyn reduce`` with three named strain gauges on its top wall (0.2,
0.4075 and 0.6 m from the clamp, 6 mm grids) and stress nodes on its surface, run as a
floating-frame body; the same synthetic quarter-bridge "measurement" and the same command

    femdyn report strain OUT/run OUT/measured.csv --map OUT/gauges.toml -o OUT/report

compare them: the gauge map ties the component's gauge channels ``<gauge>.strain`` to the
measured columns and gives no beam geometry (the gauges live in the component file). The
run also writes the ParaView series with von Mises stress as point data.

    python examples/component_gauge_report.py [out_folder]
"""
import os
import sys

import femdyn
from femdyn.cli.main import main as femdyn_cli
from femdyn.component import read_component
from femdyn.mesh.generate import rod_mesh
from femdyn.mesh.vtk import write_series
from femdyn.motion.timefunctions import Callable
from femdyn.results.plots import output_folder
from femdyn.solvers.generalized_alpha import Options, integrate

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from strain_report import GAUGE_MAP, GAUGES, synthetic_measurement       # noqa: E402  (the ANCF link's report)

LENGTH, RADIUS = 0.815, 0.01                  # m; gauges given on the nominal cylinder, placed on the meshed surface
GAUGE = """
[gauges.{name}]
channel = "{channel}"
unit = "mV/V"
gauge_factor = 2.1
bridge = "quarter"
"""


def reduce_link(folder, size=0.006):
    """Mesh the link (Tet10) and reduce it with its gauges and surface stress nodes; the component file."""
    mesh = rod_mesh(LENGTH, RADIUS, size, order=2, path=os.path.join(folder, "link.msh"))
    del mesh
    out = os.path.join(folder, "link.fdc")
    gauges = [arg for name, x, _ in GAUGES for arg in ("--strain-gauge", f"{name}={x},0,{RADIUS},1,0,0,0.006")]
    code = femdyn_cli(["reduce", os.path.join(folder, "link.msh"), "--interface", "root=group:end0@0,0,0",
                       "--interface", "tip=group:end1", "--average", "tip", "--modes", "8", "--stress", "surface",
                       "--E", "6.9e10", "--rho", "2700", "--quiet", "-o", out] + gauges)
    if code:
        raise SystemExit(code)
    return out


def simulate(folder, component, t_end=0.6, h=2e-3):
    """The clamped link under the tip pulse, its gauges declared on the model; results in ``folder``."""
    m = femdyn.Model("mesh-imported flexible link", gravity=(0, 0, 0))
    link = m.flexible_body("link", component)
    m.weld("root", m.ground, link.interface("root"), (0, 0, 0))
    pulse = Callable(lambda t: 1.0 if 0.02 <= t < 0.12 else 0.0)
    m.force("tip", link.interface("tip"), (LENGTH, 0, 0), (0, 0, -2.0), function=pulse)
    for name, _, _ in GAUGES:
        m.sensor_component_gauge(name, "link")
    system = m.assemble()
    return system, integrate(system, t_end, h, Options(rho_inf=0.8), output=folder)


def main(out=None, t_end=0.6):
    out = out or output_folder("strain-gauge report of a mesh-imported link", "femdyn-component-gauges")
    component = read_component(reduce_link(out))
    system, results = simulate(os.path.join(out, "run"), component, t_end)
    print("ParaView:", write_series(system, results, os.path.join(out, "paraview"), every=25, name="link"))
    map_path = os.path.join(out, "gauges.toml")
    with open(map_path, "w") as f:
        f.write(GAUGE_MAP.format(gauges="".join(GAUGE.format(name=n, channel=c) for n, _, c in GAUGES)))
    measured = synthetic_measurement(results, os.path.join(out, "measured.csv"))
    return femdyn_cli(["report", "strain", os.path.join(out, "run"), measured, "--map", map_path,
                      "-o", os.path.join(out, "report")])


if __name__ == "__main__":
    sys.exit(main())
