"""From a STEP file to a component: `femdyn reduce ROD.step --size H` as a user runs it, meshing included.

The part is the 3-RRRU flexible link of bench_solid.py (a rod 815 mm long, radius 10 mm) drawn in
millimetres with Gmsh's OpenCASCADE kernel and written as STEP; its two end faces (found by
`cad_faces`: the planes at x = 0 and x = 815 mm) are the rigid interfaces; 20 fixed-interface modes,
no full-mesh shapes (`--no-mesh`: at 1M dof they would be 160 MB). Each size runs `python -m femdyn
reduce` in its own process; the table gives the wall time of the whole command (Python start, STEP
import, Gmsh HXT meshing on all cores, mesh checks, reduction, invariants, file), the meshing time the
mesh report states, the dof and the peak resident memory of the process, and the log-log slopes
against dof.

Run: python benchmarks/bench_cad.py [--sizes 0.005 0.0028 0.00175] [--out FOLDER]
(0.005 → 60k dof, 0.0028 → 0.27M, 0.00175 → 1.0M dof Tet10; the issue's goal: 1M dof in ≤ 2 min)
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import time

import numpy as np

LENGTH, RADIUS = 815.0, 10.0          # mm


def draw(path):
    """The rod in mm as a STEP file."""
    import gmsh
    gmsh.initialize(interruptible=False)
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.model.occ.addCylinder(0, 0, 0, LENGTH, 0, 0, RADIUS)
    gmsh.model.occ.synchronize()
    gmsh.option.setString("Geometry.OCCTargetUnit", "MM")
    gmsh.write(str(path))
    gmsh.finalize()
    return path


def ends(path):
    """The face numbers of the rod's end caps (planes at x = 0 and x = L)."""
    from femdyn.mesh.cad import cad_faces
    planes = sorted((f for f in cad_faces(path) if f.kind == "Plane"), key=lambda f: f.centre[0])
    return planes[0].number, planes[-1].number


def one(step, size, out):
    """Run femdyn reduce once: (wall s, mesh s, dof, first fixed-interface frequency Hz, peak RSS MB)."""
    a, b = ends(step)
    command = [sys.executable, "-m", "femdyn", "reduce", str(step), "--size", str(size), "--interface",
               f"end0=face:{a}", "--interface", f"end1=face:{b}", "--modes", "20", "--no-mesh", "--quiet",
               "-o", os.path.join(out, f"rod_{size}.fdc")]
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if run.returncode:
        raise SystemExit(run.stderr)
    mesh_s = float(re.search(r"thread\(s\), ([\d.]+) s", run.stdout).group(1))
    dof = int(re.search(r"\((\d+) dof\)", run.stdout).group(1))
    f1 = float(re.search(r"first \[([\d.e+]+)", run.stdout).group(1))
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return wall, mesh_s, dof, f1, rss


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[0.005, 0.0028, 0.00175])
    parser.add_argument("--out", default="bench-cad-out")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    step = draw(os.path.join(args.out, "rod.step"))
    rows = []
    print("| h [mm] | dof | meshing [s] | whole command [s] | f1 [Hz] | peak RSS so far [MB] |\n|---|---|---|---|---|---|")
    for size in args.sizes:
        wall, mesh_s, dof, f1, rss = one(step, size, args.out)
        rows.append((dof, wall, mesh_s))
        print(f"| {size * 1e3:g} | {dof:,} | {mesh_s:.1f} | {wall:.1f} | {f1:.2f} | {rss:,.0f} |", flush=True)
    if len(rows) > 1:
        dof, wall, mesh_s = np.array(rows).T
        print(f"slopes against dof: whole command {np.polyfit(np.log(dof), np.log(wall), 1)[0]:.2f}, "
              f"meshing {np.polyfit(np.log(dof), np.log(mesh_s), 1)[0]:.2f}")


if __name__ == "__main__":
    main()
