"""ParaView output: a time series of a swinging rigid–flexible double pendulum.

A rigid upper link (0.4 m, revolute joint to the ground about z) carries a flexible
lower link (0.6 m aluminium rod, six planar ANCF cable elements) on a spherical joint at
its tip; both start horizontal and fall under gravity (−y). After the run,
``femdyn.mesh.vtk.write_series(system, results, folder, every=…)`` writes

* ``motion_00000.vtu``, ``motion_00010.vtu``, … — one VTK unstructured-grid file per
  written step: every rigid body as its outline and every ANCF chain as its centreline
  (8 points per element), as 2-node line cells with a cell field ``part`` (the index of
  the body or chain the cell belongs to, bodies first, in the order they were added);
  coordinates in m;
* ``motion.pvd`` — the collection that lists those files with their times (s).

Open ``motion.pvd`` in ParaView (File ▸ Open, Apply), colour by ``part``, and play the
animation; for thicker lines apply the Tube filter. The script reads the files back
with meshio and checks them against the results: the times in the PVD, and the
centreline's last point in the last file against the sensor at the rod's free end.

    python examples/paraview_series.py [out_folder]
"""
import os
import xml.etree.ElementTree as ET

import meshio
import numpy as np

import femdyn
from femdyn.elements import sections
from femdyn.mesh.vtk import write_series
from femdyn.results.plots import output_folder
from femdyn.solvers.generalized_alpha import integrate

UPPER, LOWER, ELEMENTS = 0.4, 0.6, 6                  # m, m, -


def build():
    m = femdyn.Model("rigid-flexible double pendulum", gravity=(0, -9.81, 0))
    upper = m.rigid_beam("upper", m.point("O", (0, 0, 0)), m.point("A", (UPPER, 0, 0)), mass=0.5)
    m.revolute("shoulder", m.ground, upper, point=(0, 0, 0), axis=(0, 0, 1))
    m.straight_beam("lower", (UPPER, 0, 0), (UPPER + LOWER, 0, 0), ELEMENTS, E=7.0e10, rho=2700.0,
                    section=sections.circular(0.005), element="cable2d")
    m.spherical("elbow", upper, "lower.0", point=(UPPER, 0, 0))
    m.sensor_point("free end", f"lower.{ELEMENTS}", (UPPER + LOWER, 0, 0))
    return m


def main(out, t_end=0.5, h=1e-3, every=10):
    system = build().assemble()
    results = integrate(system, t_end=t_end, h=h)
    pvd = write_series(system, results, out, every=every, name="motion")
    entries = ET.parse(pvd).getroot().find("Collection")
    times = np.array([float(e.get("timestep")) for e in entries])
    files = [os.path.join(out, e.get("file")) for e in entries]
    last = meshio.read(files[-1])
    k = (len(results.t) - 1) // every * every                       # the last written step
    end = np.array([results[f"free end.{c}"][k] for c in "xyz"])
    gap = np.linalg.norm(last.points[-1] - end)
    print(f"wrote {pvd} with {len(files)} files, t = {times[0]:g} … {times[-1]:g} s; the last file has "
          f"{len(last.points)} points in {len(last.cells_dict['line'])} lines of parts "
          f"{sorted(set(last.cell_data['part'][0].tolist()))}")
    print(f"free end in the last file {np.round(last.points[-1], 6)} m; sensor {np.round(end, 6)} m")
    return {"times": times, "expected_times": results.t[::every], "files": files, "gap": gap,
            "parts": sorted(set(last.cell_data["part"][0].tolist()))}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
