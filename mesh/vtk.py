"""ParaView time series: one VTU file per output step and a PVD collection indexing them by time,
written with meshio (docs/howto/paraview.md). :func:`write_series` writes a DAE run's
:func:`configuration_geometry` cells; :func:`geometry_mesh` turns a geometry into one frame and
:func:`write_collection` writes the frames (the recursive solvers' series use both). Meshed bodies with
stress nodes add point data ``strain`` (6, engineering Voigt, 1), ``principal_stress`` (3, Pa) and
``von_mises`` (Pa), NaN elsewhere.
"""
import os
from xml.sax.saxutils import quoteattr

import meshio
import numpy as np

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
    def frames():
        """(step, time, meshio.Mesh) of every written step."""
        for k in range(0, len(results.t), every):
            geometry = configuration_geometry(system, results.q[k])
            stresses = [_body_stress(bodies[j], results.q[k]) for j, _, _ in geometry.meshes]
            yield k, results.t[k], geometry_mesh(geometry, stresses)
    bodies = list(system.bodies.values())
    return write_collection(folder, name, frames())


def write_collection(folder, name, frames):
    """Write (step, time s, meshio.Mesh) frames as ``name_#####.vtu`` and their ``name.pvd``; returns the PVD path."""
    os.makedirs(folder, exist_ok=True)
    entries = []
    for k, t, mesh in frames:
        file = f"{name}_{k:05d}.vtu"
        meshio.write(os.path.join(folder, file), mesh)
        entries.append(f'  <DataSet timestep={quoteattr(repr(float(t)))} file={quoteattr(file)}/>')
    pvd = os.path.join(folder, f"{name}.pvd")
    with open(pvd, "w") as f:
        f.write('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n<Collection>\n')
        f.write("\n".join(entries) + "\n</Collection>\n</VTKFile>\n")
    return pvd


def stress_point_data(values):
    """Point data ``strain``, ``principal_stress``, ``von_mises`` of (n, 10) stress rows (component.STRESS_COLUMNS)."""
    return {"strain": values[:, :6], "principal_stress": values[:, 6:9], "von_mises": values[:, 9]}


def geometry_mesh(geometry, stresses=(), markers=False):
    """A frame: a geometry's cells (``part``), ``stresses`` ((p, 10)/None per mesh), 1-point lines as vertex markers."""
    points, blocks, owners = geometry.cells()
    if markers:
        lengths = [len(xyz) for _, xyz in geometry.polylines()]
        single = np.flatnonzero(np.array(lengths) == 1)
        blocks.append(("vertex", (np.cumsum([0] + lengths)[single])[:, None]))
        owners.append(single)
    values = np.full((len(points), 10), np.nan)
    start, found = len(points) - sum(len(xyz) for _, xyz, _ in geometry.meshes), False
    for (_, xyz, _), stress in zip(geometry.meshes, stresses):
        if stress is not None and len(stress) == len(xyz):
            values[start:start + len(xyz)], found = stress, True
        start += len(xyz)
    kept = [k for k, (_, conn) in enumerate(blocks) if len(conn)]           # meshio cannot write an empty block
    return meshio.Mesh(points, [blocks[k] for k in kept], cell_data={"part": [owners[k] for k in kept]},
                       point_data=stress_point_data(values) if found else {})


def _body_stress(body, q):
    """A DAE body's mesh stresses at q, None without stress nodes."""
    return body.mesh_stress(q)
