"""ParaView series of a recursive run's flexible bodies: each meshed component deformed by its modal
coordinates and placed by its body frame, with its stresses as point data, written by the series
writer of the DAE runs (:func:`femdyn.mesh.vtk.write_collection`)."""
import meshio
import numpy as np

from femdyn.component.stress import mesh_stress
from femdyn.errors import ModelError
from femdyn.mesh.pictures import component_cells
from femdyn.mesh.vtk import stress_point_data, write_collection

from .flexible_dynamics import FlexibleData, kinematics


def write_flexible_series(model, trajectory, folder, every=1, name="motion"):
    """Write the meshed flexible bodies of a recursive run as a ParaView series; returns the PVD path.

    Each stored step gives ``name_#####.vtu`` (the deformed meshes r = p + R (x + Φ η), m, world
    frame; cell data ``part`` = body index in parent-first order; with stress nodes the point data
    ``strain``, ``principal_stress`` and ``von_mises`` of :func:`femdyn.mesh.write_series`, NaN off
    the stress nodes) and ``name.pvd`` indexes them by time.

    Parameters
    ----------
    model : FlexibleTreeModel
    trajectory : FlexibleTrajectory
        The run (its ``t`` and ``state_q``).
    folder, every, name : str or path-like, int, str
        Output folder (created), every k-th stored step written (default 1), file name stem (default
        ``"motion"``), as in :func:`femdyn.mesh.write_series`.

    Raises
    ------
    ModelError
        No body's component stores mesh shapes (reduce with mesh shapes, not ``--no-mesh``).
    """
    meshed = [i for i, c in enumerate(model.components) if c is not None and "mesh_shapes" in c.arrays]
    if not meshed:
        raise ModelError("recursive series: no flexible body's component stores mesh shapes; reduce the components "
                         "with mesh shapes (femdyn reduce without --no-mesh)")
    data = FlexibleData(model)
    stressed = any("stress_nodes" in model.components[i].arrays for i in meshed)

    def frames():
        """(step, time, meshio.Mesh) of every written step."""
        for k in range(0, len(trajectory.t), every):
            q = np.asarray(trajectory.state_q[k], float)
            kinematics(model, data, q)
            points, blocks, owners, values, offset = [], [], [], [], 0
            for i in meshed:
                c = model.components[i]
                eta = q[model.eta_slice(model.bodies[i].name)]
                X, cells = component_cells(c)
                points.append(data.p_world[i] + (X + c.mesh_shapes @ eta) @ data.R_world[i].T)
                blocks += [(kind, conn + offset) for kind, conn in cells]
                owners += [np.full(len(conn), i) for _, conn in cells]
                stress = mesh_stress(c, eta)
                values.append(np.full((len(X), 10), np.nan) if stress is None else stress)
                offset += len(X)
            point_data = stress_point_data(np.vstack(values)) if stressed else {}
            yield k, trajectory.t[k], meshio.Mesh(np.vstack(points), blocks, cell_data={"part": owners},
                                                  point_data=point_data)
    return write_collection(folder, name, frames())
