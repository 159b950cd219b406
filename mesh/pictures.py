"""Mode shapes of a component: a VTU file with one displacement field per mode and off-screen
pyvista pictures (docs/components.md).
"""
import os

import meshio
import numpy as np

from femdyn.component.stress import mesh_stress
from femdyn.errors import FemdynError


BAR = "displacement [m]\nper unit modal coordinate"   # the colour bar's quantity and unit


class RenderError(FemdynError, RuntimeError):
    """Off-screen rendering is not available on this machine."""


def component_cells(component):
    """The mesh points (n, 3) [m] and cell blocks (meshio type, corners) a component stores; FemdynError if none."""
    a = component.arrays
    if "mesh_points" not in a:
        raise FemdynError(f"component '{component.header.get('name')}' holds no mesh shapes; reduce again "
                          "without --no-mesh to picture its modes")
    cells = []
    if "mesh_tetra" in a:
        cells.append(("tetra", a["mesh_tetra"]))
    if "mesh_hexahedron" in a:
        cells.append(("hexahedron", a["mesh_hexahedron"]))
    return a["mesh_points"], cells


def write_mode_vtu(component, path):
    """Write a component's mesh with each mode as point data ``mode_01``, … (m per unit modal coordinate).

    With stress nodes, also ``von_mises_01``, … (Pa per unit modal coordinate, NaN off the stress nodes).

    Returns ``path``; FemdynError if the component holds no mesh shapes (reduced with ``--no-mesh``).

    Parameters
    ----------
    component : Component
        A reduced component with mesh shapes.
    path : str or path-like
        The .vtu file to write.
    """
    points, cells = component_cells(component)
    shapes = component.arrays["mesh_shapes"]
    data = {f"mode_{k + 1:02d}": np.ascontiguousarray(shapes[:, :, k]) for k in range(shapes.shape[2])}
    for k, unit in enumerate(np.eye(shapes.shape[2])):                     # stress modes: NaN off the stress nodes
        stress = mesh_stress(component, unit)
        if stress is not None:
            data[f"von_mises_{k + 1:02d}"] = stress[:, 9]
    meshio.write(path, meshio.Mesh(points, cells, point_data=data))
    return path


def render_modes(component, folder, modes=None, amplitude=0.1, size=(900, 500)):
    """Render each mode off-screen to ``folder/mode_01.png``, …; returns the PNG paths.

    The deformed mesh (drawn at ``amplitude``) is coloured by the displacement per unit modal
    coordinate, with a colour bar, over the undeformed outline. RenderError if
    pyvista cannot render off-screen (install Debian's libgl1 and libegl1).

    Parameters
    ----------
    component : Component
        A reduced component with mesh shapes.
    folder : str or path-like
        Output folder (created).
    modes : sequence of int, optional
        0-based mode indices (default the first 6).
    amplitude : float, optional
        Largest displacement drawn, as a fraction of the mesh's bounding-box diagonal.
    size : (int, int), optional
        Pixels.
    """
    import pyvista as pv
    from vtkmodules.vtkCommonCore import vtkLogger
    vtkLogger.SetStderrVerbosity(vtkLogger.VERBOSITY_ERROR)   # no X-server warnings off-screen; errors still
    pv.OFF_SCREEN = True
    points, cells = component_cells(component)
    shapes = component.arrays["mesh_shapes"]
    freqs = component.arrays["frequencies"]
    modes = range(min(6, shapes.shape[2])) if modes is None else modes
    grid = pv.from_meshio(meshio.Mesh(points, cells))
    diag = np.linalg.norm(np.ptp(points, axis=0))
    os.makedirs(folder, exist_ok=True)
    paths = []
    for k in modes:
        u = shapes[:, :, k]
        scale = amplitude * diag / max(np.abs(u).max(), np.finfo(float).tiny)
        warped = grid.copy()
        warped.points = points + scale * u
        warped[BAR] = np.linalg.norm(u, axis=1)
        path = os.path.join(folder, f"mode_{k + 1:02d}.png")
        try:
            plotter = pv.Plotter(off_screen=True, window_size=list(size))
            plotter.add_mesh(grid.extract_feature_edges(), color="grey", opacity=0.4)
            plotter.add_mesh(warped, scalars=BAR, cmap="viridis", show_scalar_bar=True,
                             scalar_bar_args={"title": BAR, "fmt": "%.2e", "vertical": True, "position_x": 0.78,
                                              "position_y": 0.1, "height": 0.68, "width": 0.05,
                                              "title_font_size": 14, "label_font_size": 12})
            plotter.add_text(f"mode {k + 1}: {freqs[k]:.4g} Hz", font_size=12)
            plotter.view_isometric()
            plotter.screenshot(path)
            plotter.close()
        except Exception as err:  # VTK reports a missing OpenGL in several ways
            raise RenderError(f"cannot render off-screen ({err}); install Debian's libgl1 and libegl1 "
                              "(bash .ci/setup does)") from None
        paths.append(path)
    return paths
