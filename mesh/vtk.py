"""Time series for ParaView: one VTU file per output step (rigid bodies as their outlines,
ANCF beams as their centrelines: line cells; flexible floating-frame bodies as their
deformed component mesh: tetrahedra and hexahedra, or vertices at their output points when
the component stores no mesh) and a PVD collection that indexes them by time. Written
with meshio; coordinates in m, time in s."""
import os
from xml.sax.saxutils import quoteattr

import meshio
import numpy as np


def configuration_lines(system, q):
    """Line cells of every body outline and beam centreline at a configuration.

    Parameters
    ----------
    system : System
        The assembled model.
    q : (n,) array_like
        Global coordinates.

    Returns
    -------
    points : (k, 3) ndarray
        Points [m], global frame.
    cells : (c, 2) int ndarray
        2-node line cells.
    owner : (c,) int ndarray
        Index of the part each cell belongs to (bodies first, then element sets).
    """
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


def configuration_cells(system, q):
    """The picture of a configuration as VTK cells: the lines of
    :func:`configuration_lines`, then the deformed meshes of the bodies that have one
    (``mesh_cells(q)``: flexible floating-frame bodies).

    Parameters
    ----------
    system : System
        The assembled model.
    q : ndarray (n,)
        Its coordinates.

    Returns
    -------
    points : ndarray (p, 3)
        All points, m, global frame.
    blocks : list of (str, ndarray)
        Cell blocks ``(type, connectivity)`` indexing ``points``: first ``("line", (l, 2))``,
        then each body mesh's blocks (``"tetra"``, ``"hexahedron"`` or ``"vertex"``).
    owners : list of ndarray
        Per block, the part index of every cell (for lines as in
        :func:`configuration_lines`; for meshes the body's position in
        ``system.bodies``).
    """
    points, lines, owner = configuration_lines(system, q)
    blocks, owners, offset = [("line", lines)], [owner], len(points)
    points = [points]
    for k, body in enumerate(system.bodies.values()):
        if not hasattr(body, "mesh_cells"):
            continue
        xyz, cells = body.mesh_cells(q)
        points.append(xyz)
        for kind, conn in cells:
            blocks.append((kind, conn + offset))
            owners.append(np.full(len(conn), k))
        offset += len(xyz)
    return np.vstack(points), blocks, owners


def write_series(system, results, folder, every=1, name="motion"):
    """Write a ParaView time series: one VTU file per stored step and a PVD collection.

    Parameters
    ----------
    system : System
        The assembled model (its bodies' outlines and beams' centrelines).
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
        points, blocks, owners = configuration_cells(system, results.q[k])
        file = f"{name}_{k:05d}.vtu"
        meshio.write(os.path.join(folder, file), meshio.Mesh(points, blocks, cell_data={"part": owners}))
        entries.append(f'  <DataSet timestep={quoteattr(repr(float(results.t[k])))} file={quoteattr(file)}/>')
    pvd = os.path.join(folder, f"{name}.pvd")
    with open(pvd, "w") as f:
        f.write('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n<Collection>\n')
        f.write("\n".join(entries) + "\n</Collection>\n</VTKFile>\n")
    return pvd
