"""ParaView series of a recursive run: every body of a :class:`~.model.TreeModel` or
:class:`~.flexible.FlexibleTreeModel` at its pose, as a :class:`~femdyn.mesh.ConfigurationGeometry`
written by the DAE series' own writer (:mod:`femdyn.mesh.vtk`), so both series read alike.

A rigid body is drawn as its outline, a polyline in the body frame mapped by the pose p + R x:
the one given, or by default its joint origin and the origins of the joints it carries (a leaf:
its joint origin and its centre of mass), as a DAE rigid body is drawn through its points; a
single point is a ``vertex`` marker. A flexible body is drawn as a DAE floating-frame body is:
the polyline through its deformed interface origins, its deformed mesh (with stresses) or, without
mesh shapes, its output points.
"""
import numpy as np

from femdyn.component.stress import mesh_stress
from femdyn.errors import ModelError
from femdyn.input_checks import finite
from femdyn.mesh.configuration import ConfigurationGeometry
from femdyn.mesh.pictures import component_cells
from femdyn.mesh.vtk import geometry_mesh, write_collection

from . import dynamics, flexible_dynamics
from .data import Data
from .flexible import FlexibleTreeModel
from .flexible_dynamics import FlexibleData


def write_series(model, run, folder, every=1, name="motion", outlines=None):
    """Write every body of a recursive run as a ParaView series; returns the PVD path.

    Each written step gives ``name_#####.vtu`` (world frame, m; cell data ``part`` = body index in
    parent-first order, ``model.names``; with stress nodes the point data ``strain``,
    ``principal_stress`` and ``von_mises`` of :func:`femdyn.mesh.write_series`, NaN elsewhere) and
    ``name.pvd`` indexes them by time, as :func:`femdyn.mesh.write_series` does for a DAE run. How
    each body is drawn: the module docstring.

    Parameters
    ----------
    model : TreeModel or FlexibleTreeModel
    run : Trajectory or FlexibleTrajectory
        The run of ``model`` (its ``t`` [s] and ``q``, or ``state_q`` of a flexible tree).
    folder : str or path-like
        Output folder (created).
    every : int, optional
        Write every k-th stored step (default 1).
    name : str, optional
        File name stem (default ``"motion"``).
    outlines : dict, optional
        Rigid body name → (k, 3) polyline in its body frame [m], drawn instead of the default outline.

    Returns
    -------
    str
        The PVD file.

    Raises
    ------
    ModelError
        A run of another model (its coordinates do not fit), an outline of an unknown or flexible
        body, or one that is not a finite (k, 3) array (NonFiniteError for NaN or inf).

    Examples
    --------
    >>> import tempfile
    >>> import numpy as np
    >>> from femdyn.solvers.recursive import Body, Joint, Trajectory, TreeModel
    >>> rod = Body("rod", "world", Joint("revolute", (0, 1, 0)), 1.0, com=(0.5, 0, 0),
    ...            inertia=(1e-3, 0.08, 0.08, 0, 0, 0))
    >>> t = np.linspace(0.0, 1.0, 11)                                      # s
    >>> q = 0.3 * np.sin(t)[:, None]                                     # rad
    >>> pvd = write_series(TreeModel([rod]), Trajectory(t, q, 0 * q, 0 * q), tempfile.mkdtemp())
    >>> open(pvd).read().count("<DataSet")
    11
    """
    flexible = isinstance(model, FlexibleTreeModel)
    states = np.asarray(run.state_q if flexible else run.q, float)
    if states.ndim != 2 or states.shape[1] != model.nq:
        raise ModelError(f"recursive series: the run's coordinates have shape {states.shape}, the model has "
                         f"nq = {model.nq}; pass the run of this very model")
    shapes = _rigid_outlines(model, outlines or {})
    data = FlexibleData(model) if flexible else Data(model)
    kinematics = flexible_dynamics.kinematics if flexible else dynamics.kinematics

    def frames():
        """(step, time, meshio.Mesh) of every written step."""
        for k in range(0, len(run.t), every):
            kinematics(model, data, states[k])
            yield k, run.t[k], geometry_mesh(*_tree_geometry(model, data, states[k], shapes), markers=True)
    return write_collection(folder, name, frames())


def _rigid_outlines(model, given):
    """Body-frame polyline (k, 3) of every rigid body (None for flexible ones): ``given`` or the joint origins."""
    components = getattr(model, "components", (None,) * model.n)
    given = dict(given)
    for body, xyz in given.items():
        if body not in model.names or components[model.index(body)] is not None:
            raise ModelError(f"recursive series: outline of '{body}', which is not a rigid body of the model; "
                             f"give outlines of rigid bodies among {list(model.names)}")
        given[body] = finite(xyz, f"recursive series: outline of '{body}' (m, body frame)")
        if given[body].ndim != 2 or given[body].shape[1] != 3 or not len(given[body]):
            raise ModelError(f"recursive series: outline of '{body}' must be a (k, 3) array of points (m, body "
                             f"frame), k ≥ 1, got shape {given[body].shape}")
    shapes = []
    for i, b in enumerate(model.bodies):
        children = [model.tree_r[j] for j in np.flatnonzero(model.parent == i)]
        default = [np.zeros(3)] + (children or [np.asarray(b.com, float)])
        outline = np.asarray(given.get(b.name, default), float)
        distinct = np.r_[True, np.any(np.diff(outline, axis=0), axis=1)]         # consecutive repeats dropped
        shapes.append(None if components[i] is not None else outline[distinct])
    return shapes


def _tree_geometry(model, data, q, shapes):
    """(ConfigurationGeometry, stresses per mesh) of the tree at q, poses from ``data``."""
    outlines, meshes, stresses = [], [], []
    for i, b in enumerate(model.bodies):
        R, p = data.R_world[i], data.p_world[i]
        if shapes[i] is not None:
            outlines.append((b.name, p + shapes[i] @ R.T))
            continue
        c, eta = model.components[i], q[model.eta_slice(b.name)]
        origins = p + (c.interface_origins + c.interface_shapes[:, :3] @ eta) @ R.T
        outlines.append((b.name, origins if len(origins) > 1 else np.vstack([p, origins])))
        if "mesh_shapes" in c.arrays:
            X, cells = component_cells(c)
            meshes.append((i, p + (X + c.mesh_shapes @ eta) @ R.T, cells))
            stresses.append(mesh_stress(c, eta))
        elif len(c.output_points):
            meshes.append((i, p + (c.output_points + c.output_shapes @ eta) @ R.T,
                           [("vertex", np.arange(len(c.output_points))[:, None])]))
            stresses.append(None)
    return ConfigurationGeometry(outlines, [], meshes), stresses
