"""The arm of a small Delta robot as a reduced flexible component: examples/robots/delta_arm.fdc.

The arm is a solid aluminium rod, 0.3 m long, radius 0.01 m (E = 7.0e10 Pa, ν = 0.3, ρ = 2700 kg/m³),
meshed by Gmsh into quadratic tetrahedra. Its end faces couple rigidly to the interface frames
"motor" (x = 0, the actuated revolute) and "elbow" (x = 0.3 m, where the parallelogram forearm hangs);
Craig–Bampton keeps 8 fixed-interface modes; a strain gauge "top" sits at mid-length on the rod's +z
surface, along the rod (the robot's description turns the component's y axis onto the motor axis, so +z is
the arm's upper side at home). The description examples/robots/delta_component_arms.toml
matches these interfaces to each arm's joints (docs/parallel-robots.md). The file keeps no mesh
(``mesh_shapes=False``: 28 kB instead of 2 MB) and prints the first bending frequency beside the
Euler–Bernoulli free-free value.

Run: python examples/reduce_delta_arm.py [out.fdc] [--size 0.006]
"""
import argparse
import os

import numpy as np

from femdyn.component import ComponentGauge, write_component
from femdyn.elements.solid_body import SolidBody
from femdyn.mesh.generate import rod_mesh
from femdyn.solvers.reduction import Interface, component_from_reduction, craig_bampton
from femdyn.solvers.stress_modes import with_strains

LENGTH, RADIUS, E, NU, RHO = 0.3, 0.01, 7.0e10, 0.3, 2700.0
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "robots", "delta_arm.fdc")


def main(out=HERE, size=0.006, modes=8):
    mesh = rod_mesh(LENGTH, RADIUS, size, order=2)
    body = SolidBody(mesh, E, NU, RHO, name="delta arm")
    frames = [Interface("motor", mesh.node_set("end0"), origin=(0.0, 0.0, 0.0)),
              Interface("elbow", mesh.node_set("end1"), origin=(LENGTH, 0.0, 0.0))]
    red = craig_bampton(body, frames, modes)
    component = component_from_reduction(red, output_points=[(LENGTH / 2, 0.0, 0.0)], mesh_shapes=False,
                                         name="delta-arm")
    component = with_strains(component, red, gauges=[ComponentGauge("top", (LENGTH / 2, 0.0, RADIUS), (1, 0, 0))])
    write_component(out, component)
    beta = 4.730040745 / LENGTH                                          # free-free bending, β L = 4.73
    f_eb = beta ** 2 * np.sqrt(E * RADIUS ** 2 / 4 / RHO) / (2 * np.pi)
    print(component.summary())
    print(f"first bending frequency {component.frequencies[0]:.1f} Hz; Euler–Bernoulli free-free {f_eb:.1f} Hz")
    return component, f_eb


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default=HERE, help="the component file (default examples/robots/delta_arm.fdc)")
    ap.add_argument("--size", type=float, default=0.006, help="element size in m (default 0.006)")
    a = ap.parse_args()
    main(a.out, a.size)
