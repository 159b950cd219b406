"""The geometry of a configuration, computed once for every picture of it: bodies' outlines,
element sets' centrelines and flexible bodies' deformed meshes (m, global frame), drawn by
the matplotlib picture, the pyvista renderer and the ParaView writer.
"""
from dataclasses import dataclass

import numpy as np


@dataclass
class ConfigurationGeometry:
    """Points, lines and cells of a configuration (see :func:`configuration_geometry`), m.

    Parameters
    ----------
    bodies : list of (str, (k, 3) ndarray)
        Name and outline polyline of every rigid body, in ``system.bodies`` order.
    beams : list of (str, (k, 3) ndarray)
        Name and centreline polyline of every element set, in ``system.elements`` order.
    meshes : list of (int, (p, 3) ndarray, list of (str, ndarray))
        Per meshed body: its index in ``system.bodies``, deformed points, cell blocks ``(type, connectivity)``.
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
        """The configuration as VTK cells: ``(points, blocks, owners)``.

        ``blocks`` are ``("line", (l, 2))`` segments of every polyline, then each mesh's cell blocks;
        ``owners`` give each cell's part (polyline index, bodies first; for meshes the body's index).
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
    """The geometry of ``system`` at ``q``: what its parts offer to pictures.

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
    cells = [body.mesh_cells(q) if meshes else None for body in system.bodies.values()]
    solids = [(k, *mesh) for k, mesh in enumerate(cells) if mesh is not None]
    return ConfigurationGeometry(bodies, beams, solids)
