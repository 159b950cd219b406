"""ParaView time series: one VTU file per output step and a PVD collection indexing them by time,
written with meshio (docs/howto/paraview.md). :func:`write_series` writes a DAE run's
:func:`configuration_geometry` cells; :func:`write_collection` is the writer every series shares
(the recursive solvers' modal bodies use it too). Meshed bodies with stress nodes add point data
``strain`` (6, engineering Voigt, 1), ``principal_stress`` (3, Pa) and ``von_mises`` (Pa), NaN elsewhere.
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
            points, blocks, owners = geometry.cells()
            data = _stress_data(system, geometry, len(points), results.q[k])
            yield k, results.t[k], meshio.Mesh(points, blocks, cell_data={"part": owners}, point_data=data)
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


def _stress_data(system, geometry, n_points, q):
    """Point data of the meshed bodies' stresses (strain, principal_stress, von_mises), {} if none has stress nodes."""
    bodies = list(system.bodies.values())
    values = np.full((n_points, 10), np.nan)
    start, found = n_points - sum(len(xyz) for _, xyz, _ in geometry.meshes), False
    for k, xyz, _ in geometry.meshes:
        stress = bodies[k].mesh_stress(q) if hasattr(bodies[k], "mesh_stress") else None
        if stress is not None and len(stress) == len(xyz):
            values[start:start + len(xyz)], found = stress, True
        start += len(xyz)
    return stress_point_data(values) if found else {}
