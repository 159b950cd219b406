"""Time series for ParaView: one VTU file per output step and a PVD collection that indexes
them by time, written with meshio (coordinates in m, time in s). Each step holds the cells
of :func:`~femdyn.mesh.configuration.configuration_geometry`: rigid bodies as their
outlines and ANCF beams as their centrelines (line cells), flexible floating-frame bodies as
their deformed component mesh (tetrahedra and hexahedra, or vertices at their output points
when the component stores no mesh)."""
import os
from xml.sax.saxutils import quoteattr

import meshio

from .configuration import configuration_geometry


def write_series(system, results, folder, every=1, name="motion"):
    """Write a ParaView time series: one VTU file per stored step and a PVD collection.

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
        File name stem: ``name_#####.vtu`` and ``name.pvd``.

    Returns
    -------
    str
        Path of the PVD file (open it in ParaView).

    Examples
    --------
    >>> import os, tempfile, femdyn
    >>> from femdyn.solvers.generalized_alpha import integrate
    >>> m = femdyn.Model("pendulum", gravity=(0, 0, -9.81))
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> joint = m.revolute("pivot", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
    >>> system = m.assemble()
    >>> results = integrate(system, t_end=0.01, h=5e-3)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     pvd = write_series(system, results, folder)
    ...     sorted(os.listdir(folder))
    ['motion.pvd', 'motion_00000.vtu', 'motion_00001.vtu', 'motion_00002.vtu']
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
