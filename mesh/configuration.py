"""The geometry of a configuration, computed once for every picture of it.

:func:`configuration_geometry` asks each part of an assembled system what it offers to
pictures — a rigid body its ``outline(q)`` (a polyline through its points), an ANCF element
set its ``centreline(q)``, a flexible floating-frame body its deformed mesh
``mesh_cells(q)`` — and returns them as one :class:`ConfigurationGeometry`. The matplotlib
drawing (:func:`femdyn.results.plot_configuration`), the pyvista renderer
(:func:`femdyn.results.render_configuration`) and the ParaView writer
(:func:`femdyn.mesh.write_series`) draw from it. Coordinates in m, global frame.
"""
from dataclasses import dataclass

import numpy as np


@dataclass
class ConfigurationGeometry:
    """Points, lines and cells of a configuration (see :func:`configuration_geometry`).

    Parameters
    ----------
    bodies : list of (str, (k, 3) ndarray)
        Name and outline polyline of every rigid body, in the order of ``system.bodies`` [m].
    beams : list of (str, (k, 3) ndarray)
        Name and centreline polyline of every element set, in the order of
        ``system.elements`` [m].
    meshes : list of (int, (p, 3) ndarray, list of (str, ndarray))
        For every body with a mesh: its position in ``system.bodies``, its deformed points
        [m] and its cell blocks ``(type, connectivity)`` (``"tetra"``, ``"hexahedron"`` or
        ``"vertex"``), indexing those points.
    """

    bodies: list
    beams: list
    meshes: list

    def polylines(self):
        """The (name, points) of the bodies' outlines, then of the beams' centrelines."""
        return self.bodies + self.beams

    def points(self):
        """Every polyline point, (n, 3) [m] (e.g. for the extent of a picture)."""
        every = [xyz for _, xyz in self.polylines()]
        return np.vstack(every) if every else np.zeros((0, 3))

    def cells(self):
        """The configuration as VTK cells.

        Returns
        -------
        points : (p, 3) ndarray
            The polylines' points, then the meshes' [m].
        blocks : list of (str, ndarray)
            ``("line", (l, 2))`` segments of every polyline, then each mesh's cell blocks,
            indexing ``points``.
        owners : list of ndarray
            Per block, the part of every cell: its polyline's position (bodies first,
            then element sets), for meshes the body's position in ``system.bodies``.
        """
        points, lines, owner, offset = [], [], [], 0
        for k, (_, xyz) in enumerate(self.polylines()):
            points.append(xyz)
            lines.append(np.column_stack([np.arange(len(xyz) - 1), np.arange(1, len(xyz))]) + offset)
            owner.append(np.full(len(xyz) - 1, k))
            offset += len(xyz)
        blocks = [("line", np.vstack(lines).astype(int))]
        owners = [np.concatenate(owner).astype(int)]
        for k, xyz, cells in self.meshes:
            points.append(xyz)
            for kind, conn in cells:
                blocks.append((kind, conn + offset))
                owners.append(np.full(len(conn), k))
            offset += len(xyz)
        return np.vstack(points), blocks, owners


def configuration_geometry(system, q, meshes=True):
    """The geometry of ``system`` at the coordinates ``q``: what its parts offer to pictures.

    Parameters
    ----------
    system : femdyn.model.System
        The assembled model.
    q : (system.n,) array_like
        Coordinates (see docs/conventions.md).
    meshes : bool, optional
        Also compute the deformed meshes (False: outlines and centrelines only).

    Returns
    -------
    ConfigurationGeometry
        The bodies' outlines, the element sets' centrelines and the deformed meshes of
        the bodies that have one, in m, global frame.

    Examples
    --------
    >>> import femdyn
    >>> m = femdyn.Model("pendulum")
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> system = m.assemble()
    >>> geometry = configuration_geometry(system, system.q0)
    >>> [name for name, _ in geometry.polylines()], geometry.points().shape
    (['rod'], (2, 3))
    """
    q = np.asarray(q, float)
    bodies = [(body.name, body.outline(q)) for body in system.bodies.values()]
    beams = [(element.name, element.centreline(q)) for element in system.elements]
    solids = [(k, *body.mesh_cells(q)) for k, body in enumerate(system.bodies.values())
              if meshes and hasattr(body, "mesh_cells")]
    return ConfigurationGeometry(bodies, beams, solids)
