"""Time series for ParaView: one VTU file of line cells per output step (rigid bodies as
their outlines, ANCF beams as their centrelines) and a PVD collection that indexes them by
time. Written with meshio; coordinates in m, time in s."""
import os
from xml.sax.saxutils import quoteattr

import meshio
import numpy as np


def configuration_lines(system, q):
    """Points (n, 3) and 2-node line cells of every body and beam at coordinates q, and
    the index of the part each cell belongs to."""
    parts = [b.outline(q) for b in system.bodies.values()]
    parts += [e.centreline(q) for e in system.elements]
    points, cells, owner, offset = [], [], [], 0
    for k, xyz in enumerate(parts):
        points.append(xyz)
        segs = np.column_stack([np.arange(len(xyz) - 1), np.arange(1, len(xyz))]) + offset
        cells.append(segs)
        owner.append(np.full(len(segs), k))
        offset += len(xyz)
    return np.vstack(points), np.vstack(cells), np.concatenate(owner)


def write_series(system, results, folder, every=1, name="motion"):
    """Write ``name_####.vtu`` for every ``every``-th stored step and ``name.pvd``; returns
    the PVD path (open it in ParaView)."""
    os.makedirs(folder, exist_ok=True)
    entries = []
    for k in range(0, len(results.t), every):
        points, cells, owner = configuration_lines(system, results.q[k])
        file = f"{name}_{k:05d}.vtu"
        meshio.write(os.path.join(folder, file),
                     meshio.Mesh(points, [("line", cells)], cell_data={"part": [owner]}))
        entries.append(f'  <DataSet timestep={quoteattr(repr(float(results.t[k])))} file={quoteattr(file)}/>')
    pvd = os.path.join(folder, f"{name}.pvd")
    with open(pvd, "w") as f:
        f.write('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n<Collection>\n')
        f.write("\n".join(entries) + "\n</Collection>\n</VTKFile>\n")
    return pvd
