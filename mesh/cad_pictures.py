"""A picture of a CAD part's faces, each in its own colour with its number (off-screen pyvista)."""
import os

import numpy as np

from femdyn.mesh.cad import opened, part_faces
from femdyn.mesh.pictures import RenderError


def face_triangles(path, unit=None, solid=None, fuse=False, divisions=40):
    """The part's faces and a coarse surface triangulation: (faces, points (n, 3) m, triangles (t, 3), face of each).

    ``divisions``: triangles' edge length is the bounding-box diagonal / ``divisions``; other parameters as
    :func:`femdyn.mesh.cad.cad_faces`.
    """
    import gmsh
    with opened(path, unit, solid, fuse) as (_, scale):
        faces = part_faces(scale)
        box = np.array(gmsh.model.getBoundingBox(-1, -1))
        gmsh.option.setNumber("Mesh.MeshSizeMax", np.linalg.norm(box[3:] - box[:3]) / divisions)
        gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 24)
        gmsh.model.mesh.generate(2)
        tags, xyz, _ = gmsh.model.mesh.getNodes()
        index = np.zeros(int(tags.max()) + 1, np.int64)
        index[tags] = np.arange(len(tags))
        triangles, owner = [], []
        for f in faces:
            _, _, conn = gmsh.model.mesh.getElements(2, f.number)
            t = index[np.asarray(conn[0], np.int64)].reshape(-1, 3) if len(conn) else np.zeros((0, 3), np.int64)
            triangles.append(t[:, :3])
            owner.append(np.full(len(t), f.number))
    return faces, xyz.reshape(-1, 3) * scale, np.vstack(triangles), np.concatenate(owner)


def render_faces(path, png, unit=None, solid=None, fuse=False, size=(1000, 700)):
    """Draw a CAD part's faces off-screen, coloured by face, each labelled with its number; returns ``png``.

    Parameters
    ----------
    path : str or path-like
        The CAD file (STEP, IGES, BREP).
    png : str or path-like
        The picture to write (its folder is created).
    unit, solid, fuse : optional
        As :func:`femdyn.mesh.cad.cad_faces`.
    size : (int, int), optional
        Pixels.

    Raises
    ------
    RenderError
        pyvista cannot render off-screen (install Debian's libgl1 and libegl1).
    MeshError
        The file cannot be read (:func:`femdyn.mesh.cad.cad_faces`).

    Examples
    --------
    >>> render_faces("link.step", "link-faces/faces.png")            # doctest: +SKIP
    'link-faces/faces.png'
    """
    import pyvista as pv
    from vtkmodules.vtkCommonCore import vtkLogger
    vtkLogger.SetStderrVerbosity(vtkLogger.VERBOSITY_ERROR)
    faces, points, triangles, owner = face_triangles(path, unit, solid, fuse)
    surface = pv.PolyData(points, np.hstack([np.full((len(triangles), 1), 3), triangles]).ravel())
    surface.cell_data["face"] = owner
    os.makedirs(os.path.dirname(os.path.abspath(png)), exist_ok=True)
    try:
        plotter = pv.Plotter(off_screen=True, window_size=list(size))
        plotter.add_mesh(surface, scalars="face", cmap="tab20", show_scalar_bar=False, show_edges=False)
        plotter.add_point_labels(np.array([f.centre for f in faces]), [str(f.number) for f in faces],
                                 font_size=18, point_size=6, always_visible=True, shape_opacity=0.6)
        plotter.add_text(f"{os.path.basename(str(path))}: {len(faces)} faces (numbers: face:N, bore:N)", font_size=11)
        plotter.view_isometric()
        plotter.screenshot(str(png))
        plotter.close()
    except Exception as err:  # VTK reports a missing OpenGL in several ways
        raise RenderError(f"cannot render off-screen ({err}); install Debian's libgl1 and libegl1 "
                          "(bash .ci/setup does)") from None
    return png
