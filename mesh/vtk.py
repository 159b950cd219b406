"""ParaView time series: one VTU file per output step of :func:`configuration_geometry`'s cells
and a PVD collection indexing them by time, written with meshio (docs/howto/paraview.md).
"""
import os
from xml.sax.saxutils import quoteattr

import meshio

from .configuration import configuration_geometry


def write_series(system, results, folder, every=1, name="motion"):
    """Write a ParaView time series, ``name_#####.vtu`` per stored step and ``name.pvd``; returns the PVD path.

    Parameters
    ----------
    system : System
        The assembled model.
    results : Results
        A run of the system (its ``t`` and ``q``).
    folder : str or path-like
        Output folder (created).
    every : int, optional
        Write every k-th stored step.
    name : str, optional
        File name stem.
    """
    os.makedirs(folder, exist_ok=True)
    entries = []
    for k in range(0, len(results.t), every):
        points, blocks, owners = configuration_geometry(system, results.q[k]).cells()
        file = f"{name}_{k:05d}.vtu"
        meshio.write(os.path.join(folder, file), meshio.Mesh(points, blocks, cell_data={"part": owners}))
        entries.append(f'  <DataSet timestep={quoteattr(repr(float(results.t[k])))} file={quoteattr(file)}/>')
    pvd = os.path.join(folder, f"{name}.pvd")
    with open(pvd, "w") as f:
        f.write('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n<Collection>\n')
        f.write("\n".join(entries) + "\n</Collection>\n</VTKFile>\n")
    return pvd
