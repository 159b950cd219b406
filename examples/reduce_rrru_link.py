"""The flexible link of the 3-RRRU robot (Liu et al. 2018) as a reduced flexible component.

The link is a solid aluminium rod, 815 mm long, radius 0.01 m (E = 6.9e10 Pa on the test
rig, ν = 0.3, ρ = 2700 kg/m³). Gmsh meshes it into quadratic tetrahedra; the end faces
couple rigidly to interface frames on the axis (the elbow revolute joint at x = 0, the
Hooke joint at x = 0.815 m); Craig–Bampton keeps 20 fixed-interface modes; strain modes
are stored at the three gauges of the rig (200, 407.5 and 600 mm from the upper joint, on
the outer wall). Writes ``rrru-link-out/link.fdc`` and mode pictures, and compares the
first free-free bending frequency with Euler–Bernoulli.

Run: python examples/reduce_rrru_link.py [--size 0.004] [--out rrru-link-out]
"""
import argparse
import os

import numpy as np

from femdyn.component import read_component, write_component
from femdyn.elements.solid_body import SolidBody
from femdyn.mesh.generate import rod_mesh
from femdyn.solvers.reduction import Interface, component_from_reduction, craig_bampton

LENGTH, RADIUS, E, NU, RHO = 0.815, 0.01, 6.9e10, 0.3, 2700.0
GAUGES = [(x, 0.0, RADIUS * 0.999) for x in (0.2, 0.4075, 0.6)]      # just inside the outer wall


def main(size=0.004, out="rrru-link-out", modes=20, pictures=True):
    os.makedirs(out, exist_ok=True)
    mesh = rod_mesh(LENGTH, RADIUS, size, order=2, path=os.path.join(out, "link.msh"))
    print(mesh.summary())
    body = SolidBody(mesh, E, NU, RHO, name="rrru link")
    frames = [Interface("elbow", mesh.node_set("end0"), origin=(0.0, 0.0, 0.0)),
              Interface("hooke", mesh.node_set("end1"), origin=(LENGTH, 0.0, 0.0))]
    red = craig_bampton(body, frames, modes, damping_ratio=0.01)
    component = component_from_reduction(red, output_points=[(LENGTH / 2, 0, 0)], gauge_points=GAUGES,
                                         name="rrru-link")
    path = write_component(os.path.join(out, "link.fdc"), component)
    component = read_component(path)
    print(component.summary())
    beta = 4.730040745 / LENGTH                                          # free-free bending, β L = 4.73
    f_eb = beta ** 2 * np.sqrt(E * np.pi * RADIUS ** 4 / 4 / (RHO * np.pi * RADIUS ** 2)) / (2 * np.pi)
    print(f"first bending frequency {component.frequencies[0]:.2f} Hz; Euler–Bernoulli free-free "
          f"{f_eb:.2f} Hz (the rigid end caps stiffen it slightly)")
    if pictures:
        from femdyn.mesh.pictures import render_modes, write_mode_vtu
        write_mode_vtu(component, os.path.join(out, "modes.vtu"))
        render_modes(component, out, modes=range(4))
    return component, f_eb


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=float, default=0.004, help="element size in m (default 0.004)")
    ap.add_argument("--out", default="rrru-link-out")
    a = ap.parse_args()
    main(a.size, a.out)
