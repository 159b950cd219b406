"""From CAD to a flexible component: a link drawn in millimetres, written as STEP, reduced in one command.

A designer's part: an aluminium link 200 × 20 × 10 mm with two bores of radius 5 mm, 170 mm apart, drawn
here with Gmsh's OpenCASCADE kernel (a CAD tool would export the same STEP file). `femdyn show link.step
--faces` lists and draws the faces; `femdyn reduce link.step --size 0.004 --interface a=bore:7 --interface
b=bore:8` meshes it in quadratic tetrahedra (lengths from the file's mm), couples each bore rigidly to a
frame on its axis and writes the component. Prints the bores found against the drawn ones and the mass
against ρ t (L w − 2πr²).

Run: python examples/cad_link.py [out_folder]   (the test suite runs it with --size 0.008, 4 modes)
"""
import os
import sys

import gmsh
import numpy as np

from femdyn.cli.main import main as femdyn
from femdyn.component import read_component
from femdyn.mesh.cad import cad_faces

L, W, T, R, PITCH, RHO = 200.0, 20.0, 10.0, 5.0, 170.0, 2700.0      # mm; kg/m³


def draw(path):
    """The link in mm: a plate minus two through bores along z; written as STEP in mm."""
    gmsh.initialize(interruptible=False)
    gmsh.option.setNumber("General.Terminal", 0)
    occ = gmsh.model.occ
    plate = occ.addBox(0, 0, 0, L, W, T)
    x0 = (L - PITCH) / 2
    bores = [occ.addCylinder(x, W / 2, -1, 0, 0, T + 2, R) for x in (x0, x0 + PITCH)]
    occ.cut([(3, plate)], [(3, b) for b in bores])
    occ.synchronize()
    gmsh.option.setString("Geometry.OCCTargetUnit", "MM")
    gmsh.write(path)
    gmsh.finalize()
    return path


def run(out="femdyn-out", size=0.004, modes=20):
    os.makedirs(out, exist_ok=True)
    step = draw(os.path.join(out, "link.step"))
    femdyn(["show", step, "--faces", "-o", os.path.join(out, "link-faces")])
    bores = [f for f in cad_faces(step) if f.is_bore]
    for f in bores:
        print(f"bore {f.number}: radius {f.radius * 1e3:.9f} mm (drawn {R} mm), axis {f.axis.round(12).tolist()}")
    fdc = os.path.join(out, "link.fdc")
    code = femdyn(["reduce", step, "--size", str(size), "--fine", str(size / 2), "--modes", str(modes), "--quiet", "-o", fdc,
                   *[a for f in bores for a in ("--interface", f"bore{f.number}=bore:{f.number}")]])
    component = read_component(fdc)
    closed = RHO * T * (L * W - 2 * np.pi * R ** 2) * 1e-9
    print(f"mass {float(component.mass):.6g} kg, closed form {closed:.6g} kg "
          f"({abs(float(component.mass) / closed - 1):.1e} apart)")
    print(f"origin: {component.header['origin']['file']} in {component.header['origin']['unit']}, "
          f"sha256 {component.header['origin']['sha256'][:12]}...")
    return code, bores, component, closed


if __name__ == "__main__":
    run(*sys.argv[1:2])
